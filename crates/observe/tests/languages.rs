//! The guarantees every language keeps, parametrised over the registered languages (and
//! the test language): on random projects assembled from a language's fragments, every
//! fact lies inside its file, every edge joins nodes that exist, and an index refreshed
//! after random edits (a file rewritten, added or removed) equals a fresh index of the
//! same tree. A language added to `LANGUAGES` fails `every_registered_language_has_samples`
//! until it has an entry in `samples`, which puts it under these tests.

mod common;

use std::path::Path;

use proptest::prelude::*;
use sightline_lang::Languages;
use sightline_lang::testing::check_facts;
use sightline_lang::testing::toy::Toy;
use sightline_observe::db::{file_index, term_stats, workspace_graph};
use sightline_observe::{CacheMode, Index, IndexOptions, LANGUAGES, ObserveDatabase};

/// What the tests write in one language: file paths (a project's layout) and fragments
/// that, concatenated, make source reaching imports between those files, declarations,
/// calls and inheritance.
struct Samples {
    /// Configuration written before any source (a module's manifest), as (path, text).
    manifests: &'static [(&'static str, &'static str)],
    paths: &'static [&'static str],
    fragments: &'static [&'static str],
    /// A statement that only adds a call (no declaration, no import) to a file's body.
    call: &'static str,
}

/// The samples of a registered language, by its name.
fn samples(language: &str) -> Option<Samples> {
    match language {
        "typescript" => Some(Samples {
            manifests: &[],
            paths: &[
                "src/a.ts",
                "src/b.tsx",
                "src/c.js",
                "src/index.ts",
                "lib/d.ts",
            ],
            fragments: &[
                "import { f, g as h } from './a';\n",
                "import * as ns from './b';\n",
                "import C from './c';\n",
                "export * from './a';\n",
                "import { d } from '../lib/d';\n",
                "export function f() { g(); }\n",
                "export const g = () => ns.k();\n",
                "export default class C extends B { m() { this.m(); } }\n",
                "class B implements I {}\n",
                "interface I { x: number }\n",
                "export function d() { return <C />; }\n",
                "h(); f(); new C(); d();\n",
                "function k() {}\n",
                "{",
                "}",
                "(",
                ")",
                "\n",
                ";",
            ],
            call: "\nf();\n",
        }),
        "python" => Some(Samples {
            manifests: &[],
            paths: &[
                "pkg/__init__.py",
                "pkg/a.py",
                "pkg/b.py",
                "main.py",
                "pkg/c.pyi",
            ],
            fragments: &[
                "from .a import f\n",
                "from pkg.b import G as H\n",
                "import pkg.c\n",
                "from . import b\n",
                "from .c import *\n",
                "def f():\n    return b.g()\n",
                "def g():\n    pass\n",
                "class G(H):\n    def m(self):\n        self.m()\n",
                "x = f()\n",
                "pkg.c.k()\n",
                "    ",
                ":",
                "(",
                ")",
                "\n",
            ],
            call: "\nf()\n",
        }),
        "go" => Some(Samples {
            manifests: &[("go.mod", "module m\n\ngo 1.22\n")],
            paths: &["p/a.go", "p/b.go", "q/c.go", "q/r/d.go", "main.go"],
            fragments: &[
                "package p\n",
                "import \"m/p\"\n",
                "import z \"m/q\"\n",
                "import . \"m/q/r\"\n",
                "func F() { g(); z.F(); p.F(); D() }\n",
                "func g() { t := T{}; t.M() }\n",
                "type T struct {\n\tU\n\tz.V\n}\n",
                "type U interface{ M() }\n",
                "func (t *T) M() { t.M(); F() }\n",
                "func D() {}\n",
                "var X = F\n",
                "{",
                "}",
                "(",
                ")",
                "\n",
            ],
            call: "\nvar _ = g()\n",
        }),
        "rust" => Some(Samples {
            manifests: &[],
            paths: &[
                "src/lib.rs",
                "src/a.rs",
                "src/a/b.rs",
                "src/c/mod.rs",
                "tests/t.rs",
            ],
            fragments: &[
                "mod a;\n",
                "pub mod c;\n",
                "mod b;\n",
                "use crate::a::{self, S};\n",
                "use super::*;\n",
                "pub use self::b::f as g;\n",
                "use crate::c::T;\n",
                "pub fn f() { g(); a::f(); S::new(); m!(); }\n",
                "pub struct S { x: u8 }\n",
                "impl S { pub fn new() -> Self { Self::k() } fn k() -> Self { S { x: 0 } } }\n",
                "pub trait T: Clone { fn run(&self) { self.run() } }\n",
                "impl T for S {}\n",
                "macro_rules! m { () => { $crate::f() }; }\n",
                "#[cfg(test)]\nmod tests { use super::*; }\n",
                "{",
                "}",
                "(",
                ")",
                "\n",
                ";",
            ],
            // An item-level macro invocation: the one call Rust allows outside a body.
            call: "\nm!();\n",
        }),
        "java" => Some(Samples {
            manifests: &[],
            paths: &[
                "src/main/java/p/A.java",
                "src/main/java/p/B.java",
                "src/main/java/q/C.java",
                "src/test/java/p/ATest.java",
                "lib/r/D.java",
            ],
            fragments: &[
                "package p;\n",
                "package q;\n",
                "import p.A;\n",
                "import q.*;\n",
                "import static p.A.f;\n",
                "import r.D;\n",
                "public class A extends C implements I { void f() { this.g(); } void g() {} }\n",
                "class B { static class Inner { void h() { new A().f(); } } }\n",
                "interface I { void f(); }\n",
                "@I enum E { X, Y }\n",
                "record R(int x) {}\n",
                "f(); A.f(); new B.Inner(); D.k();\n",
                "public class D { static void k() {} }\n",
                "{",
                "}",
                "(",
                ")",
                "\n",
                ";",
            ],
            call: "\nf();\n",
        }),
        _ => None,
    }
}

