//! Tool results as text for a model, with candidate IDs inline (`12: [c7 3-9] text` on a
//! grep hit, `#### src/a.ts:3-9 [c7]` on a window), so it can select IDs it has seen. Each ID is printed with the
//! range it stands for, so a model reading only text knows what it cites. The one place
//! observations are rendered with IDs; every ID a call allocates is printed here.

use std::fmt::Write as _;

use sightline_observe::escape::inline;

use sightline_observe::LineRange;
use sightline_observe::tools::nav::Spot;

use crate::candidate::Candidate;
use crate::id::CandidateId;
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
            let header = read.and_then(|shown| registry.at(&r.path, Location::Lines(shown)));
            let tag = match (header, read) {
                (Some(c), Some(shown)) => label_beside(c, shown),
                _ => String::new(),
            };
            let mut out = format!(
                "#### {}:{}-{} {} ({} lines total)\n",
                inline(&r.path),
                r.start_line,
                r.end_line,
                tag,
                r.total_lines
            );
            let inner = read.map_or_else(Vec::new, |shown| {
                declarations_inside(registry, &r.path, shown, header.map(|c| c.id))
            });
            for (i, line) in r.text.lines().enumerate() {
                let number = r.start_line + i as u32;
                match inner.iter().find(|(at, _)| *at == number) {
                    Some((_, c)) => {
                        let _ = writeln!(out, "{number:>4} {} {line}", label(c));
                    }
                    None => {
                        let _ = writeln!(out, "{number:>4} {line}");
                    }
                }
            }
            // Says how many lines remain and which `start_line` continues the read.
            if let Some(note) = r.continuation() {
                let _ = writeln!(out, "{note}");
            }
            out
        }
        Observation::ListFiles(r) => r.render_tagged(&|e| id_for(&e.path, Location::File)),
        Observation::Definition(r) => {
            r.render_tagged(&|path, spot| spot_label(registry, path, spot))
        }
        Observation::References(r) => {
            r.render_tagged(&|path, spot| spot_label(registry, path, spot))
        }
        Observation::Outline(r) => r.render_tagged(&|path, spot| spot_label(registry, path, spot)),
        Observation::Error(e) => format!("error: {e}\n"),
    }
}

/// The declaration candidates lying wholly inside `shown` of `path` (other than the
/// read's own, `own`), each at its signature line: a read labels every known
/// declaration it shows, so a quote from it can be cited at the declaration holding it.
fn declarations_inside<'a>(
    registry: &'a Registry,
    path: &str,
    shown: LineRange,
    own: Option<CandidateId>,
) -> Vec<(u32, &'a Candidate)> {
    let mut out: Vec<(u32, &Candidate)> = registry
        .in_file(path)
        .filter(|c| Some(c.id) != own)
        .filter_map(|c| {
            let range = c.range?;
            let line = c.symbols.first()?.line;
            (shown.contains(&range) && range.contains_line(line)).then_some((line, c))
        })
        .collect();
    // One label per line: the outermost declaration starting there.
    out.sort_by_key(|(line, c)| {
        (
            *line,
            std::cmp::Reverse(c.range.map_or(0, |r| r.len())),
            c.id,
        )
    });
    out.dedup_by_key(|(line, _)| *line);
    out
}

/// The label of a navigation tool's spot: a declaration beside its printed range, a use
/// with the range of the place it went to.
fn spot_label(registry: &Registry, path: &str, spot: Spot) -> Option<String> {
    match spot {
        Spot::Lines(shown) => Some(label_beside(
            registry.at(path, Location::Lines(shown))?,
            shown,
        )),
        Spot::Line(line) => registry.at(path, Location::Hit(line)).map(label),
    }
}
