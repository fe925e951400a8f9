//! Rust over the `rust_app` fixture (see fixtures/README.md): Cargo packages and the
//! module tree resolved to files, the walk's Rust conventions, and the graph edges those
//! imports and `impl` blocks make possible.

mod common;

use sightline_observe::db::{file_index, workspace_graph};
use sightline_observe::graph::EdgeKind;
use sightline_observe::path_traits::path_traits;
use sightline_observe::resolve::Resolution;
use sightline_observe::{CacheMode, Index, IndexOptions, LANGUAGES};
use std::path::{Path, PathBuf};

fn fixture_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rust_app")
}

fn open() -> Index {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    Index::open(&fixture_root(), &options).expect("the fixture indexes")
}

fn file(p: &str) -> Resolution {
    Resolution::File(p.to_string())
}

const STORE: &str = "crates/store/src";
const CLI: &str = "crates/cli/src";

#[test]
fn rust_fixture_resolves_use_paths_and_mod_declarations() {
    let index = open();
    let resolver = sightline_observe::db::module_resolver(index.db(), index.workspace());
    let r = |from: &str, spec: &str| resolver.resolve(from, spec);
    let main = format!("{CLI}/main.rs");
    let record = format!("{STORE}/record.rs");
    // `mod x;` beside the declaring module, and through `#[path]`.
    assert_eq!(r(&main, "mod args"), file(&format!("{CLI}/args.rs")));
    assert_eq!(
        r(&record, "mod fields"),
        file(&format!("{STORE}/record/fields.rs"))
    );
    assert_eq!(
        r(
            &format!("{STORE}/disk/mod.rs"),
            "mod platform = platform_unix.rs"
        ),
        file(&format!("{STORE}/disk/platform_unix.rs"))
    );
    // `crate::`, `super::` and a child module by name.
    assert_eq!(
        r(&main, "crate::args::Args"),
        file(&format!("{CLI}/args.rs"))
    );
    assert_eq!(
        r(&format!("{STORE}/record/fields.rs"), "super::Record"),
        file(&record)
    );
    assert_eq!(
        r(&record, "crate::Storable"),
        file(&format!("{STORE}/lib.rs"))
    );
    assert_eq!(
        r(&format!("{STORE}/lib.rs"), "record::Record"),
        file(&record)
    );
    // Another workspace crate, by its renamed dependency and by its own name.
    assert_eq!(
        r(&main, "storage::Record"),
        file(&format!("{STORE}/lib.rs"))
    );
    assert_eq!(
        r("crates/store/tests/roundtrip.rs", "app_store::Record"),
        file(&format!("{STORE}/lib.rs"))
    );
    assert_eq!(r(&record, "std::fmt"), Resolution::External);
    assert_eq!(r(&main, "mod missing"), Resolution::Unresolved);
}

#[test]
fn rust_fixture_walk_skips_build_output_and_generated_files() {
    let index = open();
    let report = index.report();
    assert_eq!(report.skipped.get("build output"), Some(&1), "{report:#?}");
    assert_eq!(report.skipped.get("generated"), Some(&1), "{report:#?}");
    // The one module not found is the generated file the walk skipped.
    assert_eq!(
        report.unresolved_examples,
        [(format!("{CLI}/main.rs"), "mod generated".to_string())]
    );
    let db = index.db();
    let paths: Vec<String> = index
        .workspace()
        .files(db)
        .iter()
        .map(|f| f.path(db).to_string())
        .collect();
    assert!(paths.iter().all(|p| !p.contains("/target/")), "{paths:?}");
    assert!(!paths.contains(&format!("{CLI}/generated.rs")));
    assert!(paths.contains(&"crates/cli/Cargo.toml".to_string()));
}

#[test]
fn rust_test_targets_and_test_modules_carry_the_test_trait() {
    for test in [
        "crates/store/tests/roundtrip.rs",
        "crates/store/benches/speed.rs",
        "crates/cli/examples/demo.rs",
        "crates/store/src/tests.rs",
    ] {
        assert!(path_traits(LANGUAGES, test).test, "{test}");
    }
    for source in [
        "crates/store/src/record.rs",
        "crates/store/src/testing.rs",
        "crates/cli/src/main.rs",
    ] {
        assert!(!path_traits(LANGUAGES, source).test, "{source}");
    }
}

/// The certain edges of `from` (the first declaration so qualified in `from_file`) of
/// `kind`, as `file:qualified` targets.
fn edges_of(index: &Index, from_file: &str, from: &str, kind: EdgeKind) -> Vec<String> {
    let db = index.db();
    let ws = index.workspace();
    let graph = workspace_graph(db, ws);
    let files = ws.files(db);
    let fi = files
        .iter()
        .position(|f| f.path(db) == from_file)
        .unwrap_or_else(|| panic!("{from_file} is indexed"));
    let facts = &file_index(db, files[fi]).facts;
    let di = facts
        .decls
        .iter()
        .position(|d| d.qualified == from)
        .unwrap_or_else(|| panic!("{from} in {from_file}"));
    let node = graph.decl_node(fi as u32, di as u32);
    let mut out: Vec<String> = graph
        .outgoing(node)
        .iter()
        .filter(|e| e.kind == kind && e.certain)
        .map(|e| {
            let tf = graph.file_of(e.to);
            let name = graph.decl_of(e.to).map_or(String::from("<module>"), |d| {
                file_index(db, files[tf as usize]).facts.decls[d as usize]
                    .qualified
                    .clone()
            });
            format!("{}:{name}", graph.paths[tf as usize])
        })
        .collect();
    out.sort();
    out
}

