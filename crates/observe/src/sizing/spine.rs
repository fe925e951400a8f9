//! The flow spine: the declarations that connect the symbols a query names through call,
//! render, instantiation and reference edges. A connection is a direct edge between two
//! named symbols or a path through one unnamed bridge; longer flows are chains of such
//! connections, so at most one unnamed declaration ever sits between two named ones.

use std::collections::HashSet;

use crate::graph::{Edge, EdgeKind, Graph, NodeId};

use super::named::Named;

/// A bridge with more edges than this is a utility everything touches (a logger, an
/// assertion); a path through it connects nothing in particular.
const BRIDGE_MAX_DEGREE: usize = 40;
/// At most this many named symbols are traced; a query naming more is a list, not a flow.
const MAX_TRACED: usize = 64;

/// An edge a flow moves along. A class's reference to the supertype it extends or
/// implements is its heritage clause, not a step of any flow.
fn is_flow(graph: &Graph, e: &Edge) -> bool {
    matches!(
        e.kind,
        EdgeKind::Calls | EdgeKind::Renders | EdgeKind::Instantiates | EdgeKind::References
    ) && !(e.kind == EdgeKind::References
        && graph
            .outgoing(e.from)
            .iter()
            .any(|h| h.to == e.to && matches!(h.kind, EdgeKind::Extends | EdgeKind::Implements)))
}

/// The named symbol a node stands for: itself, or the named declaration that contains it
/// (a method stands for its named class).
fn named_owner(graph: &Graph, named: &Named, node: NodeId) -> Option<NodeId> {
    if named.traced.contains(&node) {
        return Some(node);
    }
    graph
        .incoming(node)
        .find(|e| e.kind == EdgeKind::Contains && named.traced.contains(&e.from))
        .map(|e| e.from)
}

/// Where paths from a named symbol start: the symbol and, for a container, its members.
fn starts(graph: &Graph, node: NodeId) -> Vec<NodeId> {
    let mut out = vec![node];
    out.extend(
        graph
            .outgoing(node)
            .iter()
            .filter(|e| e.kind == EdgeKind::Contains)
            .map(|e| e.to),
    );
    out
}

fn degree(graph: &Graph, node: NodeId) -> usize {
    graph.outgoing(node).len() + graph.incoming(node).count()
}

/// The nodes on connecting paths between named symbols (named endpoints and bridges).
/// Empty when no two named symbols connect: then there is no flow to size around.
pub fn flow_spine(graph: &Graph, named: &Named) -> HashSet<NodeId> {
    let mut traced: Vec<NodeId> = named.traced.iter().copied().collect();
    traced.sort_unstable();
    traced.truncate(MAX_TRACED);
    let mut spine = HashSet::new();
    for &origin in &traced {
        for start in starts(graph, origin) {
            for e in graph.outgoing(start).iter().filter(|e| is_flow(graph, e)) {
                let next = e.to;
                match named_owner(graph, named, next) {
                    Some(owner) if owner != origin => {
                        spine.extend([start, next]);
                    }
                    Some(_) => {}
                    None => {
                        // A bridge is unnamed: a family override reached by name is the
                        // family's dispatch, not one step of this flow.
                        if graph.decl_of(next).is_none()
                            || named.contains(next)
                            || degree(graph, next) > BRIDGE_MAX_DEGREE
                        {
                            continue;
                        }
                        for e2 in graph.outgoing(next).iter().filter(|e| is_flow(graph, e)) {
                            if let Some(owner) = named_owner(graph, named, e2.to)
                                && owner != origin
                            {
                                spine.extend([start, next, e2.to]);
                            }
                        }
                    }
                }
            }
        }
    }
    spine
}
