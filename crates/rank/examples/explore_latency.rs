//! Times the deterministic explore (explore_code -> registry -> packet -> selection) per
//! query on one repository, after the index is built, so a profiler sees only the query
//! path: `cargo run --release -p sightline-rank --example explore_latency -- REPO QUERY…`
//! (queries also one per line on stdin when none are given).

use std::io::BufRead as _;
use std::time::Instant;

use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::{Intent, RegistryDatabase};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let repo = args.next().ok_or("usage: explore_latency REPO [QUERY…]")?;
    let mut queries: Vec<String> = args.collect();
    if queries.is_empty() {
        queries = std::io::stdin().lock().lines().collect::<Result<_, _>>()?;
    }
    let index = Index::open_with_db(
        RegistryDatabase::default(),
        std::path::Path::new(&repo),
        &IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        },
    )?;
    let mut times = Vec::new();
    for q in &queries {
        let t = Instant::now();
        let run = sightline_rank::explore_deterministic(
            index.db(),
            index.workspace(),
            q,
            Intent::Locate,
        )?;
        let ms = t.elapsed().as_secs_f64() * 1000.0;
        times.push(ms);
        println!("{ms:8.1} ms  {:3} candidates  {q}", run.registry.len());
    }
    times.sort_by(f64::total_cmp);
    if let (Some(p50), Some(max)) = (times.get(times.len() / 2), times.last()) {
        println!(
            "p50 {p50:.1} ms, max {max:.1} ms over {} queries",
            times.len()
        );
    }
    Ok(())
}
