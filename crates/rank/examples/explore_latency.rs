//! Times the deterministic explore (explore_code -> registry -> packet -> selection) per
//! query on one repository, after the index is built, so a profiler sees only the query
//! path: `cargo run --release -p sightline-rank --example explore_latency -- REPO QUERY…`
//! (queries also one per line on stdin when none are given). With `CHECKOUTS="ref …"` in
//! the environment, the repository is checked out at each ref in turn and refreshed, and
//! the first query is timed twice: right after the refresh and again.

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
    let mut index = Index::open_with_db(
        RegistryDatabase::default(),
        std::path::Path::new(&repo),
        &IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        },
    )?;
    if let Ok(refs) = std::env::var("CHECKOUTS") {
        let q = queries.first().ok_or("a query is needed")?;
        for r in refs.split_whitespace() {
            let status = std::process::Command::new("git")
                .args(["-C", &repo, "checkout", "-q", "-f", r])
                .status()?;
            if !status.success() {
                return Err(format!("git checkout {r} failed").into());
            }
            let t = Instant::now();
            let report = index.refresh();
            let refresh_ms = t.elapsed().as_secs_f64() * 1000.0;
            let mut timed = Vec::new();
            for _ in 0..2 {
                let t = Instant::now();
                let ws = index.workspace();
                let run =
                    sightline_rank::explore_deterministic(index.db_mut(), ws, q, Intent::Locate)?;
                index.db_mut().close_session(run.session);
                timed.push(t.elapsed().as_secs_f64() * 1000.0);
            }
            let changed = report.changed.len() + report.added.len() + report.removed.len();
            println!(
                "{r}: {changed} changed, refresh {refresh_ms:.0} ms, first query {:.1} ms, again {:.1} ms",
                timed[0], timed[1]
            );
        }
        return Ok(());
    }
    let mut times = Vec::new();
    for q in &queries {
        let t = Instant::now();
        let ws = index.workspace();
        let run = sightline_rank::explore_deterministic(index.db_mut(), ws, q, Intent::Locate)?;
        index.db_mut().close_session(run.session);
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
