//! The sized path of `explore_code`: plan each file's windows as the plain path does,
//! reshape them by the file's view, then spend the budget by importance.

use std::collections::HashSet;
use std::sync::Arc;

use crate::db::{Db, Workspace, file_index};
use crate::facts::LineRange;
use crate::facts::{DeclIndex, DeclKind, FileFacts};
use crate::graph::{Graph, NodeId};
use crate::search::{FileHit, SearchResult};
use crate::tools::explore_code::{
    ExploreArgs, ExploreResult, ExploredFile, PlannedFile, Window, WindowView, fit_lines,
    make_window_of, node_label, place_windows, plan_file, round_components, round3, slice_lines,
};
use sightline_base::EvidenceLine;

use super::budget::{Bid, select};
use super::classify::{FileSignals, FileView};
use super::cut::MAX_PLACE_LINES;
use super::evidence::{FULL_SHARE, LineEvidence, margin};
use super::family::Families;
use super::is_unasked_test;
use super::named::named_symbols;
use super::spine::flow_spine;
use super::view::signature_line;
use super::view::{DeclFlags, Piece, add_kept_callables, pieces};

/// One shown file while the budget is being spent.
struct Planned<'a> {
    hit: &'a FileHit,
    /// The query terms the file holds ([`crate::search::matched_terms`]).
    matched_terms: Vec<String>,
    facts: Arc<crate::db::FileIndex>,
    text: Arc<str>,
    pieces: Vec<Piece>,
    /// The family of interchangeable implementations a skeleton file is one of.
    alike: Option<String>,
}

/// The limits a sized exploration works within.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Limits {
    /// The character cap (a ceiling, not the sizing rule).
    pub budget: usize,
    /// The margin at which the first file is the answer.
    pub decisive_margin: f64,
}

/// The files whose places offer evidence lines: as many as a report cites (one place per
/// file, five at most); weighing the lines of every shown file costs a query more.
const EVIDENCE_FILES: usize = 5;

/// For a caller that quotes each place's evidence ([`ExploreArgs::evidence_lines`]): the
/// `most` strongest lines with any evidence of each place that its windows do not show,
/// on the place's first window (the caller judges which are worth quoting: a line weaker
/// than a cut would keep may still hold a word the shown lines lack). A place wider than one read ([`MAX_PLACE_LINES`]) offers none: it is cited by
/// its signature, and weighing every line of a long class costs a query more than one
/// quoted line is worth.
fn offer_evidence(
    windows: &mut [(Window, u8)],
    lines: &[&str],
    weight: &dyn Fn(u32) -> f64,
    most: usize,
) {
    let mut done: Vec<LineRange> = Vec::new();
    for i in 0..windows.len() {
        let place = windows[i].0.place();
        if done.contains(&place) || place.len() > MAX_PLACE_LINES {
            continue;
        }
        done.push(place);
        let runs: Vec<LineRange> = windows
            .iter()
            .filter(|(w, _)| w.place() == place)
            .map(|(w, _)| w.lines)
            .collect();
        let shown = |l: u32| runs.iter().any(|r| r.contains_line(l));
        // A place shown whole has nothing more to offer: its lines are not weighed.
        if (place.start..=place.end).all(shown) {
            continue;
        }
        let weighed: Vec<(u32, f64)> = (place.start..=place.end).map(|l| (l, weight(l))).collect();
        let mut strong: Vec<(u32, f64)> = weighed.into_iter().filter(|&(_, w)| w > 0.0).collect();
        strong.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        strong.truncate(most);
        strong.sort_by_key(|x| x.0);
        windows[i].0.evidence = strong
            .into_iter()
            .filter_map(|(l, _)| {
                let text = lines.get(l.checked_sub(1)? as usize)?;
                Some(EvidenceLine {
                    line: l,
                    text: (*text).to_owned(),
                })
            })
            .collect();
    }
}

