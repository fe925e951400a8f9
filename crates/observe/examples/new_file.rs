//! What adding a file costs on a large workspace: creates a file with one exported function
//! in DIR five times, timing `refresh_paths` for it, one explore call after it, then the
//! refresh that sees it deleted; prints which queries re-executed and how often.
//! `cargo run --release -p sightline-observe --example new_file -- REPO DIR`

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use sightline_observe::tools::explore_code::{ExploreArgs, run};
use sightline_observe::{Index, IndexOptions, ObserveDatabase};

type Counts = Arc<Mutex<BTreeMap<String, u32>>>;

/// The query name of a salsa database key's debug form (`file_edges(Id(12))`).
fn query_name(key: &str) -> String {
    key.split('(').next().unwrap_or(key).to_owned()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, root, dir] = args.as_slice() else {
        eprintln!(
            "usage: new_file REPO DIR (DIR relative to REPO; the file is removed at the end)"
        );
        std::process::exit(2);
    };
    let root = std::path::Path::new(root);
    let counts: Counts = Arc::default();
    let sink = counts.clone();
    let db = ObserveDatabase::with_event_hook(move |event| {
        if let salsa::EventKind::WillExecute { database_key } = event.kind {
            let name = query_name(&format!("{database_key:?}"));
            *sink.lock().unwrap().entry(name).or_default() += 1;
        }
    });
    let mut index = Index::open_with_db(db, root, &IndexOptions::default()).expect("index");
    let query = "probe added handler for the dev server";
    let explore = |index: &Index| {
        let _ = run(index.db(), index.workspace(), &ExploreArgs::new(query));
    };
    explore(&index);
    let take = |counts: &Counts| std::mem::take(&mut *counts.lock().unwrap());
    take(&counts);
    for i in 0..5 {
        let rel = format!("{}/probeAdded{i}.ts", dir.trim_end_matches('/'));
        let abs = root.join(&rel);
        std::fs::write(
            &abs,
            format!(
                "export function probeAddedHandler{i}(server: unknown) {{\n  return server\n}}\n"
            ),
        )
        .unwrap();
        let t = Instant::now();
        let report = index.refresh_paths(&[rel.as_str()]);
        let add = t.elapsed();
        assert_eq!(
            report.added,
            std::slice::from_ref(&rel),
            "the new file is indexed"
        );
        let add_timings = index.report().timings_ms.clone();
        let add_counts = take(&counts);
        let t = Instant::now();
        explore(&index);
        let query_time = t.elapsed();
        let query_counts = take(&counts);
        std::fs::remove_file(&abs).unwrap();
        let t = Instant::now();
        let report = index.refresh_paths(&[rel.as_str()]);
        let remove = t.elapsed();
        assert_eq!(
            report.removed,
            std::slice::from_ref(&rel),
            "the removed file is dropped"
        );
        let remove_counts = take(&counts);
        explore(&index);
        take(&counts);
        println!(
            "add {add:?} explore {query_time:?} remove {remove:?}\n  add timings {add_timings:?}\n  add executed {add_counts:?}\n  explore executed {query_counts:?}\n  remove executed {remove_counts:?}"
        );
    }
}
