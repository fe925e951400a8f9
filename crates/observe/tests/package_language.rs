//! The binding hooks a package-based language needs, end to end through the index, with
//! the line-based test language of `sightline_lang::testing::toy`: package imports link to
//! every file of the package and bind its namespace, files of one package see each
//! other's top-level declarations, glob imports bring a package's exports into scope, and
//! declarations attached to a type declared in another file of the package are its
//! members. Then what an edit recomputes, counted with the database's event hook.

mod common;

use std::sync::{Arc, Mutex};

use sightline_lang::Languages;
use sightline_lang::testing::toy::Toy;
use sightline_observe::db::{file_index, term_stats, workspace_graph};
use sightline_observe::graph::{EdgeKind, Graph, NodeId};
use sightline_observe::{CacheMode, Index, IndexOptions, ObserveDatabase};

static TOY: Languages = Languages::new(&[&Toy]);

type Log = Arc<Mutex<Vec<String>>>;

fn write(root: &std::path::Path, files: &[(&str, &str)]) {
    for (path, text) in files {
        let abs = root.join(path);
        std::fs::create_dir_all(abs.parent().unwrap()).unwrap();
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
    })
    .with_languages(TOY);
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

const PACKAGE: &[(&str, &str)] = &[
    ("net/server.toy", "type Server\nfunc Listen\n"),
    (
        "net/handlers.toy",
        "method Server.Start\ncall Listen\nmethod Server.stop\n",
    ),
    ("net/util.toy", "func helper\nfunc Dial\ncall helper\n"),
    (
        "app/main.toy",
        "import net\nimport lib/strings.*\nfunc Main\ncall net.Dial\ncall Server.Start\ncall Trim\n",
    ),
    ("lib/strings/trim.toy", "func Trim\n"),
    ("ext/remote.toy", "import example.com/pkg\nfunc R\n"),
];

#[test]
fn a_package_import_links_every_file_of_the_package_and_binds_its_namespace() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), PACKAGE);
    let (index, _) = open(dir.path());
    let graph = workspace_graph(index.db(), index.workspace());
    let main = node(&graph, "app/main.toy", "");
    for file in ["net/server.toy", "net/handlers.toy", "net/util.toy"] {
        assert!(
            has_edge(&graph, main, node(&graph, file, ""), EdgeKind::Imports),
            "an imports edge to {file}"
        );
    }
    let main_fn = node(&graph, "app/main.toy", "Main");
    let dial = node(&graph, "net/util.toy", "Dial");
    assert!(has_edge(&graph, main_fn, dial, EdgeKind::Calls), "net.Dial");
    let report = index.report();
    assert_eq!(report.imports_resolved, 2, "{report:?}");
    assert_eq!(report.imports_external, 1, "{report:?}");
}

#[test]
fn files_of_one_package_see_each_others_top_level_declarations() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), PACKAGE);
    let (index, _) = open(dir.path());
    let graph = workspace_graph(index.db(), index.workspace());
    let start = node(&graph, "net/handlers.toy", "Start");
    let listen = node(&graph, "net/server.toy", "Listen");
    assert!(has_edge(&graph, start, listen, EdgeKind::Calls));
    // Private names too, and never an imports edge between peers.
    let dial = node(&graph, "net/util.toy", "Dial");
    let helper = node(&graph, "net/util.toy", "helper");
    assert!(has_edge(&graph, dial, helper, EdgeKind::Calls));
    let handlers = node(&graph, "net/handlers.toy", "");
    assert!(
        graph
            .outgoing(handlers)
            .iter()
            .all(|e| e.kind != EdgeKind::Imports)
    );
    // A file of another package sees only what it imports.
    let main_fn = node(&graph, "app/main.toy", "Main");
    assert!(!has_edge(&graph, main_fn, listen, EdgeKind::Calls));
}

#[test]
fn a_glob_import_brings_a_packages_exports_into_scope() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), PACKAGE);
    let (index, _) = open(dir.path());
    let graph = workspace_graph(index.db(), index.workspace());
    let main_fn = node(&graph, "app/main.toy", "Main");
    let trim = node(&graph, "lib/strings/trim.toy", "Trim");
    assert!(has_edge(&graph, main_fn, trim, EdgeKind::Calls));
}

