//! Polymorphic families: a supertype with at least [`MIN_IMPLEMENTATIONS`] classes that
//! extend or implement it. Its implementations are interchangeable to a reader who has
//! seen the contract and one example; the signal comes from real heritage edges only.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

use crate::graph::{EdgeKind, Graph, NodeId};

/// Fewer implementations than this is a plain interface/implementation pair, not a family.
pub const MIN_IMPLEMENTATIONS: usize = 3;

fn is_heritage(kind: EdgeKind) -> bool {
    matches!(kind, EdgeKind::Extends | EdgeKind::Implements)
}

/// Implementation counts, computed on demand and remembered.
pub struct Families<'g> {
    graph: &'g Graph,
    counts: RefCell<HashMap<NodeId, usize>>,
}

impl<'g> Families<'g> {
    pub fn new(graph: &'g Graph) -> Self {
        Families {
            graph,
            counts: RefCell::new(HashMap::new()),
        }
    }

    /// How many distinct declarations extend or implement `node`.
    pub fn implementations(&self, node: NodeId) -> usize {
        if let Some(&n) = self.counts.borrow().get(&node) {
            return n;
        }
        let subs: HashSet<NodeId> = self
            .graph
            .incoming(node)
            .filter(|e| is_heritage(e.kind))
            .map(|e| e.from)
            .collect();
        self.counts.borrow_mut().insert(node, subs.len());
        subs.len()
    }

    /// Whether `node` is the supertype of a family.
    pub fn is_family_base(&self, node: NodeId) -> bool {
        self.implementations(node) >= MIN_IMPLEMENTATIONS
    }

    /// The family supertype `node` extends or implements, if any (the largest family).
    pub fn family_of(&self, node: NodeId) -> Option<(NodeId, usize)> {
        self.graph
            .outgoing(node)
            .iter()
            .filter(|e| is_heritage(e.kind))
            .map(|e| (e.to, self.implementations(e.to)))
            .filter(|&(_, n)| n >= MIN_IMPLEMENTATIONS)
            .max_by_key(|&(to, n)| (n, std::cmp::Reverse(to)))
    }
}
