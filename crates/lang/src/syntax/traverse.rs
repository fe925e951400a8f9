//! The depth-first walk every language's extractor runs over a tree-sitter tree: one
//! cursor, no recursion (deeply nested sources cannot overflow the stack), and no frame for
//! anonymous leaves.

use tree_sitter::Node;

/// What an extractor does at each step of [`traverse`].
pub trait Visit<'t> {
    /// A named node, or an anonymous one with children, is entered (`field` is the
    /// cursor's field id, 0 for none).
    fn enter(&mut self, node: Node<'t>, field: u16);
    /// The node entered last whose subtree is done is left.
    fn leave(&mut self);
    /// An anonymous leaf the parser inserted to recover (a missing token).
    fn missing_leaf(&mut self, node: Node<'t>);
}

/// Visits `root`'s subtree in document order.
pub fn traverse<'t>(root: Node<'t>, v: &mut impl Visit<'t>) {
    let mut cursor = root.walk();
    'nodes: loop {
        let node = cursor.node();
        // Anonymous leaves (punctuation, keywords) are about half of all nodes and carry no
        // facts of their own (tokens like `default` are read by their parent), so they get
        // no frame; only a missing one is reported.
        if node.is_named() || node.child_count() > 0 {
            let field = cursor.field_id().map_or(0, |f| f.get());
            v.enter(node, field);
            if cursor.goto_first_child() {
                continue;
            }
            v.leave();
        } else if node.is_missing() {
            v.missing_leaf(node);
        }
        loop {
            if cursor.goto_next_sibling() {
                continue 'nodes;
            }
            if !cursor.goto_parent() {
                return;
            }
            // Only entered nodes have children, so the parent was entered.
            v.leave();
        }
    }
}

/// Lines of syntax errors kept per file (the count is always exact).
const MAX_ERROR_LINES: usize = 8;

/// A 1-based line for a 0-based row, clamped into a file of `line_count` lines.
#[inline]
pub fn line_of(row: usize, line_count: u32) -> u32 {
    let line = u32::try_from(row.saturating_add(1)).unwrap_or(u32::MAX);
    line.min(line_count).max(1)
}

/// The last 0-based row a node covers: a node ending at a line's column 0 ends on the row
/// before.
#[inline]
pub fn end_row(node: Node<'_>) -> usize {
    let end = node.end_position();
    if end.column == 0 && end.row > node.start_position().row {
        end.row - 1
    } else {
        end.row
    }
}

/// Counts a syntax error at `node` and keeps its line (the first few, each once).
#[inline]
pub fn record_error(facts: &mut crate::facts::FileFacts, node: Node<'_>) {
    facts.parse_errors = facts.parse_errors.saturating_add(1);
    let line = line_of(node.start_position().row, facts.line_count);
    let lines = &mut facts.error_lines;
    if lines.len() < MAX_ERROR_LINES && lines.last() != Some(&line) {
        lines.push(line);
    }
}

/// Counts one error at `root` when its tree has errors but the walk recorded none: a
/// missing token tree-sitter inserts as a direct leaf of the root (at the end of some
/// truncated files) is not reached by the cursor, and a file must not read as cleanly
/// parsed when its tree says otherwise.
pub fn count_unreached_error(facts: &mut crate::facts::FileFacts, root: Node<'_>) {
    if facts.parse_errors == 0 && root.has_error() {
        record_error(facts, root);
    }
}

/// Records a usage of `name` (with `receiver`, for a member) on `at`'s line inside the
/// declaration `enclosing`; an empty name (an elided one) records nothing.
#[inline]
pub fn push_usage(
    facts: &mut crate::facts::FileFacts,
    (kind, name, receiver): (crate::facts::UsageKind, &str, String),
    at: Node<'_>,
    enclosing: Option<u32>,
) {
    if name.is_empty() {
        return;
    }
    let line = line_of(at.start_position().row, facts.line_count);
    facts.usages.push(crate::facts::Usage {
        kind,
        name: name.into(),
        receiver: receiver.into_boxed_str(),
        line,
        enclosing,
    });
}

/// A byte offset or count as the `u32` facts store, saturating: a file too large for it is
/// refused long before, so saturation only keeps hostile input from panicking.
#[inline]
pub fn to_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// `node.child_by_field_id` that treats the "absent field" id 0 as no child.
#[inline]
pub fn field_child<'t>(node: Node<'t>, field: u16) -> Option<Node<'t>> {
    if field == 0 {
        None
    } else {
        node.child_by_field_id(field)
    }
}
