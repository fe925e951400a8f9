//! Where a shape edit's graph time goes on a large workspace: the assembly itself versus
//! fetching every file's cached parts through salsa, and the refresh's own timings. Appends
//! an exported function to FILE `RUNS` times (default 5; restoring it at the end), then
//! prints the minimum and median of the refresh. With `GRAPH_EDIT_BODY` set it appends
//! a comment instead, an edit that changes no declaration or edge. Last, it times the
//! workspace queries after a synthetic high-durability write: what salsa's re-verification
//! of every file's memos costs alone (a file's first edit and a new file pay it).
//! `cargo run --release -p sightline-observe --example graph_edit -- REPO FILE [RUNS]`

use std::time::Instant;

use sightline_observe::db::{assembly_parts, graph_parts, workspace_graph};
use sightline_observe::graph::Graph;
use sightline_observe::{Index, IndexOptions};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (root, file, runs) = match args.as_slice() {
        [_, root, file] => (root, file, 5),
        [_, root, file, runs] => (root, file, runs.parse().unwrap_or(5)),
        _ => {
            eprintln!("usage: graph_edit REPO FILE [RUNS] (FILE relative to REPO; restored)");
            std::process::exit(2);
        }
    };
    let root = std::path::Path::new(root);
    let file = file.as_str();
    let mut index = Index::open(root, &IndexOptions::default()).expect("index");
    let _ = workspace_graph(index.db(), index.workspace());
    println!("open: {:?}", index.report().timings_ms);
    let path = root.join(file);
    let original = std::fs::read_to_string(&path).unwrap();
    let body_only = std::env::var_os("GRAPH_EDIT_BODY").is_some();
    let mut refreshes = Vec::new();
    let mut cpus: Vec<f64> = Vec::new();
    for i in 0..runs {
        std::fs::write(
            &path,
            match body_only {
                // A comment: the shape is unchanged, so the refresh is re-verification.
                true => format!("{original}\n// probe {i}\n"),
                false => format!("{original}\nexport function probe{i}() {{ return {i} }}\n"),
            },
        )
        .unwrap();
        let (t, cpu) = (Instant::now(), thread_cpu_ns());
        index.refresh_paths(&[file]);
        let refresh = t.elapsed();
        let refresh_cpu = thread_cpu_ns().zip(cpu).map(|(b, a)| (b - a) as f64 / 1e6);
        refreshes.push(refresh);
        cpus.extend(refresh_cpu);
        let t = Instant::now();
        let _ = workspace_graph(index.db(), index.workspace());
        let graph = t.elapsed();
        let db = index.db();
        let ws = index.workspace();
        let t = Instant::now();
        let chunks = graph_parts(db, ws);
        let parts = assembly_parts(db, ws, &chunks);
        let fetch = t.elapsed();
        let t = Instant::now();
        let _ = Graph::assemble(&parts);
        let assemble = t.elapsed();
        println!(
            "refresh {refresh:?} (cpu {refresh_cpu:.2?} ms) graph {graph:?} | fetch {fetch:?} assemble {assemble:?} | {:?}",
            index.report().timings_ms
        );
    }
    std::fs::write(&path, original.clone()).unwrap();
    // The assembly alone, repeated: its minimum is stable even on a busy machine.
    let (db, ws) = (index.db(), index.workspace());
    let chunks = graph_parts(db, ws);
    let parts = assembly_parts(db, ws, &chunks);
    let fastest = (0..50)
        .map(|_| {
            let t = Instant::now();
            let _ = Graph::assemble(&parts);
            t.elapsed()
        })
        .min();
    println!("assembly alone, fastest of 50: {fastest:?}");
    // The edited file's own parse and scan, which every refresh of it pays.
    let role = index.file(file).map(|f| f.role(index.db()));
    if let Some(role) = role {
        let t = Instant::now();
        let built =
            sightline_observe::db::FileIndex::build(sightline_observe::LANGUAGES, role, &original);
        let build = t.elapsed();
        let t = Instant::now();
        let _ = sightline_observe::db::FileShape::of(&built.facts);
        println!(
            "the file's parse and scan {build:?}, shape {:?}",
            t.elapsed()
        );
    }
    refreshes.sort();
    if let (Some(min), Some(median)) = (refreshes.first(), refreshes.get(refreshes.len() / 2)) {
        println!("refresh min {min:?} median {median:?} over {runs} edits");
    }
    cpus.sort_by(f64::total_cmp);
    if let (Some(min), Some(median)) = (cpus.first(), cpus.get(cpus.len() / 2)) {
        println!("refresh cpu (this thread) min {min:.2} ms median {median:.2} ms");
    }
    let mut verify: Vec<std::time::Duration> = (0..runs)
        .map(|_| {
            salsa::Database::synthetic_write(index.db_mut(), salsa::Durability::HIGH);
            let t = Instant::now();
            let _ = workspace_graph(index.db(), index.workspace());
            let _ = sightline_observe::db::term_stats(index.db(), index.workspace());
            t.elapsed()
        })
        .collect();
    verify.sort();
    if let (Some(min), Some(median)) = (verify.first(), verify.get(verify.len() / 2)) {
        println!("graph and term stats re-verified alone: min {min:?} median {median:?}");
    }
}

/// The calling thread's CPU time so far (Linux; `None` elsewhere): on a shared machine
/// it varies less than wall time.
fn thread_cpu_ns() -> Option<u64> {
    let stat = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    stat.split_whitespace().next()?.parse().ok()
}
