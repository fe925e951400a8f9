//! What a Java edit recomputes, counted with the database's event hook: a type added to a
//! package re-resolves only the imports of that package and relinks its peers and
//! importers; a body edit recomputes the edited file's edges alone; and the refreshed
//! graph is always the one a fresh index builds.

mod common;

use std::sync::{Arc, Mutex};

use sightline_observe::db::{file_index, term_stats, workspace_graph};
use sightline_observe::graph::{EdgeKind, Graph, NodeId};
use sightline_observe::{CacheMode, Index, IndexOptions, ObserveDatabase};

type Log = Arc<Mutex<Vec<String>>>;

const PROJECT: &[(&str, &str)] = &[
    (
        "src/main/java/p/A.java",
        "package p;\n\npublic class A {\n    public void run() {}\n}\n",
    ),
    (
        "src/main/java/p/B.java",
        "package p;\n\nclass B {\n    void go() {\n        new A().run();\n    }\n}\n",
    ),
    (
        "src/main/java/q/Main.java",
        "package q;\n\nimport p.*;\nimport r.Util;\n\npublic class Main {\n    void m() {\n        new A();\n        Util.x();\n    }\n}\n",
    ),
    (
        "src/main/java/r/Util.java",
        "package r;\n\npublic class Util {\n    public static void x() {}\n}\n",
    ),
];

fn write(root: &std::path::Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        std::fs::create_dir_all(root.join(path).parent().unwrap()).unwrap();
        common::write_file(root, path, text);
    }
}

fn open(root: &std::path::Path) -> (Index, Log) {
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

fn node(graph: &Graph, path: &str, name: &str) -> NodeId {
    graph
        .node_by_name(path, name)
        .unwrap_or_else(|| panic!("no {name} in {path}"))
}

fn has_edge(graph: &Graph, from: NodeId, to: NodeId, kind: EdgeKind) -> bool {
    graph
        .outgoing(from)
        .iter()
        .any(|e| e.to == to && e.kind == kind && e.certain)
}

/// The refreshed index's graph is the one a fresh index of the same tree builds.
fn assert_same_as_fresh(index: &Index, root: &std::path::Path) {
    let (fresh, _) = open(root);
    let graph = workspace_graph(index.db(), index.workspace());
    let fresh_graph = workspace_graph(fresh.db(), fresh.workspace());
    assert_eq!(*graph, *fresh_graph);
}

#[test]
fn a_type_added_to_a_package_relinks_its_importers_and_peers_only() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), PROJECT);
    let (mut index, log) = open(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    let added = "src/main/java/p/C.java";
    write(
        dir.path(),
        &[(added, "package p;\n\nclass C {\n    A a;\n}\n")],
    );
    assert_eq!(index.refresh().added, [added]);
    touch_all(&index);

    let log_text = format!("{:?}", log.lock().unwrap());
    // The configuration reads the Java paths, and comes out equal: the package's
    // directory held Java files already.
    assert_eq!(executed(&log, "language_config"), 1, "{log_text}");
    // Only the on-demand import of `p` is resolved again (its file list changed).
    assert_eq!(executed(&log, "import_resolution"), 1, "{log_text}");
    // The new file, and the importer whose resolution changed.
    assert_eq!(executed(&log, "file_link"), 2, "{log_text}");
    // The new file, its peers (their package grew) and the importer of the package.
    assert_eq!(executed(&log, "file_edges"), 4, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let main = node(&graph, "src/main/java/q/Main.java", "");
    let c = node(&graph, added, "");
    assert!(has_edge(&graph, main, c, EdgeKind::Imports));
    let c_class = node(&graph, added, "C");
    let a_class = node(&graph, "src/main/java/p/A.java", "A");
    assert!(has_edge(&graph, c_class, a_class, EdgeKind::References));
    assert_same_as_fresh(&index, dir.path());
}

#[test]
fn a_body_edit_recomputes_the_edited_files_edges_alone() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), PROJECT);
    let (mut index, log) = open(dir.path());
    touch_all(&index);
    // A file's first edit lowers its durability and recomputes its consumers once.
    let b = "src/main/java/p/B.java";
    let text = PROJECT[1].1;
    write(dir.path(), &[(b, &format!("{text}\n"))]);
    index.refresh();
    touch_all(&index);
    log.lock().unwrap().clear();

    let edited = text.replace("new A().run();", "new A().run();\n        go();");
    write(dir.path(), &[(b, &edited)]);
    assert_eq!(index.refresh().changed, [b]);
    touch_all(&index);
    let log_text = format!("{:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_edges"), 1, "{log_text}");
    assert_eq!(executed(&log, "file_link"), 0, "{log_text}");
    assert_eq!(executed(&log, "import_resolution"), 0, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let go = node(&graph, b, "B.go");
    let run = node(&graph, "src/main/java/p/A.java", "A.run");
    assert!(has_edge(&graph, go, run, EdgeKind::Calls));
    assert_same_as_fresh(&index, dir.path());
}
