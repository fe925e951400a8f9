//! Visiting order of a repository's tasks. Task files are not in history order, so in file
//! order consecutive bases can differ in most files; walking them as a nearest-neighbour
//! chain (by how many files differ) makes each refresh the small, realistic update the
//! incremental-index measurement is meant to be. Metrics do not depend on the order.

use std::collections::HashMap;

/// A tree as sorted (path, blob id) pairs.
pub type Tree = Vec<(String, String)>;

/// Files that differ between two trees: changed, added or removed.
pub fn distance(a: &Tree, b: &Tree) -> usize {
    let bm: HashMap<&str, &str> = b.iter().map(|(p, id)| (p.as_str(), id.as_str())).collect();
    let mut same = 0;
    for (p, id) in a {
        if bm.get(p.as_str()) == Some(&id.as_str()) {
            same += 1;
        }
    }
    a.len() + b.len() - 2 * same
}

/// Greedy nearest-neighbour chain starting at the first tree; ties go to the earlier task,
/// so the order is deterministic.
pub fn chain(trees: &[Tree]) -> Vec<usize> {
    let n = trees.len();
    let mut order = Vec::with_capacity(n);
    let mut left: Vec<usize> = (1..n).collect();
    if n == 0 {
        return order;
    }
    order.push(0);
    while !left.is_empty() {
        let cur = *order.last().expect("non-empty");
        let (pos, _) = left
            .iter()
            .enumerate()
            .min_by_key(|(_, j)| (distance(&trees[cur], &trees[**j]), **j))
            .expect("non-empty");
        order.push(left.remove(pos));
    }
    order
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tree(files: &[(&str, &str)]) -> Tree {
        files
            .iter()
            .map(|(p, id)| ((*p).to_owned(), (*id).to_owned()))
            .collect()
    }

    #[test]
    fn distance_counts_changed_added_and_removed() {
        let a = tree(&[("a", "1"), ("b", "1"), ("c", "1")]);
        let b = tree(&[("a", "1"), ("b", "2"), ("d", "1")]);
        // b changed (2), c removed (1), d added (1).
        assert_eq!(distance(&a, &b), 4);
        assert_eq!(distance(&a, &a), 0);
    }

    #[test]
    fn chain_walks_to_the_nearest_tree_next() {
        let t0 = tree(&[("a", "0")]);
        let far = tree(&[("a", "9"), ("b", "9"), ("c", "9")]);
        let near = tree(&[("a", "1")]);
        assert_eq!(chain(&[t0, far, near]), [0, 2, 1]);
        assert!(chain(&[]).is_empty());
    }
}
