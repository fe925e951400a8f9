//! Incremental recomputation through salsa: counted with the database's event hook.

mod common;

use std::sync::{Arc, Mutex};

use sightline_observe::db::{file_index, term_stats, workspace_graph};
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
    let index = Index::open_with_db(db, root, &options).expect("index fixture");
    (index, log)
}

fn executed(log: &Log, query: &str) -> usize {
    log.lock()
        .unwrap()
        .iter()
        .filter(|k| k.starts_with(&format!("{query}(")))
        .count()
}

/// Forces every workspace-level query, as an explore call would.
fn touch_all(index: &Index) {
    let db = index.db();
    let ws = index.workspace();
    let _ = workspace_graph(db, ws);
    let _ = term_stats(db, ws);
    for f in ws.files(db) {
        let _ = file_index(db, *f);
    }
}

#[test]
fn editing_one_file_reparses_exactly_that_file() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    let path = "src/state/recordStore.ts";
    let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
    common::write_file(
        dir.path(),
        path,
        &format!("{text}\nexport function addedLater() {{ return 1 }}\n"),
    );
    let refreshed = index.refresh();
    assert_eq!(refreshed.changed, vec![path.to_owned()]);
    touch_all(&index);

    assert_eq!(
        executed(&log, "file_index"),
        1,
        "executions: {:?}",
        log.lock().unwrap()
    );
    // A new declaration changes the file's shape, so the graph is rebuilt once.
    assert_eq!(executed(&log, "workspace_graph"), 1);
    let graph = workspace_graph(index.db(), index.workspace());
    assert!(graph.names.contains_key("addedLater"));
}

#[test]
fn an_edit_that_keeps_declarations_does_not_rebuild_the_graph() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    // Moving every line down keeps names, nesting and references: the shape backdates.
    let path = "src/api/client.ts";
    let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
    common::write_file(dir.path(), path, &format!("\n\n{text}"));
    index.refresh();
    touch_all(&index);

    assert_eq!(executed(&log, "file_index"), 1);
    assert_eq!(executed(&log, "file_shape"), 1);
    assert_eq!(
        executed(&log, "workspace_graph"),
        0,
        "executions: {:?}",
        log.lock().unwrap()
    );
    assert_eq!(executed(&log, "module_resolver"), 0);
}

#[test]
fn an_unchanged_tree_recomputes_nothing() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();
    let refreshed = index.refresh();
    assert!(refreshed.is_empty());
    touch_all(&index);
    assert!(
        log.lock().unwrap().is_empty(),
        "executions: {:?}",
        log.lock().unwrap()
    );
}

#[test]
fn added_and_removed_files_are_seen() {
    let dir = common::fixture_copy();
    let (mut index, _log) = counted_index(dir.path());
    common::write_file(dir.path(), "src/extra.ts", "export const extraValue = 1;\n");
    std::fs::remove_file(dir.path().join("src/types.ts")).unwrap();
    let refreshed = index.refresh();
    assert_eq!(refreshed.added, vec!["src/extra.ts".to_owned()]);
    assert_eq!(refreshed.removed, vec!["src/types.ts".to_owned()]);
    assert!(index.file("src/extra.ts").is_some());
    assert!(index.file("src/types.ts").is_none());
}
