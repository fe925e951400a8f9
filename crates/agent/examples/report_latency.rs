//! Profiling aid: times the whole deterministic report path (`sightline_agent::explore`:
//! explore_code, registry, packet, validation against the disk, render) for one query,
//! repeated, after the index is built:
//! `cargo run --release -p sightline-agent --example report_latency -- REPO QUERY [REPEAT]`.

use std::time::Instant;

use sightline_agent::{ExploreSession, Mode};
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::{Intent, RegistryDatabase};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let repo = args
        .next()
        .ok_or("usage: report_latency REPO QUERY [REPEAT]")?;
    let query = args
        .next()
        .ok_or("usage: report_latency REPO QUERY [REPEAT]")?;
    let repeat: usize = args.next().map_or(Ok(20), |r| r.parse())?;
    let mut index = Index::open_with_db(
        RegistryDatabase::default(),
        std::path::Path::new(&repo),
        &IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        },
    )?;
    for _ in 0..repeat {
        let t = Instant::now();
        let mut session = ExploreSession::new(&mut index, &query, Intent::Locate)?;
        let finished = sightline_agent::explore(&mut index, &mut session, Mode::DETERMINISTIC)?;
        session.close(&mut index);
        println!(
            "{:.1} ms, {} chars",
            t.elapsed().as_secs_f64() * 1e3,
            finished.report.text.len()
        );
    }
    Ok(())
}
