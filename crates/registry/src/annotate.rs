//! Tool results as text for a model, with candidate IDs inline (`12: [c7 3-9] text` on a
//! grep hit, `#### src/a.ts:3-9 [c7]` on a window,
//! `src/a.ts:3-9 of 40 [c7]` on a read), so it can select IDs it has seen. Each ID is printed with the
//! range it stands for, so a model reading only text knows what it cites. The one place
//! observations are rendered with IDs; every ID a call allocates is printed here.

use std::cell::RefCell;
use std::collections::HashSet;
use std::fmt::Write as _;

use sightline_observe::escape::inline;

use sightline_observe::LineRange;
use sightline_observe::tools::grep::GrepMatch;
use sightline_observe::tools::nav::Spot;
use sightline_observe::tools::read_file::write_numbered;

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
            // Match lines carry IDs; context lines (`13- text`) carry none. A match of the
            // same ID as the match above it in the same file belongs to that label (the
            // ID's range holds both lines) and gets none. An ID already printed in this
            // result, or whose range lies within the lines printed with its match, is
            // printed without the range: the reader has it already.
            let printed = RefCell::new(HashSet::new());
            let previous: RefCell<Option<(String, CandidateId)>> = RefCell::new(None);
            r.render_tagged(&|m| {
                let Some(c) = registry.at(&m.path, Location::Hit(m.line)) else {
                    // An unlabelled match must not read as part of the label above it.
                    previous.replace(None);
                    return None;
                };
                let last = previous.replace(Some((m.path.clone(), c.id)));
                let run = last.is_some_and(|(path, id)| path == m.path && id == c.id);
                if run {
                    return None;
                }
                let first = printed.borrow_mut().insert(c.id);
                let visible = c.range.is_none_or(|range| shown_with(m).contains(&range));
                Some(match first && !visible {
                    true => label(c),
                    false => format!("[{}]", c.id),
                })
            })
        }
        Observation::ReadFile(r) => {
            let read =
                (r.end_line >= r.start_line).then(|| LineRange::new(r.start_line, r.end_line));
            let header = read.and_then(|shown| registry.at(&r.path, Location::Lines(shown)));
            let tag = match (header, read) {
                (Some(c), Some(shown)) => format!(" {}", label_beside(c, shown)),
                _ => String::new(),
            };
            let indent = worth_removing(common_indent(&r.text), &r.text);
            let dedented = match indent {
                "" => String::new(),
                _ => format!(" ({} of indent removed)", describe_indent(indent)),
            };
            // `path:a-b of N [c7]`: the path, the range, the file's length and the ID once
            // each (the ID's range only when it is not the read's).
            let mut out = match read {
                Some(_) => format!(
                    "{}:{}-{} of {}{tag}{dedented}\n",
                    inline(&r.path),
                    r.start_line,
                    r.end_line,
                    r.total_lines
                ),
                None => format!("{} (empty file)\n", inline(&r.path)),
            };
            let inner = read.map_or_else(Vec::new, |shown| {
                declarations_inside(registry, &r.path, shown, header.map(|c| c.id))
            });
            // Numbers without padding, as `rg -n` prints them: every code line keeps its
            // number, and no line pays for the widest one.
            for (i, line) in r.text.lines().enumerate() {
                let number = r.start_line + i as u32;
                let line = line.strip_prefix(indent).unwrap_or("");
                match inner.iter().find(|(at, _)| *at == number) {
                    Some((_, c)) => {
                        // A one-line declaration's range is the line number beside it.
                        let own_line = LineRange::new(number, number);
                        let label = label_beside(c, own_line);
                        let _ = writeln!(out, "{number} {label} {line}");
                    }
                    None => write_numbered(&mut out, number, line),
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

/// The lines a grep match is printed with: its context before, the line, its context after.
fn shown_with(m: &GrepMatch) -> LineRange {
    let start = m.context_before.first().map_or(m.line, |l| l.line);
    let end = m.context_after.last().map_or(m.line, |l| l.line);
    LineRange::new(start.min(m.line), end.max(m.line))
}

/// The leading whitespace every non-blank line of `text` starts with: a read deep inside
/// a declaration repeats it on every line, and the reader learns it once from the header.
/// A blank line has no indent to keep, so it never limits it (and prints empty).
fn common_indent(text: &str) -> &str {
    let mut common: Option<&str> = None;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let own = &line[..line.len() - line.trim_start_matches([' ', '\t']).len()];
        common = Some(match common {
            None => own,
            Some(c) => {
                let shared = c
                    .bytes()
                    .zip(own.bytes())
                    .take_while(|(a, b)| a == b)
                    .count();
                &c[..shared]
            }
        });
    }
    common.unwrap_or("")
}

/// `indent` when removing it from every non-blank line of `text` saves more characters
/// than the header's note about it costs; otherwise nothing.
fn worth_removing<'a>(indent: &'a str, text: &str) -> &'a str {
    const NOTE_CHARS: usize = 30;
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    match indent.len() * lines > NOTE_CHARS {
        true => indent,
        false => "",
    }
}

