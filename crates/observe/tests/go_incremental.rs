//! The incremental guarantees, for Go, counted with the database's event hook: an import
//! path is resolved once however many files write it, a file added to a package resolves
//! again only that package's import path, a body edit recomputes one file's edges, and a
//! new top-level name recomputes the edges of the package's files and importers only.
//! After each step the graph is the one a fresh index builds.

mod common;

use std::path::Path;
use std::sync::{Arc, Mutex};

use sightline_observe::db::{file_index, term_stats, workspace_graph};
use sightline_observe::graph::EdgeKind;
use sightline_observe::{CacheMode, Index, IndexOptions, ObserveDatabase};

type Log = Arc<Mutex<Vec<String>>>;

fn write(root: &Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        if let Some(parent) = root.join(path).parent() {
            std::fs::create_dir_all(parent).unwrap();
        }
        common::write_file(root, path, text);
    }
}

fn open(root: &Path) -> (Index, Log) {
    let log: Log = Arc::default();
    let sink = log.clone();
    let db = ObserveDatabase::with_event_hook(move |event| {
        if let salsa::EventKind::WillExecute { database_key } = event.kind {
            sink.lock().unwrap().push(format!("{database_key:?}"));
        }
    });
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    (Index::open_with_db(db, root, &options).unwrap(), log)
}

fn executed(log: &Log, query: &str) -> usize {
    log.lock()
        .unwrap()
        .iter()
        .filter(|k| k.starts_with(&format!("{query}(")))
        .count()
}

fn touch_all(index: &Index) {
    let (db, ws) = (index.db(), index.workspace());
    let _ = workspace_graph(db, ws);
    let _ = term_stats(db, ws);
    for f in ws.files(db) {
        let _ = file_index(db, *f);
    }
}

fn assert_same_as_fresh(index: &Index, root: &Path) {
    let (fresh, _) = open(root);
    let graph = workspace_graph(index.db(), index.workspace());
    assert_eq!(*graph, *workspace_graph(fresh.db(), fresh.workspace()));
}

/// Two packages of module `m` and two commands importing them.
const MODULE: &[(&str, &str)] = &[
    ("go.mod", "module m\n\ngo 1.22\n"),
    (
        "store/store.go",
        "package store\n\ntype Store struct{ n int }\n\nfunc Open() *Store { return &Store{} }\n",
    ),
    (
        "store/get.go",
        "package store\n\nfunc (s *Store) Get() int { return s.n }\n",
    ),
    (
        "util/util.go",
        "package util\n\nfunc Clamp(n int) int { return n }\n",
    ),
    (
        "cmd/a/main.go",
        "package main\n\nimport (\n\t\"m/store\"\n\t\"m/util\"\n)\n\nfunc main() { s := store.Open(); util.Clamp(s.Get()) }\n",
    ),
    (
        "cmd/b/main.go",
        "package main\n\nimport \"m/store\"\n\nfunc main() { store.Open() }\n",
    ),
];

#[test]
fn an_import_path_is_resolved_once_and_a_new_package_file_re_resolves_only_it() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), MODULE);
    let (mut index, log) = open(dir.path());
    touch_all(&index);
    // `m/store` is written twice, `m/util` once: two resolutions.
    assert_eq!(executed(&log, "import_resolution"), 2);
    log.lock().unwrap().clear();

    write(
        dir.path(),
        &[(
            "store/put.go",
            "package store\n\nfunc (s *Store) Put(n int) { s.n = n }\n",
        )],
    );
    assert_eq!(index.refresh().added, ["store/put.go"]);
    touch_all(&index);
    let log_text = format!("{:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "import_resolution"), 1, "{log_text}");
    assert_eq!(executed(&log, "language_config"), 0, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let main = graph.node_by_name("cmd/b/main.go", "").unwrap();
    let put = graph.node_by_name("store/put.go", "").unwrap();
    assert!(
        graph
            .outgoing(main)
            .iter()
            .any(|e| e.to == put && e.kind == EdgeKind::Imports)
    );
    assert_same_as_fresh(&index, dir.path());
}

#[test]
fn a_body_edit_recomputes_one_files_edges_and_a_new_name_its_package_and_importers() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), MODULE);
    let (mut index, log) = open(dir.path());
    touch_all(&index);
    // A file's first edit lowers its durability and recomputes its consumers once.
    let util = "package util\n\nfunc Clamp(n int) int { return n }\n";
    write(dir.path(), &[("util/util.go", &format!("{util}\n"))]);
    index.refresh();
    touch_all(&index);
    log.lock().unwrap().clear();

    write(
        dir.path(),
        &[(
            "util/util.go",
            "package util\n\nfunc Clamp(n int) int { return bound(n) }\n",
        )],
    );
    assert_eq!(index.refresh().changed, ["util/util.go"]);
    touch_all(&index);
    let log_text = format!("{:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_edges"), 1, "{log_text}");
    assert_eq!(executed(&log, "import_resolution"), 0, "{log_text}");

    // A new top-level name: its own edges and its one importer's.
    log.lock().unwrap().clear();
    write(
        dir.path(),
        &[(
            "util/util.go",
            "package util\n\nfunc Clamp(n int) int { return bound(n) }\n\nfunc Wrap() {}\n",
        )],
    );
    index.refresh();
    touch_all(&index);
    let log_text = format!("{:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_edges"), 2, "{log_text}");
    assert_same_as_fresh(&index, dir.path());
}
