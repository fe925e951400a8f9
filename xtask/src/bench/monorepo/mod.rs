//! `cargo xtask bench --monorepo DIR [--bin PATH…]`: every snapshot in `../shared/eval`
//! (the newest base of each bundle) laid out side by side in `DIR` as one workspace, and
//! measured through real `sightline` processes: `sightline index` cold and warm (wall time
//! and the child's own peak RSS), then a `sightline serve` over the warm cache spoken to
//! over MCP (see `serve.rs`). Several `--bin`s are measured on the same layout, one after
//! the other, so a build before a change and one after compare side by side.
//!
//! Edited files are restored when the benchmark ends, also after a failure.

mod child;
mod layout;
mod report;
mod serve;
mod targets;

use std::path::{Path, PathBuf};

use anyhow::Context as _;
use serde::Serialize;

use super::touch::restore_leftovers;
use crate::eval::{or_default, tasks, workspace_root};

/// What the monorepo benchmark measures, and with which binaries.
pub struct MonorepoArgs<'a> {
    pub dir: &'a Path,
    pub bins: &'a [PathBuf],
    pub runs: usize,
    pub relayout: bool,
    pub json: Option<&'a Path>,
}

/// Files edited one at a time (and as many new files created).
const EDITED_FILES: usize = 10;
/// Files changed at once, as a branch switch does.
const BURST_FILES: usize = 500;
/// Queries per task file (the first ones), for `explore` with nothing changed.
const QUERIES_PER_REPO: usize = 2;

/// One binary's measurements.
#[derive(Serialize)]
pub struct BinResult {
    pub bin: String,
    pub cold: Vec<IndexRunOut>,
    pub warm: Vec<IndexRunOut>,
    pub serve: serve::ServeRun,
}

/// One `sightline index` run, as reported.
#[derive(Serialize)]
pub struct IndexRunOut {
    pub wall_ms: f64,
    pub cpu_ms: Option<f64>,
    pub peak_rss_bytes: Option<u64>,
    pub source_files: u64,
    pub manifest_files: u64,
    pub timings_ms: serde_json::Value,
    pub memory_mb: serde_json::Value,
}

pub fn run(args: MonorepoArgs) -> anyhow::Result<()> {
    let root = workspace_root();
    let snapshots = or_default(&root, None, "../shared/eval/snapshots");
    let task_dir = or_default(&root, None, "../shared/eval/tasks");
    let layout = layout::prepare(&snapshots, args.dir, args.relayout)?;
    let queries = queries(&task_dir)?;
    let edited = targets::pick(&layout.dir, EDITED_FILES);
    let burst = targets::pick(&layout.dir, BURST_FILES);
    let plan = serve::Plan {
        queries: &queries,
        edited: &edited,
        burst: &burst,
    };
    let scratch = tempfile::Builder::new()
        .prefix("sightline-monorepo-")
        .tempdir()?;
    let backups = scratch.path().join("backups");
    let mut results = Vec::new();
    for (b, bin) in args.bins.iter().enumerate() {
        let measured = measure_bin(
            bin,
            &layout.dir,
            &scratch.path().join(b.to_string()),
            &plan,
            &backups,
            args.runs,
        );
        // Restore before anything else, whether or not the measurement succeeded.
        for file in restore_leftovers(&backups)? {
            eprintln!("bench: restored {}", file.display());
        }
        results.push(measured?);
    }
    print!(
        "{}",
        report::markdown(&layout.dir, layout.repos.len(), &results)
    );
    if let Some(path) = args.json {
        let json = serde_json::to_string_pretty(&results)?;
        std::fs::write(path, json).with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

fn measure_bin(
    bin: &Path,
    dir: &Path,
    scratch: &Path,
    plan: &serve::Plan,
    backups: &Path,
    runs: usize,
) -> anyhow::Result<BinResult> {
    anyhow::ensure!(bin.is_file(), "no binary at {}", bin.display());
    let mut cold = Vec::new();
    let mut cache = PathBuf::new();
    for i in 0..runs {
        cache = scratch.join(format!("cache-{i}"));
        std::fs::create_dir_all(&cache)?;
        eprintln!("bench: {} — cold index {}", bin.display(), i + 1);
        cold.push(index_run(child::index(bin, dir, &cache)?));
    }
    let mut warm = Vec::new();
    for i in 0..runs {
        eprintln!("bench: {} — warm index {}", bin.display(), i + 1);
        warm.push(index_run(child::index(bin, dir, &cache)?));
    }
    eprintln!("bench: {} — serve", bin.display());
    let serve = serve::measure(bin, dir, &cache, plan, backups)?;
    Ok(BinResult {
        bin: bin.display().to_string(),
        cold,
        warm,
        serve,
    })
}

fn index_run(run: child::IndexRun) -> IndexRunOut {
    let count = |field: &str| run.report[field].as_u64().unwrap_or(0);
    IndexRunOut {
        wall_ms: run.wall_ms,
        cpu_ms: run.cpu_ms,
        peak_rss_bytes: run.peak_rss_bytes,
        source_files: count("source_files"),
        manifest_files: count("manifest_files"),
        timings_ms: run.report["timings_ms"].clone(),
        memory_mb: run.report["memory_mb"].clone(),
    }
}

/// The first [`QUERIES_PER_REPO`] task queries of every task file: written by the
/// projects' authors, about every repository of the layout.
fn queries(task_dir: &Path) -> anyhow::Result<Vec<String>> {
    let mut out = Vec::new();
    for file in tasks::task_files(task_dir)? {
        let loaded = tasks::load_file(&file)?;
        out.extend(
            loaded
                .into_iter()
                .take(QUERIES_PER_REPO)
                .map(|t| t.task.query),
        );
    }
    anyhow::ensure!(!out.is_empty(), "no tasks in {}", task_dir.display());
    Ok(out)
}
