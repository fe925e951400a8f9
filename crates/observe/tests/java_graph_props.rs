//! Property tests over whole Java projects assembled from Java-like fragments: facts stay
//! inside their files, the graph built over them (imports resolved between the generated
//! packages, package peers seeing each other) only has edges between nodes that exist,
//! and after any sequence of edits, additions and removals the index's graph is the one a
//! fresh index of the same tree builds.

mod common;

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use sightline_observe::LANGUAGES;
use sightline_observe::db::{FileShape, file_shape, module_resolver, workspace_graph};
use sightline_observe::graph::{EdgeKind, Graph, GraphFile};
use sightline_observe::resolve::ModuleResolver;
use sightline_observe::walk::FileRole;
use sightline_observe::{CacheMode, Index, IndexOptions};

#[rustfmt::skip]
const FRAGMENTS: &[&str] = &[
    "package p;\n", "package q;\n", "import p.A;\n", "import q.*;\n", "import static p.A.run;\n",
    "import p.A.Inner;\n", "import java.util.List;\n", "public ", "static ", "final ",
    "class A", "class B", "interface I", "enum E { X, Y }", "record R(int x)", " extends A",
    " implements I", "{", "}", "(", ")", ";", "\n", "    ", "void run()", "void go()",
    "int size = 1", "A()", "B(int b)", "static class Inner { void run() {} }", "@Override ",
    "@I ", "run();", "this.go();", "new A();", "new A.Inner();", "A.run();", "B.go();",
    "x.run();", "E.X", "A::run", "return ", "\"s\"", "// c", "é", "\r\n", "\u{0}", ".", ",",
];

fn java_like() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(FRAGMENTS), 0..60).prop_map(|v| v.concat())
}

/// Two packages of one Maven module (main and test source sets), and a loose file.
const PATHS: [&str; 6] = [
    "src/main/java/p/A.java",
    "src/main/java/p/B.java",
    "src/main/java/q/I.java",
    "src/main/java/q/E.java",
    "src/test/java/p/ATest.java",
    "tools/R.java",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn java_project_facts_stay_in_files_and_edges_join_existing_nodes(
        texts in proptest::collection::vec(java_like(), PATHS.len())
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
        // Imports join modules, and main code never imports a test source set's file.
        for e in graph.edges().filter(|e| e.kind == EdgeKind::Imports) {
            prop_assert!(graph.decl_of(e.from).is_none() && graph.decl_of(e.to).is_none());
            let (from, to) = (graph.file_of(e.from) as usize, graph.file_of(e.to) as usize);
            prop_assert!(!(PATHS[to].contains("/test/") && PATHS[from].contains("/main/")));
        }
    }
}

fn open(root: &Path) -> Index {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    Index::open(root, &options).expect("index")
}

/// The index's files rebuilt outside salsa with [`Graph::build`].
fn built_from_scratch(index: &Index) -> Graph {
    let db = index.db();
    let ws = index.workspace();
    let files: Vec<GraphFile> = ws
        .files(db)
        .iter()
        .map(|f| GraphFile {
            path: f.path(db).clone(),
            shape: matches!(f.role(db), FileRole::Source(_)).then(|| file_shape(db, *f)),
        })
        .collect();
    Graph::build(&files, &module_resolver(db, ws))
}

/// One step: a file of [`PATHS`] gets new text, or is removed (`None`).
fn edit() -> impl Strategy<Value = (usize, Option<String>)> {
    (0..PATHS.len(), proptest::option::weighted(0.8, java_like()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn java_edits_leave_the_graph_equal_to_a_fresh_index(
        initial in proptest::collection::vec(proptest::option::weighted(0.9, java_like()), PATHS.len()),
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, text) in PATHS.iter().zip(&initial) {
            if let Some(text) = text {
                std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
                common::write_file(root, path, text);
            }
        }
        let mut index = open(root);
        let _ = workspace_graph(index.db(), index.workspace());
        for (file, text) in edits {
            let path = root.join(PATHS[file]);
            match text {
                Some(text) => {
                    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                    common::write_file(root, PATHS[file], &text);
                }
                None => {
                    let _ = std::fs::remove_file(&path);
                }
            }
            index.refresh();
            let graph = workspace_graph(index.db(), index.workspace());
            let fresh = open(root);
            let expected = workspace_graph(fresh.db(), fresh.workspace());
            prop_assert_eq!(&*graph, &*expected);
            prop_assert_eq!(&*graph, &built_from_scratch(&index));
        }
    }
}
