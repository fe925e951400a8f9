//! `grep` results as text: one `## path` heading per file, then its lines in the form
//! grep itself uses — `12: text` for a match, `13- text` for context — with overlapping or
//! adjacent context windows of one file merged and gaps marked `--` (only where context is
//! printed: without it the line numbers show the gaps, as rg prints them), so no line is
//! printed twice and a model can tell matches from context at a glance. A files-only result
//! prints a directory once for its consecutive files (`src/a/: x.ts 2, y.ts 1`), as the
//! heading mode prints a path once for its lines.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use super::dir_list::dir_lines;
use super::grep::{FileCount, GrepMatch};
use crate::escape::inline;

/// A line to print and whether it matched (a line that matched is never shown as context,
/// even when it also lies in another match's window).
struct Shown<'a> {
    text: &'a str,
    matched: Option<&'a GrepMatch>,
}

/// Renders `matches` (in path order, then line order). `tag` may add a label after the
/// line number of a match line (a candidate ID, say); context lines get none.
pub(crate) fn render_matches(
    out: &mut String,
    matches: &[GrepMatch],
    tag: &dyn Fn(&GrepMatch) -> Option<String>,
) {
    let mut rest = matches;
    while let Some(first) = rest.first() {
        let same_file = rest.iter().take_while(|m| m.path == first.path).count();
        let (file, tail) = rest.split_at(same_file);
        render_file(out, &first.path, file, tag);
        rest = tail;
    }
}

fn render_file(
    out: &mut String,
    path: &str,
    matches: &[GrepMatch],
    tag: &dyn Fn(&GrepMatch) -> Option<String>,
) {
    let mut lines: BTreeMap<u32, Shown<'_>> = BTreeMap::new();
    for m in matches {
        for l in m.context_before.iter().chain(&m.context_after) {
            lines.entry(l.line).or_insert(Shown {
                text: &l.text,
                matched: None,
            });
        }
    }
    for m in matches {
        lines.insert(
            m.line,
            Shown {
                text: &m.text,
                matched: Some(m),
            },
        );
    }
    let _ = writeln!(out, "## {}", inline(path));
    let has_context = lines.values().any(|shown| shown.matched.is_none());
    let mut previous: Option<u32> = None;
    for (&line, shown) in &lines {
        if has_context && previous.is_some_and(|p| line > p.saturating_add(1)) {
            out.push_str("--\n");
        }
        previous = Some(line);
        match shown.matched {
            Some(m) => match tag(m) {
                Some(label) => {
                    let _ = writeln!(out, "{line}: {label} {}", shown.text);
                }
                None => {
                    let _ = writeln!(out, "{line}: {}", shown.text);
                }
            },
            None => {
                let _ = writeln!(out, "{line}- {}", shown.text);
            }
        }
    }
}

/// Renders `counts` (in path order), a directory printed once for its consecutive files
/// (see [`dir_lines`]).
pub(crate) fn render_file_counts(out: &mut String, counts: &[FileCount]) {
    let lines = dir_lines(counts, |f| &f.path, |f| f.matches.to_string(), ": ");
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
}
