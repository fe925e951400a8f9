//! Property tests: extraction never panics and its facts keep the shared invariants, on
//! arbitrary text and on text assembled from Python-like fragments.

use proptest::prelude::*;

use sightline_lang::Language;
use sightline_lang::testing::{check_facts, check_grammar, fragments};

use crate::Python;

#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    "class A", "(Base, m.Mixin, Generic[T], metaclass=M)", ":", "\n", "    ", "\t", "def f", "async ",
    "(self, x: int = 1, *args, **kw)", " -> None", "@dec\n", "@app.route('/')\n", "pass",
    "return ", "self.save()", "Client()", "X = 1", "x: int", " = lambda y: y", "type T = int",
    "import a.b.c", "import a as b", "from . import x", "from ..m import (a, b as c)",
    "from .t import *", "from __future__ import annotations", "\"\"\"doc\"\"\"", "# c",
    "if x:", "else:", "try:", "except E as e:", "with open(p) as f:", "for i in r:", "[", "]",
    "(", ")", "{", "}", ",", ".", "'", "\"", "é", "\r\n", "\u{0}", "yield ", "await ",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn syntax_prop_python_arbitrary_text(text in any::<String>()) {
        check_facts(&Python.extract(0, &text));
    }

    #[test]
    fn syntax_prop_python_like_text(text in fragments(FRAGMENTS)) {
        check_facts(&Python.extract(0, &text));
        check_grammar(&Python, 0, &text);
    }
}
