//! Property tests: extraction never panics and its facts keep the shared invariants, on
//! arbitrary text and on text assembled from Go-like fragments.

use proptest::prelude::*;

use sightline_lang::Language;
use sightline_lang::testing::{check_facts, check_grammar, fragments};

use crate::Go;

#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    "package p\n", "import ", "\"fmt\"", "m \"example.com/x/y\"", ". \"d\"", "_ \"e\"", "(", ")",
    "{", "}", "[", "]", "\n", "\t", " ", "func ", "(e *Engine) ", "Run", "(c *Context, xs ...int)",
    " error ", "type ", "T ", "struct", "interface", "*Base\n", "io.Reader\n", "Name, Alias string",
    " `json:\"n\"`", "Serve(c *Context) error\n", "~int | ~string\n", "= Engine\n", "[K comparable, V any]",
    "const ", "var ", "A = iota\n", "x, y = 1, 2\n", "return ", "e.handle()", "fmt.Println(x)",
    "New()", "&Context{Name: n}", "pkg.T[int]{}", "Map[int](xs)", "c := ", "for k, v := range m ",
    "switch t := x.(type) ", "case *Foo:", "go func(a int) { g() }(1)", "defer ", "if err != nil ",
    "// comment\n", "/* c */", "'x'", "\"s\"", "`raw`", "é", "\r\n", "\u{0}", ":=", "=", ",", ".",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn syntax_prop_go_arbitrary_text(text in any::<String>()) {
        check_facts(&Go.extract(0, &text));
    }

    #[test]
    fn syntax_prop_go_like_text(text in fragments(FRAGMENTS)) {
        check_facts(&Go.extract(0, &text));
        check_grammar(&Go, 0, &text);
    }
}
