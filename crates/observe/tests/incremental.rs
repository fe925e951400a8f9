//! Incremental recomputation through salsa: counted with the database's event hook.

mod common;

use std::sync::{Arc, Mutex};

use sightline_observe::db::{file_index, graph_parts, term_stats, workspace_graph};
use sightline_observe::graph::{Edge, EdgeKind};
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
        executed(&log, "file_parts"),
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
    edited_before(&mut index, dir.path(), "src/api/client.ts");
    log.lock().unwrap().clear();

    // Moving every line down keeps names, nesting and references: the shape backdates.
    let path = "src/api/client.ts";
    let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
    common::write_file(dir.path(), path, &format!("\n\n{text}"));
    index.refresh();
    touch_all(&index);

    // Re-parsed once; nothing that reads the shape runs again.
    assert_eq!(executed(&log, "file_parts"), 1);
    assert_eq!(executed(&log, "file_link"), 0);
    assert_eq!(executed(&log, "file_edges"), 0);
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

/// Appends `extra` to `path` in the fixture copy and refreshes.
fn append(index: &mut Index, root: &std::path::Path, path: &str, extra: &str) {
    let text = std::fs::read_to_string(root.join(path)).unwrap();
    common::write_file(root, path, &format!("{text}{extra}"));
    assert_eq!(index.refresh().changed, vec![path.to_owned()]);
}

/// Edits `path` once with a comment and refreshes, as a session's first edit of a file
/// would. A file's first edit lowers its text's durability, which salsa pays for by
/// recomputing the file's consumers once without backdating; the tests of what a single
/// edit recomputes measure the edits after it.
fn edited_before(index: &mut Index, root: &std::path::Path, path: &str) {
    append(index, root, path, "\n// edited before\n");
    touch_all(index);
}

/// How many source files import `path`'s module directly (an `imports` edge into it).
fn importers(index: &Index, path: &str) -> usize {
    let graph = workspace_graph(index.db(), index.workspace());
    let module = graph.node_by_name(path, "").unwrap();
    graph
        .incoming(module)
        .filter(|e| e.kind == EdgeKind::Imports)
        .count()
}

#[test]
fn an_edit_adding_one_call_recomputes_one_files_edges() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    // The edited file is imported by others: their edges must not be recomputed.
    let path = "src/state/recordStore.ts";
    assert!(importers(&index, path) >= 2);
    edited_before(&mut index, dir.path(), path);
    log.lock().unwrap().clear();

    append(
        &mut index,
        dir.path(),
        path,
        "
void postRecord;
fetchRecords();
",
    );
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_edges"), 1, "{log_text}");
    // The edited file's link (resolutions and exports) reads its items, not its usages:
    // a body edit leaves them equal, so no import of the file is resolved again.
    assert_eq!(executed(&log, "file_link"), 0, "{log_text}");
    assert_eq!(executed(&log, "import_resolution"), 0, "{log_text}");
    assert_eq!(executed(&log, "workspace_graph"), 1, "{log_text}");
    assert_eq!(executed(&log, "module_resolver"), 0, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let module = graph.node_by_name(path, "").unwrap();
    let fetch = graph
        .node_by_name("src/api/client.ts", "fetchRecords")
        .unwrap();
    assert!(
        graph
            .outgoing(module)
            .iter()
            .any(|e| e.to == fetch && e.kind == EdgeKind::Calls && e.certain),
        "the new module-level call is an edge"
    );
}

#[test]
fn an_edit_adding_a_call_that_resolves_nowhere_does_not_assemble_the_graph_again() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    edited_before(&mut index, dir.path(), "src/main.tsx");
    log.lock().unwrap().clear();

    // A new usage changes the shape, but no binding or declaration explains the name:
    // the file's edges and declarations come out equal, so the assembly is not redone.
    append(
        &mut index,
        dir.path(),
        "src/main.tsx",
        "\nnameDeclaredNowhere();\n",
    );
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_parts"), 1, "{log_text}");
    assert_eq!(executed(&log, "file_edges"), 1, "{log_text}");
    assert_eq!(executed(&log, "workspace_graph"), 0, "{log_text}");
}

