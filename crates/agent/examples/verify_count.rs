//! Profiling aid for what salsa re-verifies after a write above low durability: counts,
//! per query, the memos validated and executed by one deterministic exploration after a
//! synthetic write, then times `RUNS` more such explorations against the same
//! exploration with nothing written. `DURABILITY` is `medium` (the default: what a
//! source file's first edit writes) or `high` (a file added or removed, a manifest
//! edited):
//! `cargo run --release -p sightline-agent --example verify_count -- REPO QUERY [RUNS] [DURABILITY]`.

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use sightline_agent::{ExploreSession, Mode};
use sightline_observe::{Index, IndexOptions};
use sightline_registry::{Intent, RegistryDatabase};

const USAGE: &str = "usage: verify_count REPO QUERY [RUNS] [medium|high]";

/// Validated and executed memos per query name.
type Counts = Arc<Mutex<BTreeMap<String, (usize, usize)>>>;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let repo = args.next().ok_or(USAGE)?;
    let query = args.next().ok_or(USAGE)?;
    let runs: usize = args.next().map_or(Ok(9), |r| r.parse())?;
    let durability = match args.next().as_deref() {
        None | Some("medium") => salsa::Durability::MEDIUM,
        Some("high") => salsa::Durability::HIGH,
        Some(_) => return Err(USAGE.into()),
    };
    let counts: Counts = Arc::default();
    let counting = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let (sink, on) = (counts.clone(), counting.clone());
    let db = RegistryDatabase::with_event_hook(move |event| {
        if !on.load(std::sync::atomic::Ordering::Relaxed) {
            return;
        }
        let (key, executed) = match event.kind {
            salsa::EventKind::DidValidateMemoizedValue { database_key } => (database_key, false),
            salsa::EventKind::WillExecute { database_key } => (database_key, true),
            _ => return,
        };
        let key = format!("{key:?}");
        let name = key.split('(').next().unwrap_or_default().to_owned();
        let mut counts = sink.lock().unwrap_or_else(|e| e.into_inner());
        let entry = counts.entry(name).or_default();
        match executed {
            true => entry.1 += 1,
            false => entry.0 += 1,
        }
    });
    let mut index = Index::open_with_db(db, std::path::Path::new(&repo), &IndexOptions::default())?;
    let explore = |index: &mut Index<RegistryDatabase>| -> Result<f64, Box<dyn std::error::Error>> {
        let t = Instant::now();
        let mut session = ExploreSession::new(index, &query, Intent::Locate)?;
        sightline_agent::explore(index, &mut session, Mode::DETERMINISTIC)?;
        session.close(index);
        Ok(t.elapsed().as_secs_f64() * 1e3)
    };
    explore(&mut index)?;

    counting.store(true, std::sync::atomic::Ordering::Relaxed);
    salsa::Database::synthetic_write(index.db_mut(), durability);
    explore(&mut index)?;
    counting.store(false, std::sync::atomic::Ordering::Relaxed);
    let mut rows: Vec<(String, (usize, usize))> =
        counts.lock().unwrap().clone().into_iter().collect();
    rows.sort_by_key(|(_, (validated, executed))| std::cmp::Reverse(validated + executed));
    for (name, (validated, executed)) in &rows {
        println!("{name:32} validated {validated:7} executed {executed:5}");
    }
    let total: usize = rows.iter().map(|(_, (v, _))| v).sum();
    println!("{total} memos validated");

    // Timed without the event hook's formatting: each sample is an exploration after a
    // synthetic write, paired with one right after it with nothing written.
    let (mut after, mut unchanged) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        salsa::Database::synthetic_write(index.db_mut(), durability);
        after.push(explore(&mut index)?);
        unchanged.push(explore(&mut index)?);
    }
    let median = |mut v: Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
    };
    println!(
        "explore after a synthetic {durability:?} write: median {:.1} ms; unchanged {:.1} ms",
        median(after),
        median(unchanged)
    );
    Ok(())
}
