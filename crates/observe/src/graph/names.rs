//! The graph's declaration nodes by exact name.
//!
//! Rebuilt with every assembly, so built without an allocation per name: the names are
//! packed in one string and the nodes in one list, grouped by name, and a map from each
//! name's hash leads to its group (names whose hashes collide are chained, so a lookup is
//! exact).

use std::hash::{Hash, Hasher};

use rustc_hash::{FxHashMap, FxHasher};

use super::NodeId;

/// No further group in a hash chain.
const END: u32 = u32::MAX;

/// Declaration nodes by exact name; see the module doc. Equality is by what the table
/// answers (each name's nodes), not by how its groups are numbered: a table
/// [`NameTable::rebuilt`] from another equals the one [`NameTable::build`] gives.
#[derive(Clone, Debug, Default)]
pub struct NameTable {
    /// Each name's hash → the last group added with that hash.
    by_hash: FxHashMap<u64, u32>,
    /// The group added before group `g` with the same hash ([`END`]: none).
    chain: Vec<u32>,
    /// Every group's name, packed: group `g`'s ends at `ends[g]`.
    text: String,
    ends: Vec<u32>,
    /// Group `g`'s nodes are `nodes[starts[g]..starts[g + 1]]`, in node order.
    starts: Vec<u32>,
    nodes: Vec<NodeId>,
    /// Groups with at least one node (a rebuilt table keeps the groups of names no
    /// declaration has any more, empty).
    names: usize,
}

fn hash_of(name: &str) -> u64 {
    let mut h = FxHasher::default();
    name.hash(&mut h);
    h.finish()
}

impl NameTable {
    /// Heap bytes of the table.
    pub(crate) fn heap_bytes(&self) -> usize {
        let buckets = (self.by_hash.capacity() * 8 / 7).next_power_of_two();
        buckets * 13
            + (self.chain.capacity() + self.ends.capacity() + self.starts.capacity()) * 4
            + self.text.capacity()
            + self.nodes.capacity() * std::mem::size_of::<NodeId>()
    }
}