#[test]
fn an_edit_adding_a_private_declaration_recomputes_one_files_edges() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    edited_before(&mut index, dir.path(), "src/state/recordStore.ts");
    log.lock().unwrap().clear();

    let path = "src/state/recordStore.ts";
    append(
        &mut index,
        dir.path(),
        path,
        "
function helperAddedLater() { return fetchRecords(); }
",
    );
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_edges"), 1, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let helper = graph.node_by_name(path, "helperAddedLater").unwrap();
    let fetch = graph
        .node_by_name("src/api/client.ts", "fetchRecords")
        .unwrap();
    assert!(graph.outgoing(helper).iter().any(|e| e.to == fetch));
}

#[test]
fn an_edit_adding_an_exported_declaration_recomputes_only_the_files_importing_it() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    let path = "src/state/recordStore.ts";
    let importers = importers(&index, path);
    let files = index.workspace().files(index.db()).len();
    log.lock().unwrap().clear();

    append(
        &mut index,
        dir.path(),
        path,
        "
export function exportedLater() { return 1; }
",
    );
    touch_all(&index);

    // The file's exports changed: the files whose lookups read them may be recomputed
    // (the fixture has no re-export chain through this file), no other file.
    let recomputed = executed(&log, "file_edges");
    assert!(
        (1..=1 + importers).contains(&recomputed),
        "{recomputed} of {files} files' edges recomputed; {importers} import the edited file"
    );
    assert!(recomputed < files / 2);
    let graph = workspace_graph(index.db(), index.workspace());
    assert!(graph.node_by_name(path, "exportedLater").is_some());
}