/// Fills `result.files` (and its truncation flags) for a sized exploration.
pub(crate) fn fill(
    db: &dyn Db,
    ws: Workspace,
    args: &ExploreArgs,
    found: &SearchResult,
    graph: &Graph,
    limits: Limits,
    result: &mut ExploreResult,
) {
    let files = ws.files(db);
    let kind_of = |node: NodeId| -> Option<DeclKind> {
        let file = files.get(graph.file_of(node) as usize)?;
        let decl = graph.decl_of(node)?;
        Some(file_index(db, *file).facts.decls.get(decl as usize)?.kind)
    };
    let named = named_symbols(graph, &args.query, &kind_of);
    let spine = flow_spine(graph, &named);
    let families = Families::new(graph);

    let hits: Vec<&FileHit> = found.files.iter().filter(|h| !is_unasked_test(h)).collect();
    let ranked = hits.clone();
    result.truncation.files = hits.len() > args.max_files as usize;
    let mut planned: Vec<Planned> = Vec::new();
    for hit in hits.into_iter().take(args.max_files as usize) {
        let Some(PlannedFile {
            index,
            text,
            windows,
        }) = plan_file(db, ws, graph, found, hit, args, &mut result.truncation)
        else {
            continue;
        };
        let lines: Vec<&str> = text.lines().collect();
        let label = |node: NodeId| node_label(db, ws, graph, node);
        let signals = FileSignals::of(
            graph,
            hit.file,
            index.facts.decls.len(),
            &spine,
            &named,
            &families,
        );
        let view = signals.view(!spine.is_empty());
        let reason = signature_reason(view, &signals, &label);
        let node = |i: DeclIndex| graph.decl_node(hit.file, i);
        let on_spine = |i: DeclIndex| spine.contains(&node(i));
        let is_named = |i: DeclIndex| named.contains(node(i));
        let keep_full = |i: DeclIndex| {
            on_spine(i)
                || named.unique_callables.contains(&node(i))
                || in_family_base(&index.facts, i, &signals.family_bases, &node)
        };
        let flags = DeclFlags {
            on_spine: &on_spine,
            named: &is_named,
            keep_full: &keep_full,
        };
        let mut windows = windows;
        if view == FileView::Focused {
            let must_show = |i: DeclIndex| on_spine(i) || named.unique_callables.contains(&node(i));
            let why = |i: DeclIndex| {
                if on_spine(i) {
                    "on the traced flow".to_owned()
                } else {
                    "named by the query".to_owned()
                }
            };
            add_kept_callables(
                &index.facts,
                &mut windows,
                &must_show,
                &why,
                args.max_lines_per_file,
                lines.len() as u32,
            );
        }
        let pieces = pieces(view, &index.facts, &lines, &windows, &flags, &reason);
        let alike = match (view, signals.sibling_of) {
            (FileView::Skeleton, Some((base, n))) => {
                Some(format!("{n} implementations of {}", label(base)))
            }
            _ => None,
        };
        planned.push(Planned {
            hit,
            matched_terms: crate::search::matched_terms(db, files[hit.file as usize], &found.terms),
            facts: index,
            text,
            pieces,
            alike,
        });
    }
    let name_of = |s: &crate::search::SymbolHit| {
        let file = files.get(graph.file_of(s.node) as usize)?;
        let decl = graph.decl_of(s.node)?;
        Some(
            file_index(db, *file)
                .facts
                .decls
                .get(decl as usize)?
                .name
                .clone(),
        )
    };
    let evidence = LineEvidence::new(found, &name_of);
    let ctx = Spend {
        found,
        graph,
        evidence: &evidence,
        decisive: margin(&ranked) >= limits.decisive_margin,
        budget: limits.budget,
        evidence_lines: args.evidence_lines as usize,
    };
    spend(planned, &ctx, result);
}

/// What spending needs besides the planned files.
struct Spend<'a> {
    found: &'a SearchResult,
    graph: &'a Graph,
    evidence: &'a LineEvidence<'a>,
    /// The first file outscores the next by the decisive margin.
    decisive: bool,
    budget: usize,
    /// Most evidence lines each place offers ([`ExploreArgs::evidence_lines`]).
    evidence_lines: usize,
}

