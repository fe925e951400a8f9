//! Tool results as text for a model, with candidate IDs inline (`12: [c7 3-9] text` on a
//! grep hit, `#### src/a.ts:3-9 [c7]` on a window), so it can select IDs it has seen. Each ID is printed with the
//! range it stands for, so a model reading only text knows what it cites. The one place
//! observations are rendered with IDs; every ID a call allocates is printed here.

use std::fmt::Write as _;

use sightline_observe::escape::inline;

use sightline_observe::LineRange;

use crate::candidate::Candidate;
use crate::observation::Observation;
use crate::registry::{Location, Registry};

/// A candidate's label in tool text: `[c7 3-9]`, or `[c7]` for a whole file.
pub fn label(c: &Candidate) -> String {
    match c.range {
        Some(r) => format!("[{} {}-{}]", c.id, r.start, r.end),
        None => format!("[{}]", c.id),
    }
}

/// The label next to text that already shows `shown` (a window's or read's header): the
/// range is left out when it is the candidate's own, since the reader sees it already.
fn label_beside(c: &Candidate, shown: LineRange) -> String {
    if c.range == Some(shown) {
        format!("[{}]", c.id)
    } else {
        label(c)
    }
}

/// Renders `observation` with the IDs the registry assigned to its locations.
pub fn render_observation(observation: &Observation, registry: &Registry) -> String {
    let id_for = |path: &str, location: Location| -> Option<String> {
        registry.at(path, location).map(label)
    };
    match observation {
        Observation::ExploreCode(r) => r.render_tagged(
            &|path, w| {
                let c = registry.at(path, Location::Lines(w.place()))?;
                Some(label_beside(c, w.lines))
            },
            &|m| id_for(&m.path, Location::of(m.best_range)),
        ),
        Observation::Grep(r) => {
            // Match lines carry IDs; context lines (`13- text`) carry none.
            r.render_tagged(&|m| id_for(&m.path, Location::Hit(m.line)))
        }
        Observation::ReadFile(r) => {
            let read =
                (r.end_line >= r.start_line).then(|| LineRange::new(r.start_line, r.end_line));
            let tag = read
                .and_then(|shown| {
                    Some(label_beside(
                        registry.at(&r.path, Location::Lines(shown))?,
                        shown,
                    ))
                })
                .unwrap_or_default();
            let mut out = format!(
                "#### {}:{}-{} {} ({} lines total)\n",
                inline(&r.path),
                r.start_line,
                r.end_line,
                tag,
                r.total_lines
            );
            for (i, line) in r.text.lines().enumerate() {
                let _ = writeln!(out, "{:>4} {}", r.start_line + i as u32, line);
            }
            // Says how many lines remain and which `start_line` continues the read.
            if let Some(note) = r.continuation() {
                let _ = writeln!(out, "{note}");
            }
            out
        }
        Observation::ListFiles(r) => r.render_tagged(&|e| id_for(&e.path, Location::File)),
        Observation::Error(e) => format!("error: {e}\n"),
    }
}