impl NameTable {
    /// The table of `(name, node)` pairs given in node order; `capacity` is how many.
    pub fn build<'a>(entries: impl Iterator<Item = (&'a str, NodeId)>, capacity: usize) -> Self {
        let mut t = NameTable::default();
        t.by_hash.reserve(capacity / 2);
        let mut counts: Vec<u32> = Vec::with_capacity(capacity / 2);
        let mut grouped: Vec<(u32, NodeId)> = Vec::with_capacity(capacity);
        for (name, node) in entries {
            let group = t.group_of(name);
            if group as usize == counts.len() {
                counts.push(0);
            }
            counts[group as usize] += 1;
            grouped.push((group, node));
        }
        t.names = counts.len();
        t.starts = Vec::with_capacity(counts.len() + 1);
        t.starts.push(0);
        let mut total = 0;
        for c in &counts {
            total += c;
            t.starts.push(total);
        }
        // Each group's next free slot; filled in node order, so each group stays sorted.
        let mut next: Vec<u32> = t.starts[..counts.len()].to_vec();
        t.nodes = vec![NodeId::default(); grouped.len()];
        for (group, node) in grouped {
            let slot = &mut next[group as usize];
            t.nodes[*slot as usize] = node;
            *slot += 1;
        }
        t
    }

    /// The group of `name`, added (numbered after every other) when the table has none.
    fn group_of(&mut self, name: &str) -> u32 {
        let hash = hash_of(name);
        if let Some(g) = self.find(name, hash) {
            return g;
        }
        let g = self.ends.len() as u32;
        let previous = self.by_hash.insert(hash, g).unwrap_or(END);
        self.chain.push(previous);
        self.text.push_str(name);
        self.ends.push(self.text.len() as u32);
        g
    }

    /// The table [`NameTable::build`] gives when the files whose positions are marked in
    /// `changed` now have the declaration nodes `added` (in node order), and every other
    /// file the nodes it had: their nodes are copied group by group, without hashing a
    /// name again, and only `added` is looked up. Node ids of unchanged files must not have
    /// moved (the file list is the same).
    pub fn rebuilt<'a>(
        &self,
        changed: &[bool],
        added: impl Iterator<Item = (&'a str, NodeId)>,
    ) -> NameTable {
        let mut t = NameTable {
            by_hash: self.by_hash.clone(),
            chain: self.chain.clone(),
            text: self.text.clone(),
            ends: self.ends.clone(),
            ..NameTable::default()
        };
        let mut extra: Vec<(u32, NodeId)> =
            added.map(|(name, node)| (t.group_of(name), node)).collect();
        extra.sort_unstable();
        let kept = |n: &&NodeId| !changed.get(n.file as usize).copied().unwrap_or(false);
        t.starts.reserve(t.ends.len() + 1);
        t.nodes.reserve(self.nodes.len() + extra.len());
        t.starts.push(0);
        let mut extra = extra.into_iter().peekable();
        for g in 0..t.ends.len() {
            let old: &[NodeId] = match g + 1 < self.starts.len() {
                true => &self.nodes[self.starts[g] as usize..self.starts[g + 1] as usize],
                false => &[],
            };
            let mut old = old.iter().filter(kept).copied().peekable();
            // Both runs are in node order: merge them.
            loop {
                let new = extra
                    .peek()
                    .filter(|(group, _)| *group as usize == g)
                    .map(|e| e.1);
                match (old.peek().copied(), new) {
                    (Some(a), Some(b)) if b < a => {
                        t.nodes.push(b);
                        extra.next();
                    }
                    (Some(a), _) => {
                        t.nodes.push(a);
                        old.next();
                    }
                    (None, Some(b)) => {
                        t.nodes.push(b);
                        extra.next();
                    }
                    (None, None) => break,
                }
            }
            let start = *t.starts.last().unwrap_or(&0);
            t.starts.push(t.nodes.len() as u32);
            if t.nodes.len() as u32 > start {
                t.names += 1;
            }
        }
        t
    }

    /// Group `g`'s nodes.
    fn nodes_of(&self, group: u32) -> &[NodeId] {
        let g = group as usize;
        &self.nodes[self.starts[g] as usize..self.starts[g + 1] as usize]
    }

    fn name(&self, group: u32) -> &str {
        let g = group as usize;
        let start = if g == 0 { 0 } else { self.ends[g - 1] as usize };
        &self.text[start..self.ends[g] as usize]
    }

    fn find(&self, name: &str, hash: u64) -> Option<u32> {
        let mut g = *self.by_hash.get(&hash)?;
        while g != END {
            if self.name(g) == name {
                return Some(g);
            }
            g = self.chain[g as usize];
        }
        None
    }

    /// The declaration nodes named exactly `name`, in node order.
    pub fn get(&self, name: &str) -> Option<&[NodeId]> {
        let nodes = self.nodes_of(self.find(name, hash_of(name))?);
        (!nodes.is_empty()).then_some(nodes)
    }

    /// Whether any declaration is named `name`.
    pub fn contains_key(&self, name: &str) -> bool {
        self.get(name).is_some()
    }

    /// Every name with at least one declaration and its nodes, in no particular order (for
    /// suggestions when a name is unknown: a scan, not a lookup).
    pub fn iter(&self) -> impl Iterator<Item = (&str, &[NodeId])> {
        (0..self.ends.len() as u32)
            .map(|g| (self.name(g), self.nodes_of(g)))
            .filter(|(_, nodes)| !nodes.is_empty())
    }

    /// How many distinct names.
    pub fn len(&self) -> usize {
        self.names
    }

    /// Whether the graph declares nothing.
    pub fn is_empty(&self) -> bool {
        self.names == 0
    }
}

