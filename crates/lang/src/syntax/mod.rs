//! What every tree-sitter extractor shares: the parse-then-walk frame
//! ([`extract_tree`]), the cursor walk ([`traverse`]), bounded text helpers ([`text`]), a
//! per-thread parser ([`parse`]), the table of types the code states for receivers
//! ([`stated`]) and the limits that keep facts linear in a file's size.

pub mod stated;
pub mod text;
pub mod traverse;

use std::cell::RefCell;
use std::thread::LocalKey;

use tree_sitter::{Parser, Tree};

use crate::facts::FileFacts;

/// Longest dotted prefix a qualified name keeps. Deeper nesting elides the prefix to
/// [`ELIDED`], so qualified names cost at most this much per declaration and a file of
/// 40,000 nested literals takes memory linear in its size, not quadratic.
pub const MAX_QUALIFIED_PREFIX: usize = 160;

/// What stands for an elided qualified-name prefix.
pub const ELIDED: &str = "…";

/// Characters a declaration's signature keeps at most.
pub const SIGNATURE_CHARS: usize = 200;

/// Characters a usage's receiver keeps at most.
pub const RECEIVER_CHARS: usize = 80;

/// A parser slot of one grammar on each thread: creating a parser and setting its
/// language costs more than parsing a small file, so each extractor keeps one per thread
/// (`thread_local! { static PARSER: ParserSlot = const { RefCell::new(None) }; }`).
pub type ParserSlot = RefCell<Option<Parser>>;

/// Parses `text` with `grammar`, reusing the thread's parser in `slot`. `None` when the
/// grammar cannot be loaded (an ABI mismatch) or tree-sitter gives up; never panics.
pub fn parse(
    slot: &'static LocalKey<ParserSlot>,
    grammar: &tree_sitter::Language,
    text: &str,
) -> Option<Tree> {
    let parse_with = |parser: &mut Parser| {
        let tree = parser.parse(text, None);
        if tree.is_none() {
            // A failed parse can leave state behind; the next file must start clean.
            parser.reset();
        }
        tree
    };
    let fresh = || {
        let mut parser = Parser::new();
        parser.set_language(grammar).ok()?;
        Some(parser)
    };
    slot.with(|cell| match cell.try_borrow_mut() {
        Ok(mut parser) => {
            let parser = match &mut *parser {
                Some(parser) => parser,
                empty => empty.insert(fresh()?),
            };
            parse_with(parser)
        }
        // Only reachable through re-entrancy; a throwaway parser keeps it correct.
        Err(_) => parse_with(&mut fresh()?),
    })
}

/// The facts of `text`: parsed with `grammar` on this thread's parser in `slot`, then
/// `walk` (given the tree and the line count) extracts them. Never panics: text
/// tree-sitter cannot parse yields facts with only `line_count`; a tree error the walk
/// could not reach is still counted ([`traverse::count_unreached_error`]).
pub fn extract_tree(
    slot: &'static LocalKey<ParserSlot>,
    grammar: &tree_sitter::Language,
    text: &str,
    walk: impl FnOnce(&Tree, u32) -> FileFacts,
) -> FileFacts {
    let line_count = crate::count_lines(text);
    match parse(slot, grammar, text) {
        Some(tree) => {
            let mut facts = walk(&tree, line_count);
            traverse::count_unreached_error(&mut facts, tree.root_node());
            facts
        }
        None => FileFacts {
            line_count,
            ..FileFacts::default()
        },
    }
}

/// An FxHash-style multiplicative hasher for an extractor's tables of short name keys:
/// fast on identifiers (a large share of all nodes), not for keys chosen to collide.
#[derive(Default)]
pub struct NameHasher(u64);

impl std::hash::Hasher for NameHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, n: u64) {
        self.0 = (self.0.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u32(&mut self, n: u32) {
        self.write_u64(u64::from(n));
    }
    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }
    fn write_u8(&mut self, n: u8) {
        self.write_u64(u64::from(n));
    }
    fn finish(&self) -> u64 {
        self.0
    }
}
