//! The deterministic selection used when no value model runs: the packet's best ranged
//! candidates (one when the calibrated level is `low`), flow links quoting their
//! signature lines and the lines holding their evidence ([`crate::evidence`]) from
//! observed text, read targets for edit/debug, and the ranking's next files as runners-up
//! (paths the report names on one line, so a wrong first place does not send the reader
//! back to a search). It judges nothing a structure cannot tell: roles are the
//! declaration kinds, and confidence is the level the fitted score gives the ranking's
//! margin and the kinds of evidence the best file leads on.

use sightline_observe::query::QueryTerms;
use sightline_registry::selection::MAX_NAMED_FILES;
use sightline_registry::{
    Action, Candidate, Confidence, FlowLink, Intent, ReadTarget, Registry, Selection,
};

use crate::confidence::{ConfidenceInputs, ConfidenceModel, lead_kinds, margin};
use crate::evidence::evidence_lines;
use crate::model::Features;
use crate::packet::Packet;

/// Most primary candidates the fallback picks (when their scores support that many).
const FALLBACK_PRIMARY: usize = 5;
/// A candidate joins the primary set only when it scores at least this share of the best:
/// weak also-rans cost the reader more than they save.
const PRIMARY_SHARE: f64 = 0.4;
/// Past the first [`CORE_PRIMARY`] places, a candidate needs this share: on the evaluation
/// tasks (`cargo xtask eval`, report hit and characters) a fourth and fifth place at 0.4
/// added ~100 characters per report for half a point of hit rate.
const EXTRA_PRIMARY_SHARE: f64 = 0.6;
const CORE_PRIMARY: usize = 3;
/// Most evidence lines a place quotes beside its signature: enough to show why it was
/// chosen, not to replace a read.
const EVIDENCE_LINES: usize = 2;
/// Most evidence lines the first place quotes when its margin is decisive (what the
/// calibration calls `high`): the report should then answer without a read.
const DECISIVE_EVIDENCE_LINES: usize = sightline_registry::selection::MAX_EVIDENCE_LINES;

/// The deterministic selection for `packet`: see the module's documentation.
/// `not_indexed` says what the index cannot see (files no registered language reads,
/// [`sightline_observe::NotIndexed::note`]): a query word found nowhere is then only
/// absent from the indexed code, and a selection that found nothing says what was not
/// read.
pub fn fallback_selection(
    packet: &Packet,
    registry: &Registry,
    intent: Intent,
    terms: &QueryTerms,
    not_indexed: Option<&str>,
    model: &ConfidenceModel,
) -> Selection {
    let level = packet_level(packet, registry, terms, model);
    // A ranking the calibration calls `low` (right first under half the time) quotes one
    // place and names the next files: an agent searches again after such a report, and
    // what it reuses is which files to look in, not a second and third window.
    let most_primary = match level {
        Confidence::Low => 1,
        _ => FALLBACK_PRIMARY,
    };
    let mut primary = Vec::new();
    let mut files: Vec<&str> = Vec::new();
    let best = packet.entries.first().map_or(0.0, |e| e.score.total);
    for e in packet
        .entries
        .iter()
        .take_while(|e| e.score.total >= PRIMARY_SHARE * best)
    {
        let Some(c) = registry.get(e.id) else {
            continue;
        };
        if c.range.is_none() || files.contains(&c.path.as_str()) {
            continue;
        }
        if primary.len() >= CORE_PRIMARY && e.score.total < EXTRA_PRIMARY_SHARE * best {
            break;
        }
        files.push(&c.path);
        primary.push(c);
        if primary.len() == most_primary {
            break;
        }
    }
    let decisive = level == Confidence::High;
    // A decisive ranking needs no runners-up, and a selection with no place has nothing
    // they would run up to.
    let runners_up = if decisive || primary.is_empty() {
        Vec::new()
    } else {
        runners_up(packet, registry, &files)
    };
    let flow: Vec<FlowLink> = primary
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let cap = match (i, decisive) {
                (0, true) => DECISIVE_EVIDENCE_LINES,
                _ => EVIDENCE_LINES,
            };
            flow_link(c, terms, cap)
        })
        .collect();
    let read_targets: Vec<ReadTarget> = if intent.needs_ranges() {
        primary
            .iter()
            .enumerate()
            .map(|(i, c)| ReadTarget {
                candidate: c.id,
                // The cited item it marks says what it is; "required" says which comes
                // first. A formulaic purpose would add nothing.
                purpose: String::new(),
                required: i == 0,
            })
            .collect()
    } else {
        Vec::new()
    };
    let confidence = selection_confidence(packet, registry, terms, !flow.is_empty(), model);
    let action = if primary.is_empty() {
        Action::SkipExploreResult
    } else if intent.needs_ranges() || confidence == Confidence::Low {
        Action::ReadTargets
    } else {
        Action::AnswerFromReport
    };
    // Locate/explain with low confidence still need something to read.
    let read_targets = if action == Action::ReadTargets && read_targets.is_empty() {
        primary
            .iter()
            .map(|c| ReadTarget {
                candidate: c.id,
                purpose: String::new(),
                required: false,
            })
            .collect()
    } else {
        read_targets
    };
    let mut missing: Vec<String> = terms
        .unknown
        .iter()
        .take(3)
        .map(|w| match not_indexed {
            Some(_) => format!("no indexed code mentions `{w}`"),
            None => format!("no code in the repository mentions `{w}`"),
        })
        .collect();
    // What was not read comes first: it is why the rest may be missing.
    if let Some(note) = not_indexed.filter(|_| primary.is_empty()) {
        missing.insert(0, note.to_owned());
    }
    Selection {
        primary: primary.iter().map(|c| c.id).collect(),
        flow,
        read_targets,
        missing,
        action,
        search_targets: Vec::new(),
        confidence,
        runners_up,
    }
}