#[test]
fn declarations_attached_to_a_type_of_another_file_are_its_members() {
    let dir = tempfile::tempdir().unwrap();
    write(
        dir.path(),
        &[
            ("net/server.toy", "type Server\n"),
            (
                "net/handlers.toy",
                "method Server.Start\ncall self.stop\nmethod Server.stop\n",
            ),
            ("net/use.toy", "func Use\ncall Server.Start\n"),
        ],
    );
    let (index, _) = open(dir.path());
    let graph = workspace_graph(index.db(), index.workspace());
    let server = node(&graph, "net/server.toy", "Server");
    let start = node(&graph, "net/handlers.toy", "Start");
    let stop = node(&graph, "net/handlers.toy", "stop");
    assert!(has_edge(&graph, server, start, EdgeKind::Contains));
    assert!(has_edge(&graph, server, stop, EdgeKind::Contains));
    // `Type.method` through a peer's type, and a self call to an attached sibling.
    let use_fn = node(&graph, "net/use.toy", "Use");
    assert!(has_edge(&graph, use_fn, start, EdgeKind::Calls));
    assert!(has_edge(&graph, start, stop, EdgeKind::Calls));
}

#[test]
fn a_file_added_to_a_package_relinks_its_importers_and_its_peers_only() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), PACKAGE);
    let (mut index, log) = open(dir.path());
    touch_all(&index);
    log.lock().unwrap().clear();

    write(dir.path(), &[("lib/strings/pad.toy", "func Pad\n")]);
    assert_eq!(index.refresh().added, ["lib/strings/pad.toy"]);
    touch_all(&index);

    let log_text = format!("{:?}", log.lock().unwrap());
    // The package import of lib/strings is resolved again (its file list changed); the
    // import of net is not.
    assert_eq!(executed(&log, "import_resolution"), 1, "{log_text}");
    // The new file, and the importer whose resolution changed.
    assert_eq!(executed(&log, "file_link"), 2, "{log_text}");
    assert_eq!(executed(&log, "language_config"), 0, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let main = node(&graph, "app/main.toy", "");
    let pad = node(&graph, "lib/strings/pad.toy", "");
    assert!(has_edge(&graph, main, pad, EdgeKind::Imports));
    assert_same_as_fresh(&index, dir.path());
}

#[test]
fn a_body_edit_in_a_package_file_recomputes_no_peers_edges() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), PACKAGE);
    let (mut index, log) = open(dir.path());
    touch_all(&index);
    // A file's first edit lowers its durability and recomputes its consumers once.
    write(
        dir.path(),
        &[("net/util.toy", "func helper\nfunc Dial\ncall helper\n\n")],
    );
    index.refresh();
    touch_all(&index);
    log.lock().unwrap().clear();

    write(
        dir.path(),
        &[(
            "net/util.toy",
            "func helper\nfunc Dial\ncall helper\ncall Listen\n",
        )],
    );
    assert_eq!(index.refresh().changed, ["net/util.toy"]);
    touch_all(&index);
    let log_text = format!("{:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_edges"), 1, "{log_text}");
    let graph = workspace_graph(index.db(), index.workspace());
    let dial = node(&graph, "net/util.toy", "Dial");
    let listen = node(&graph, "net/server.toy", "Listen");
    assert!(has_edge(&graph, dial, listen, EdgeKind::Calls));

    // A new top-level name is seen by every peer, and by the importer of the package:
    // their edges are computed again (the file's own, two peers', one importer's).
    log.lock().unwrap().clear();
    write(
        dir.path(),
        &[(
            "net/util.toy",
            "func helper\nfunc Dial\ncall helper\ncall Listen\nfunc Extra\n",
        )],
    );
    index.refresh();
    touch_all(&index);
    let log_text = format!("{:?}", log.lock().unwrap());
    assert_eq!(executed(&log, "file_edges"), 4, "{log_text}");
    assert_same_as_fresh(&index, dir.path());
}

/// The refreshed index's graph is the one a fresh index of the same tree builds.
fn assert_same_as_fresh(index: &Index, root: &std::path::Path) {
    let (fresh, _) = open(root);
    let graph = workspace_graph(index.db(), index.workspace());
    let fresh_graph = workspace_graph(fresh.db(), fresh.workspace());
    assert_eq!(*graph, *fresh_graph);
}

#[test]
fn the_graph_outside_salsa_is_the_indexed_graph() {
    use sightline_observe::db::file_shape;
    use sightline_observe::graph::GraphFile;
    use sightline_observe::resolve::ModuleResolver;
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), PACKAGE);
    let (index, _) = open(dir.path());
    let (db, ws) = (index.db(), index.workspace());
    let files: Vec<GraphFile> = ws
        .files(db)
        .iter()
        .map(|f| GraphFile {
            path: f.path(db).clone(),
            shape: Some(file_shape(db, *f)),
        })
        .collect();
    let paths: Vec<String> = files.iter().map(|f| f.path.clone()).collect();
    let resolver = ModuleResolver::with_languages(TOY, &paths, &|_| None);
    let built = Graph::build(&files, &resolver);
    assert_eq!(built, *workspace_graph(db, ws));
}
