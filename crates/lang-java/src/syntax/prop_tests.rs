//! Property tests: extraction never panics and its facts keep the shared invariants, on
//! arbitrary text and on text assembled from Java-like fragments.

use proptest::prelude::*;

use sightline_lang::Language;
use sightline_lang::testing::{check_facts, check_grammar, fragments};

use crate::Java;

#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    "package a.b;", "import a.b.C;", "import static a.b.C.m;", "import a.*;", "\n", "    ",
    "public ", "private ", "static ", "final ", "abstract ", "class A", "interface I",
    "enum E", "record R(int x)", "@interface N", " extends B<T>", " implements I, J",
    "{", "}", "(", ")", ";", ",", ".", "<", ">", "void m()", "int x = 1", "A(int a)",
    "@Override ", "@A(x = 1) ", "return ", "new T()", "new T() { void r() {} }",
    "this.f()", "super.f()", "a.b.c()", "T::m", "x -> x", "(a, b) -> {}", "X.Y.Z",
    "throws E", "try {", "catch (E e)", "switch (x) { case A -> 1; }", "\"s\"", "'c'",
    "// c", "/* c */", "/** doc */", "é", "\r\n", "\u{0}", "...", "[]", "?", ":",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn syntax_prop_java_arbitrary_text(text in any::<String>()) {
        check_facts(&Java.extract(0, &text));
    }

    #[test]
    fn syntax_prop_java_like_text(text in fragments(FRAGMENTS)) {
        check_facts(&Java.extract(0, &text));
        check_grammar(&Java, 0, &text);
    }
}