#[test]
fn a_new_file_nothing_imports_computes_only_its_own_edges() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    common::write_file(
        dir.path(),
        "src/addedLater.ts",
        "import { recordStore } from './state/recordStore';
export function later() { recordStore.load(); }
",
    );
    assert_eq!(index.refresh().added, vec!["src/addedLater.ts".to_owned()]);
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_edges"), 1, "{log_text}");
    assert_eq!(executed(&log, "file_parts"), 1, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let later = graph.node_by_name("src/addedLater.ts", "later").unwrap();
    let load = graph
        .node_by_name("src/state/recordStore.ts", "RecordStore.load")
        .unwrap();
    assert!(graph.outgoing(later).iter().any(|e| e.to == load));
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

/// Files are grouped into term chunks by a hash of their path, not by their position in
/// the file list: a new file lands in one chunk and shifts no other file into another, so
/// each per-chunk table is rebuilt for that one chunk only.
#[test]
fn a_new_file_rebuilds_one_chunk_of_each_term_table() {
    use sightline_observe::db::{
        TERM_CHUNK_FILES, decl_word_chunk, term_chunk_postings, term_chunks,
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    // Enough files for several chunks, the count well inside a power-of-two bracket.
    let files = TERM_CHUNK_FILES * 5;
    for i in 0..files {
        common::write_file(
            dir.path(),
            &format!("src/m{i:03}.ts"),
            &format!("export function handler{i}() {{ return {i} }}\n"),
        );
    }
    let (mut index, log) = counted_index(dir.path());
    let touch_chunks = |index: &Index| {
        let (db, ws) = (index.db(), index.workspace());
        touch_all(index);
        for chunk in term_chunks(db, ws) {
            let _ = term_chunk_postings(db, ws, chunk);
            let _ = decl_word_chunk(db, ws, chunk);
        }
    };
    touch_chunks(&index);
    let chunks = term_chunks(index.db(), index.workspace()).len();
    assert!(chunks >= 4, "{chunks} chunks");
    log.lock().unwrap().clear();

    // Sorts between existing files, so every later file's position shifts by one.
    common::write_file(
        dir.path(),
        "src/m100a.ts",
        "export function addedHandler() { return 0 }\n",
    );
    assert_eq!(
        index.refresh_paths(&["src/m100a.ts"]).added,
        ["src/m100a.ts"]
    );
    touch_chunks(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(term_chunks(index.db(), index.workspace()).len(), chunks);
    assert_eq!(executed(&log, "term_chunk_stats"), 1, "{log_text}");
    assert_eq!(executed(&log, "term_chunk_postings"), 1, "{log_text}");
    assert_eq!(executed(&log, "decl_word_chunk"), 1, "{log_text}");
}

/// Resolution reads the configuration and the files of the directories it probes, not the
/// whole file list: a new file in a directory no import probes re-resolves its own imports
/// and no other file's, and rebuilds no configuration.
#[test]
fn a_new_file_re_resolves_only_the_imports_that_probe_its_directory() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    std::fs::create_dir(dir.path().join("src/fresh")).unwrap();
    common::write_file(
        dir.path(),
        "src/fresh/addedLater.ts",
        "import { recordStore } from '../state/recordStore';
export function later() { recordStore.load(); }
",
    );
    let added = index.refresh_paths(&["src/fresh/addedLater.ts"]).added;
    assert_eq!(added, ["src/fresh/addedLater.ts"]);
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_link"), 1, "{log_text}");
    assert_eq!(executed(&log, "language_config"), 0, "{log_text}");
    assert_eq!(executed(&log, "module_resolver"), 0, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let later = graph
        .node_by_name("src/fresh/addedLater.ts", "later")
        .unwrap();
    let load = graph
        .node_by_name("src/state/recordStore.ts", "RecordStore.load")
        .unwrap();
    assert!(graph.outgoing(later).iter().any(|e| e.to == load));
}

/// Two Python packages of `modules` modules each, every module importing the next one of
/// its package.
fn two_python_packages(modules: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    for package in ["alpha", "beta"] {
        std::fs::create_dir_all(dir.path().join(package)).unwrap();
        common::write_file(dir.path(), &format!("{package}/__init__.py"), "");
        for i in 0..modules {
            let next = (i + 1) % modules;
            common::write_file(
                dir.path(),
                &format!("{package}/m{i:02}.py"),
                &format!(
                    "from {package}.m{next:02} import f{next}\n\ndef f{i}():\n    return f{next}()\n"
                ),
            );
        }
    }
    dir
}

/// A Python file added beside others changes no import root, top-level name or Python
/// directory: only the imports that probed its directory are resolved again, not every
/// Python file's.
#[test]
fn a_new_python_module_re_resolves_only_its_packages_imports() {
    let modules = 20;
    let dir = two_python_packages(modules);
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    common::write_file(
        dir.path(),
        "beta/added_later.py",
        "from beta.m00 import f0\n\ndef later():\n    return f0()\n",
    );
    assert_eq!(index.refresh().added, ["beta/added_later.py"]);
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    let resolved = executed(&log, "file_link");
    // The new module and those of its package (they probe its directory); none of alpha.
    assert!(
        (1..=modules + 2).contains(&resolved),
        "{resolved} files' imports resolved again; {log_text}"
    );
    let graph = workspace_graph(index.db(), index.workspace());
    let later = graph.node_by_name("beta/added_later.py", "later").unwrap();
    let f0 = graph.node_by_name("beta/m00.py", "f0").unwrap();
    assert!(graph.outgoing(later).iter().any(|e| e.to == f0));
}

/// A new file in a directory an import probes is found by that import.
#[test]
fn a_new_file_an_import_was_missing_is_resolved() {
    let dir = common::fixture_copy();
    let (mut index, log) = counted_index(dir.path());
    common::write_file(
        dir.path(),
        "src/wantsMissing.ts",
        "import { missing } from './missingYet';
export function wants() { missing(); }
",
    );
    index.refresh();
    touch_all(&index);
    let graph = workspace_graph(index.db(), index.workspace());
    let wants = graph.node_by_name("src/wantsMissing.ts", "wants").unwrap();
    assert!(
        graph
            .outgoing(wants)
            .iter()
            .all(|e| e.kind == EdgeKind::Contains)
    );
    log.lock().unwrap().clear();

    common::write_file(
        dir.path(),
        "src/missingYet.ts",
        "export function missing() { return 1 }\n",
    );
    assert_eq!(
        index.refresh_paths(&["src/missingYet.ts"]).added,
        ["src/missingYet.ts"]
    );
    touch_all(&index);
    let log_text = format!("executions: {:?}", log.lock().unwrap());
    let graph = workspace_graph(index.db(), index.workspace());
    let wants = graph.node_by_name("src/wantsMissing.ts", "wants").unwrap();
    let missing = graph.node_by_name("src/missingYet.ts", "missing").unwrap();
    assert!(
        graph.outgoing(wants).iter().any(|e| e.to == missing),
        "{log_text}"
    );
    let files = index.workspace().files(index.db()).len();
    assert!(executed(&log, "file_link") < files / 2, "{log_text}");
}

#[test]
fn an_edit_gathers_only_its_chunks_graph_parts_again() {
    let dir = common::ring_workspace(3 * sightline_observe::db::FILE_BLOCK_FILES);
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    edited_before(&mut index, dir.path(), "src/m100.ts");
    // A first edit that keeps the file's exports reads no other file's memos, so its
    // importer's edges first read them at their lowered durability (and, salsa never
    // backdating a value whose durability dropped, its block gathers again) when an edit
    // changes them: one such edit before the one counted.
    append(
        &mut index,
        dir.path(),
        "src/m100.ts",
        "\nexport function addedBefore() {}\n",
    );
    touch_all(&index);
    log.lock().unwrap().clear();

    let path = "src/m100.ts";
    append(
        &mut index,
        dir.path(),
        path,
        "\nexport function addedLater() {}\n",
    );
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "graph_chunk"), 1, "{log_text}");
    assert_eq!(executed(&log, "workspace_graph"), 1, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let added = graph.node_by_name(path, "addedLater").unwrap();
    let caller = graph.node_by_name("src/m099.ts", "f99").unwrap();
    let callee = graph.node_by_name(path, "f100").unwrap();
    assert!(graph.file_of(added) == graph.file_of(callee));
    assert!(graph.outgoing(caller).iter().any(|e| e.to == callee));
}

#[test]
fn a_declaration_added_to_one_file_leaves_every_other_files_node_ids_alone() {
    let dir = common::fixture_copy();
    let (mut index, _log) = counted_index(dir.path());
    let later = "src/state/recordStore.ts";
    let leaving = |graph: &sightline_observe::graph::Graph, file: u32| -> Vec<_> {
        graph
            .edges()
            .filter(|e| graph.file_of(e.from) == file)
            .copied()
            .collect()
    };
    let before = workspace_graph(index.db(), index.workspace());
    let load = before.node_by_name(later, "RecordStore.load").unwrap();
    let file = before.file_of(load);
    assert!(!leaving(&before, file).is_empty());

    // A file earlier in path order gains a declaration: with nodes numbered by position,
    // every node after it would shift.
    let earlier = "src/api/client.ts";
    assert!(before.file_id(earlier).unwrap() < file);
    append(
        &mut index,
        dir.path(),
        earlier,
        "\nexport function addedFirst() { return 1; }\n",
    );
    let after = workspace_graph(index.db(), index.workspace());
    assert!(after.node_by_name(earlier, "addedFirst").is_some());
    assert_eq!(after.node_by_name(later, "RecordStore.load"), Some(load));
    assert_eq!(leaving(&after, file), leaving(&before, file));
}

/// Every file's cached graph part by path: its resolved edges, which name files by
/// their stable ids.
fn cached_edges(index: &Index) -> std::collections::BTreeMap<String, Vec<Edge>> {
    graph_parts(index.db(), index.workspace())
        .iter()
        .flat_map(|chunk| chunk.iter())
        .map(|part| (part.path.clone(), part.resolved.clone()))
        .collect()
}

/// The graph of a fresh index of the same tree.
fn fresh_graph(root: &std::path::Path) -> Arc<sightline_observe::graph::Graph> {
    let (fresh, _log) = counted_index(root);
    workspace_graph(fresh.db(), fresh.workspace())
}

#[test]
fn a_file_added_before_every_other_leaves_every_cached_edge_alone() {
    let dir = common::fixture_copy();
    let (mut index, _log) = counted_index(dir.path());
    let before = cached_edges(&index);
    assert!(before.values().any(|edges| !edges.is_empty()));

    // First in path order: with files numbered by position, every file's would shift.
    let first = "a_first.ts";
    common::write_file(dir.path(), first, "export function addedFirst() {}\n");
    assert_eq!(index.refresh().added, vec![first.to_owned()]);
    let after = cached_edges(&index);
    for (path, edges) in &before {
        assert_eq!(after.get(path), Some(edges), "{path}");
    }
    // The assembled graph numbers files by position: the same as a fresh index's, although
    // the new file's stable id is the largest.
    let graph = workspace_graph(index.db(), index.workspace());
    assert_eq!(graph.file_id(first), Some(0));
    assert!(graph.node_by_name(first, "addedFirst").is_some());
    assert_eq!(*graph, *fresh_graph(dir.path()));
}

#[test]
fn a_removed_file_leaves_the_cached_edges_of_files_not_reaching_it_alone() {
    let dir = common::fixture_copy();
    let (mut index, _log) = counted_index(dir.path());
    let removed = workspace_graph(index.db(), index.workspace()).paths[0].clone();
    let gone = sightline_observe::db::file_id(index.db(), index.file(&removed).unwrap());
    let before: Vec<(String, Vec<Edge>)> = cached_edges(&index)
        .into_iter()
        .filter(|(p, edges)| *p != removed && edges.iter().all(|e| e.to.file != gone))
        .collect();
    assert!(before.len() > 5, "{before:?}");

    std::fs::remove_file(dir.path().join(&removed)).unwrap();
    assert_eq!(index.refresh().removed, vec![removed.clone()]);
    let after = cached_edges(&index);
    assert!(!after.contains_key(&removed));
    for (path, edges) in &before {
        assert_eq!(after.get(path), Some(edges), "{path}");
    }
    assert_eq!(
        *workspace_graph(index.db(), index.workspace()),
        *fresh_graph(dir.path())
    );
}

/// Graph chunks group files by a hash of their paths: a file added first in path order
/// lands in one chunk and shifts no other file into another, so one chunk gathers again.
#[test]
fn a_new_file_gathers_exactly_one_chunks_graph_parts_again() {
    let dir = common::ring_workspace(3 * sightline_observe::db::FILE_BLOCK_FILES - 5);
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    let first = "src/a_first.ts";
    common::write_file(
        dir.path(),
        first,
        "import { f7 } from './m007';\nexport function addedFirst() { f7(); }\n",
    );
    assert_eq!(index.refresh().added, vec![first.to_owned()]);
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "graph_chunk"), 1, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let added = graph.node_by_name(first, "addedFirst").unwrap();
    let callee = graph.node_by_name("src/m007.ts", "f7").unwrap();
    assert!(graph.outgoing(added).iter().any(|e| e.to == callee));
    assert_eq!(graph.file_id(first), Some(0));
}

#[test]
fn a_files_edits_first_or_later_verify_only_what_derives_from_it() {
    let log: Log = Arc::default();
    let sink = log.clone();
    let db = ObserveDatabase::with_event_hook(move |event| {
        if let salsa::EventKind::DidValidateMemoizedValue { database_key } = event.kind {
            sink.lock().unwrap().push(format!("{database_key:?}"));
        }
    });
    let files = 8 * sightline_observe::db::FILE_BLOCK_FILES;
    let dir = common::ring_workspace(files);
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let mut index = Index::open_with_db(db, dir.path(), &options).expect("index ring");
    let path = "src/m100.ts";

    // The files of the edited file's graph block and term chunk (about 64 each, as a
    // hash of their paths groups them), its importer and itself.
    let chunks = {
        use sightline_observe::db::{file_block_layout, term_chunk_layout, term_chunk_of};
        let (db, ws) = (index.db(), index.workspace());
        let in_group = |groups: &[Arc<[sightline_observe::SourceFile]>]| {
            groups[term_chunk_of(path, groups.len() as u32) as usize].len()
        };
        in_group(&file_block_layout(db, ws)) + in_group(&term_chunk_layout(db, ws)) + 1
    };

    // The first edit of a file is a medium-durability write, which makes salsa verify
    // again every memo reading some source text that is reached; the workspace-wide
    // tables read the chunks' tables as the index set them, so the refresh and the
    // queries reach the files of the edited file's chunks, not every file's memos.
    log.lock().unwrap().clear();
    append(&mut index, dir.path(), path, "\n// first edit\n");
    let _ = workspace_graph(index.db(), index.workspace());
    let _ = term_stats(index.db(), index.workspace());
    let first = executed(&log, "file_parts");
    assert!(
        first <= chunks + 1 && first < files / 2,
        "{first} of {files} files' facts verified"
    );

    // Later edits of it verify (cheaply, by durability) the files of the chunks it is in
    // (its graph block and its term chunk) and its importer, not the rest of the
    // workspace.
    log.lock().unwrap().clear();
    append(
        &mut index,
        dir.path(),
        path,
        "\nexport function addedLater() {}\n",
    );
    let _ = workspace_graph(index.db(), index.workspace());
    let _ = term_stats(index.db(), index.workspace());
    let later = executed(&log, "file_parts");
    assert!(
        later <= chunks + 1 && later < files / 2,
        "{later} of {files} files' facts verified"
    );
    assert!(
        workspace_graph(index.db(), index.workspace())
            .node_by_name(path, "addedLater")
            .is_some()
    );
}

/// Directory listings are compared again only in the part of the directory table a new
/// file's directory hashes to, not for every directory.
#[test]
fn a_new_file_lists_again_only_the_directories_of_its_part() {
    let dir = tempfile::tempdir().unwrap();
    let dirs = 128;
    for i in 0..dirs {
        let next = (i + 1) % dirs;
        std::fs::create_dir(dir.path().join(format!("d{i:03}"))).unwrap();
        common::write_file(
            dir.path(),
            &format!("d{i:03}/m.ts"),
            &format!(
                "import {{ f{next} }} from '../d{next:03}/m';\nexport function f{i}() {{ f{next}(); }}\n"
            ),
        );
    }
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    let added = "d042/added.ts";
    common::write_file(dir.path(), added, "export function added() {}\n");
    assert_eq!(index.refresh_paths(&[added]).added, [added]);
    touch_all(&index);

    let log_text = format!("executions: {:?}", log.lock().unwrap());
    let listed = executed(&log, "directory_files");
    assert!(
        (1..dirs / 8).contains(&listed),
        "{listed} of {dirs}: {log_text}"
    );
    assert!(
        workspace_graph(index.db(), index.workspace())
            .node_by_name(added, "added")
            .is_some()
    );
}

/// The repository's statistics are document frequencies: an edit that changes how often
/// a file uses its words, but not which words it uses, rebuilds its chunk's postings and
/// leaves the statistics as they were (nothing reading them runs again); a new word
/// changes them.
#[test]
fn only_a_changed_vocabulary_changes_the_term_statistics() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    common::write_file(
        dir.path(),
        "src/a.ts",
        "export function saveDraft() { return publishDraft(publishDraft) }\n",
    );
    common::write_file(dir.path(), "src/b.ts", "export const other = 2\n");
    let (mut index, log) = counted_index(dir.path());
    touch_all(&index);
    // A first edit lowers the file's durability, after which salsa backdates by value.
    common::write_file(
        dir.path(),
        "src/a.ts",
        "export function saveDraft() { return publishDraft(publishDraft) }\n\n",
    );
    assert_eq!(index.refresh_paths(&["src/a.ts"]).changed, ["src/a.ts"]);
    touch_all(&index);
    let before = term_stats(index.db(), index.workspace());
    log.lock().unwrap().clear();

    // `save` once more and `publish` once less: the same words as often in all, other
    // counts.
    common::write_file(
        dir.path(),
        "src/a.ts",
        "export function saveDraft() { return saveDraft(publishDraft) }\n",
    );
    assert_eq!(index.refresh_paths(&["src/a.ts"]).changed, ["src/a.ts"]);
    touch_all(&index);
    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "term_chunk_postings"), 1, "{log_text}");
    // The statistics come out equal (`term_stats` may re-collect the chunks' handles, so
    // that the chunk's stats read the postings its table keeps, not the replaced ones).
    assert_eq!(*term_stats(index.db(), index.workspace()), *before);
    for tables in index.workspace().term_tables(index.db()) {
        assert!(
            std::sync::Arc::ptr_eq(
                &tables.stats(index.db()).postings,
                &tables.postings(index.db())
            ),
            "a chunk's stats hold postings its table no longer keeps"
        );
    }
    log.lock().unwrap().clear();

    common::write_file(
        dir.path(),
        "src/a.ts",
        "export function saveDraft() { return archiveDraft(publishDraft) }\n",
    );
    assert_eq!(index.refresh_paths(&["src/a.ts"]).changed, ["src/a.ts"]);
    touch_all(&index);
    let log_text = format!("executions: {:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "term_stats"), 1, "{log_text}");
    let after = term_stats(index.db(), index.workspace());
    assert!(after.df("archiv") > before.df("archiv"), "{after:?}");
}
