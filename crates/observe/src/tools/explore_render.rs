//! `explore_code`'s text: the places shown with their bodies, each once under one header
//! (a cut place's runs with its elisions between them), then the places shown by their
//! signature line, one line each, then the files listed by path, then one line saying
//! what was left out and how to get it. Every line of source is printed with its number.

use std::fmt::Write as _;

use super::dir_list::{dir_lines, gather_by_dir};

use crate::escape::inline;

use super::explore_code::{ExploreResult, FileMatch, Window, WindowView};

impl ExploreResult {
    /// Line-numbered text for a human or a model. `annotate` may add a tag after a place's
    /// header or signature line (the registry passes candidate IDs through it).
    pub fn render_text(&self, annotate: &dyn Fn(&str, &Window) -> Option<String>) -> String {
        self.render_tagged(annotate, &|_| None)
    }

    /// The query's terms with their weights (`terms: save(2.3) record(1.1)`): a diagnostic
    /// of how the query was read, for people and measurements, left out of the text a
    /// model reads.
    pub fn terms_line(&self) -> String {
        let terms: Vec<String> = self
            .terms
            .terms
            .iter()
            .map(|t| format!("{}({:.1})", t.term, t.idf))
            .collect();
        format!("terms: {}", terms.join(" "))
    }

    /// [`Self::render_text`], with `file_tag`'s label on each listed file.
    pub fn render_tagged(
        &self,
        annotate: &dyn Fn(&str, &Window) -> Option<String>,
        file_tag: &dyn Fn(&FileMatch) -> Option<String>,
    ) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "## explore_code: {}", self.query);
        // The weighed terms are a diagnostic (`terms_line`), not for the model; words the
        // repository never uses tell it to rephrase.
        if !self.terms.unknown.is_empty() {
            let _ = writeln!(out, "not in repo: {}", self.terms.unknown.join(" "));
        }
        let _ = writeln!(
            out,
            "{} files, {} symbols matched",
            self.matched_files, self.matched_symbols
        );
        if let Some(note) = &self.not_indexed {
            let _ = writeln!(out, "{note}");
        }
        let mut elided = false;
        for f in &self.files {
            let bodies: Vec<&Window> = f
                .windows
                .iter()
                .filter(|w| w.view == WindowView::Full)
                .collect();
            for run in places(&bodies) {
                elided |= body_block(&mut out, &f.path, &run, annotate);
            }
        }
        signature_section(&mut out, self, annotate);
        if !self.more_files.is_empty() {
            // A directory printed once for its files, as grep's file lists do; the
            // directories in the order of their best-ranked file.
            let gathered = gather_by_dir(&self.more_files, |m| &m.path);
            let lines = dir_lines(
                &gathered,
                |m| &m.path,
                |m| file_tag(m).unwrap_or_default(),
                " ",
            );
            let _ = writeln!(out, "\nmore files: {}", lines.join("; "));
        }
        left_out(&mut out, self, elided);
        out
    }
}

/// Consecutive windows standing for one place, grouped.
fn places<'a>(windows: &[&'a Window]) -> Vec<Vec<&'a Window>> {
    let mut out: Vec<Vec<&Window>> = Vec::new();
    for w in windows {
        match out.last_mut() {
            Some(run) if w.place.is_some() && run[0].place == w.place => run.push(w),
            _ => out.push(vec![w]),
        }
    }
    out
}

/// One place with its body (or its runs, elisions between them); whether lines were elided.
fn body_block(
    out: &mut String,
    path: &str,
    run: &[&Window],
    annotate: &dyn Fn(&str, &Window) -> Option<String>,
) -> bool {
    let Some(first) = run.first() else {
        return false;
    };
    let place = first.place();
    // The tag is asked for the place as a whole, so its range is the header's.
    let whole = Window {
        lines: place,
        place: None,
        ..(*first).clone()
    };
    let tag = annotate(path, &whole)
        .map(|t| format!(" {t}"))
        .unwrap_or_default();
    let symbol = first
        .symbols
        .first()
        .map(|s| {
            let more = first.symbols.len() - 1;
            let more = if more > 0 {
                format!(", +{more} more")
            } else {
                String::new()
            };
            format!(" - {} ({}:{}){more}", inline(&s.qualified), s.kind, s.line)
        })
        .unwrap_or_default();
    let _ = writeln!(
        out,
        "\n#### {}:{}-{}{tag}{symbol}",
        inline(path),
        place.start,
        place.end
    );
    let _ = writeln!(out, "why: {}", first.reason);
    let mut next = place.start;
    let mut elided = false;
    for w in run {
        if w.lines.start > next {
            let _ = writeln!(out, "     … {}-{} elided", next, w.lines.start - 1);
            elided = true;
        }
        for (i, line) in w.text.lines().enumerate() {
            let _ = writeln!(out, "{:>4} {}", w.lines.start + i as u32, line);
        }
        next = w.lines.end + 1;
    }
    if next <= place.end {
        let _ = writeln!(out, "     … {}-{} elided", next, place.end);
        elided = true;
    }
    elided
}