impl PartialEq for NameTable {
    fn eq(&self, other: &NameTable) -> bool {
        if self.names != other.names {
            return false;
        }
        let same_layout = self.ends == other.ends
            && self.text == other.text
            && self.starts == other.starts
            && self.nodes == other.nodes;
        // As many names on both sides, and each of this one's found with the same nodes
        // in the other: the same names.
        same_layout
            || (0..self.ends.len() as u32).all(|g| {
                let nodes = self.nodes_of(g);
                nodes.is_empty() || other.get(self.name(g)) == Some(nodes)
            })
    }
}

impl Eq for NameTable {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nodes_group_by_exact_name_in_node_order() {
        let n = |file| NodeId::module(file);
        let entries = [("load", 1), ("save", 2), ("load", 5), ("", 6), ("Load", 7)];
        let t = NameTable::build(entries.map(|(name, f)| (name, n(f))).into_iter(), 5);
        assert_eq!(t.get("load"), Some(&[n(1), n(5)][..]));
        assert_eq!(t.get("save"), Some(&[n(2)][..]));
        assert_eq!(t.get("Load"), Some(&[n(7)][..]));
        assert_eq!(t.get(""), Some(&[n(6)][..]));
        assert_eq!(t.get("lo"), None);
        assert!(t.contains_key("save") && !t.contains_key("saves"));
        assert_eq!(t.len(), 4);
    }

    #[test]
    fn names_whose_hashes_collide_stay_apart() {
        // Force a collision by chaining two names under one hash by hand.
        let entries = [("a", NodeId::module(1)), ("b", NodeId::module(2))];
        let mut t = NameTable::build(entries.into_iter(), 2);
        let (ha, hb) = (hash_of("a"), hash_of("b"));
        let gb = t.by_hash.remove(&hb).unwrap();
        t.chain[gb as usize] = t.by_hash[&ha];
        t.by_hash.insert(ha, gb);
        assert_eq!(t.find("a", ha).map(|g| t.name(g)), Some("a"));
        assert_eq!(t.find("b", ha).map(|g| t.name(g)), Some("b"));
        assert_eq!(t.find("c", ha), None);
    }
}

#[cfg(test)]
mod rebuilt_tests {
    use proptest::prelude::*;

    use super::*;

    /// Declaration names per file: a few names shared between files, so groups mix.
    fn files() -> impl Strategy<Value = Vec<Vec<&'static str>>> {
        let name = proptest::sample::select(&["a", "b", "load", "save", "Load", "x1"][..]);
        proptest::collection::vec(proptest::collection::vec(name, 0..5), 1..6)
    }

    fn entries(files: &[Vec<&'static str>]) -> Vec<(&'static str, NodeId)> {
        files
            .iter()
            .enumerate()
            .flat_map(|(f, names)| {
                names
                    .iter()
                    .enumerate()
                    .map(move |(d, n)| (*n, NodeId::decl(f as u32, d as u32)))
            })
            .collect()
    }

    proptest! {
        /// A table rebuilt after some files' declarations changed answers like one built
        /// from scratch, name for name, and equals it.
        #[test]
        fn a_rebuilt_table_is_the_built_one(
            before in files(),
            after in files(),
            pick in proptest::collection::vec(any::<bool>(), 6),
        ) {
            // Files not picked keep their declarations; the file count stays.
            let after: Vec<Vec<&str>> = before
                .iter()
                .enumerate()
                .map(|(i, old)| match pick[i] {
                    true => after.get(i).cloned().unwrap_or_default(),
                    false => old.clone(),
                })
                .collect();
            let changed: Vec<bool> = (0..before.len()).map(|i| pick[i]).collect();
            let old = NameTable::build(entries(&before).into_iter(), 8);
            let added = entries(&after)
                .into_iter()
                .filter(|(_, n)| changed[n.file as usize]);
            let rebuilt = old.rebuilt(&changed, added);
            let built = NameTable::build(entries(&after).into_iter(), 8);
            for name in ["a", "b", "load", "save", "Load", "x1", "absent"] {
                prop_assert_eq!(rebuilt.get(name), built.get(name), "{}", name);
            }
            prop_assert_eq!(rebuilt.len(), built.len());
            prop_assert_eq!(&rebuilt, &built);
        }
    }
}
