//! Each tool's result as the sightings the registry merges: windows and reads by their
//! lines, line hits snapped to their place ([`hit_range`]), listed files whole.

use sightline_base::{SHORT_DECLARATION_LINES, hit_range, near_identical};
use sightline_observe::tools::explore_code::WindowSymbol;
use sightline_observe::tools::nav::definition::DefinitionHit;
use sightline_observe::tools::nav::references::ReferencesResult;
use sightline_observe::tools::read_file::ReadFileResult;
use sightline_observe::{DeclKind, LineRange};

use crate::candidate::{CandidateSymbol, ObservedText};
use crate::observation::{Observation, ToolName};
use crate::registry::{Location, Outline, Sighting, UNREAD_FILES_SHOWN};

fn symbol(s: &WindowSymbol) -> CandidateSymbol {
    CandidateSymbol {
        name: s.name.clone(),
        qualified: s.qualified.clone(),
        kind: s.kind.clone(),
        line: s.line,
    }
}

pub(crate) fn sightings(
    observation: &Observation,
    outline: &dyn Outline,
) -> (ToolName, Vec<Sighting>) {
    match observation {
        Observation::ExploreCode(r) => {
            let mut out = Vec::new();
            for f in &r.files {
                for w in &f.windows {
                    // A signature line or a cut window stands for its place: the place is
                    // the candidate, the lines shown its observed text.
                    let place = |lines: LineRange, text: String| Sighting {
                        path: f.path.clone(),
                        traits: outline.path_traits(&f.path),
                        location: Location::Lines(w.place()),
                        range: Some(w.place()),
                        symbols: w.symbols.iter().map(symbol).collect(),
                        reason: w.reason.clone(),
                        score: Some(w.score.max(f.score)),
                        search: Some(f.components),
                        matched_terms: f.matched_terms.clone(),
                        text: Some(ObservedText { lines, text }),
                    };
                    out.push(place(w.lines, w.text.clone()));
                    // The place's evidence lines the call returned beside its windows: more
                    // text of the same place (the same candidate), for quotes.
                    for e in &w.evidence {
                        out.push(place(
                            LineRange::new(e.line, e.line),
                            format!("{}\n", e.text),
                        ));
                    }
                }
            }
            for m in r.more_files.iter().take(UNREAD_FILES_SHOWN) {
                out.push(Sighting {
                    path: m.path.clone(),
                    traits: outline.path_traits(&m.path),
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
                    let first = m.context_before.first().map_or(m.line, |l| l.line);
                    let last = m.context_after.last().map_or(m.line, |l| l.line);
                    let mut text = String::new();
                    for l in &m.context_before {
                        text.push_str(&l.text);
                        text.push('\n');
                    }
                    text.push_str(&m.text);
                    text.push('\n');
                    for l in &m.context_after {
                        text.push_str(&l.text);
                        text.push('\n');
                    }
                    // A cut line (the match's or a context line) is not verbatim evidence.
                    let cut = m.truncated
                        || m.context_before
                            .iter()
                            .chain(&m.context_after)
                            .any(|l| l.truncated);
                    let text = (!cut).then(|| ObservedText {
                        lines: LineRange::new(first, last),
                        text,
                    });
                    let reason = format!("grep match at line {}", m.line);
                    line_hit(
                        &m.path,
                        m.line,
                        LineRange::new(first, last),
                        text,
                        reason,
                        outline,
                    )
                })
                .collect();
            (ToolName::Grep, out)
        }
        Observation::ReadFile(r) => (ToolName::ReadFile, read(r, outline)),
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
                    traits: outline.path_traits(&e.path),
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
        Observation::Definition(r) => {
            let out = r
                .hits
                .iter()
                .map(|h| definition(h, "definition", outline))
                .collect();
            (ToolName::Definition, out)
        }
        Observation::References(r) => (ToolName::References, references(r, outline)),
        Observation::Outline(r) => {
            let out = r
                .files
                .iter()
                .flat_map(|f| {
                    f.decls.iter().map(|d| Sighting {
                        path: f.path.clone(),
                        traits: outline.path_traits(&f.path),
                        location: Location::Lines(d.lines),
                        range: Some(d.lines),
                        symbols: vec![CandidateSymbol {
                            name: d.name.clone(),
                            qualified: d.qualified.clone(),
                            kind: d.kind.clone(),
                            line: d.signature_line,
                        }],
                        reason: "outlined".to_owned(),
                        score: None,
                        search: None,
                        matched_terms: Vec::new(),
                        text: None,
                    })
                })
                .collect();
            (ToolName::Outline, out)
        }
        Observation::Error(_) => (ToolName::ExploreCode, Vec::new()),
    }
}

/// A line hit (a grep match, a reference): its place is [`hit_range`] of its innermost
/// declaration and the lines `shown` with it. The declaration's symbol names the place
/// only when the place is that declaration.
pub(crate) fn line_hit(
    path: &str,
    line: u32,
    shown: LineRange,
    text: Option<ObservedText>,
    reason: String,
    outline: &dyn Outline,
) -> Sighting {
    let innermost = outline.declaration_at(path, line);
    let range = hit_range(innermost.as_ref().map(|(r, _)| *r), shown);
    let symbols = innermost
        .filter(|(r, _)| *r == range)
        .map(|(_, sym)| sym)
        .into_iter()
        .collect();
    Sighting {
        path: path.to_owned(),
        traits: outline.path_traits(path),
        location: Location::Hit(line),
        range: Some(range),
        symbols,
        reason,
        score: None,
        search: None,
        matched_terms: Vec::new(),
        text,
    }
}

/// A read: one sighting for what was read (the declaration it nearly equals, when it
/// nearly equals one), then one per short declaration wholly inside it that no other
/// such declaration holds, so a quote from a read can be cited at the declaration that
/// holds it.
fn read(r: &ReadFileResult, outline: &dyn Outline) -> Vec<Sighting> {
    if r.end_line < r.start_line {
        return Vec::new();
    }
    let read = LineRange::new(r.start_line, r.end_line);
    let decls = outline.declarations_overlapping(&r.path, read);
    let snapped = decls
        .iter()
        .filter(|(d, _)| near_identical(*d, read))
        .min_by_key(|(d, _)| d.start.abs_diff(read.start) + d.end.abs_diff(read.end));
    let (range, symbols) = match snapped {
        Some((d, sym)) => (*d, vec![sym.clone()]),
        None => (read, outline.declarations_in(&r.path, read)),
    };
    let text = |lines: LineRange| ObservedText {
        lines,
        text: r
            .text
            .split_inclusive('\n')
            .skip((lines.start - read.start) as usize)
            .take(lines.len() as usize)
            .collect(),
    };
    let mut out = vec![Sighting {
        path: r.path.clone(),
        traits: outline.path_traits(&r.path),
        location: Location::Lines(read),
        range: Some(range),
        symbols,
        reason: format!("read lines {}-{}", r.start_line, r.end_line),
        score: None,
        search: None,
        matched_terms: Vec::new(),
        text: Some(text(read)),
    }];
    // A read that snapped to a declaration holds that declaration's children.
    let mut held: Vec<LineRange> = snapped.map(|(d, _)| *d).into_iter().collect();
    for (d, sym) in decls {
        let short = d.len() <= SHORT_DECLARATION_LINES;
        // A field is a line of its class, not a place of its own.
        let field = sym.kind == DeclKind::Property.as_str();
        if !short || field || !read.contains(&d) || held.iter().any(|h| h.contains(&d)) {
            continue;
        }
        held.push(d);
        out.push(Sighting {
            path: r.path.clone(),
            traits: outline.path_traits(&r.path),
            location: Location::Lines(d),
            range: Some(d),
            symbols: vec![sym],
            reason: format!(
                "declaration inside a read of lines {}-{}",
                read.start, read.end
            ),
            score: None,
            search: None,
            matched_terms: Vec::new(),
            text: Some(text(d)),
        });
    }
    out
}

/// A declaration a navigation tool named: its whole range, with its body (or, when only
/// the signature was shown whole, that line) as observed text.
fn definition(h: &DefinitionHit, why: &str, outline: &dyn Outline) -> Sighting {
    let text = match &h.body {
        Some(body) => Some(ObservedText {
            lines: body.lines,
            text: body.text.clone(),
        }),
        None => h.signature_whole.then(|| ObservedText {
            lines: LineRange::new(h.signature_line, h.signature_line),
            text: format!("{}\n", h.signature),
        }),
    };
    Sighting {
        path: h.path.clone(),
        traits: outline.path_traits(&h.path),
        location: Location::Lines(h.lines),
        range: Some(h.lines),
        symbols: vec![CandidateSymbol {
            name: h.name.clone(),
            qualified: h.qualified.clone(),
            kind: h.kind.clone(),
            line: h.signature_line,
        }],
        reason: format!("{why} {}", h.qualified),
        score: None,
        search: None,
        matched_terms: Vec::new(),
        text,
    }
}

/// A line that uses a declaration, as a line hit; its text is observed when shown whole.
fn use_line(
    path: &str,
    line: u32,
    text: &str,
    whole: bool,
    reason: String,
    outline: &dyn Outline,
) -> Sighting {
    let lines = LineRange::new(line, line);
    let observed = whole.then(|| ObservedText {
        lines,
        text: format!("{text}\n"),
    });
    line_hit(path, line, lines, observed, reason, outline)
}

/// The declarations looked up, then each use as a line hit (its line as observed text
/// when shown whole), or each declaration used.
fn references(r: &ReferencesResult, outline: &dyn Outline) -> Vec<Sighting> {
    let mut out: Vec<Sighting> = r
        .targets
        .iter()
        .map(|t| definition(t, "looked up", outline))
        .collect();
    let of = r.targets.first().map_or("", |t| t.qualified.as_str());
    for u in &r.uses {
        let reason = format!("uses {of}");
        out.push(use_line(
            &u.path,
            u.line,
            &u.text,
            u.text_whole,
            reason,
            outline,
        ));
    }
    for c in &r.calls {
        let reason = if c.depth == 0 {
            format!("used by {of}:")
        } else {
            format!("called on the way from {of}:")
        };
        out.push(definition(&c.callee, &reason, outline));
    }
    if let Some(chain) = &r.chain {
        out.extend(
            chain
                .ends
                .iter()
                .map(|t| definition(t, "looked up", outline)),
        );
        for step in &chain.steps {
            let reason = format!("uses {} on the way to {}", step.to.qualified, chain.to_name);
            out.push(use_line(
                &step.path,
                step.line,
                &step.text,
                step.text_whole,
                reason,
                outline,
            ));
        }
    }
    out
}