/// The packet's next files after the primary places' (`taken`), best first, one candidate
/// each (the file's best entry), until the report names [`MAX_NAMED_FILES`] files. A file
/// the ranking placed just under the primary share costs the reader one path and spares it
/// a search when the first places are wrong. No least share: on the eval (`cargo xtask
/// eval`, runner-up scores as shares of the best) the runners-up that held a changed file
/// were spread from 0.09 to 0.58 of the best, like the others, so any cut-off lost hits in
/// proportion to the characters it saved.
fn runners_up(
    packet: &Packet,
    registry: &Registry,
    taken: &[&str],
) -> Vec<sightline_registry::CandidateId> {
    let room = MAX_NAMED_FILES.saturating_sub(taken.len());
    let mut named: Vec<&str> = Vec::new();
    let mut out = Vec::new();
    for e in &packet.entries {
        if out.len() == room {
            break;
        }
        let Some(c) = registry.get(e.id) else {
            continue;
        };
        let path = c.path.as_str();
        if taken.contains(&path) || named.contains(&path) {
            continue;
        }
        named.push(path);
        out.push(c.id);
    }
    out
}

/// The confidence the packet earns: the level [`ConfidenceModel`] gives its
/// [`ConfidenceInputs`] ([`packet_inputs`]), and low when no place has a quote to back it.
pub fn selection_confidence(
    packet: &Packet,
    registry: &Registry,
    terms: &QueryTerms,
    quoted: bool,
    model: &ConfidenceModel,
) -> Confidence {
    if quoted {
        packet_level(packet, registry, terms, model)
    } else {
        Confidence::Low
    }
}

/// The level `model` gives the packet, before what the report can back: low when the
/// packet ranks no file.
fn packet_level(
    packet: &Packet,
    registry: &Registry,
    terms: &QueryTerms,
    model: &ConfidenceModel,
) -> Confidence {
    packet_inputs(packet, registry, terms).map_or(Confidence::Low, |i| model.level(&i))
}

/// What the confidence score reads of a packet: the [`margin`] of its best file over the
/// next, and the kinds of evidence that file leads on ([`lead_kinds`], over every
/// candidate of the registry). `None` when the packet ranks no file.
pub fn packet_inputs(
    packet: &Packet,
    registry: &Registry,
    terms: &QueryTerms,
) -> Option<ConfidenceInputs> {
    let scores = packet.file_scores(registry);
    let &(best, first) = scores.first()?;
    let leads = lead_kinds(
        registry
            .iter()
            .map(|c| (c.path.as_str(), Features::of(c, terms))),
        best,
    );
    Some(ConfidenceInputs {
        margin: margin(Some(first), scores.get(1).map(|s| s.1)),
        leads,
    })
}

/// A flow link quoting the candidate's first symbol's signature line, verbatim from what a
/// tool showed, and up to `cap` more of its observed lines that show why it was chosen
/// ([`evidence_lines`]). When the signature line was not shown (a window cut to its
/// evidence), the strongest evidence line is the quote.
fn flow_link(c: &Candidate, terms: &QueryTerms, cap: usize) -> Option<FlowLink> {
    let why = c
        .provenance
        .first()
        .map(|p| p.reason.as_str())
        .unwrap_or("observed");
    let sym = c.symbols.first();
    let signature = sym
        .and_then(|sym| c.observed_line(sym.line))
        .map(str::trim)
        .filter(|line| !line.is_empty())
        .map(str::to_owned);
    let (quote, evidence) = match (signature, sym) {
        (Some(quote), Some(sym)) => (quote, evidence_lines(c, terms, sym.line, cap)),
        // Lines outside any declaration, or a signature no tool showed: only their evidence
        // can back them.
        _ => {
            let mut lines = evidence_lines(c, terms, 0, cap + 1);
            if lines.is_empty() {
                return None;
            }
            let first = lines.remove(0);
            (first.text.trim().to_owned(), lines)
        }
    };
    Some(FlowLink {
        candidate: c.id,
        role: sym.map(|s| s.kind.clone()).unwrap_or_default(),
        // The kind is the link's role, printed beside it; the fact does not repeat it.
        fact: match sym {
            Some(sym) => format!("{}: {}", sym.qualified, why),
            None => why.to_owned(),
        },
        quote,
        evidence,
    })
}
