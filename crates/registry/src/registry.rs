//! Recording observations: each tool's result becomes the sightings the registry merges
//! (the merge rules are documented on [`Registry`]).

use sightline_observe::LineRange;
use sightline_observe::tools::explore_code::WindowSymbol;

pub use sightline_base::registry::{Location, NoOutline, Outline, Registry, Sighting};

use crate::candidate::{CandidateSymbol, ObservedText};
use crate::id::CandidateId;
use crate::observation::{Observation, ToolName};

/// How many files past explore_code's file cap are listed (and get IDs): the rest are
/// only counted, since an ID the text does not show cannot be selected.
pub use sightline_observe::tools::explore_code::MORE_FILES_SHOWN as UNREAD_FILES_SHOWN;

/// Recording a typed observation into a [`Registry`]: the registry type lives in the
/// base crate, which knows no tool result types.
pub trait RecordObservation {
    /// Records one observation of tool call number `call`; returns the IDs it touched in
    /// the order the observation lists them (new or existing, without repeats).
    fn record(
        &mut self,
        call: u32,
        observation: &Observation,
        outline: &dyn Outline,
    ) -> Vec<CandidateId>;
}

impl RecordObservation for Registry {
    fn record(
        &mut self,
        call: u32,
        observation: &Observation,
        outline: &dyn Outline,
    ) -> Vec<CandidateId> {
        let (tool, sightings) = sightings(observation, outline);
        self.record_sightings(call, tool, sightings)
    }
}

fn symbol(s: &WindowSymbol) -> CandidateSymbol {
    CandidateSymbol {
        name: s.name.clone(),
        qualified: s.qualified.clone(),
        kind: s.kind.clone(),
        line: s.line,
    }
}

fn sightings(observation: &Observation, outline: &dyn Outline) -> (ToolName, Vec<Sighting>) {
    match observation {
        Observation::ExploreCode(r) => {
            let mut out = Vec::new();
            for f in &r.files {
                for w in &f.windows {
                    // A signature line or a cut window stands for its place: the place is
                    // the candidate, the lines shown its observed text.
                    out.push(Sighting {
                        path: f.path.clone(),
                        location: Location::Lines(w.place()),
                        range: Some(w.place()),
                        symbols: w.symbols.iter().map(symbol).collect(),
                        reason: w.reason.clone(),
                        score: Some(w.score.max(f.score)),
                        search: Some(f.components),
                        matched_terms: f.matched_terms.clone(),
                        text: Some(ObservedText {
                            lines: w.lines,
                            text: w.text.clone(),
                        }),
                    });
                }
            }
            for m in r.more_files.iter().take(UNREAD_FILES_SHOWN) {
                out.push(Sighting {
                    path: m.path.clone(),
                    location: Location::of(m.best_range),
                    range: m.best_range,
                    symbols: m.best_symbol.iter().map(symbol).collect(),
                    reason: "ranked past the file cap".to_owned(),
                    score: Some(m.score),
                    search: Some(m.components),
                    matched_terms: Vec::new(),
                    text: None,
                });
            }
            (ToolName::ExploreCode, out)
        }
        Observation::Grep(r) => {
            let out = r
                .matches
                .iter()
                .map(|m| {
                    let (range, symbols) = match outline.declaration_at(&m.path, m.line) {
                        Some((range, sym)) => (range, vec![sym]),
                        None => (LineRange::new(m.line, m.line), Vec::new()),
                    };
                    let mut text = String::new();
                    let first = m.context_before.first().map_or(m.line, |l| l.line);
                    for l in &m.context_before {
                        text.push_str(&l.text);
                        text.push('\n');
                    }
                    text.push_str(&m.text);
                    text.push('\n');
                    let mut last = m.line;
                    for l in &m.context_after {
                        text.push_str(&l.text);
                        text.push('\n');
                        last = l.line;
                    }
                    Sighting {
                        path: m.path.clone(),
                        location: Location::Hit(m.line),
                        range: Some(range),
                        symbols,
                        reason: format!("grep match at line {}", m.line),
                        score: None,
                        search: None,
                        matched_terms: Vec::new(),
                        // A cut line is not verbatim evidence.
                        text: (!m.truncated).then(|| ObservedText {
                            lines: LineRange::new(first, last),
                            text,
                        }),
                    }
                })
                .collect();
            (ToolName::Grep, out)
        }
        Observation::ReadFile(r) => {
            let mut out = Vec::new();
            if r.end_line >= r.start_line {
                let range = LineRange::new(r.start_line, r.end_line);
                out.push(Sighting {
                    path: r.path.clone(),
                    location: Location::Lines(range),
                    range: Some(range),
                    symbols: outline.declarations_in(&r.path, range),
                    reason: format!("read lines {}-{}", r.start_line, r.end_line),
                    score: None,
                    search: None,
                    matched_terms: Vec::new(),
                    text: Some(ObservedText {
                        lines: range,
                        text: r.text.clone(),
                    }),
                });
            }
            (ToolName::ReadFile, out)
        }
        Observation::ListFiles(r) => {
            let out = r
                .entries
                .iter()
                .filter(|e| {
                    matches!(
                        e.kind,
                        sightline_observe::tools::list_files::EntryKind::File
                    )
                })
                .map(|e| Sighting {
                    path: e.path.clone(),
                    location: Location::File,
                    range: None,
                    symbols: Vec::new(),
                    reason: "listed".to_owned(),
                    score: None,
                    search: None,
                    matched_terms: Vec::new(),
                    text: None,
                })
                .collect();
            (ToolName::ListFiles, out)
        }
        Observation::Error(_) => (ToolName::ExploreCode, Vec::new()),
    }
}
