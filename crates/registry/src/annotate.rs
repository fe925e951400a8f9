//! Tool results as text for a model, with candidate IDs inline (`#### src/a.ts:3-9 [c7] -
//! name (kind:line)`), so it can select IDs it has seen. The one place observations are
//! rendered with IDs.

use std::fmt::Write as _;

use sightline_observe::escape::inline;

use crate::observation::Observation;
use crate::registry::Registry;

/// Renders `observation` with the IDs the registry assigned to its locations.
pub fn render_observation(observation: &Observation, registry: &Registry) -> String {
    let id_for = |path: &str, line: u32| -> Option<String> {
        registry
            .in_file(path)
            .filter(|c| c.range.is_some_and(|r| r.contains_line(line)))
            .min_by_key(|c| c.range.map_or(u32::MAX, |r| r.len()))
            .map(|c| format!("[{}]", c.id))
    };
    match observation {
        Observation::ExploreCode(r) => {
            let mut out = r.render_text(&|path, w| id_for(path, w.lines.start));
            if !r.more_files.is_empty() {
                let ids: Vec<String> = r
                    .more_files
                    .iter()
                    .filter_map(|m| {
                        let c = registry
                            .in_file(&m.path)
                            .find(|c| c.range == m.best_range)?;
                        Some(format!("{} [{}]", inline(&m.path), c.id))
                    })
                    .take(16)
                    .collect();
                let _ = writeln!(out, "unread candidates: {}", ids.join(", "));
            }
            out
        }
        Observation::Grep(r) => {
            // Match lines carry IDs; context lines (`13- text`) carry none.
            r.render_tagged(&|m| id_for(&m.path, m.line))
        }
        Observation::ReadFile(r) => {
            let tag = id_for(&r.path, r.start_line).unwrap_or_default();
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
        Observation::ListFiles(r) => r.render_text(),
        Observation::Error(e) => format!("error: {e}\n"),
    }
}
