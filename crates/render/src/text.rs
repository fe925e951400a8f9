//! The report text. Layout (the last part is a fenced `json` block):
//!
//! ```text
//! confidence: medium | action: read_targets
//! primary:
//! 1. src/a.ts:18-44 (entry) - fact          the primary places, in the submitted order;
//! > 18 quote line                            a place in the flow shows its links, each
//! > 31 evidence line                         quoted line with its number
//! 2. src/c.ts:1-5 - label · read (required): purpose
//! flow: 3 → 1                                the flow's order, when it says more than 1, 2, …
//! 3. src/b.ts:60-70 (handler) - fact         flow places that are not primary
//! > 60 quote line
//! also: src/e.ts, lib/f.ts                   the ranking's next files (runners-up)
//! missing: x; y
//! read:
//! 4. src/d.ts:3-9 - purpose (required)
//! search: `term` in `scope`
//! checked: 2 of 3 quotes verified; dropped: flow link c9 (quote not in what tools showed)
//! {"action":…,"confidence":…,"primary":[{…,"read":true,"required":true}],"read":[…]}
//! ```
//!
//! Every place has one number, and every item writes its path in full: a bracketed
//! back-reference (`[2]:3-9`) would read like a candidate ID and make the reader look up
//! another line. The primary places come first in the order the selection gave them, so
//! the order a model (or the ranker) chose is the order the reader sees. A read target at
//! a place the report already cites is marked on that item (`· read`) instead of citing
//! the path a second time: each path appears once outside the JSON (a runner-up is a
//! file no item cites, by path alone: no range, no quote), and the JSON block
//! flags a read target on its primary place ([`crate::BlockJson`]) instead of repeating
//! the place.

use std::fmt::Write as _;

use sightline_base::Action;

use crate::parts::{Parts, Place, QuoteLine, ReadItem};

/// The outcome line for `skip_explore_result`.
const SKIP_LINE: &str = "nothing relevant found; proceed without it";

/// Numbers items across sections.
struct Places {
    next_item: usize,
}

impl Places {
    /// The location text for the next item, and advances the item number.
    fn cite(&mut self, place: &Place) -> (usize, String) {
        let n = self.next_item;
        self.next_item += 1;
        let path = &place.path;
        let loc = match place.range {
            Some(r) if r.start == r.end => format!("{path}:{}", r.start),
            Some(r) => format!("{path}:{}-{}", r.start, r.end),
            None => path.clone(),
        };
        (n, loc)
    }

    /// The next item number for a place that is not in the registry (a dropped target
    /// naming an unknown candidate): no path can be written for it.
    fn cite_unknown(&mut self) -> (usize, String) {
        let n = self.next_item;
        self.next_item += 1;
        (n, "an unknown candidate".to_owned())
    }
}

/// The level and what to do next. The query and the intent are not echoed: the caller wrote
/// them, and every report would pay for them again (8% of a typical one).
fn header(parts: &Parts) -> String {
    format!(
        "confidence: {} | action: {}",
        confidence_str(parts.confidence),
        parts.action.as_str()
    )
}

pub(crate) fn confidence_str(c: sightline_base::Confidence) -> &'static str {
    match c {
        sightline_base::Confidence::High => "high",
        sightline_base::Confidence::Medium => "medium",
        sightline_base::Confidence::Low => "low",
    }
}

/// ` (role) - text`, leaving out what is blank.
fn tail(role: Option<&str>, text: &str) -> String {
    let mut out = String::new();
    if let Some(r) = role.filter(|r| !r.is_empty()) {
        let _ = write!(out, " ({r})");
    }
    if !text.is_empty() {
        let _ = write!(out, " - {text}");
    }
    out
}

/// The order of the flow by place numbers (`1 → 3 → 2`), or `None` when it adds nothing
/// (the flow visits the first primary places once each, in their order) or is empty.
fn flow_order(parts: &Parts, places: &[&Place]) -> Option<String> {
    let numbers: Vec<usize> = parts
        .flow
        .iter()
        .filter_map(|f| places.iter().position(|p| *p == &f.place).map(|i| i + 1))
        .collect();
    let implied = numbers.len() <= parts.primary.len()
        && numbers.iter().enumerate().all(|(i, &n)| n == i + 1);
    if numbers.is_empty() || implied {
        return None;
    }
    let shown: Vec<String> = numbers.iter().map(ToString::to_string).collect();
    Some(shown.join(" → "))
}

/// A place's quoted lines, each `> 57 text` with its line number (right-aligned to the
/// widest) where it is known, so a reader can cite it or read around it without counting;
/// the indentation common to the lines is dropped (quotes verify with whitespace collapsed,
/// so a line copied from here still checks out). A gap in the numbers is all that marks
/// the lines left out between two.
fn write_quote(out: &mut String, lines: &[QuoteLine]) {
    let width = lines
        .iter()
        .filter_map(|q| q.line)
        .map(|n| n.to_string().len())
        .max()
        .unwrap_or(0);
    let indent = |t: &str| t.chars().take_while(|c| c.is_whitespace()).count();
    let common = lines.iter().map(|q| indent(&q.text)).min().unwrap_or(0);
    for q in lines {
        let text: String = q.text.chars().skip(common).collect();
        let _ = match q.line {
            Some(n) => writeln!(out, "> {n:>width$} {text}"),
            None => writeln!(out, "> {text}"),
        };
    }
}

