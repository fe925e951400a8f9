//! Turning a file's planned windows into pieces for its view. Every piece is a contiguous
//! run of real source lines, so a window built from it still carries its exact text:
//! skeleton and focused views elide bodies by leaving lines out, never by rewriting them.

use std::collections::{BTreeSet, HashSet};

use crate::facts::{DeclIndex, Declaration, FileFacts, LineRange};
use crate::terms::identifier_tokens;

use super::classify::FileView;

/// How far past a declaration's recorded signature line the line naming it is looked for
/// (decorators and annotations can sit between them).
const SIGNATURE_LOOKAHEAD: u32 = 4;
/// Most signature lines a skeleton shows per file.
pub const SKELETON_MAX_LINES: usize = 24;

/// One run of lines to show, before the budget picks.
#[derive(Clone, Debug, PartialEq)]
pub struct Piece {
    pub range: LineRange,
    /// Signature lines only (bodies elided).
    pub signatures: bool,
    pub score: f64,
    pub reason: String,
    /// Lines the piece may show (the per-file line cap's share); a longer range is cut to
    /// its evidence ([`super::cut`]).
    pub allowed: u32,
    /// Higher survives budget trimming first: 3 on the flow spine, 2 named, 1 otherwise.
    pub importance: u8,
    /// For a signature line, the declaration it opens: the place it stands for.
    pub place: Option<LineRange>,
}

/// A planned window: range, score, reason, and the lines it may show under the per-file
/// line cap (its length when it fits).
pub type Planned = (LineRange, f64, String, u32);

/// What the views need to know about each declaration of the file.
pub struct DeclFlags<'a> {
    pub on_spine: &'a dyn Fn(DeclIndex) -> bool,
    pub named: &'a dyn Fn(DeclIndex) -> bool,
    /// Kept in full in a focused view.
    pub keep_full: &'a dyn Fn(DeclIndex) -> bool,
}

/// The line that names the declaration: its signature line, or the first of the next few
/// lines that contains its name when decorators or annotations come first.
pub fn signature_line(d: &Declaration, lines: &[&str]) -> u32 {
    let start = d.signature_line.clamp(d.lines.start, d.lines.end);
    let last = start.saturating_add(SIGNATURE_LOOKAHEAD).min(d.lines.end);
    (start..=last)
        .find(|&n| {
            n.checked_sub(1)
                .and_then(|i| lines.get(i as usize))
                .is_some_and(|text| identifier_tokens(text).any(|t| t == d.name))
        })
        .unwrap_or(start)
}

fn importance(facts: &FileFacts, range: LineRange, flags: &DeclFlags) -> u8 {
    let inside = |i: usize| range.contains_line(facts.decls[i].signature_line);
    let any = |f: &dyn Fn(DeclIndex) -> bool| {
        (0..facts.decls.len()).any(|i| inside(i) && f(i as DeclIndex))
    };
    if any(flags.on_spine) {
        3
    } else if any(flags.named) {
        2
    } else {
        1
    }
}

/// The pieces of one file in `view`.
pub fn pieces(
    view: FileView,
    facts: &FileFacts,
    lines: &[&str],
    planned: &[Planned],
    flags: &DeclFlags,
    signature_reason: &str,
) -> Vec<Piece> {
    let line_count = lines.len() as u32;
    let full = |(range, score, reason, allowed): &Planned| Piece {
        range: *range,
        signatures: false,
        score: *score,
        reason: reason.clone(),
        allowed: *allowed,
        importance: importance(facts, *range, flags),
        place: None,
    };
    let sig_piece = |d: &Declaration, score: f64| {
        let line = signature_line(d, lines);
        Piece {
            range: LineRange::new(line, line),
            signatures: true,
            score,
            reason: signature_reason.to_owned(),
            allowed: 1,
            importance: 1,
            place: Some(d.lines).filter(|p| p.len() <= super::cut::MAX_PLACE_LINES),
        }
    };
    let mut out: Vec<Piece> = match view {
        FileView::Full => planned.iter().map(full).collect(),
        FileView::Skeleton => {
            let best = planned.iter().map(|p| p.1).fold(0.0, f64::max);
            skeleton_roots(facts, planned)
                .into_iter()
                .map(|d| sig_piece(&facts.decls[d], best))
                .collect()
        }
        FileView::Focused => {
            let mut out = Vec::new();
            for p in planned {
                focus_window(facts, p, flags, &mut |piece| out.push(piece), &|d| {
                    sig_piece(d, p.1)
                });
            }
            out
        }
    };
    out.retain(|p| p.range.start >= 1 && p.range.end <= line_count);
    merge(out)
}

