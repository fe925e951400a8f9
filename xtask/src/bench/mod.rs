//! `cargo xtask bench --repo PATH [--repo PATH…] [--runs N] [--json FILE]`: speed and
//! memory of the observe stage on real repositories (cold index, warm start, one-file
//! re-index, explore latency, peak RSS), as a markdown table on stdout.
//!
//! `cargo xtask bench --monorepo DIR [--bin PATH…]`: every evaluation snapshot laid out as
//! one workspace and measured through `sightline` processes (see `monorepo/mod.rs`).
//!
//! Numbers only mean something in a release build: a debug xtask re-runs itself through
//! `cargo run --release -p xtask -- bench …` (see `release.rs`). Each phase runs in a child
//! process of this binary (see `phase.rs`) so that its peak RSS is its own. Edited files
//! are always restored (see `touch.rs`). On a shared machine, compare the CPU-time columns
//! of the profile table, which other load does not inflate.

mod driver;
mod model;
mod monorepo;
mod phase;
pub(crate) mod procfs;
pub(crate) mod queries;
pub(crate) mod release;
mod report;
mod serve;
mod stats;
mod summary;
mod touch;

use std::path::PathBuf;

use anyhow::Context;

#[derive(clap::Args)]
pub struct BenchArgs {
    /// Repository (or directory of repositories) to measure; repeat to measure several.
    #[arg(long = "repo", required_unless_present = "monorepo")]
    repos: Vec<PathBuf>,
    /// Lay out every snapshot of `../shared/eval` in this directory as one workspace and
    /// measure `sightline` processes over it (index cold and warm, a server over MCP).
    #[arg(long, conflicts_with = "repos")]
    monorepo: Option<PathBuf>,
    /// With `--monorepo`: the `sightline` binaries to measure, side by side.
    /// [default: target/release/sightline]
    #[arg(long = "bin", requires = "monorepo")]
    bins: Vec<PathBuf>,
    /// With `--monorepo`: lay the snapshots out again even if the directory holds them.
    #[arg(long, requires = "monorepo")]
    relayout: bool,
    /// Repeat cold and warm this many times and report the median.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Also write every raw measurement as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Measure in whatever build this is, instead of re-running as a release build.
    #[arg(long)]
    allow_debug: bool,
    /// Internal: run one phase in this process and print its result.
    #[arg(long, hide = true, requires_all = ["cache_dir", "backup_dir"])]
    phase: Option<phase::Phase>,
    #[arg(long, hide = true)]
    cache_dir: Option<PathBuf>,
    #[arg(long, hide = true)]
    backup_dir: Option<PathBuf>,
}

pub fn run(args: BenchArgs) -> anyhow::Result<()> {
    if let (Some(phase), Some(cache), Some(backups)) =
        (args.phase, &args.cache_dir, &args.backup_dir)
    {
        return phase::run(phase, &args.repos[0], cache, backups);
    }
    if let Some(dir) = &args.monorepo {
        // The binaries measured are release builds of their own; this process only
        // lays out files and times children, so its own build does not matter.
        let bins = if args.bins.is_empty() {
            vec![crate::eval::workspace_root().join("target/release/sightline")]
        } else {
            args.bins.clone()
        };
        return monorepo::run(monorepo::MonorepoArgs {
            dir,
            bins: &bins,
            runs: args.runs as usize,
            relayout: args.relayout,
            json: args.json.as_deref(),
        });
    }
    if cfg!(debug_assertions) && !args.allow_debug {
        release::reexec()?;
    }
    let mut results = Vec::new();
    for repo in &args.repos {
        results.push(driver::measure(repo, args.runs as usize)?);
    }
    print!("{}", report::markdown(&results));
    if let Some(path) = &args.json {
        let json = serde_json::to_string_pretty(&results)?;
        std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}
