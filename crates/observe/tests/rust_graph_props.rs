//! Property tests over whole Cargo packages assembled from Rust-like statements: facts
//! stay inside their files, the graph built over them (use paths and `mod` declarations
//! resolved between the generated modules) only has edges between nodes that exist, and
//! after any sequence of edits, additions and removals the index's graph is the graph a
//! fresh index of the same tree builds.

mod common;

use std::sync::Arc;

use proptest::prelude::*;
use sightline_observe::LANGUAGES;
use sightline_observe::db::{FileShape, workspace_graph};
use sightline_observe::graph::{EdgeKind, Graph, GraphFile};
use sightline_observe::resolve::ModuleResolver;
use sightline_observe::{CacheMode, Index, IndexOptions};

/// Statements of small modules that declare, import, re-export, implement and call each
/// other by the names every generated module may declare.
#[rustfmt::skip]
const STATEMENTS: &[&str] = &[
    "mod a;\n", "pub mod c;\n", "mod b;\n", "#[path = \"c/mod.rs\"]\nmod p;\n",
    "use crate::a::Store;\n", "use crate::a::b::{self, run};\n", "pub use c::*;\n",
    "use super::Store;\n", "use super::*;\n", "use self::b::run as go;\n", "use pkg::a;\n",
    "use std::fmt;\n", "pub struct Store { pub size: u64 }\n", "enum Mode { Fast, Slow(u8) }\n",
    "pub trait Run: Clone { fn run(&self); }\n",
    "impl Store { pub fn new() -> Self { Self::open(); Store { size: 0 } } fn open() {} }\n",
    "impl Run for Store { fn run(&self) { self.open(); b::run(); go(); } }\n",
    "pub fn run() { Store::new(); a::Store::new(); crate::c::helper(); ensure!(x); }\n",
    "pub fn helper() { run(); Mode::Fast; }\n",
    "#[macro_export]\nmacro_rules! ensure { ($x:expr) => { $crate::c::helper() }; }\n",
    "#[cfg(test)]\nmod tests { use super::*; #[test] fn t() { run(); } }\n",
    "fn broken( {\n", "}\n", "\n",
];

const MANIFEST: &str = "[package]\nname = \"pkg\"\n";

const PATHS: [&str; 6] = [
    "src/lib.rs",
    "src/a.rs",
    "src/a/b.rs",
    "src/c/mod.rs",
    "src/main.rs",
    "tests/it.rs",
];

fn module() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(STATEMENTS), 0..10).prop_map(|v| v.concat())
}

fn open(root: &std::path::Path) -> Index {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    Index::open(root, &options).expect("index")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn rust_package_facts_stay_in_files_and_edges_join_existing_nodes(
        texts in proptest::collection::vec(module(), PATHS.len())
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
        files.push(GraphFile { path: "Cargo.toml".into(), shape: None });
        let mut names: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
        names.sort();
        files.sort_by(|a, b| a.path.cmp(&b.path));
        let read = |p: &str| (p == "Cargo.toml").then(|| MANIFEST.to_owned());
        let resolver = ModuleResolver::new(&names, &read);
        let graph = Graph::build(&files, &resolver);
        let nodes = graph.node_count();
        for e in graph.edges() {
            prop_assert!(graph.contains(e.from) && graph.contains(e.to), "{e:?} with {nodes} nodes");
            prop_assert!((graph.file_of(e.from) as usize) < files.len());
            prop_assert!((graph.file_of(e.to) as usize) < files.len());
        }
        // Imports join modules, and never a module to itself.
        for e in graph.edges().filter(|e| e.kind == EdgeKind::Imports) {
            prop_assert!(graph.decl_of(e.from).is_none() && graph.decl_of(e.to).is_none());
            prop_assert!(e.from != e.to, "{} imports itself", graph.paths[graph.file_of(e.from) as usize]);
        }
    }

    #[test]
    fn rust_edits_leave_the_graph_equal_to_a_fresh_index(
        initial in proptest::collection::vec(proptest::option::weighted(0.9, module()), PATHS.len()),
        edits in proptest::collection::vec(
            (0..PATHS.len(), proptest::option::weighted(0.8, module())),
            1..5,
        ),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        common::write_file(root, "Cargo.toml", MANIFEST);
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
        }
    }
}
