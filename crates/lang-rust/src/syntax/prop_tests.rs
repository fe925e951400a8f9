//! Property tests: extraction never panics and its facts keep the shared invariants, on
//! arbitrary text and on text assembled from Rust-like fragments.

use proptest::prelude::*;

use sightline_lang::Language;
use sightline_lang::testing::{check_facts, check_grammar, fragments};

use crate::Rust;

#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    "pub ", "pub(crate) ", "fn f", "(&self, x: u8)", " -> Self", "{", "}", "(", ")", "<T: Clone>",
    "struct S", "enum E", "trait T: A + B", "impl ", "impl<T> X for Y<T> ", "for ", "mod m",
    "mod m;", "#[path = \"x.rs\"]\n", "#[cfg(test)]\n", "#[derive(Debug)]\n", "/// doc\n",
    "use crate::a::{b, c as d, self, *};", "use super::*;", "pub use x::Y;", "extern crate a;",
    "macro_rules! m { ($x:expr) => { $x } }", "m!(a, b(c));", "Self::new()", "self.go()",
    "a::b::c()", "Foo { x: 1 }", "let (a, b) = c;", "match x { A(y) => {}, _ => {} }",
    "|x| x", "'a", "\"s\"", "r#type", "const C: u8 = 1;", "static S: &str = \"\";",
    "type T = u8;", ";", ",", "::", ".", "\n", "    ", "é", "\r\n", "\u{0}", "/*", "*/", "//",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn syntax_prop_rust_arbitrary_text(text in any::<String>()) {
        check_facts(&Rust.extract(0, &text));
    }

    #[test]
    fn syntax_prop_rust_like_text(text in fragments(FRAGMENTS)) {
        check_facts(&Rust.extract(0, &text));
        check_grammar(&Rust, 0, &text);
    }
}
