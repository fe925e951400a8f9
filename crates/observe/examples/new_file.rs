//! What adding a file costs on a large workspace: creates a file with one exported function
//! in DIR (five times, or ROUNDS), timing `refresh_paths` for it, one explore call after it, then the
//! refresh that sees it deleted; with NEW_FILE_COUNT set, prints which queries re-executed
//! and how often; with NEW_FILE_COLD set, the index is opened without the persistent cache;
//! with NEW_FILE_PYTHON set, the file is a Python module instead of a TypeScript one.
//! `cargo run --release -p sightline-observe --example new_file -- REPO DIR [ROUNDS]`

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
    let (root, dir, rounds) = match args.as_slice() {
        [_, root, dir] => (root, dir, 5),
        [_, root, dir, rounds] => (root, dir, rounds.parse().unwrap_or(5)),
        _ => {
            eprintln!("usage: new_file REPO DIR [ROUNDS] (DIR relative to REPO; removed again)");
            std::process::exit(2);
        }
    };
    let root = std::path::Path::new(root);
    let counts: Counts = Arc::default();
    let sink = counts.clone();
    // An event hook slows salsa down (an event per validated memo), so queries are only
    // counted when asked for.
    let db = if std::env::var_os("NEW_FILE_COUNT").is_some() {
        ObserveDatabase::with_event_hook(move |event| {
            if let salsa::EventKind::WillExecute { database_key } = event.kind {
                let name = query_name(&format!("{database_key:?}"));
                *sink.lock().unwrap().entry(name).or_default() += 1;
            }
        })
    } else {
        ObserveDatabase::default()
    };
    // NEW_FILE_COLD: open without the persistent cache, so the open is a cold index.
    let options = IndexOptions {
        cache: if std::env::var_os("NEW_FILE_COLD").is_some() {
            sightline_observe::CacheMode::Disabled
        } else {
            sightline_observe::CacheMode::Default
        },
        progress: None,
    };
    let t = Instant::now();
    let mut index = Index::open_with_db(db, root, &options).expect("index");
    println!("open {:?} {:?}", t.elapsed(), index.report().timings_ms);
    let query = "probe added handler for the dev server";
    let explore = |index: &Index| {
        let _ = run(index.db(), index.workspace(), &ExploreArgs::new(query));
    };
    explore(&index);
    let take = |counts: &Counts| std::mem::take(&mut *counts.lock().unwrap());
    take(&counts);
    print_resolution_costs(&index);
    let mut times: [Vec<f64>; 3] = Default::default();
    for i in 0..rounds {
        let python = std::env::var_os("NEW_FILE_PYTHON").is_some();
        let rel = match python {
            true => format!("{}/probe_added{i}.py", dir.trim_end_matches('/')),
            false => format!("{}/probeAdded{i}.ts", dir.trim_end_matches('/')),
        };
        let abs = root.join(&rel);
        let text = match python {
            true => format!("def probe_added_handler{i}(server):\n    return server\n"),
            false => format!(
                "export function probeAddedHandler{i}(server: unknown) {{\n  return server\n}}\n"
            ),
        };
        std::fs::write(&abs, text).unwrap();
        let t = Instant::now();
        let scoped = sightline_observe::walk::walk_scoped(
            root,
            sightline_observe::LANGUAGES,
            &[rel.as_str()],
            &|_, _| false,
        );
        let walk = t.elapsed();
        assert_eq!(scoped.files.len(), 1, "the scoped walk finds the new file");
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
        for (all, t) in times.iter_mut().zip([add, query_time, remove]) {
            all.push(t.as_secs_f64() * 1000.0);
        }
        println!(
            "add {add:?} explore {query_time:?} remove {remove:?} (a scoped walk alone {walk:?})\n  add timings {add_timings:?}\n  add executed {add_counts:?}\n  explore executed {query_counts:?}\n  remove executed {remove_counts:?}"
        );
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        (v[v.len() / 2], v[0])
    };
    let [add, explore, remove] = &mut times;
    let ((add, add_min), (explore, _), (remove, remove_min)) =
        (median(add), median(explore), median(remove));
    println!(
        "median over {rounds}: add {add:.1} ms (min {add_min:.1}), explore {explore:.1} ms, remove {remove:.1} ms (min {remove_min:.1})"
    );
}

/// What re-resolving every import costs outside salsa: building the workspace's resolver,
/// resolving every import of every file with it, and assembling the graph from the cached
/// per-file parts.
fn print_resolution_costs(index: &Index) {
    use sightline_observe::db::{assembly_parts, file_shape, graph_parts};
    use sightline_observe::graph::Graph;
    use sightline_observe::resolve::ModuleResolver;
    use sightline_observe::walk::FileRole;
    let (db, ws) = (index.db(), index.workspace());
    let files = ws.files(db);
    let paths: Vec<String> = files.iter().map(|f| f.path(db).clone()).collect();
    let manifests: std::collections::HashMap<&str, String> = files
        .iter()
        .filter(|f| f.role(db) == FileRole::Manifest)
        .map(|f| (f.path(db).as_str(), f.text(db).to_string()))
        .collect();
    let read = |p: &str| manifests.get(p).cloned();
    let t = Instant::now();
    let resolver = ModuleResolver::new(&paths, &read);
    let build = t.elapsed();
    let t = Instant::now();
    let mut imports = 0;
    for f in files {
        if f.role(db) == FileRole::Manifest {
            continue;
        }
        for imp in file_shape(db, *f).imports() {
            imports += 1;
            let _ = resolver.resolve(f.path(db), &imp.specifier);
        }
    }
    let resolve = t.elapsed();
    let chunks = graph_parts(db, ws);
    let parts = assembly_parts(db, ws, &chunks);
    let t = Instant::now();
    let _ = Graph::assemble(&parts);
    let assemble = t.elapsed();
    println!(
        "resolver build {build:?}, resolving {imports} imports {resolve:?}, graph assembly {assemble:?}"
    );
}
