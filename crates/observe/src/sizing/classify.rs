//! How one file is shown: in full, as a skeleton of signatures, or as a focused view.
//! The decision reads graph structure only: the flow spine, family supertypes and the
//! callables the query names.

use std::collections::HashSet;

use crate::graph::{Graph, NodeId};

use super::family::Families;
use super::named::Named;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileView {
    /// The planned windows, verbatim.
    Full,
    /// Declaration signature lines only: an interchangeable implementation off the flow.
    Skeleton,
    /// Full bodies for flow, uniquely named and family-base members; signatures elsewhere.
    Focused,
}

/// What the graph says about one file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FileSignals {
    /// A declaration of the file lies on the flow spine.
    pub on_spine: bool,
    /// The family supertype a class of the file extends or implements, with its size.
    pub sibling_of: Option<(NodeId, usize)>,
    /// Family supertypes the file itself declares.
    pub family_bases: Vec<NodeId>,
    /// The query names a (near-)unique callable declared here.
    pub names_unique_callable: bool,
}

impl FileSignals {
    pub fn of(
        graph: &Graph,
        file: u32,
        decl_count: usize,
        spine: &HashSet<NodeId>,
        named: &Named,
        families: &Families,
    ) -> FileSignals {
        let mut s = FileSignals::default();
        for i in 0..decl_count as u32 {
            let node = graph.decl_node(file, i);
            s.on_spine |= spine.contains(&node);
            s.names_unique_callable |= named.unique_callables.contains(&node);
            if let Some((base, n)) = families.family_of(node)
                && s.sibling_of.is_none_or(|(_, m)| n > m)
            {
                s.sibling_of = Some((base, n));
            }
            if families.is_family_base(node) {
                s.family_bases.push(node);
            }
        }
        s
    }

    /// The view the sizing rules give this file. Without a spine there is no flow to size
    /// around, so every file stays full.
    pub fn view(&self, spine_exists: bool) -> FileView {
        if !spine_exists || self.sibling_of.is_none() {
            return FileView::Full;
        }
        // A base co-located with its subclasses is large and read anyway: naming one of its
        // callables does not buy the whole file, only that member's body.
        if !self.family_bases.is_empty() {
            return FileView::Focused;
        }
        if self.on_spine || self.names_unique_callable {
            return FileView::Full;
        }
        FileView::Skeleton
    }
}
