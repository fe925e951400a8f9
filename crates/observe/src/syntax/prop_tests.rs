//! Property tests: extraction never panics and its facts are internally consistent, on
//! arbitrary text and on text assembled from source-like fragments (which reaches far more
//! of the grammar than random characters do).

use proptest::prelude::*;

use super::extract_facts;
use crate::facts::{FileFacts, Lang};

#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    "class A ", "extends B ", "implements C, D<E> ", "{", "}", "(", ")", "[", "]", "<", ">",
    "/>", "</", "export ", "default ", "const x = ", "let ", "function f", "async ", "() => ",
    "=> ", "m() ", "@dec ", "@dec() ", "interface I ", "type T = ", "enum E ", "namespace N ",
    "declare ", "module \"m\" ", "import ", "* as ns ", "from './x'", "{ a as b }", "require('r')",
    "import('d')", "new X()", "this.s.save()", "<Foo.Bar>", "<div>", "\n", "\n\n", ";", ",", ":",
    "?", ".", "'", "\"", "`", "${", "//", "/*", "*/", "abstract ", "get ", "static ", "#p ",
    "{ k: () => 1, m() {} }", " ", "é", "\r\n", "\u{0}",
];

fn source_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(FRAGMENTS), 0..80).prop_map(|v| v.concat())
}

#[rustfmt::skip]
const PY_FRAGMENTS: &[&str] = &[
    "class A", "(Base, m.Mixin, Generic[T], metaclass=M)", ":", "\n", "    ", "\t", "def f", "async ",
    "(self, x: int = 1, *args, **kw)", " -> None", "@dec\n", "@app.route('/')\n", "pass",
    "return ", "self.save()", "Client()", "X = 1", "x: int", " = lambda y: y", "type T = int",
    "import a.b.c", "import a as b", "from . import x", "from ..m import (a, b as c)",
    "from .t import *", "from __future__ import annotations", "\"\"\"doc\"\"\"", "# c",
    "if x:", "else:", "try:", "except E as e:", "with open(p) as f:", "for i in r:", "[", "]",
    "(", ")", "{", "}", ",", ".", "'", "\"", "é", "\r\n", "\u{0}", "yield ", "await ",
];

fn python_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(PY_FRAGMENTS), 0..80)
        .prop_map(|v| v.concat())
}

fn check(facts: &FileFacts) {
    let in_file = |line: u32| (1..=facts.line_count).contains(&line);
    for (i, d) in facts.decls.iter().enumerate() {
        assert!(in_file(d.lines.start) && in_file(d.lines.end), "decl {d:?}");
        assert!(
            d.lines.contains_line(d.signature_line),
            "signature of {d:?}"
        );
        assert!(d.bytes.start <= d.bytes.end);
        assert!(d.signature.chars().count() <= 200);
        if let Some(p) = d.parent {
            assert!((p as usize) < i, "parent after child: {d:?}");
            let parent = &facts.decls[p as usize];
            assert!(
                parent.lines.contains(&d.lines),
                "{parent:?} does not contain {d:?}"
            );
            assert!(d.qualified.starts_with(&parent.qualified));
        }
    }
    for u in &facts.usages {
        assert!(in_file(u.line), "usage {u:?}");
        assert!(u.enclosing.is_none_or(|e| (e as usize) < facts.decls.len()));
        assert!(u.receiver.chars().count() <= 80);
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

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn syntax_prop_arbitrary_text(text in any::<String>()) {
        check(&extract_facts(Lang::TypeScript, &text));
        check(&extract_facts(Lang::Tsx, &text));
    }

    #[test]
    fn syntax_prop_python_arbitrary_text(text in any::<String>()) {
        check(&extract_facts(Lang::Python, &text));
    }

    #[test]
    fn syntax_prop_python_like_text(text in python_like()) {
        check(&extract_facts(Lang::Python, &text));
    }

    #[test]
    fn syntax_prop_source_like_text(text in source_like()) {
        check(&extract_facts(Lang::TypeScript, &text));
        check(&extract_facts(Lang::Tsx, &text));
    }
}