/// Whether declaration `i` is a family base declared in this file or one of its members.
fn in_family_base(
    facts: &FileFacts,
    i: DeclIndex,
    bases: &[NodeId],
    node: &dyn Fn(DeclIndex) -> NodeId,
) -> bool {
    let mut cur = Some(i);
    let mut steps = 0;
    while let Some(d) = cur {
        if bases.contains(&node(d)) {
            return true;
        }
        steps += 1;
        if steps > facts.decls.len() {
            break;
        }
        cur = facts.decls.get(d as usize).and_then(|x| x.parent);
    }
    false
}

/// Why signature-only windows of a file are shown that way.
fn signature_reason(
    view: FileView,
    signals: &FileSignals,
    label: &dyn Fn(NodeId) -> String,
) -> String {
    match view {
        FileView::Skeleton => match signals.sibling_of {
            Some((base, n)) => format!(
                "skeleton: one of {n} implementations of {}, off the traced flow",
                label(base)
            ),
            None => "skeleton: off the traced flow".to_owned(),
        },
        FileView::Focused => {
            let bases: Vec<String> = signals.family_bases.iter().map(|&b| label(b)).collect();
            format!(
                "focused view: declares {} and its implementations; other members by signature",
                bases.join(", ")
            )
        }
        FileView::Full => String::new(),
    }
}

/// Most lines a body shows in a sized exploration: longer ones are cut to their evidence.
/// About one screen: enough for a function's head and the lines that matched.
pub(crate) const BODY_LINES: u32 = 30;

/// Bodies shown besides the first file's best place and the traced flow: the strongest
/// other places, by their own evidence.
const MORE_BODIES: usize = 3;
/// Lines kept of a weak place outside any declaration (matched by its text alone).
const TEXT_LINES: u32 = 3;

/// What the evidence decided for one piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Detail {
    /// Its lines (cut to its evidence when longer than its allowance).
    Body,
    /// The signature line of the declaration it opens, standing for the whole place.
    Signature,
}