/// The test language's samples: packages, attachments and glob imports.
fn toy_samples() -> Samples {
    Samples {
        manifests: &[],
        paths: &["p/a.toy", "p/b.toy", "q/c.toy", "q/r/d.toy"],
        fragments: &[
            "import p\n",
            "import q/r.*\n",
            "import q as z\n",
            "func F\n",
            "func g\n",
            "type T\n",
            "method T.M\n",
            "call g\n",
            "call p.F\n",
            "call z.F\n",
            "call T.M\n",
            "call self.M\n",
            "call D\n",
            "func D\n",
            "\n",
        ],
        call: "call g\n",
    }
}

static TOY: Languages = Languages::new(&[&Toy]);

#[test]
fn every_registered_language_has_samples() {
    for language in LANGUAGES.iter() {
        assert!(
            samples(language.name()).is_some(),
            "{} has no samples in observe/tests/languages.rs",
            language.name()
        );
    }
}

fn open(root: &Path, languages: Languages) -> Index {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let db = ObserveDatabase::default().with_languages(languages);
    Index::open_with_db(db, root, &options).expect("index")
}

fn write(root: &Path, path: &str, text: &str) {
    let abs = root.join(path);
    std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
    common::write_file(root, path, text);
}

/// Facts inside their files, edges between existing nodes.
fn check_index(index: &Index) {
    let (db, ws) = (index.db(), index.workspace());
    for f in ws.files(db) {
        check_facts(&file_index(db, *f).facts);
    }
    let graph = workspace_graph(db, ws);
    for e in graph.edges() {
        assert!(graph.contains(e.from) && graph.contains(e.to), "{e:?}");
    }
}

/// One random project of a language, and an edit to apply to it.
#[derive(Debug, Clone)]
struct Case {
    texts: Vec<String>,
    /// Which file the edit touches, and its new text (`None`: the file is removed).
    edit: (usize, Option<String>),
}

fn case(samples: &Samples) -> impl Strategy<Value = Case> + use<> {
    let fragments = samples.fragments;
    let text = move || {
        proptest::collection::vec(proptest::sample::select(fragments), 0..24)
            .prop_map(|v| v.concat())
    };
    let n = samples.paths.len();
    (
        proptest::collection::vec(text(), n),
        0..n,
        proptest::option::weighted(0.7, text()),
    )
        .prop_map(|(texts, at, new)| Case {
            texts,
            edit: (at, new),
        })
}

