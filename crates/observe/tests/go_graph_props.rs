//! Property tests over whole Go modules assembled from Go-like fragments: facts stay
//! inside their files, the graph built over them (package imports, same-package names,
//! methods attached across files) only has edges between nodes that exist, and after any
//! sequence of edits, additions and removals the index's graph is the one a fresh index
//! and a build from scratch give. Also the `go_app` fixture, assembled and built.

mod common;

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use sightline_observe::db::{file_shape, module_resolver, workspace_graph};
use sightline_observe::graph::{EdgeKind, Graph, GraphFile};
use sightline_observe::walk::FileRole;
use sightline_observe::{CacheMode, Index, IndexOptions};

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

/// Top-level statements of a module `m` with packages `a` and `b`, declaring and using
/// names every generated file may declare: package imports, same-package calls, methods
/// whose types live in other files, embedding, and a little broken syntax.
#[rustfmt::skip]
const STATEMENTS: &[&str] = &[
    "func F() { G(); b.H(); a.F() }\n", "func G() { t := T{}; t.M(); x.Run() }\n",
    "func H(t *T) { t.M(); t.n = 1 }\n", "type T struct {\n\tU\n\tb.V\n\tn int\n}\n",
    "type U struct{ id string }\n", "type V interface {\n\tRun()\n\tW\n}\n",
    "type W interface{ Stop() }\n", "func (t *T) M() { t.N(); F() }\n",
    "func (t T) N() {}\n", "func (u *U) Run() { G() }\n", "var x = &U{}\n",
    "const K = 1\n", "func M() {}\n", "func broken( {\n", "}\n", "// c\n",
];

const PATHS: [&str; 6] = [
    "a/x.go",
    "a/y.go",
    "b/z.go",
    "b/z_test.go",
    "b/w.go",
    "main.go",
];

/// Writes `text` at `rel` under `root`, creating its directory.
fn write(root: &Path, rel: &str, text: &str) {
    if let Some(parent) = root.join(rel).parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    common::write_file(root, rel, text);
}

/// A file of `path`'s package: its clause, the imports, then `body`.
fn go_file(path: &str, body: &str) -> String {
    let package = match path.rsplit_once('/') {
        Some((dir, _)) => dir,
        None => "main",
    };
    format!("package {package}\n\nimport (\n\t\"m/a\"\n\t\"m/b\"\n)\n\n{body}")
}

fn body() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(STATEMENTS), 0..8).prop_map(|v| v.concat())
}

/// A module holding the files of `initial` that are `Some`, at [`PATHS`].
fn generated(initial: &[Option<String>]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    common::write_file(dir.path(), "go.mod", "module m\n\ngo 1.22\n");
    for (path, body) in PATHS.iter().zip(initial) {
        if let Some(body) = body {
            write(dir.path(), path, &go_file(path, body));
        }
    }
    dir
}

/// One step: a file of [`PATHS`] gets a new body, or is removed (`None`).
fn edit() -> impl Strategy<Value = (usize, Option<String>)> {
    (0..PATHS.len(), proptest::option::weighted(0.8, body()))
}

fn assert_edges_join_existing_nodes(graph: &Graph, files: usize) {
    for e in graph.edges() {
        assert!(graph.contains(e.from) && graph.contains(e.to), "{e:?}");
        assert!((graph.file_of(e.from) as usize) < files);
        assert!((graph.file_of(e.to) as usize) < files);
    }
    for e in graph.edges().filter(|e| e.kind == EdgeKind::Imports) {
        assert!(graph.decl_of(e.from).is_none() && graph.decl_of(e.to).is_none());
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn go_edits_leave_the_graph_equal_to_a_fresh_index(
        initial in proptest::collection::vec(proptest::option::weighted(0.9, body()), PATHS.len()),
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        let dir = generated(&initial);
        let root = dir.path();
        let mut index = open(root);
        let graph = workspace_graph(index.db(), index.workspace());
        assert_edges_join_existing_nodes(&graph, index.workspace().files(index.db()).len());
        for (file, body) in edits {
            match body {
                Some(body) => write(root, PATHS[file], &go_file(PATHS[file], &body)),
                None => {
                    let _ = std::fs::remove_file(root.join(PATHS[file]));
                }
            }
            index.refresh();
            let graph: Arc<Graph> = workspace_graph(index.db(), index.workspace());
            assert_edges_join_existing_nodes(&graph, index.workspace().files(index.db()).len());
            let fresh = open(root);
            let expected = workspace_graph(fresh.db(), fresh.workspace());
            prop_assert_eq!(&*graph, &*expected);
            prop_assert_eq!(&*graph, &built_from_scratch(&index));
        }
    }
}

#[test]
fn go_fixture_assembles_to_the_graph_built_from_scratch() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/go_app");
    let index = open(&root);
    let graph = workspace_graph(index.db(), index.workspace());
    assert!(graph.edges().any(|e| e.kind == EdgeKind::Extends));
    assert_eq!(*graph, built_from_scratch(&index));
    assert_edges_join_existing_nodes(&graph, index.workspace().files(index.db()).len());
}
