//! The graph assembled from cached per-file edges is the graph built from scratch: on the
//! fixtures (against `Graph::build`, outside salsa) and on generated workspaces after a
//! sequence of edits, file additions and removals (against a fresh index of the same
//! tree), so no edit leaves a stale edge, node id or name behind.

mod common;

use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use sightline_observe::db::{
    SourceFile, assembly_parts, file_shape, graph_parts, module_resolver, workspace_graph,
};
use sightline_observe::graph::{Assembled, EdgeKind, Graph, GraphFile, Reassembly};
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
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rust_app"),
    ] {
        let index = open(&root);
        let graph = workspace_graph(index.db(), index.workspace());
        assert!(graph.edge_count() > 0);
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

/// A workspace holding the modules of `initial` that are `Some`, at [`PATHS`].
fn generated(initial: &[Option<String>]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for (path, text) in PATHS.iter().zip(initial) {
        if let Some(text) = text {
            common::write_file(dir.path(), path, text);
        }
    }
    dir
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
        let dir = generated(&initial);
        let root = dir.path();
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

/// The graph of `index` assembled whole from its parts, with what a reassembly needs.
fn assembled(index: &Index) -> Assembled<SourceFile> {
    let (db, ws) = (index.db(), index.workspace());
    let chunks = graph_parts(db, ws);
    let parts = assembly_parts(db, ws, &chunks);
    Assembled::new(&parts, Arc::new(Graph::assemble(&parts)))
}

/// Reassembles `index`'s parts from `prev`: the graph, how it was reassembled, and the
/// same parts assembled whole.
fn reassembled(index: &Index, prev: &Assembled<SourceFile>) -> (Graph, Reassembly, Graph) {
    let (db, ws) = (index.db(), index.workspace());
    let chunks = graph_parts(db, ws);
    let parts = assembly_parts(db, ws, &chunks);
    let (graph, how) = Graph::reassemble(prev, &parts);
    (graph, how, Graph::assemble(&parts))
}

/// One step: a file of [`PATHS`] gets new text, gets one more statement, or is removed.
#[derive(Clone, Debug)]
enum Step {
    Replace(String),
    Append(&'static str),
    Remove,
}

fn step() -> impl Strategy<Value = (usize, Step)> {
    let step = prop_oneof![
        2 => module().prop_map(Step::Replace),
        3 => proptest::sample::select(STATEMENTS).prop_map(Step::Append),
        1 => Just(Step::Remove),
    ];
    (0..PATHS.len(), step)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Reassembling from the previous assembly gives the whole assembly's graph, and
    /// goes file by file (never whole) whenever the file list is kept.
    #[test]
    fn reassembly_gives_the_whole_assemblys_graph(
        initial in proptest::collection::vec(proptest::option::weighted(0.9, module()), PATHS.len()),
        steps in proptest::collection::vec(step(), 1..8),
    ) {
        let dir = generated(&initial);
        let root = dir.path();
        let mut index = open(root);
        for (file, step) in steps {
            let prev = assembled(&index);
            let before = index.workspace().files(index.db()).clone();
            let path = root.join(PATHS[file]);
            match step {
                Step::Replace(text) => common::write_file(root, PATHS[file], &text),
                Step::Append(statement) => {
                    let text = std::fs::read_to_string(&path).unwrap_or_default();
                    common::write_file(root, PATHS[file], &format!("{text}{statement}"));
                }
                Step::Remove => {
                    let _ = std::fs::remove_file(&path);
                }
            }
            index.refresh();
            let (graph, how, whole) = reassembled(&index, &prev);
            prop_assert_eq!(&graph, &whole);
            let kept = *index.workspace().files(index.db()) == before;
            match how {
                Reassembly::Whole => prop_assert!(!kept),
                Reassembly::Files(n) => {
                    prop_assert!(kept);
                    prop_assert!(n <= before.len());
                }
            }
        }
    }
}

#[test]
fn an_edit_adding_a_call_reassembles_one_files_edges_and_keeps_the_name_table() {
    let dir = common::ring_workspace(100);
    let mut index = open(dir.path());
    let prev = assembled(&index);
    let path = "src/m042.ts";
    let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
    common::write_file(
        dir.path(),
        path,
        &format!("{text}\nf43();\nunknownHelper();\n"),
    );
    index.refresh();
    let (graph, how, whole) = reassembled(&index, &prev);
    assert_eq!(graph, whole);
    assert_eq!(how, Reassembly::Files(1));
    assert!(Arc::ptr_eq(&graph.names, &prev.graph().names));
}

#[test]
fn an_edit_adding_a_declaration_reassembles_the_files_guessing_its_name() {
    let dir = common::ring_workspace(100);
    // Two files call a member by a name no file declares yet.
    for guesser in ["src/m010.ts", "src/m020.ts"] {
        let text = std::fs::read_to_string(dir.path().join(guesser)).unwrap();
        common::write_file(
            dir.path(),
            guesser,
            &format!("{text}\nexport function g(o: any) {{ o.declaredLater(); }}\n"),
        );
    }
    let mut index = open(dir.path());
    let prev = assembled(&index);
    let path = "src/m042.ts";
    let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
    common::write_file(
        dir.path(),
        path,
        &format!("{text}\nexport class Later {{ declaredLater() {{}} }}\n"),
    );
    index.refresh();
    let (graph, how, whole) = reassembled(&index, &prev);
    assert_eq!(graph, whole);
    // The edited file and the two whose guesses now find a declaration.
    assert_eq!(how, Reassembly::Files(3));
    let target = graph.node_by_name(path, "Later.declaredLater").unwrap();
    assert_eq!(
        graph
            .incoming(target)
            .filter(|e| e.kind == EdgeKind::Calls)
            .count(),
        2
    );
}