/// Sizes every file's pieces to the evidence, then keeps what fits the character cap, and
/// builds the shown files in rank order.
fn spend(planned: Vec<Planned>, ctx: &Spend, result: &mut ExploreResult) {
    let Spend {
        found,
        graph,
        evidence,
        decisive,
        budget,
        evidence_lines,
    } = *ctx;
    let lines_of: Vec<Vec<&str>> = planned.iter().map(|p| p.text.lines().collect()).collect();
    // A piece's own evidence: the best name (and literal) match among the declarations it
    // opens, not what spread to them over edges.
    let own = |rank: usize, piece: &Piece| -> f64 {
        let p = &planned[rank];
        found
            .symbols
            .iter()
            .filter(|s| graph.file_of(s.node) == p.hit.file)
            .filter(|s| {
                graph
                    .decl_of(s.node)
                    .and_then(|d| p.facts.facts.decls.get(d as usize))
                    .is_some_and(|d| piece.range.contains_line(d.signature_line))
            })
            .map(|s| s.own_score())
            .fold(0.0, f64::max)
    };
    let owns: Vec<Vec<f64>> = planned
        .iter()
        .enumerate()
        .map(|(rank, p)| p.pieces.iter().map(|piece| own(rank, piece)).collect())
        .collect();
    let best_own = owns.iter().flatten().copied().fold(0.0, f64::max);
    // The first file's best piece is always shown: there must be something to read.
    let lead = planned.first().and_then(|p| {
        p.pieces
            .iter()
            .enumerate()
            .filter(|(_, x)| !x.signatures)
            .max_by(|(i, a), (j, b)| {
                (owns[0][*i], a.score)
                    .partial_cmp(&(owns[0][*j], b.score))
                    .unwrap_or(std::cmp::Ordering::Equal)
                    .then(j.cmp(i))
            })
            .map(|(i, _)| i)
    });
    let wanted = |rank: usize, i: usize, piece: &Piece| -> (Detail, bool) {
        if piece.signatures {
            return (Detail::Signature, false);
        }
        // The first file's best place, and the traced flow between the names the query
        // wrote, are what the question asks to read.
        if (rank == 0 && Some(i) == lead) || piece.importance >= 3 {
            return (Detail::Body, false);
        }
        // A decisive answer shows its own file; the others are runners-up.
        if decisive && rank > 0 {
            return (Detail::Signature, false);
        }
        // A place whose own name says as much as the best place's.
        let strong = best_own > 0.0 && owns[rank][i] >= FULL_SHARE * best_own;
        if strong {
            (Detail::Body, true)
        } else {
            (Detail::Signature, false)
        }
    };
    // Strong places beyond the first few are listed by signature: past them, another body
    // costs more than the reader gains from it.
    let mut contenders: Vec<(usize, usize)> = Vec::new();
    let mut details: Vec<Vec<Detail>> = Vec::new();
    for (rank, p) in planned.iter().enumerate() {
        let mut row = Vec::new();
        for (i, piece) in p.pieces.iter().enumerate() {
            let (d, contends) = wanted(rank, i, piece);
            if contends {
                contenders.push((rank, i));
            }
            row.push(d);
        }
        details.push(row);
    }
    contenders.sort_by(|&(ra, ia), &(rb, ib)| {
        owns[rb][ib]
            .total_cmp(&owns[ra][ia])
            .then(
                planned[rb].pieces[ib]
                    .score
                    .total_cmp(&planned[ra].pieces[ia].score),
            )
            .then((ra, ia).cmp(&(rb, ib)))
    });
    for &(rank, i) in contenders.iter().skip(MORE_BODIES) {
        details[rank][i] = Detail::Signature;
    }
    // Text outside any declaration has no signature to stand for it: it keeps a few lines.
    let detail = |rank: usize, i: usize, piece: &Piece| -> (Detail, u32) {
        let facts = &planned[rank].facts.facts;
        let declares = facts
            .decls
            .iter()
            .any(|d| piece.range.contains_line(d.signature_line));
        match details[rank][i] {
            Detail::Signature if !declares && !piece.signatures => (Detail::Body, TEXT_LINES),
            d => (d, BODY_LINES),
        }
    };
    // Each window with the importance it bids with when the cap binds.
    let mut per_file: Vec<Vec<(Window, u8)>> = Vec::new();
    for (rank, p) in planned.iter().enumerate() {
        let lines = &lines_of[rank];
        let facts = &p.facts.facts;
        let weight = |l: u32| {
            l.checked_sub(1)
                .and_then(|i| lines.get(i as usize))
                .map_or(0.0, |t| evidence.weight(t))
        };
        let mut windows: Vec<(Window, u8)> = Vec::new();
        for (i, piece) in p.pieces.iter().enumerate() {
            let (detail, body_lines) = detail(rank, i, piece);
            match detail {
                Detail::Body => windows.extend(
                    place_windows(
                        facts,
                        lines,
                        piece.range,
                        piece.score,
                        &piece.reason,
                        piece.allowed.min(body_lines),
                        &weight,
                    )
                    .into_iter()
                    .map(|w| (w, piece.importance + 1)),
                ),
                Detail::Signature if piece.signatures => {
                    let text = slice_lines(lines, piece.range);
                    let mut w = make_window_of(
                        facts,
                        piece.range,
                        piece.place,
                        piece.score,
                        piece.reason.clone(),
                        text,
                        false,
                    );
                    w.view = WindowView::Signatures;
                    w.alike = p.alike.clone();
                    windows.push((w, 1));
                }
                Detail::Signature => {
                    if let Some(w) =
                        signature_window(facts, lines, piece.range, piece.score, &piece.reason)
                    {
                        windows.push((w, 1));
                    }
                }
            }
        }
        if evidence_lines > 0 && rank < EVIDENCE_FILES {
            offer_evidence(&mut windows, lines, &weight, evidence_lines);
        }
        per_file.push(windows);
    }
    mark_copies(&mut per_file);
    // The character cap is a ceiling, not the sizing rule: when it binds, pieces go by
    // importance (signature lines, then bodies of later files) and file rank.
    let mut bids = Vec::new();
    let mut owner = Vec::new();
    for (rank, windows) in per_file.iter().enumerate() {
        for (i, (w, importance)) in windows.iter().enumerate() {
            bids.push(Bid {
                file_rank: rank,
                importance: *importance,
                score: w.score,
                start: w.lines.start,
                chars: w.text.len(),
            });
            owner.push((rank, i));
        }
    }
    let chosen = select(&bids, budget);
    let mut used: usize = bids
        .iter()
        .zip(&chosen)
        .filter(|(_, c)| **c)
        .map(|(b, _)| b.chars)
        .sum();
    if chosen.iter().any(|c| !c) {
        result.truncation.chars = true;
        result.truncation.windows_left_out += chosen.iter().filter(|c| !**c).count() as u32;
    }
    let shown: HashSet<(usize, usize)> = owner
        .iter()
        .zip(&chosen)
        .filter(|(_, c)| **c)
        .map(|(o, _)| *o)
        .collect();
    for (rank, (p, windows)) in planned.iter().zip(per_file).enumerate() {
        let first = windows.first().map(|(w, _)| w.clone());
        let mut kept: Vec<Window> = windows
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shown.contains(&(rank, *i)))
            .map(|(_, (w, _))| w)
            .collect();
        if kept.is_empty() {
            // Always show something of a chosen file: the lines of its first window that fit.
            if let Some(w) = first
                && let Some(r) = fit_lines(&lines_of[rank], w.lines, budget.saturating_sub(used))
            {
                let text = slice_lines(&lines_of[rank], r);
                used += text.len();
                let mut cut = make_window_of(
                    &p.facts.facts,
                    r,
                    Some(w.place()).filter(|pl| pl.len() <= MAX_PLACE_LINES),
                    w.score,
                    w.reason.clone(),
                    text,
                    true,
                );
                cut.view = w.view;
                kept.push(cut);
            }
        }
        if kept.is_empty() {
            continue;
        }
        result.files.push(ExploredFile {
            path: graph.paths[p.hit.file as usize].clone(),
            score: round3(p.hit.score),
            components: round_components(&p.hit.components),
            matched_terms: p.matched_terms.clone(),
            windows: kept,
        });
    }
}

