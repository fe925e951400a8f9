//! Property tests over whole Python projects assembled from Python-like fragments: facts
//! stay inside their files, and the graph built over them (imports resolved between the
//! generated modules) only has edges between nodes that exist.

use std::sync::Arc;

use proptest::prelude::*;
use sightline_observe::LANGUAGES;
use sightline_observe::db::FileShape;
use sightline_observe::graph::{EdgeKind, Graph, GraphFile};
use sightline_observe::resolve::ModuleResolver;

#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    "class A", "class B(A)", "(Base, pkg.m0.A, Generic[T])", ":", "\n", "    ", "        ",
    "def f", "def g", "async def h", "(self, x=1, *a, **k)", " -> int", "@dec\n",
    "@pkg.m1.f\n", "pass", "return ", "self.f()", "cls.g()", "A()", "B()", "f(x)",
    "m0.f()", "pkg.m1.g()", "X = 1", "__all__ = ['A']", "x: int = 2",
    "import pkg.m0", "import pkg.m1 as m1", "from . import m0", "from .m1 import f, A as Z",
    "from .. import pkg", "from .m2 import *", "from pkg import m2", "import os",
    "\"\"\"doc\"\"\"", "# c", "if x:", "else:", "try:", "except E:", "lambda y: y",
    "(", ")", "[", "]", ",", ".", "'", "\"", "é", "\r\n", "\u{0}",
];

fn python_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(FRAGMENTS), 0..60).prop_map(|v| v.concat())
}

const PATHS: [&str; 5] = [
    "pkg/__init__.py",
    "pkg/m0.py",
    "pkg/m1.py",
    "pkg/m2.pyi",
    "app.py",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn python_project_facts_stay_in_files_and_edges_join_existing_nodes(
        texts in proptest::collection::vec(python_like(), PATHS.len())
    ) {
        let mut files = Vec::new();
        for (path, text) in PATHS.iter().zip(&texts) {
            let id = LANGUAGES.of_path(path).unwrap();
            let facts = LANGUAGES.of(id).unwrap().extract(id.dialect, text);
            for d in &facts.decls {
                prop_assert!(d.bytes.start <= d.bytes.end);
                prop_assert!(d.bytes.end as usize <= text.len(), "{d:?}");
                prop_assert!(d.lines.start >= 1 && d.lines.end <= facts.line_count.max(1));
            }
            for u in &facts.usages {
                prop_assert!(u.line >= 1 && u.line <= facts.line_count.max(1));
            }
            files.push(GraphFile {
                path: (*path).to_string(),
                shape: Some(Arc::new(FileShape::of(&facts))),
            });
        }
        let names: Vec<String> = PATHS.iter().map(|p| p.to_string()).collect();
        let resolver = ModuleResolver::new(&names, &|_| None);
        let graph = Graph::build(&files, &resolver);
        let nodes = graph.node_count();
        for e in graph.edges() {
            prop_assert!(graph.contains(e.from) && graph.contains(e.to), "{e:?} with {nodes} nodes");
            prop_assert!((graph.file_of(e.from) as usize) < files.len());
            prop_assert!((graph.file_of(e.to) as usize) < files.len());
        }
        // Imports join modules; a generated module never imports a file outside the project.
        for e in graph.edges().filter(|e| e.kind == EdgeKind::Imports) {
            prop_assert!(graph.decl_of(e.from).is_none() && graph.decl_of(e.to).is_none());
        }
    }
}