/// The whole report text for `parts`, and where its machine block starts in it.
pub(crate) fn write(parts: &Parts) -> (String, usize) {
    let mut out = header(parts);
    out.push('\n');
    if parts.action == Action::SkipExploreResult {
        out.push_str(SKIP_LINE);
        out.push('\n');
    }
    let mut places = Places { next_item: 1 };
    // One number per place: the primary places in their order, then the flow's others.
    let mut cited: Vec<&Place> = parts.primary.iter().map(|p| &p.place).collect();
    for f in &parts.flow {
        if !cited.contains(&&f.place) {
            cited.push(&f.place);
        }
    }
    // Kept read targets at a cited place, by place: written on that item.
    let (on_items, listed): (Vec<&ReadItem>, Vec<&ReadItem>) = parts
        .read
        .iter()
        .partition(|r| r.dropped.is_none() && r.place.as_ref().is_some_and(|p| cited.contains(&p)));
    let read_mark = |place: &Place| -> String {
        let here: Vec<&&ReadItem> = on_items
            .iter()
            .filter(|r| r.place.as_ref() == Some(place))
            .collect();
        if here.is_empty() {
            return String::new();
        }
        let required = if here.iter().any(|r| r.required) {
            " (required)"
        } else {
            ""
        };
        let purposes: Vec<&str> = here
            .iter()
            .map(|r| r.purpose.as_str())
            .filter(|p| !p.is_empty())
            .collect();
        if purposes.is_empty() {
            format!(" · read{required}")
        } else {
            format!(" · read{required}: {}", purposes.join("; "))
        }
    };
    let order = flow_order(parts, &cited);
    if !parts.primary.is_empty() {
        out.push_str("primary:\n");
    }
    for (i, place) in cited.iter().enumerate() {
        if i == parts.primary.len() {
            // The places past the primary ones are the flow's: its order heads them.
            let _ = writeln!(out, "flow: {}", order.as_deref().unwrap_or_default());
        }
        let (n, loc) = places.cite(place);
        let mark = read_mark(place);
        let links: Vec<&crate::parts::FlowItem> =
            parts.flow.iter().filter(|f| f.place == **place).collect();
        match links.split_first() {
            Some((first, rest)) => {
                let _ = writeln!(
                    out,
                    "{n}. {loc}{}{mark}",
                    tail(Some(&first.role), &first.fact)
                );
                write_quote(&mut out, &first.quote);
                for link in rest {
                    let _ = writeln!(out, "  {}", tail(Some(&link.role), &link.fact).trim_start());
                    write_quote(&mut out, &link.quote);
                }
            }
            None => {
                let label = parts
                    .primary
                    .iter()
                    .find(|p| p.place == **place)
                    .map_or("", |p| p.label.as_str());
                let _ = writeln!(out, "{n}. {loc}{}{mark}", tail(None, label));
            }
        }
    }
    if cited.len() == parts.primary.len()
        && let Some(order) = order
    {
        let _ = writeln!(out, "flow: {order}");
    }
    if !parts.also.is_empty() {
        let _ = writeln!(out, "also: {}", parts.also.join(", "));
    }
    if !parts.missing.is_empty() {
        let _ = writeln!(out, "missing: {}", parts.missing.join("; "));
    }
    if !listed.is_empty() {
        out.push_str("read:\n");
    }
    for r in listed {
        let (n, loc) = match &r.place {
            Some(place) => places.cite(place),
            None => places.cite_unknown(),
        };
        if let Some(reason) = &r.dropped {
            let _ = writeln!(out, "{n}. (dropped) {loc} - {reason}");
            continue;
        }
        let required = if r.required { " (required)" } else { "" };
        let _ = writeln!(out, "{n}. {loc}{}{required}", tail(None, &r.purpose));
    }
    for s in &parts.search {
        match &s.scope {
            Some(scope) if !scope.is_empty() => {
                let _ = writeln!(out, "search: `{}` in `{scope}`", s.term);
            }
            _ => {
                let _ = writeln!(out, "search: `{}`", s.term);
            }
        }
    }
    if let Some(checked) = &parts.checked {
        out.push_str(checked);
        out.push('\n');
    }
    // Serializing plain strings, numbers and enums cannot fail; an empty object would still
    // be valid JSON if it ever did.
    let json = serde_json::to_string(&crate::json::BlockJson::from(&parts.json))
        .unwrap_or_else(|_| "{}".to_owned());
    let json = sightline_base::escape::json_in_fence(&json);
    let prose_len = out.len();
    let _ = write!(out, "```json\n{json}\n```\n");
    (out, prose_len)
}