/// `indent` in words: `4 spaces`, `2 tabs`, or `3 whitespace characters` when mixed.
fn describe_indent(indent: &str) -> String {
    let n = indent.len();
    if indent.bytes().all(|b| b == b' ') {
        format!("{n} spaces")
    } else if indent.bytes().all(|b| b == b'\t') {
        format!("{n} tabs")
    } else {
        format!("{n} whitespace characters")
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
        // The line is printed beside the label: a place of that one line needs no range.
        Spot::Line(line) => registry
            .at(path, Location::Hit(line))
            .map(|c| label_beside(c, LineRange::new(line, line))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        /// Every non-blank line starts with the common indent, and putting it back in
        /// front of each stripped line gives the line again: nothing but the indent is lost.
        #[test]
        fn the_common_indent_is_a_prefix_of_every_non_blank_line(
            lines in proptest::collection::vec("[ \t]{0,6}[a-z ]{0,8}", 0..12)
        ) {
            let text = lines.join("\n");
            let indent = common_indent(&text);
            prop_assert!(indent.bytes().all(|b| b == b' ' || b == b'\t'));
            for line in text.lines().filter(|l| !l.trim().is_empty()) {
                let rest = line.strip_prefix(indent);
                prop_assert!(rest.is_some(), "{line:?} lacks {indent:?}");
                prop_assert_eq!(format!("{indent}{}", rest.unwrap_or_default()), line);
            }
        }
    }

    #[test]
    fn a_read_header_names_path_range_and_length_once() {
        let read = |end_line, total_lines, text: &str| {
            Observation::ReadFile(sightline_observe::tools::read_file::ReadFileResult {
                path: "src/a.ts".into(),
                start_line: 1,
                end_line,
                total_lines,
                truncated: false,
                line_cut: false,
                text: text.into(),
                invalid_utf8: false,
            })
        };
        let registry = Registry::new();
        assert_eq!(
            render_observation(&read(2, 9, "a\n\n"), &registry),
            "src/a.ts:1-2 of 9\n1 a\n2\n"
        );
        assert_eq!(
            render_observation(&read(0, 0, ""), &registry),
            "src/a.ts (empty file)\n"
        );
    }

    #[test]
    fn indent_is_described_by_what_it_is_made_of() {
        assert_eq!(describe_indent("    "), "4 spaces");
        assert_eq!(describe_indent("\t\t"), "2 tabs");
        assert_eq!(describe_indent("\t  "), "3 whitespace characters");
        assert_eq!(common_indent("    a\n\n  \n      b\n"), "    ");
        assert_eq!(common_indent("\tx\n  y\n"), "");
        assert_eq!(
            worth_removing("  ", "  a\n  b\n"),
            "",
            "a short read keeps its indent"
        );
    }
}
