//! `cargo xtask soak`: the server's memory over many calls. One process indexes a
//! repository and answers `calls` tool calls through the same engine `sightline serve`
//! runs (one-shot `explore`s, and sessions opened, used and submitted or left to be
//! evicted), printing resident memory as it goes. A server whose memory grows with the
//! calls it answered fails the "bounded per server" guarantee; this shows it in numbers.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Context as _;
use clap::Args;
use serde_json::json;
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::{RegistryDatabase, ToolCall};
use sightline_server::Engine;

use crate::bench::{procfs, queries, release};

#[derive(Args)]
pub struct SoakArgs {
    /// Repository to serve.
    #[arg(long)]
    repo: PathBuf,
    /// Tool calls to answer.
    #[arg(long, default_value_t = 10_000)]
    calls: usize,
    /// Print resident memory every this many calls.
    #[arg(long, default_value_t = 1_000)]
    every: usize,
}

pub fn run(args: SoakArgs) -> anyhow::Result<()> {
    if cfg!(debug_assertions) {
        release::reexec()?;
    }
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open_with_db(RegistryDatabase::default(), &args.repo, &options)
        .with_context(|| format!("indexing {}", args.repo.display()))?;
    let queries = queries::sample(&index);
    anyhow::ensure!(
        !queries.is_empty(),
        "no exported names to query in this repository"
    );
    let mut engine = Engine::new(index);
    let mb = |b: Option<u64>| b.map_or(f64::NAN, |b| b as f64 / 1_048_576.0);
    println!("calls  rss_mb  elapsed_s");
    let start = Instant::now();
    let mut first = None;
    for n in 0..args.calls {
        call(&mut engine, &queries[n % queries.len()], n)?;
        if n == 0 || (n + 1).is_multiple_of(args.every.max(1)) {
            let rss = mb(procfs::rss_bytes());
            first.get_or_insert(rss);
            println!(
                "{:>5}  {rss:>6.1}  {:>9.1}",
                n + 1,
                start.elapsed().as_secs_f64()
            );
        }
    }
    let last = mb(procfs::rss_bytes());
    println!(
        "rss after the first call {:.1} MB, after {} calls {last:.1} MB; {} open sessions",
        first.unwrap_or(f64::NAN),
        args.calls,
        engine.open_sessions()
    );
    Ok(())
}

/// One call of a fixed mix: explore (one shot), explore_code opening a session, and every
/// third session a grep and a submit; the others are left open until evicted.
fn call(engine: &mut Engine, query: &str, n: usize) -> anyhow::Result<()> {
    let intent = "edit";
    match n % 4 {
        0 | 1 => {
            engine.explore(&serde_json::from_value(
                json!({"query": query, "intent": intent}),
            )?)?;
        }
        _ => {
            let explore = ToolCall::ExploreCode(serde_json::from_value(json!({"query": query}))?);
            let reply = engine.call(None, explore)?;
            let id = reply.structured.session;
            if n.is_multiple_of(3) {
                let word = query.split_whitespace().next().unwrap_or(query);
                let grep = ToolCall::Grep(serde_json::from_value(json!({"pattern": word}))?);
                // A pattern or selection the session cannot use is an answer too (an
                // error reply); the soak measures memory, not these outcomes.
                let _ = engine.call(Some(&id), grep);
                let done = json!({"session": id, "primary": ["c1"], "action": "read_targets", "confidence": "low"});
                let _ = engine.submit(serde_json::from_value(done)?);
            }
        }
    }
    Ok(())
}
