//! Conformance helpers for the tests of language crates and of the pipeline (feature
//! `testing`): the invariants every language's facts keep ([`check_facts`]) and
//! property-test strategies for random and language-like text ([`fragments`]).
//!
//! A language crate's property tests are a few lines:
//!
//! ```ignore
//! proptest! {
//!     #[test]
//!     fn facts_of_random_text_keep_the_invariants(text in any::<String>()) {
//!         check_facts(&MyLanguage.extract(0, &text));
//!     }
//!     #[test]
//!     fn facts_of_language_like_text_keep_the_invariants(text in fragments(MY_FRAGMENTS)) {
//!         check_facts(&MyLanguage.extract(0, &text));
//!     }
//! }
//! ```

use proptest::prelude::*;

use crate::facts::FileFacts;
use crate::language::{Dialect, Language};
use crate::syntax::{RECEIVER_CHARS, SIGNATURE_CHARS};

/// Text made of 0 to 80 pieces drawn from `pieces` (tokens and snippets of a language):
/// reaches far more of a grammar than random characters do.
pub fn fragments(pieces: &'static [&'static str]) -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(pieces), 0..80).prop_map(|v| v.concat())
}

/// Panics unless the grammar `language` names for `dialect` (if any) is the one its
/// `extract` parses with, as far as `text` tells: the tree has errors exactly when the
/// facts count some.
pub fn check_grammar(language: &dyn Language, dialect: Dialect, text: &str) {
    let Some(grammar) = language.grammar(dialect) else {
        return;
    };
    let mut parser = tree_sitter::Parser::new();
    parser
        .set_language(&grammar)
        .expect("a grammar of this tree-sitter version");
    let facts = language.extract(dialect, text);
    if let Some(tree) = parser.parse(text, None) {
        assert_eq!(
            tree.root_node().has_error(),
            facts.parse_errors > 0,
            "{} dialect {dialect}: tree errors vs {} counted",
            language.name(),
            facts.parse_errors
        );
    }
}

/// Panics unless `facts` keep the invariants of every language's facts: every line within
/// the file, a declaration's signature line inside it, parents before their children and
/// containing them, usages and heritage naming existing declarations, bounded excerpts.
pub fn check_facts(facts: &FileFacts) {
    let in_file = |line: u32| (1..=facts.line_count).contains(&line);
    for (i, d) in facts.decls.iter().enumerate() {
        assert!(in_file(d.lines.start) && in_file(d.lines.end), "decl {d:?}");
        assert!(
            d.lines.contains_line(d.signature_line),
            "signature of {d:?}"
        );
        assert!(d.bytes.start <= d.bytes.end, "bytes of {d:?}");
        assert!(d.signature.chars().count() <= SIGNATURE_CHARS);
        assert!(!d.name.is_empty(), "unnamed {d:?}");
        if let Some(p) = d.parent {
            assert!((p as usize) < i, "parent after child: {d:?}");
            let parent = &facts.decls[p as usize];
            assert!(
                parent.lines.contains(&d.lines),
                "{parent:?} does not contain {d:?}"
            );
            assert!(d.qualified.starts_with(&parent.qualified));
        }
        if let Some(owner) = &d.attached_to {
            assert!(!owner.is_empty(), "attached to an empty name: {d:?}");
        }
    }
    for u in &facts.usages {
        assert!(in_file(u.line), "usage {u:?}");
        assert!(u.enclosing.is_none_or(|e| (e as usize) < facts.decls.len()));
        assert!(u.receiver.chars().count() <= RECEIVER_CHARS);
        assert!(!u.name.is_empty());
    }
    for i in &facts.imports {
        assert!(in_file(i.line), "import {i:?}");
    }
    for h in &facts.heritage {
        assert!(in_file(h.line) && (h.decl as usize) < facts.decls.len());
    }
    assert!(facts.error_lines.len() <= 8 && facts.error_lines.iter().all(|&l| in_file(l)));
}

pub mod toy;