/// The files the module of `file` imports.
fn imported_files(index: &Index, file: &str) -> Vec<String> {
    let db = index.db();
    let ws = index.workspace();
    let graph = workspace_graph(db, ws);
    let fi = graph
        .paths
        .iter()
        .position(|p| p == file)
        .unwrap_or_else(|| panic!("{file} is indexed"));
    let mut out: Vec<String> = graph
        .outgoing(sightline_observe::graph::NodeId::module(fi as u32))
        .iter()
        .filter(|e| e.kind == EdgeKind::Imports)
        .map(|e| graph.paths[graph.file_of(e.to) as usize].clone())
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn rust_fixture_imports_link_modules() {
    let index = open();
    assert_eq!(
        imported_files(&index, &format!("{CLI}/main.rs")),
        [format!("{CLI}/args.rs"), format!("{STORE}/lib.rs")]
    );
    assert_eq!(
        imported_files(&index, &format!("{STORE}/lib.rs")),
        [
            format!("{STORE}/disk/mod.rs"),
            format!("{STORE}/record.rs"),
            format!("{STORE}/tests.rs"),
        ]
    );
    assert_eq!(
        imported_files(&index, &format!("{STORE}/disk/mod.rs")),
        [format!("{STORE}/disk/platform_unix.rs")]
    );
}

#[test]
fn rust_fixture_graph_follows_paths_reexports_impls_and_macros() {
    let index = open();
    let t = |file: &str, from: &str, kind| edges_of(&index, file, from, kind);
    let main = format!("{CLI}/main.rs");
    let record = format!("{STORE}/record.rs");
    let calls = t(&main, "main", EdgeKind::Calls);
    for expected in [
        // `Args::parse()`: a method of the impl attached to the imported `Args`.
        format!("{CLI}/args.rs:Args.parse"),
        // `Record::new` through `storage`'s `pub use record::Record`.
        format!("{record}:Record.new"),
        // `storage::write`: a glob re-export (`pub use disk::*`) of the crate root.
        format!("{STORE}/disk/mod.rs:write"),
        // `storage::ensure!`: a macro, by its name.
        format!("{STORE}/lib.rs:ensure"),
    ] {
        assert!(calls.contains(&expected), "{expected} not in {calls:?}");
    }
    // `self.validate()` is a method of the enclosing impl's type; `disk::write` a
    // function of the module `use crate::disk` binds.
    let save = t(&record, "Record.save", EdgeKind::Calls);
    for expected in [
        format!("{record}:Record.validate"),
        format!("{STORE}/disk/mod.rs:write"),
        format!("{record}:Record.key"),
    ] {
        assert!(save.contains(&expected), "{expected} not in {save:?}");
    }
    // A trait impl implements the trait; its block refers to the type.
    let blocks: Vec<String> = t(&record, "Record", EdgeKind::Contains);
    assert!(
        blocks.iter().filter(|b| b.ends_with(":Record")).count() >= 3,
        "the struct contains its impl blocks: {blocks:?}"
    );
    // The impl in `record/fields.rs` refers to the `Record` it imports from its parent.
    assert_eq!(
        t(
            &format!("{STORE}/record/fields.rs"),
            "Record",
            EdgeKind::References
        ),
        [format!("{record}:Record")]
    );
    // The integration test reaches the library through the crate name.
    assert!(
        t(
            "crates/store/tests/roundtrip.rs",
            "roundtrip",
            EdgeKind::Calls
        )
        .contains(&format!("{record}:Record.new"))
    );
}

#[test]
fn rust_fixture_trait_impls_implement_their_trait() {
    let index = open();
    let db = index.db();
    let ws = index.workspace();
    let graph = workspace_graph(db, ws);
    let record = format!("{STORE}/record.rs");
    let fi = graph.paths.iter().position(|p| *p == record).unwrap();
    let facts = &file_index(db, ws.files(db)[fi]).facts;
    let implementing: Vec<String> = facts
        .decls
        .iter()
        .enumerate()
        .flat_map(|(di, _)| {
            graph
                .outgoing(graph.decl_node(fi as u32, di as u32))
                .iter()
                .filter(|e| e.kind == EdgeKind::Implements)
                .map(|e| {
                    let tf = graph.file_of(e.to) as usize;
                    let d = graph.decl_of(e.to).unwrap() as usize;
                    let name = &file_index(db, ws.files(db)[tf]).facts.decls[d].qualified;
                    format!("{}:{name}", graph.paths[tf])
                })
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(implementing, [format!("{STORE}/lib.rs:Storable")]);
}
