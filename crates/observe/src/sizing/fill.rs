//! The sized path of `explore_code`: plan each file's windows as the plain path does,
//! reshape them by the file's view, then spend the budget by importance.

use std::collections::HashSet;
use std::sync::Arc;

use crate::db::{Db, Workspace, file_index};
use crate::facts::{DeclIndex, DeclKind, FileFacts};
use crate::graph::{Graph, NodeId};
use crate::search::{FileHit, SearchResult};
use crate::tools::explore_code::{
    ExploreArgs, ExploreResult, ExploredFile, PlannedFile, WindowView, fit_lines, make_window,
    node_label, plan_file, round_components, round3, slice_lines,
};

use super::budget::{Bid, select};
use super::classify::{FileSignals, FileView};
use super::family::Families;
use super::is_unasked_test;
use super::named::named_symbols;
use super::spine::flow_spine;
use super::view::{DeclFlags, Piece, add_kept_callables, pieces};

/// One shown file while the budget is being spent.
struct Planned<'a> {
    hit: &'a FileHit,
    facts: Arc<crate::db::FileIndex>,
    text: Arc<str>,
    pieces: Vec<Piece>,
}

/// Fills `result.files` (and its truncation flags) for a sized exploration.
pub(crate) fn fill(
    db: &dyn Db,
    ws: Workspace,
    args: &ExploreArgs,
    found: &SearchResult,
    graph: &Graph,
    budget: usize,
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
        planned.push(Planned {
            hit,
            facts: index,
            text,
            pieces,
        });
    }
    spend(planned, budget, result);
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

/// Spends the budget over every file's pieces and builds the shown files in rank order.
fn spend(planned: Vec<Planned>, budget: usize, result: &mut ExploreResult) {
    let lines_of: Vec<Vec<&str>> = planned.iter().map(|p| p.text.lines().collect()).collect();
    let mut bids = Vec::new();
    let mut owner = Vec::new();
    for (rank, p) in planned.iter().enumerate() {
        for (i, piece) in p.pieces.iter().enumerate() {
            bids.push(Bid {
                file_rank: rank,
                importance: piece.importance,
                score: piece.score,
                start: piece.range.start,
                chars: slice_lines(&lines_of[rank], piece.range).len(),
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
    for (rank, p) in planned.iter().enumerate() {
        let lines = &lines_of[rank];
        let facts = &p.facts.facts;
        let mut windows = Vec::new();
        for (i, piece) in p.pieces.iter().enumerate() {
            if !shown.contains(&(rank, i)) {
                continue;
            }
            let text = slice_lines(lines, piece.range);
            let mut w = make_window(
                facts,
                piece.range,
                piece.score,
                piece.reason.clone(),
                text,
                piece.truncated,
            );
            if piece.signatures {
                w.view = WindowView::Signatures;
            }
            windows.push(w);
        }
        if windows.is_empty() {
            // Always show something of a chosen file: the lines of its best piece that fit.
            let best = p
                .pieces
                .iter()
                .max_by_key(|x| (x.importance, std::cmp::Reverse(x.range.start)));
            if let Some(piece) = best
                && let Some(r) = fit_lines(lines, piece.range, budget.saturating_sub(used))
            {
                let text = slice_lines(lines, r);
                used += text.len();
                let mut w = make_window(facts, r, piece.score, piece.reason.clone(), text, true);
                if piece.signatures {
                    w.view = WindowView::Signatures;
                }
                windows.push(w);
            }
        }
        if windows.is_empty() {
            continue;
        }
        result.files.push(ExploredFile {
            path: p.hit.path.clone(),
            score: round3(p.hit.score),
            components: round_components(&p.hit.components),
            matched_terms: p.hit.matched_terms.clone(),
            windows,
        });
    }
}
