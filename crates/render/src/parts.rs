//! The pieces of a report, resolved from candidate IDs through the registry. A piece whose
//! candidate is unknown (or whose quote does not verify) is left out: the report only
//! states what was observed.

use sightline_base::LineRange;
use sightline_base::{Action, Candidate, Confidence, Registry};
use sightline_validate::{DroppedRead, Rule, Validated, quote};

use crate::json::{JsonPlace, JsonRead, ReportJson};

/// A cited place: a registry path and range.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Place {
    pub path: String,
    pub range: Option<LineRange>,
}

impl Place {
    fn of(c: &Candidate) -> Place {
        Place {
            path: sightline_base::escape::inline(&c.path),
            range: c.range,
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct FlowItem {
    pub place: Place,
    pub role: String,
    pub fact: String,
    /// The verified quote's lines, as matched (whitespace-normalized), then its verified
    /// evidence lines; in line order when every line's number is known.
    pub quote: Vec<QuoteLine>,
}

/// One quoted line of a place, with its number in the file when it can be placed.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct QuoteLine {
    pub line: Option<u32>,
    pub text: String,
    /// An evidence line beside the quote: the budget leaves these out first.
    pub evidence: bool,
}

/// A flow link's quote lines, numbered where they can be placed, and its evidence lines
/// that verify (render states only what checks out, whatever validation kept).
fn quote_lines(link: &sightline_base::FlowLink, c: &Candidate) -> Option<Vec<QuoteLine>> {
    let lines = quote::verify(&link.quote, c).ok()?;
    let start = quote::locate(&lines, c);
    let mut out: Vec<QuoteLine> = lines
        .into_iter()
        .enumerate()
        .map(|(k, text)| QuoteLine {
            line: start.map(|s| s + k as u32),
            text,
            evidence: false,
        })
        .collect();
    for e in &link.evidence {
        if let Ok(text) = quote::verify_line(e, c)
            && !out.iter().any(|q| q.line == Some(e.line))
        {
            out.push(QuoteLine {
                line: Some(e.line),
                text,
                evidence: true,
            });
        }
    }
    if out.iter().all(|q| q.line.is_some()) {
        out.sort_by_key(|q| q.line);
    }
    Some(out)
}

impl FlowItem {
    /// How many verified quotes the item shows: its quote and each evidence line.
    pub fn quotes(&self) -> usize {
        usize::from(self.quote.iter().any(|q| !q.evidence))
            + self.quote.iter().filter(|q| q.evidence).count()
    }
}

#[derive(Clone, Debug)]
pub(crate) struct PrimaryItem {
    pub place: Place,
    pub label: String,
}

#[derive(Clone, Debug)]
pub(crate) struct ReadItem {
    /// `None` for a dropped target whose candidate is unknown.
    pub place: Option<Place>,
    pub purpose: String,
    pub required: bool,
    /// Why validation removed this submitted target; it is marked where it was.
    pub dropped: Option<String>,
}

#[derive(Clone, Debug)]
pub(crate) struct SearchItem {
    pub term: String,
    pub scope: Option<String>,
}

/// Everything the report may show; the budget removes from these lists.
#[derive(Clone, Debug)]
pub(crate) struct Parts {
    pub action: Action,
    pub confidence: Confidence,
    pub flow: Vec<FlowItem>,
    /// Primary candidates in submitted order, each place once.
    pub primary: Vec<PrimaryItem>,
    /// What validation checked and removed, in one line (`None`: nothing to say).
    pub checked: Option<String>,
    pub missing: Vec<String>,
    pub read: Vec<ReadItem>,
    pub search: Vec<SearchItem>,
    /// The runners-up's paths, best first: files no place of the report cites.
    pub also: Vec<String>,
    pub json: ReportJson,
}

/// Free text from the model on one line: the layout is line-based, so a newline inside a
/// fact must not start what looks like a new item.
pub(crate) fn one_line(s: &str) -> String {
    sightline_base::escape::inline(&quote::normalize(s))
}

impl Parts {
    pub fn collect(validated: &Validated, registry: &Registry) -> Parts {
        let sel = &validated.selection;
        let flow: Vec<FlowItem> = sel
            .flow
            .iter()
            .filter_map(|l| {
                let c = registry.get(l.candidate)?;
                let quote = quote_lines(l, c)?;
                Some(FlowItem {
                    place: Place::of(c),
                    role: one_line(&l.role),
                    fact: one_line(&l.fact),
                    quote,
                })
            })
            .collect();
        let mut primary: Vec<PrimaryItem> = Vec::new();
        for c in sel.primary.iter().filter_map(|&id| registry.get(id)) {
            if primary.iter().any(|p| p.place == Place::of(c)) {
                continue;
            }
            // A symbol name says more than the path already does; a bare file has no label.
            primary.push(PrimaryItem {
                place: Place::of(c),
                label: c
                    .symbols
                    .first()
                    .map(|s| one_line(&s.qualified))
                    .unwrap_or_default(),
            });
        }
        let checked = checked_line(validated, flow.iter().map(FlowItem::quotes).sum());
        let kept = sel.read_targets.iter().filter_map(|t| {
            let c = registry.get(t.candidate)?;
            c.range?;
            Some(ReadItem {
                place: Some(Place::of(c)),
                purpose: one_line(&t.purpose),
                required: t.required,
                dropped: None,
            })
        });
        let read = in_submitted_order(kept, &validated.dropped_reads, registry);
        let search = sel
            .search_targets
            .iter()
            .map(|s| SearchItem {
                term: one_line(&s.term),
                scope: s.scope.as_deref().map(one_line),
            })
            .filter(|s| !s.term.is_empty())
            .collect();
        let cited: Vec<&Place> = primary
            .iter()
            .map(|p| &p.place)
            .chain(flow.iter().map(|f| &f.place))
            .chain(read.iter().filter_map(|r| r.place.as_ref()))
            .collect();
        let also = runner_up_paths(validated, registry)
            .into_iter()
            .map(sightline_base::escape::inline)
            .filter(|path| !cited.iter().any(|p| &p.path == path))
            .collect();
        Parts {
            action: sel.action,
            confidence: sel.confidence,
            flow,
            primary,
            also,
            checked,
            missing: sel
                .missing
                .iter()
                .map(|m| one_line(m))
                .filter(|m| !m.is_empty())
                .collect(),
            read,
            search,
            json: json_of(validated, registry),
        }
    }
}

/// How a removal reads in the report's `checked:` line; `None` for changes that remove
/// nothing (an action, a confidence, a narrowing).
fn short_reason(rule: Rule) -> Option<&'static str> {
    Some(match rule {
        Rule::UnknownId => "never shown",
        Rule::ForeignScope => "scope is no path",
        Rule::StaleFile => "file changed",
        Rule::QuoteUnverified => "quote not in what tools showed",
        Rule::NoRange => "no range",
        Rule::RangeTooWide => "range too wide",
        Rule::TooLong => "too long",
        Rule::Blank => "blank",
        Rule::Duplicate => "repeated",
        Rule::OverCount => "over the limit",
        Rule::SearchWithoutGapAction => "search without targeted_gap_search",
        Rule::Action | Rule::Confidence | Rule::Fallback | Rule::Narrowed => return None,
    })
}

/// Most removals the `checked:` line names; the rest are counted.
const NAMED_DROPS: usize = 4;

/// `checked: 2 of 3 quotes verified; dropped: primary c99 (never shown), …`: what the
/// reader of a report cannot see otherwise (how much of the submission held up).
fn checked_line(validated: &Validated, verified: usize) -> Option<String> {
    if validated.fell_back {
        return Some(
            "checked: nothing submitted survived validation; this is the deterministic \
             selection"
                .to_owned(),
        );
    }
    // A dropped read target is marked where it was submitted, with its reason.
    let removed: Vec<String> = validated
        .drops
        .iter()
        .filter(|d| !d.what.starts_with("read target "))
        .filter_map(|d| Some(format!("{} ({})", one_line(&d.what), short_reason(d.rule)?)))
        .collect();
    let failed_quotes = validated
        .drops
        .iter()
        .filter(|d| d.what.starts_with("flow link ") && d.rule.is_removal())
        .count();
    let submitted = verified + failed_quotes;
    if submitted == 0 && removed.is_empty() {
        return None;
    }
    let mut line = format!("checked: {verified} of {submitted} quotes verified");
    if !removed.is_empty() {
        let named: Vec<&str> = removed
            .iter()
            .take(NAMED_DROPS)
            .map(String::as_str)
            .collect();
        line.push_str("; dropped: ");
        line.push_str(&named.join(", "));
        if removed.len() > NAMED_DROPS {
            line.push_str(&format!(" and {} more", removed.len() - NAMED_DROPS));
        }
    }
    Some(line)
}

/// The surviving read targets with the dropped ones put back, as markers, at their
/// submitted positions.
fn in_submitted_order(
    kept: impl Iterator<Item = ReadItem>,
    dropped: &[DroppedRead],
    registry: &Registry,
) -> Vec<ReadItem> {
    let mut kept = kept.peekable();
    let mut out = Vec::new();
    let mut dropped = dropped.iter().peekable();
    while kept.peek().is_some() || dropped.peek().is_some() {
        match dropped.next_if(|d| d.position <= out.len() || kept.peek().is_none()) {
            Some(d) => out.push(ReadItem {
                place: registry.get(d.candidate).map(Place::of),
                purpose: String::new(),
                required: false,
                dropped: Some(one_line(&d.reason)),
            }),
            None => out.extend(kept.next()),
        }
    }
    out
}

/// The validated runners-up's files, in order: the registry's paths, as both forms of the
/// report name them. Validation (`validate::runners`) already dropped a runner-up in a
/// primary place's file or in an earlier one's, so each file comes once.
fn runner_up_paths<'a>(validated: &Validated, registry: &'a Registry) -> Vec<&'a str> {
    validated
        .selection
        .runners_up
        .iter()
        .filter_map(|&id| registry.get(id))
        .map(|c| c.path.as_str())
        .collect()
}

pub(crate) fn json_of(validated: &Validated, registry: &Registry) -> ReportJson {
    let sel = &validated.selection;
    let primary = sel
        .primary
        .iter()
        .filter_map(|&id| registry.get(id))
        .map(|c| JsonPlace::of(&c.path, c.range))
        .collect();
    let read = sel
        .read_targets
        .iter()
        .filter_map(|t| {
            let c = registry.get(t.candidate)?;
            let r = c.range?;
            Some(JsonRead {
                path: c.path.clone(),
                start: r.start,
                end: r.end,
                required: t.required,
            })
        })
        .collect();
    ReportJson {
        action: sel.action,
        confidence: sel.confidence,
        primary,
        read,
        also: runner_up_paths(validated, registry)
            .into_iter()
            .map(str::to_owned)
            .collect(),
    }
}
