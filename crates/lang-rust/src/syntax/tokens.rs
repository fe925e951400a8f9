//! What a name among a macro's tokens is next to: whether `!` or `(…)` follows it (a call)
//! and which name stands before its `::` or `.` (its receiver). Worked out once per token
//! tree from its children in order: asking each name's node for its siblings made
//! tree-sitter scan the tree's children from the start for every previous sibling, so a
//! macro body of n tokens cost n² steps.

use tree_sitter::Node;

use sightline_lang::syntax::text::node_text;

/// The neighbours of one name of a token tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Neighbours<'t> {
    /// `!` or a token tree opening with `(` follows the name.
    pub called: bool,
    /// The `identifier` or `self` before a `::` or `.` right before the name, or "".
    pub receiver: &'t str,
}

/// The neighbours of the names of one token tree, in the order the walk meets them.
pub(super) struct TokenNames<'t> {
    names: Vec<(usize, Neighbours<'t>)>,
    next: usize,
}

impl<'t> TokenNames<'t> {
    /// The neighbours of every child of `tree` that `is_name` accepts.
    pub(super) fn of<'n>(
        tree: Node<'n>,
        text: &'t str,
        is_name: impl Fn(Node<'n>) -> bool,
    ) -> Self {
        let mut cursor = tree.walk();
        let kids: Vec<Node<'n>> = tree.children(&mut cursor).collect();
        let names = kids
            .iter()
            .enumerate()
            .filter(|(_, kid)| is_name(**kid))
            .map(|(i, kid)| {
                let before = |n: usize| i.checked_sub(n).and_then(|j| kids.get(j)).copied();
                let neighbours = neighbours(kids.get(i + 1).copied(), before(1), before(2), text);
                (kid.id(), neighbours)
            })
            .collect();
        TokenNames { names, next: 0 }
    }

    /// The neighbours of the name `id`; names the walk passed without asking are skipped.
    /// `None` for a node this tree does not hold.
    pub(super) fn take(&mut self, id: usize) -> Option<Neighbours<'t>> {
        let at = self
            .names
            .get(self.next..)?
            .iter()
            .position(|(n, _)| *n == id)?;
        self.next += at + 1;
        Some(self.names[self.next - 1].1)
    }
}

/// The neighbours of `node` asked of the node itself (its next and previous siblings).
pub(super) fn by_siblings<'t>(node: Node<'_>, text: &'t str) -> Neighbours<'t> {
    let before = node.prev_sibling();
    neighbours(
        node.next_sibling(),
        before,
        before.and_then(|p| p.prev_sibling()),
        text,
    )
}

fn neighbours<'n, 't>(
    next: Option<Node<'n>>,
    before: Option<Node<'n>>,
    two_before: Option<Node<'n>>,
    text: &'t str,
) -> Neighbours<'t> {
    let called = next.is_some_and(|n| {
        n.kind() == "!" || (n.kind() == "token_tree" && n.child(0).is_some_and(|c| c.kind() == "("))
    });
    let receiver = before
        .filter(|p| p.kind() == "::" || p.kind() == ".")
        .and(two_before)
        .filter(|q| matches!(q.kind(), "identifier" | "self"))
        .map_or("", |q| node_text(text, q));
    Neighbours { called, receiver }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;
    use sightline_lang::testing::fragments;

    use super::*;
    use crate::syntax::kinds::{RsKind, rust_grammar};

    #[rustfmt::skip]
    const MACRO_PIECES: &[&str] = &[
        "m!", "(", ")", "[", "]", "{", "}", "a", "B", "self", "crate", "::", ".", "!", ",", ";",
        "$x", "$(", ")*", "=>", "1", "\"s\"", " ", "\n", "/* c */", "// c\n", "r#type",
        "macro_rules! r { ", "fn f() { ", "vec!", "format!", "x.y", "T::new",
    ];

    /// Every token tree's names in `text`, each with the neighbours the table gives and
    /// those the node's own siblings give.
    fn both_ways(text: &str) -> Vec<(Neighbours<'_>, Neighbours<'_>)> {
        let g = rust_grammar();
        let mut parser = tree_sitter::Parser::new();
        parser.set_language(&g.language).unwrap();
        let Some(tree) = parser.parse(text, None) else {
            return Vec::new();
        };
        let is_name = |n| matches!(g.kind(n), RsKind::Identifier | RsKind::TypeIdentifier);
        let mut out = Vec::new();
        let mut stack = vec![tree.root_node()];
        while let Some(node) = stack.pop() {
            let mut cursor = node.walk();
            let kids: Vec<Node<'_>> = node.children(&mut cursor).collect();
            if g.kind(node) == RsKind::TokenTree {
                let mut table = TokenNames::of(node, text, is_name);
                for kid in kids.iter().filter(|k| is_name(**k)) {
                    let from_table = table.take(kid.id()).expect("a name of the tree");
                    out.push((from_table, by_siblings(*kid, text)));
                }
            }
            stack.extend(kids);
        }
        out
    }

    #[test]
    fn macro_names_see_their_neighbours() {
        let text = "fn f() { m!(a::b(), self.c!(), D, e!{}, x . y [z]); }";
        let found: Vec<Neighbours<'_>> = both_ways(text).into_iter().map(|(t, _)| t).collect();
        let n = |called, receiver| Neighbours { called, receiver };
        assert_eq!(
            found,
            // a, b, c, D, e, x, y, then z of the nested `[z]` (`self` is no name)
            [
                n(false, ""),
                n(true, "a"),
                n(true, "self"),
                n(false, ""),
                n(true, ""),
                n(false, ""),
                n(false, "x"),
                n(false, ""),
            ]
        );
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        #[test]
        fn the_table_agrees_with_each_names_siblings(text in fragments(MACRO_PIECES)) {
            for (table, siblings) in both_ways(&text) {
                prop_assert_eq!(table, siblings);
            }
        }
    }
}