/// Marks signature lines that repeat another file's (the same declaration, the same
/// signature: a mirrored package, a bundled copy) as look-alikes of the first of them.
fn mark_copies(per_file: &mut [Vec<(Window, u8)>]) {
    let key = |w: &Window| {
        let s = w.symbols.first()?;
        Some((s.qualified.clone(), w.text.trim().to_owned()))
    };
    let mut files_of: std::collections::HashMap<(String, String), Vec<usize>> =
        std::collections::HashMap::new();
    for (rank, windows) in per_file.iter().enumerate() {
        for (w, _) in windows
            .iter()
            .filter(|(w, _)| w.view == WindowView::Signatures)
        {
            if let Some(k) = key(w) {
                let files = files_of.entry(k).or_default();
                if !files.contains(&rank) {
                    files.push(rank);
                }
            }
        }
    }
    for windows in per_file.iter_mut() {
        for (w, _) in windows.iter_mut() {
            if w.view != WindowView::Signatures || w.alike.is_some() {
                continue;
            }
            if let Some(k) = key(w)
                && files_of.get(&k).is_some_and(|f| f.len() > 1)
            {
                w.alike = Some(format!("copies of {}", k.0));
            }
        }
    }
}

/// The signature line of the outermost declaration `range` opens, as a window standing
/// for the whole range (when that range could be read as one place).
fn signature_window(
    facts: &FileFacts,
    lines: &[&str],
    range: LineRange,
    score: f64,
    reason: &str,
) -> Option<Window> {
    let line = facts
        .decls
        .iter()
        .find(|d| range.contains_line(d.signature_line))
        .map(|d| signature_line(d, lines))
        .filter(|l| range.contains_line(*l))
        .unwrap_or(range.start);
    let shown = LineRange::new(line, line);
    let text = slice_lines(lines, shown);
    if text.trim().is_empty() {
        return None;
    }
    let place = (range.len() <= MAX_PLACE_LINES).then_some(range);
    let mut w = make_window_of(facts, shown, place, score, reason.to_owned(), text, false);
    w.view = WindowView::Signatures;
    Some(w)
}
