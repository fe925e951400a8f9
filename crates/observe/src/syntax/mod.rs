//! Tree-sitter extraction of per-file syntax facts.
//!
//! One traversal of the syntax tree yields declarations, imports, usages and heritage
//! clauses as plain data (`FileFacts`); the tree is dropped before returning. Parsers are
//! reused per thread; the per-language lookup tables are built once per process.

mod decls;
mod grammar;
mod imports;
mod python;
mod text;
mod traverse;
mod usages;
mod walk;

#[cfg(test)]
mod prop_tests;
#[cfg(test)]
mod tests;

use std::cell::RefCell;

use tree_sitter::{Parser, Tree};

use crate::facts::{FileFacts, Lang};

thread_local! {
    /// One parser per language per thread: creating a parser and setting its language costs
    /// more than parsing a small file.
    static PARSERS: RefCell<[Option<Parser>; 3]> = const { RefCell::new([None, None, None]) };
}

/// Extracts the syntax facts of one file with its language's extractor. Never panics:
/// text tree-sitter cannot parse yields facts with only `line_count`, and syntax errors are
/// counted, not fatal.
pub fn extract_facts(lang: Lang, text: &str) -> FileFacts {
    lang.language().extract_facts(lang, text)
}

/// TypeScript and JavaScript facts (see [`crate::lang::TypeScript`]).
pub(crate) fn extract_script(lang: Lang, text: &str) -> FileFacts {
    let line_count = text::line_count(text);
    let grammar = grammar::grammar(lang == Lang::TypeScript);
    match parse(lang, text) {
        Some(tree) => walk::Extractor::run(grammar, text, &tree, line_count),
        None => FileFacts {
            line_count,
            ..FileFacts::default()
        },
    }
}

/// Python facts (see [`crate::lang::Python`]).
pub(crate) fn extract_python(text: &str) -> FileFacts {
    let line_count = text::line_count(text);
    match parse(Lang::Python, text) {
        Some(tree) => python::extract(text, &tree, line_count),
        None => FileFacts {
            line_count,
            ..FileFacts::default()
        },
    }
}

fn parse(lang: Lang, text: &str) -> Option<Tree> {
    let slot = match lang {
        Lang::TypeScript => 0,
        Lang::Tsx => 1,
        Lang::Python => 2,
    };
    let parse_with = |parser: &mut Parser| {
        let tree = parser.parse(text, None);
        if tree.is_none() {
            // A failed parse can leave state behind; the next file must start clean.
            parser.reset();
        }
        tree
    };
    PARSERS.with(|cell| match cell.try_borrow_mut() {
        Ok(mut parsers) => {
            let parser = match &mut parsers[slot] {
                Some(parser) => parser,
                empty => empty.insert(new_parser(lang)?),
            };
            parse_with(parser)
        }
        // Only reachable through re-entrancy; a throwaway parser keeps it correct.
        Err(_) => parse_with(&mut new_parser(lang)?),
    })
}

fn new_parser(lang: Lang) -> Option<Parser> {
    let mut parser = Parser::new();
    let language = match lang {
        Lang::TypeScript => &grammar::grammar(true).language,
        Lang::Tsx => &grammar::grammar(false).language,
        Lang::Python => &python::python_grammar().language,
    };
    parser.set_language(language).ok()?;
    Some(parser)
}
