//! Tree-sitter extraction of TypeScript and JavaScript facts.
//!
//! One traversal of the syntax tree yields declarations, imports, usages and heritage
//! clauses as plain data (`FileFacts`); the tree is dropped before returning. Parsers are
//! reused per thread; the grammar's lookup tables are built once per process.

mod decls;
mod grammar;
mod imports;
mod scope;
mod usages;
mod walk;

#[cfg(test)]
mod prop_tests;
#[cfg(test)]
mod tests;

use sightline_lang::FileFacts;
use sightline_lang::syntax::{ParserSlot, extract_tree};

pub(crate) use decls::DEFAULT_NAME;

thread_local! {
    static TYPESCRIPT_PARSER: ParserSlot = const { std::cell::RefCell::new(None) };
    static TSX_PARSER: ParserSlot = const { std::cell::RefCell::new(None) };
}

/// The grammar [`extract`] parses with: TypeScript's (`typescript`) or TSX's.
pub(crate) fn language(typescript: bool) -> tree_sitter::Language {
    grammar::grammar(typescript).language.clone()
}

/// The facts of one file, parsed with the TypeScript grammar (`typescript`) or the TSX
/// grammar that also parses JavaScript. Never panics: text tree-sitter cannot parse yields
/// facts with only `line_count`, and syntax errors are counted, not fatal.
pub(crate) fn extract(typescript: bool, text: &str) -> FileFacts {
    let grammar = grammar::grammar(typescript);
    let slot = if typescript {
        &TYPESCRIPT_PARSER
    } else {
        &TSX_PARSER
    };
    extract_tree(slot, &grammar.language, text, |tree, line_count| {
        walk::Extractor::run(grammar, text, tree, line_count)
    })
}
