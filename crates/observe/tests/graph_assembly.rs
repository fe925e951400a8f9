//! The graph assembled from cached per-file edges is the graph built from scratch: on the
//! fixtures (against `Graph::build`, outside salsa) and on generated workspaces after a
//! sequence of edits, file additions and removals (against a fresh index of the same
//! tree), so no edit leaves a stale edge, node id or name behind.

mod common;

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use sightline_observe::db::{file_shape, module_resolver, workspace_graph};
use sightline_observe::graph::{Graph, GraphFile};
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

#[test]
fn the_fixtures_assemble_to_the_graph_built_from_scratch() {
    for root in [
        common::fixture_root(),
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python_app"),
    ] {
        let index = open(&root);
        let graph = workspace_graph(index.db(), index.workspace());
        assert!(!graph.edges.is_empty());
        assert_eq!(*graph, built_from_scratch(&index), "{}", root.display());
    }
}

/// Statements of small TypeScript modules that import, re-export, call and extend each
/// other by the names every generated module may declare.
#[rustfmt::skip]
const STATEMENTS: &[&str] = &[
    "import { a, b } from './m0';\n", "import * as ns from './m1';\n",
    "import d from './m2';\n", "import { K as Q } from './index';\n",
    "export * from './m1';\n", "export { a as c } from './m0';\n", "export { b };\n",
    "export * as inner from './m3';\n",
    "export function a() { b(); ns.a(); }\n", "export function b() { a(); d(); }\n",
    "function c() { Q.go(); }\n", "export default function d() { c(); }\n",
    "export class K extends Base { run() { this.go(); } go() { ns.b(); } }\n",
    "class Base { go() {} }\n", "export class L implements I { run() { new K().run(); } }\n",
    "interface I { run(): void }\n", "ns.b();\n", "new K();\n", "c();\n", "x.run();\n",
    "export const x = { run() { a(); } };\n", "unique();\n", "export function unique() {}\n",
];

const PATHS: [&str; 5] = ["m0.ts", "m1.ts", "m2.ts", "m3.ts", "index.ts"];

fn module() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(STATEMENTS), 0..8).prop_map(|v| v.concat())
}

/// One step: a file of [`PATHS`] gets new text, or is removed (`None`).
fn edit() -> impl Strategy<Value = (usize, Option<String>)> {
    (0..PATHS.len(), proptest::option::weighted(0.8, module()))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn edits_leave_the_graph_equal_to_a_fresh_index(
        initial in proptest::collection::vec(proptest::option::weighted(0.9, module()), PATHS.len()),
        edits in proptest::collection::vec(edit(), 1..6),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for (path, text) in PATHS.iter().zip(&initial) {
            if let Some(text) = text {
                common::write_file(root, path, text);
            }
        }
        let mut index = open(root);
        let _ = workspace_graph(index.db(), index.workspace());
        for (file, text) in edits {
            let path = root.join(PATHS[file]);
            match text {
                Some(text) => common::write_file(root, PATHS[file], &text),
                None => {
                    let _ = std::fs::remove_file(&path);
                }
            }
            index.refresh();
            let graph: Arc<Graph> = workspace_graph(index.db(), index.workspace());
            let fresh = open(root);
            let expected = workspace_graph(fresh.db(), fresh.workspace());
            prop_assert_eq!(&*graph, &*expected);
            prop_assert_eq!(&*graph, &built_from_scratch(&index));
        }
    }
}
