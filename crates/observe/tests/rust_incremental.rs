//! Incremental recomputation over the Rust fixture, counted with the database's event
//! hook: the guarantees the TypeScript fixture's tests check (`incremental.rs`) hold for
//! Rust's per-file import scope and Cargo configuration too.

mod common;

use std::sync::{Arc, Mutex};

use sightline_observe::db::{file_index, term_stats, workspace_graph};
use sightline_observe::graph::EdgeKind;
use sightline_observe::{CacheMode, Index, IndexOptions, ObserveDatabase};

type Log = Arc<Mutex<Vec<String>>>;

fn counted_index(root: &std::path::Path) -> (Index, Log) {
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

/// Rewrites `path` with `from` replaced by `to` and refreshes the index.
fn replace(index: &mut Index, root: &std::path::Path, path: &str, from: &str, to: &str) {
    let text = std::fs::read_to_string(root.join(path)).unwrap();
    assert!(text.contains(from), "{from:?} in {path}");
    common::write_file(root, path, &text.replacen(from, to, 1));
    assert_eq!(index.refresh().changed, [path.to_string()]);
}

const RECORD: &str = "crates/store/src/record.rs";

#[test]
fn a_rust_body_edit_recomputes_one_files_edges_and_resolves_nothing() {
    let dir = common::rust_fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    // The first edit of a file is a high-durability write; count a later one.
    replace(&mut index, dir.path(), RECORD, "Ok(())", "Ok(())\n");
    touch_all(&index);
    log.lock().unwrap().clear();

    replace(
        &mut index,
        dir.path(),
        RECORD,
        "        Ok(())",
        "        disk::write(\"check\", 0)?;\n        Ok(())",
    );
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_edges"), 1, "{log_text}");
    assert_eq!(executed(&log, "file_link"), 0, "{log_text}");
    assert_eq!(executed(&log, "import_resolution"), 0, "{log_text}");
    assert_eq!(executed(&log, "language_config"), 0, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let write = graph
        .node_by_name("crates/store/src/disk/mod.rs", "write")
        .unwrap();
    let callers = graph
        .incoming(write)
        .filter(|e| e.kind == EdgeKind::Calls && e.certain)
        .count();
    assert!(callers >= 3, "save, validate and main call `write`");
}

#[test]
fn a_new_rust_module_resolves_only_its_own_imports_again() {
    let dir = common::rust_fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    let added = "crates/cli/src/later.rs";
    common::write_file(
        dir.path(),
        added,
        "use crate::args::Args;\n\npub fn later() -> bool {\n    Args::parse().valid()\n}\n",
    );
    assert_eq!(index.refresh().added, [added.to_string()]);
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    // Imports that probed the new file's directory are resolved again and come out
    // equal; the new file links, and at most the files whose imports reach its directory
    // (`main.rs`, `args.rs`) link again: none of the store crate's.
    let linked = executed(&log, "file_link");
    assert!((1..=3).contains(&linked), "{linked}; {log_text}");
    assert_eq!(executed(&log, "language_config"), 0, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let later = graph.node_by_name(added, "later").unwrap();
    let parse = graph
        .node_by_name("crates/cli/src/args.rs", "Args")
        .unwrap();
    assert!(
        graph
            .outgoing(later)
            .iter()
            .any(|e| e.kind == EdgeKind::Calls && graph.file_of(e.to) == graph.file_of(parse)),
        "`Args::parse()` reaches args.rs"
    );
}

#[test]
fn a_manifest_edit_that_keeps_the_packages_resolves_nothing_again() {
    let dir = common::rust_fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    replace(
        &mut index,
        dir.path(),
        "crates/cli/Cargo.toml",
        "edition = \"2021\"",
        "edition = \"2021\"\ndescription = \"a command line\"",
    );
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "language_config"), 1, "{log_text}");
    assert_eq!(executed(&log, "import_resolution"), 0, "{log_text}");
    assert_eq!(executed(&log, "file_link"), 0, "{log_text}");
}
