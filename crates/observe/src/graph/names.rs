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

/// Declaration nodes by exact name; see the module doc.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
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
}

fn hash_of(name: &str) -> u64 {
    let mut h = FxHasher::default();
    name.hash(&mut h);
    h.finish()
}

impl NameTable {
    /// The table of `(name, node)` pairs given in node order; `capacity` is how many.
    pub fn build<'a>(entries: impl Iterator<Item = (&'a str, NodeId)>, capacity: usize) -> Self {
        let mut t = NameTable::default();
        t.by_hash.reserve(capacity / 2);
        let mut counts: Vec<u32> = Vec::with_capacity(capacity / 2);
        let mut grouped: Vec<(u32, NodeId)> = Vec::with_capacity(capacity);
        for (name, node) in entries {
            let hash = hash_of(name);
            let group = match t.find(name, hash) {
                Some(g) => g,
                None => {
                    let g = t.ends.len() as u32;
                    let previous = t.by_hash.insert(hash, g).unwrap_or(END);
                    t.chain.push(previous);
                    t.text.push_str(name);
                    t.ends.push(t.text.len() as u32);
                    counts.push(0);
                    g
                }
            };
            counts[group as usize] += 1;
            grouped.push((group, node));
        }
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
        let g = self.find(name, hash_of(name))? as usize;
        Some(&self.nodes[self.starts[g] as usize..self.starts[g + 1] as usize])
    }

    /// Whether any declaration is named `name`.
    pub fn contains_key(&self, name: &str) -> bool {
        self.find(name, hash_of(name)).is_some()
    }

    /// How many distinct names.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the graph declares nothing.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }
}

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
