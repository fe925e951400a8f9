//! Profiling aid for what a running server pays for an edit, split into the refresh
//! (walk, re-parse, salsa's re-verification, the graph) and the exploration after it, each
//! against the same step with nothing changed. For each FILE (relative to REPO) it appends
//! an exported function (the file's first edit), restores it, appends it again (a later
//! edit, at the lowered durability) and restores it, then makes a synthetic
//! high-durability write that changes nothing (salsa's re-verification alone); it prints
//! the median extra of each:
//! `cargo run --release -p sightline-agent --example edit_latency -- REPO QUERY FILE...`.
//! Two builds compare best run at the same time on copies of REPO, each pinned to a core
//! (`taskset -c 0` and `-c 1`): a shared machine's speed drifts more between runs than
//! between cores.

use std::time::Instant;

use sightline_agent::{ExploreSession, Mode};
use sightline_observe::{Index, IndexOptions};
use sightline_registry::{Intent, RegistryDatabase};

const USAGE: &str = "usage: edit_latency REPO QUERY FILE...";
const EDIT: &str = "\nexport function editLatencyProbe(): number {\n  return 0;\n}\n";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let repo = args.next().ok_or(USAGE)?;
    let query = args.next().ok_or(USAGE)?;
    let files: Vec<String> = args.collect();
    if files.is_empty() {
        return Err(USAGE.into());
    }
    let root = std::path::Path::new(&repo);
    let mut index =
        Index::open_with_db(RegistryDatabase::default(), root, &IndexOptions::default())?;
    let step =
        |index: &mut Index<RegistryDatabase>| -> Result<(f64, f64), Box<dyn std::error::Error>> {
            let t = Instant::now();
            index.refresh();
            let refresh = t.elapsed().as_secs_f64() * 1e3;
            let t = Instant::now();
            let mut session = ExploreSession::new(index, &query, Intent::Locate)?;
            sightline_agent::explore(index, &mut session, Mode::DETERMINISTIC)?;
            session.close(index);
            Ok((refresh, t.elapsed().as_secs_f64() * 1e3))
        };
    step(&mut index)?;
    let mut rows = Vec::new();
    let (mut second, mut verified) = (Vec::new(), Vec::new());
    for file in &files {
        let path = root.join(file);
        let original = std::fs::read(&path)?;
        let unchanged = step(&mut index)?;
        let mut edited = original.clone();
        edited.extend_from_slice(EDIT.as_bytes());
        std::fs::write(&path, edited)?;
        let after = step(&mut index);
        let timings = index.report().timings_ms.clone();
        std::fs::write(&path, &original)?;
        let after = after?;
        step(&mut index)?;
        // The same edit again: the file's second, at its lowered durability.
        let mut edited = original.clone();
        edited.extend_from_slice(EDIT.as_bytes());
        std::fs::write(&path, edited)?;
        let again = step(&mut index);
        std::fs::write(&path, &original)?;
        let again = again?;
        step(&mut index)?;
        // A high-durability write that changes nothing: salsa's re-verification alone.
        salsa::Database::synthetic_write(index.db_mut(), salsa::Durability::HIGH);
        let verify = step(&mut index)?;
        second.push((again.0 + again.1) - (unchanged.0 + unchanged.1));
        verified.push((verify.0 + verify.1) - (unchanged.0 + unchanged.1));
        println!(
            "{file}: refresh {:.1} -> {:.1} ms, explore {:.1} -> {:.1} ms, timings {:?}",
            unchanged.0, after.0, unchanged.1, after.1, timings
        );
        rows.push((after.0 - unchanged.0, after.1 - unchanged.1));
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    println!(
        "extra, median of {}: refresh {:.1} ms, explore {:.1} ms",
        rows.len(),
        median(rows.iter().map(|r| r.0).collect()),
        median(rows.iter().map(|r| r.1).collect())
    );
    println!(
        "extra of the second edit {:.1} ms; of a synthetic high write {:.1} ms",
        median(second),
        median(verified)
    );
    Ok(())
}
