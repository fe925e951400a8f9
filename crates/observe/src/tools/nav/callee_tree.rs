//! The call tree below a declaration: what it uses, and under each function it calls,
//! what that function calls in turn, as far as a line budget and a depth allow.
//!
//! An agent asking "how does X reach Y" read X's body, then the bodies of what X calls,
//! to see the calls: a flat list of X's callees answered the first step only. The tree
//! answers several steps in one listing, one line per call, from the graph's edges.
//!
//! Which functions are followed is decided breadth first, so each is followed where the
//! fewest calls reach it: at one depth, a function of the target's own file before one of
//! another file (the flow through a module usually stays in it; an exit to another file
//! is shown, and followed when the budget allows), then in call order. A function whose
//! calls do not fit in the lines left is not followed, rather than listed in part. Each
//! function is followed once, wherever that order reaches it first.
//!
//! Below the target's own uses, only calls the graph resolved, of functions outside tests
//! and examples, are listed and followed. A guess by name (`?`) may be another
//! declaration's body, and each function's guesses listed under it crowded out the
//! resolved flow; the flow of primary code does not run its tests. The target's own uses
//! are listed as in a flat answer, guesses included.

use std::cmp::Reverse;
use std::collections::BinaryHeap;

use rustc_hash::FxHashSet;

use super::DeclAt;
use super::references::{CalleeHit, UseKind, direct_callees};
use crate::db::{Db, Workspace};
use crate::facts::DeclKind;
use crate::graph::{Graph, NodeId};
use crate::path_traits::path_traits;
use sightline_lang::Languages;

/// Levels of calls a callee answer lists by default: the target's own uses only. With
/// the tree as the MCP server's default (4 levels), agents in three flow-question A/B runs
/// (8 questions each) used it as a map and still read the bodies: median characters per
/// question 7,031 against 4,632 with the flat list, calls 3.79 against 3.25. The tree is
/// asked for by depth (`sightline references --callees --depth 4`, or a library caller).
pub const DEFAULT_CALLEE_DEPTH: u32 = 1;
/// Largest accepted depth; larger values are lowered to it.
pub const MAX_CALLEE_DEPTH: u32 = 12;

/// What [`build`] lists.
pub(crate) struct CalleeTree {
    /// The hits in depth-first order ([`CalleeHit::depth`]).
    pub calls: Vec<CalleeHit>,
    /// The target's own uses not listed.
    pub more: usize,
    /// Functions reached whose calls were not listed.
    pub unfollowed: usize,
}

/// A listed hit, with its node and the hits listed under it.
struct Entry {
    node: NodeId,
    hit: CalleeHit,
    children: Vec<usize>,
}

/// The call tree below `target`: its own uses first (at most `max`), then, best first,
/// the calls of the functions it reaches, while lines remain of `max` and levels of
/// `depth` (see the module's documentation).
pub(crate) fn build(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    target: &DeclAt,
    max: usize,
    depth: u32,
) -> CalleeTree {
    let depth = depth.clamp(1, MAX_CALLEE_DEPTH);
    let languages = db.languages();
    let mut own = direct_callees(db, ws, graph, target);
    let more = own.len().saturating_sub(max);
    own.truncate(max);
    let mut entries: Vec<Entry> = Vec::new();
    let mut roots: Vec<usize> = Vec::new();
    // Breadth first, so a function is followed where it is reached in fewest calls; at
    // one depth, functions of the target's file first, then in the order they were listed.
    let mut frontier: BinaryHeap<Reverse<(u32, bool, usize)>> = BinaryHeap::new();
    let target_file = target.position;
    let push = |frontier: &mut BinaryHeap<_>, e: &Entry, i: usize| {
        if e.hit.depth + 1 < depth && followable(languages, &e.hit) {
            frontier.push(Reverse((e.hit.depth, e.node.file != target_file, i)));
        }
    };
    for (node, hit) in own {
        let i = entries.len();
        entries.push(Entry {
            node,
            hit,
            children: Vec::new(),
        });
        roots.push(i);
        push(&mut frontier, &entries[i], i);
    }
    let mut followed: FxHashSet<NodeId> = FxHashSet::default();
    followed.insert(target.node());
    let mut budget = max - entries.len();
    let mut unfollowed = 0;
    while let Some(Reverse((_, _, i))) = frontier.pop() {
        if !followed.insert(entries[i].node) {
            continue;
        }
        let calls = calls_of(db, ws, graph, languages, entries[i].node);
        if calls.len() > budget {
            // Listing part of a function's calls would hide which ones were left out.
            unfollowed += 1;
            continue;
        }
        budget -= calls.len();
        let below = entries[i].hit.depth + 1;
        for (node, mut hit) in calls {
            hit.depth = below;
            let child = entries.len();
            entries.push(Entry {
                node,
                hit,
                children: Vec::new(),
            });
            entries[i].children.push(child);
            push(&mut frontier, &entries[child], child);
        }
    }
    // Functions first reached at the last depth of a tree are not followed: count those
    // that call something. A flat list (depth 1) is not a tree cut short.
    let last: FxHashSet<NodeId> = entries
        .iter()
        .filter(|e| depth > 1 && e.hit.depth + 1 >= depth && followable(languages, &e.hit))
        .map(|e| e.node)
        .filter(|n| !followed.contains(n))
        .collect();
    unfollowed += last
        .into_iter()
        .filter(|&n| !calls_of(db, ws, graph, languages, n).is_empty())
        .count();
    CalleeTree {
        calls: depth_first(entries, &roots),
        more,
        unfollowed,
    }
}

/// The calls listed under a followed function: those the graph resolved, of declarations
/// of primary files (see the module's documentation), in line order.
fn calls_of(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    languages: Languages,
    node: NodeId,
) -> Vec<(NodeId, CalleeHit)> {
    let Some(decl) = node
        .decl_index()
        .and_then(|d| DeclAt::at(db, ws, node.file, d))
    else {
        return Vec::new();
    };
    direct_callees(db, ws, graph, &decl)
        .into_iter()
        .filter(|(_, h)| {
            h.certain && is_call(h.kind) && !path_traits(languages, &h.callee.path).is_secondary()
        })
        .collect()
}

/// Whether a use is a call that runs the callee's body.
fn is_call(kind: UseKind) -> bool {
    matches!(kind, UseKind::Call | UseKind::Render | UseKind::Instantiate)
}

/// Whether the tree follows a hit: a resolved call of a function or method of a primary
/// file (a test's or an example's calls are not the flow being asked about).
fn followable(languages: Languages, hit: &CalleeHit) -> bool {
    let kind = hit.callee.kind.as_str();
    hit.certain
        && matches!(hit.kind, UseKind::Call | UseKind::Render)
        && (kind == DeclKind::Function.as_str() || kind == DeclKind::Method.as_str())
        && !path_traits(languages, &hit.callee.path).is_secondary()
}

/// The hits in depth-first order, each followed by the hits listed under it.
fn depth_first(entries: Vec<Entry>, roots: &[usize]) -> Vec<CalleeHit> {
    let mut order = Vec::with_capacity(entries.len());
    let mut stack: Vec<usize> = roots.iter().rev().copied().collect();
    while let Some(i) = stack.pop() {
        order.push(i);
        stack.extend(entries[i].children.iter().rev().copied());
    }
    let mut hits: Vec<Option<CalleeHit>> = entries.into_iter().map(|e| Some(e.hit)).collect();
    order.into_iter().filter_map(|i| hits[i].take()).collect()
}
