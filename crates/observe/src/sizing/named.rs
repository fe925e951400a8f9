//! The declarations a query names: an identifier written in the query that is exactly the
//! name of a declaration. Names defined in many places say little about which one the
//! caller means, so they are kept out; uniqueness is measured over the repository's
//! definitions, never over a list of words.

use std::collections::{HashMap, HashSet};

use crate::facts::DeclKind;
use crate::graph::{Graph, MAX_NAME_CANDIDATES, NodeId};
use crate::terms::identifier_tokens;

/// A name with more definitions than this is too common to pick out a flow
/// (`run`, `get`, `handle` in a repository full of them).
pub const MAX_NAMED_DEFINITIONS: usize = 8;
/// A named callable is (near-)unique when at most this many callables share its name:
/// naming it asks for that body, not for one of a family of overrides.
pub const NEAR_UNIQUE_DEFINITIONS: usize = 2;
/// Identifiers shorter than this are too short to be a deliberate name.
const MIN_NAME_LEN: usize = 3;

/// What the query names, resolved against the graph.
#[derive(Clone, Debug, Default)]
pub struct Named {
    /// Declaration nodes whose name the query wrote.
    pub nodes: HashSet<NodeId>,
    /// The subset whose name has at most as many definitions as the graph itself would
    /// guess a call target among: these are traced for the flow spine. A name shared by a
    /// whole family of overrides (`run` in every step) names the family, not a step.
    pub traced: HashSet<NodeId>,
    /// The subset that are callables whose name is (near-)unique among the repository's
    /// callables.
    pub unique_callables: HashSet<NodeId>,
}

impl Named {
    pub fn contains(&self, node: NodeId) -> bool {
        self.nodes.contains(&node)
    }
}

/// Resolves the query's identifiers to declaration nodes. `kind_of` answers a node's
/// declaration kind (the graph stores nodes, the facts store kinds).
pub fn named_symbols(
    graph: &Graph,
    query: &str,
    kind_of: &dyn Fn(NodeId) -> Option<DeclKind>,
) -> Named {
    let mut named = Named::default();
    let mut seen: HashSet<&str> = HashSet::new();
    for token in identifier_tokens(query) {
        if token.len() < MIN_NAME_LEN || !seen.insert(token) {
            continue;
        }
        let Some(nodes) = graph.names.get(token) else {
            continue;
        };
        // Fields are data, not steps of a flow; they never make a name count.
        let kinds: HashMap<NodeId, DeclKind> = nodes
            .iter()
            .filter_map(|&n| Some((n, kind_of(n)?)))
            .filter(|(_, k)| *k != DeclKind::Property)
            .collect();
        if kinds.is_empty() || kinds.len() > MAX_NAMED_DEFINITIONS {
            continue;
        }
        let callables = kinds.values().filter(|k| k.is_callable()).count();
        let traced = kinds.len() <= MAX_NAME_CANDIDATES;
        for (&node, kind) in &kinds {
            named.nodes.insert(node);
            if traced {
                named.traced.insert(node);
            }
            if kind.is_callable() && callables <= NEAR_UNIQUE_DEFINITIONS {
                named.unique_callables.insert(node);
            }
        }
    }
    named
}
