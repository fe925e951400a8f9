//! `grep` results as text: one `## path` heading per file, then its lines in the form
//! grep itself uses — `12:text` for a match, `13-text` for context — with overlapping or
//! adjacent context windows of one file merged and gaps marked `--` (only where context is
//! printed: without it the line numbers show the gaps, as rg prints them), so no line is
//! printed twice and a model can tell matches from context at a glance. A files-only result
//! prints a directory once for its consecutive files (`src/a/: x.ts 2, y.ts 1`), as the
//! heading mode prints a path once for its lines.
//!
//! Each run of consecutive lines loses the leading whitespace all its lines share (a lone
//! match line loses all of it, as `rg --trim` prints it): indentation deeper than its
//! neighbours' is what says something, and the rest cost 8% of a typical result. Quotes are
//! compared with whitespace collapsed, so a trimmed line still verifies.

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
    let shown: Vec<(u32, &Shown<'_>)> = lines.iter().map(|(&l, s)| (l, s)).collect();
    let mut previous: Option<u32> = None;
    for block in shown.chunk_by(|a, b| b.0 == a.0.saturating_add(1)) {
        let indent = common_indent(block.iter().map(|(_, s)| s.text));
        for &(line, shown) in block {
            if has_context && previous.is_some_and(|p| line > p.saturating_add(1)) {
                out.push_str("--\n");
            }
            previous = Some(line);
            let text = shown.text.get(indent..).unwrap_or_default();
            match shown.matched {
                Some(m) => match tag(m) {
                    Some(label) => {
                        let _ = writeln!(out, "{line}:{label} {text}");
                    }
                    None => {
                        let _ = writeln!(out, "{line}:{text}");
                    }
                },
                None => {
                    let _ = writeln!(out, "{line}-{text}");
                }
            }
        }
    }
}

/// Bytes of leading whitespace every non-blank line of `texts` starts with (the same
/// characters, so a tab never stands for spaces); 0 when every line is blank.
fn common_indent<'a>(texts: impl Iterator<Item = &'a str>) -> usize {
    let mut common: Option<&str> = None;
    for text in texts.filter(|t| !t.trim().is_empty()) {
        let lead = &text[..text.len() - text.trim_start().len()];
        common = Some(match common {
            None => lead,
            Some(c) => {
                let n: usize = c
                    .chars()
                    .zip(lead.chars())
                    .take_while(|(a, b)| a == b)
                    .map(|(a, _)| a.len_utf8())
                    .sum();
                &c[..n]
            }
        });
    }
    common.map_or(0, str::len)
}

/// Renders `counts` (in path order), a directory printed once for its consecutive files
/// (see [`dir_lines`]).
pub(crate) fn render_file_counts(out: &mut String, counts: &[FileCount]) {
    let lines = dir_lines(counts, |f| &f.path, |f| f.matches.to_string(), ": ");
    for line in lines {
        let _ = writeln!(out, "{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::common_indent;
    use proptest::prelude::*;

    #[test]
    fn common_indent_ignores_blank_lines_and_never_mixes_tabs_with_spaces() {
        assert_eq!(common_indent(["    a", "", "      b"].into_iter()), 4);
        assert_eq!(common_indent(["\ta", "    b"].into_iter()), 0);
        assert_eq!(common_indent(["  ", " "].into_iter()), 0);
    }

    proptest! {
        /// The indent is a char boundary of every non-blank line and only whitespace.
        #[test]
        fn common_indent_is_a_shared_whitespace_prefix(
            lines in proptest::collection::vec("[ \t\u{2000}\u{2001}\u{a0}]{0,4}[a-z]{0,3}", 1..6)
        ) {
            let n = common_indent(lines.iter().map(String::as_str));
            for l in lines.iter().filter(|l| !l.trim().is_empty()) {
                prop_assert!(l.is_char_boundary(n));
                prop_assert!(l[..n].chars().all(char::is_whitespace));
                prop_assert_eq!(&l[..n], &lines.iter().find(|l| !l.trim().is_empty()).unwrap()[..n]);
            }
        }
    }
}