/// A focused file also shows the callables it must keep in full (on the flow, uniquely
/// named) that the plan left out: collapsing the family's other members freed their room.
pub fn add_kept_callables(
    facts: &FileFacts,
    planned: &mut Vec<Planned>,
    must_show: &dyn Fn(DeclIndex) -> bool,
    reason: &dyn Fn(DeclIndex) -> String,
    max_lines: u32,
    line_count: u32,
) {
    for (i, d) in facts.decls.iter().enumerate() {
        let i = i as DeclIndex;
        if !d.kind.is_callable()
            || !must_show(i)
            || planned.iter().any(|p| p.0.contains_line(d.signature_line))
            || line_count == 0
        {
            continue;
        }
        let start = d.lines.start.clamp(1, line_count);
        let end = d.lines.end.clamp(start, line_count);
        let range = LineRange::new(start, end);
        planned.push((range, 0.0, reason(i), range.len().min(max_lines.max(1))));
    }
    planned.sort_by_key(|p| p.0.start);
}

/// The top-level declarations the planned windows touch, in source order: a skeleton
/// shows each by its signature line, standing for the whole declaration. Members are left
/// out: an interchangeable implementation is told apart by its name, not its methods'.
fn skeleton_roots(facts: &FileFacts, planned: &[Planned]) -> Vec<usize> {
    let decls = &facts.decls;
    let touches = |d: &Declaration| planned.iter().any(|p| p.0.overlaps(&d.lines));
    let root_of = |mut i: usize| {
        let mut guard = 0;
        while let Some(p) = decls[i].parent {
            if p as usize >= decls.len() || guard > decls.len() {
                break;
            }
            i = p as usize;
            guard += 1;
        }
        i
    };
    let roots: BTreeSet<usize> = (0..decls.len())
        .filter(|&i| touches(&decls[i]))
        .map(root_of)
        .collect();
    roots.into_iter().take(SKELETON_MAX_LINES).collect()
}

/// One planned window of a focused file: kept declarations in full, the others (and the
/// containers of anything shown) by their signature lines.
fn focus_window(
    facts: &FileFacts,
    planned: &Planned,
    flags: &DeclFlags,
    emit: &mut dyn FnMut(Piece),
    sig: &dyn Fn(&Declaration) -> Piece,
) {
    let (range, score, reason, allowed) = planned;
    let decls = &facts.decls;
    let inside: Vec<usize> = (0..decls.len())
        .filter(|&i| range.contains_line(decls[i].signature_line))
        .collect();
    if inside.is_empty() {
        // Text outside any declaration: nothing to elide.
        emit(Piece {
            range: *range,
            signatures: false,
            score: *score,
            reason: reason.clone(),
            allowed: *allowed,
            importance: 1,
            place: None,
        });
        return;
    }
    let mut covered_until = 0u32;
    let mut parents: HashSet<usize> = HashSet::new();
    for i in inside {
        let d = &decls[i];
        if d.signature_line <= covered_until {
            continue;
        }
        if let Some(p) = d.parent {
            parents.insert(p as usize);
        }
        if (flags.keep_full)(i as DeclIndex) {
            let r = LineRange::new(d.lines.start.max(range.start), d.lines.end.min(range.end));
            covered_until = r.end;
            let imp = if (flags.on_spine)(i as DeclIndex) {
                3
            } else {
                2
            };
            emit(Piece {
                range: r,
                signatures: false,
                score: *score,
                reason: reason.clone(),
                allowed: r.len().min(*allowed),
                importance: imp,
                place: None,
            });
        } else {
            emit(sig(d));
        }
    }
    // The container's line says whose member a shown signature or body is.
    for p in parents {
        if let Some(pd) = decls.get(p)
            && !range.contains_line(pd.signature_line)
        {
            emit(sig(pd));
        }
    }
}

/// Sorts pieces, drops signature lines already inside a full piece, and joins touching
/// full pieces into one. Signature lines stay apart: each stands for its own declaration.
fn merge(mut pieces: Vec<Piece>) -> Vec<Piece> {
    let full: Vec<LineRange> = pieces
        .iter()
        .filter(|p| !p.signatures)
        .map(|p| p.range)
        .collect();
    pieces.retain(|p| !p.signatures || !full.iter().any(|f| f.contains(&p.range)));
    pieces.sort_by(|a, b| {
        (a.range.start, a.range.end)
            .cmp(&(b.range.start, b.range.end))
            .then(a.signatures.cmp(&b.signatures))
    });
    let mut out: Vec<Piece> = Vec::new();
    for p in pieces {
        match out.last_mut() {
            Some(last)
                if !last.signatures && !p.signatures && p.range.start <= last.range.end + 1 =>
            {
                last.range.end = last.range.end.max(p.range.end);
                last.importance = last.importance.max(p.importance);
                last.allowed = last.allowed.saturating_add(p.allowed);
                if p.score > last.score {
                    last.score = p.score;
                }
            }
            Some(last) if p.signatures && last.signatures && p.range == last.range => {}
            Some(last) if p.range.start <= last.range.end => {
                // A full piece overlapping another full piece's tail (or a signature run):
                // show only the lines not shown yet.
                if p.range.end > last.range.end {
                    let start = last.range.end + 1;
                    out.push(Piece {
                        range: LineRange::new(start, p.range.end),
                        ..p
                    });
                }
            }
            _ => out.push(p),
        }
    }
    out
}