/// Every place shown by its signature line, in rank order: one line each, a file's lines
/// under its path when it has several, and look-alikes on their first one's line.
fn signature_section(
    out: &mut String,
    result: &ExploreResult,
    annotate: &dyn Fn(&str, &Window) -> Option<String>,
) {
    let entries: Vec<(&str, &Window)> = result
        .files
        .iter()
        .flat_map(|f| {
            f.windows
                .iter()
                .filter(|w| w.view == WindowView::Signatures)
                .map(move |w| (f.path.as_str(), w))
        })
        .collect();
    if entries.is_empty() {
        return;
    }
    let tag = |path: &str, w: &Window| {
        annotate(path, w)
            .map(|t| format!("{t} "))
            .unwrap_or_default()
    };
    // A look-alike group is shown by its first member; the others are named on its line.
    let mut first_of: Vec<(&str, usize)> = Vec::new();
    let mut also: Vec<Vec<String>> = vec![Vec::new(); entries.len()];
    let mut shown = vec![true; entries.len()];
    for (i, (path, w)) in entries.iter().enumerate() {
        let Some(group) = w.alike.as_deref() else {
            continue;
        };
        match first_of.iter().find(|(g, _)| *g == group) {
            Some(&(_, first)) => {
                shown[i] = false;
                let id = tag(path, w);
                let id = id.trim_end();
                let id = if id.is_empty() {
                    String::new()
                } else {
                    format!(" {id}")
                };
                also[first].push(format!("{}:{}{id}", inline(path), w.lines.start));
            }
            None => first_of.push((group, i)),
        }
    }
    let _ = writeln!(out, "\nsignature lines (bodies elided):");
    let mut i = 0;
    while i < entries.len() {
        let path = entries[i].0;
        let mut j = i;
        while j < entries.len() && entries[j].0 == path {
            j += 1;
        }
        let own: Vec<usize> = (i..j).filter(|&k| shown[k]).collect();
        let several = own.len() > 1 || own.iter().any(|&k| entries[k].1.lines.len() > 1);
        if several {
            let _ = writeln!(out, "  {}", inline(path));
        }
        for k in own {
            let w = entries[k].1;
            let tag = tag(path, w);
            let note = match (&w.alike, also[k].is_empty()) {
                (Some(group), false) => format!("  ({group}; also {})", also[k].join(", ")),
                _ => String::new(),
            };
            for (n, line) in w.text.lines().enumerate() {
                let number = w.lines.start + n as u32;
                let (tag, note) = if n == 0 {
                    (tag.as_str(), note.as_str())
                } else {
                    ("", "")
                };
                if several {
                    let _ = writeln!(out, "    {number} {tag}{}{note}", line.trim());
                } else {
                    let _ = writeln!(
                        out,
                        "  {}:{number} {tag}{}{note}",
                        inline(path),
                        line.trim()
                    );
                }
            }
        }
        i = j;
    }
}

/// One line: what matched but is not shown, and how to get it.
fn left_out(out: &mut String, result: &ExploreResult, elided: bool) {
    let t = &result.truncation;
    let mut notes = Vec::new();
    let unshown = (result.matched_files as usize)
        .saturating_sub(result.files.len() + result.more_files.len());
    if unshown > 0 {
        notes.push(format!(
            "{unshown} more matching files (a narrower query, or grep)"
        ));
    }
    if t.windows_left_out > 0 {
        notes.push(format!(
            "{} places of shown files (read_file the file)",
            t.windows_left_out
        ));
    } else if t.windows {
        notes.push("more places per file (read_file the file)".to_owned());
    }
    if elided || t.lines {
        notes.push("elided lines (read_file a place's range)".to_owned());
    }
    if t.chars {
        notes.push("the character cap was reached".to_owned());
    }
    if !notes.is_empty() {
        let _ = writeln!(out, "\nleft out: {}", notes.join("; "));
    }
}