/// Writes the project (the last file only after the first index, as an added file),
/// checks it, applies the edit, refreshes, and compares with a fresh index.
fn run_case(samples: &Samples, languages: Languages, case: &Case) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    let last = samples.paths.len() - 1;
    for (path, text) in samples.manifests {
        write(root, path, text);
    }
    for (path, text) in samples.paths.iter().zip(&case.texts).take(last) {
        write(root, path, text);
    }
    let mut index = open(root, languages);
    check_index(&index);
    let _ = (
        workspace_graph(index.db(), index.workspace()),
        term_stats(index.db(), index.workspace()),
    );
    // A file comes, then one is edited or removed.
    write(root, samples.paths[last], &case.texts[last]);
    index.refresh();
    let (at, new) = &case.edit;
    match new {
        Some(text) => write(root, samples.paths[*at], text),
        None => std::fs::remove_file(root.join(samples.paths[*at])).unwrap(),
    }
    index.refresh();
    check_index(&index);
    let fresh = open(root, languages);
    let (db, ws) = (index.db(), index.workspace());
    assert_eq!(
        *workspace_graph(db, ws),
        *workspace_graph(fresh.db(), fresh.workspace())
    );
    assert_eq!(
        *term_stats(db, ws),
        *term_stats(fresh.db(), fresh.workspace())
    );
}

type Log = std::sync::Arc<std::sync::Mutex<Vec<String>>>;

fn executed(log: &Log, query: &str) -> usize {
    let log = log.lock().unwrap();
    log.iter()
        .filter(|k| k.starts_with(&format!("{query}(")))
        .count()
}

/// In every language, a call added to a body re-runs the edited file's edges and nothing
/// that links files: no file's imports are resolved again, no other file's edges rerun.
fn a_body_edit_relinks_nothing(samples: &Samples, languages: Languages) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    // Every file declares and calls in its body; the first imports the others.
    for (path, text) in samples.manifests {
        write(root, path, text);
    }
    let fragments = samples.fragments;
    for (i, path) in samples.paths.iter().enumerate() {
        let text: String = fragments.iter().skip(i % 3).step_by(2).copied().collect();
        write(root, path, &text);
    }
    let log: Log = Default::default();
    let sink = log.clone();
    let db = ObserveDatabase::with_event_hook(move |event| {
        if let salsa::EventKind::WillExecute { database_key } = event.kind {
            sink.lock().unwrap().push(format!("{database_key:?}"));
        }
    })
    .with_languages(languages);
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let mut index = Index::open_with_db(db, root, &options).unwrap();
    let touch = |index: &Index| {
        let (db, ws) = (index.db(), index.workspace());
        let _ = (workspace_graph(db, ws), term_stats(db, ws));
    };
    let path = samples.paths[1];
    let append = |index: &mut Index, extra: &str| {
        let text = std::fs::read_to_string(root.join(path)).unwrap();
        write(root, path, &format!("{text}{extra}"));
        assert_eq!(index.refresh().changed, [path]);
    };
    touch(&index);
    // A file's first edit lowers its durability, which recomputes its consumers once.
    append(&mut index, "\n");
    touch(&index);
    log.lock().unwrap().clear();
    append(&mut index, samples.call);
    touch(&index);
    let text = format!("{:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_parts"), 1, "{text}");
    assert_eq!(executed(&log, "file_link"), 0, "{text}");
    assert_eq!(executed(&log, "import_resolution"), 0, "{text}");
    assert_eq!(executed(&log, "language_config"), 0, "{text}");
    assert!(executed(&log, "file_edges") <= 1, "{text}");
}

#[test]
fn in_every_language_a_body_edit_relinks_nothing() {
    for language in LANGUAGES.iter() {
        a_body_edit_relinks_nothing(&samples(language.name()).unwrap(), LANGUAGES);
    }
    a_body_edit_relinks_nothing(&toy_samples(), TOY);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn registered_languages_keep_the_graph_invariants_and_refresh_like_a_fresh_index(
        (language, case) in (0..LANGUAGES.len()).prop_flat_map(|i| {
            let name = LANGUAGES.get(i as u8).unwrap().name();
            (Just(name), case(&samples(name).expect("samples")))
        }),
    ) {
        run_case(&samples(language).unwrap(), LANGUAGES, &case);
    }

    #[test]
    fn the_test_language_keeps_them_too(case in case(&toy_samples())) {
        run_case(&toy_samples(), TOY, &case);
    }
}
