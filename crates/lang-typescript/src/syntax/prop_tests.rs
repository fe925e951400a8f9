//! Property tests: extraction never panics and its facts are internally consistent, on
//! arbitrary text and on text assembled from source-like fragments (which reaches far more
//! of the grammar than random characters do).

use proptest::prelude::*;

use sightline_lang::Language;
use sightline_lang::testing::{check_facts as check, check_grammar, fragments};

use crate::{TSX, TYPESCRIPT, TypeScript};

#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    "class A ", "extends B ", "implements C, D<E> ", "{", "}", "(", ")", "[", "]", "<", ">",
    "/>", "</", "export ", "default ", "const x = ", "let ", "function f", "async ", "() => ",
    "=> ", "m() ", "@dec ", "@dec() ", "interface I ", "type T = ", "enum E ", "namespace N ",
    "declare ", "module \"m\" ", "import ", "* as ns ", "from './x'", "{ a as b }", "require('r')",
    "import('d')", "new X()", "this.s.save()", "<Foo.Bar>", "<div>", "\n", "\n\n", ";", ",", ":",
    "?", ".", "'", "\"", "`", "${", "//", "/*", "*/", "abstract ", "get ", "static ", "#p ",
    "{ k: () => 1, m() {} }", "return [{ h() {}, k: function () {}, j: () => { } }]", " ", "é",
    "\r\n", "\u{0}",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn syntax_prop_arbitrary_text(text in any::<String>()) {
        check(&TypeScript.extract(TYPESCRIPT, &text));
        check(&TypeScript.extract(TSX, &text));
    }

    #[test]
    fn syntax_prop_source_like_text(text in fragments(FRAGMENTS)) {
        check(&TypeScript.extract(TYPESCRIPT, &text));
        check(&TypeScript.extract(TSX, &text));
        check_grammar(&TypeScript, TYPESCRIPT, &text);
        check_grammar(&TypeScript, TSX, &text);
    }
}
