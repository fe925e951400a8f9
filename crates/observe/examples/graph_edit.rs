//! Where a shape edit's graph time goes on a large workspace: the assembly itself versus
//! fetching every file's cached parts through salsa, and the refresh's own timings. Appends
//! an exported function to FILE five times (restoring it at the end).
//! `cargo run --release -p sightline-observe --example graph_edit -- REPO FILE`

use std::time::Instant;

use sightline_observe::db::{file_decls, file_edges, workspace_graph};
use sightline_observe::graph::{Graph, GraphPart};
use sightline_observe::walk::FileRole;
use sightline_observe::{Index, IndexOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, root, file] = args.as_slice() else {
        eprintln!("usage: graph_edit REPO FILE (FILE relative to REPO; restored at the end)");
        std::process::exit(2);
    };
    let root = std::path::Path::new(root);
    let file = file.as_str();
    let mut index = Index::open(root, &IndexOptions::default()).expect("index");
    let _ = workspace_graph(index.db(), index.workspace());
    let path = root.join(file);
    let original = std::fs::read_to_string(&path).unwrap();
    for i in 0..5 {
        std::fs::write(
            &path,
            format!("{original}\nexport function probe{i}() {{ return {i} }}\n"),
        )
        .unwrap();
        let t = Instant::now();
        index.refresh_paths(&[file]);
        let refresh = t.elapsed();
        let t = Instant::now();
        let _ = workspace_graph(index.db(), index.workspace());
        let graph = t.elapsed();
        let db = index.db();
        let ws = index.workspace();
        let t = Instant::now();
        let parts: Vec<GraphPart<_>> = ws
            .files(db)
            .iter()
            .map(|f| GraphPart {
                file: *f,
                path: f.path(db).as_str(),
                decls: (f.role(db) != FileRole::Manifest).then(|| file_decls(db, *f)),
                edges: file_edges(db, ws, *f),
            })
            .collect();
        let fetch = t.elapsed();
        let t = Instant::now();
        let _ = Graph::assemble(&parts);
        let assemble = t.elapsed();
        println!(
            "refresh {refresh:?} graph {graph:?} | fetch {fetch:?} assemble {assemble:?} | {:?}",
            index.report().timings_ms
        );
    }
    std::fs::write(&path, original).unwrap();
}
