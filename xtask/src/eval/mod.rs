//! `cargo xtask eval`: retrieval quality on mined localization tasks (DESIGN.md section 7),
//! the engine arm against a BM25 arm in the same process, per repository and overall.
//!
//! Heavy work is the observe crate's parsing; run it optimized:
//! `cargo run --release -p xtask -- eval`.

mod agent;
mod bm25;
pub(crate) mod checkout;
pub(crate) mod engine;
pub(crate) mod metrics;
mod order;
mod report;
pub(crate) mod tasks;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use serde::Serialize;
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::RegistryDatabase;

use checkout::WorkingCopy;
use metrics::TaskScores;
use tasks::LocatedTask;

/// How many of BM25's best files stand in for its "packet" (the README's recall@40).
const BM25_PACKET: usize = 40;
/// How many ranked files each arm keeps in the JSON output, for reading misses.
const KEEP_TOP: usize = 10;

#[derive(Args)]
pub struct EvalArgs {
    /// Task directory (every *.jsonl in it) or a single .jsonl file.
    /// [default: ../shared/eval/tasks, from the workspace root]
    #[arg(long)]
    tasks: Option<PathBuf>,
    /// Directory holding `<repo>.bundle` snapshots.
    /// [default: ../shared/eval/snapshots, from the workspace root]
    #[arg(long)]
    snapshots: Option<PathBuf>,
    /// Only these repositories (comma-separated names).
    #[arg(long, value_delimiter = ',')]
    repos: Vec<String>,
    /// At most this many tasks per repository (in file order).
    #[arg(long)]
    limit: Option<usize>,
    /// Write every per-task result and the aggregates as JSON here.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Order in which a repository's bases are visited (metrics do not depend on it; the
    /// re-index times do): `chain` walks to the base differing in the fewest files next.
    #[arg(long, value_enum, default_value_t = Order::Chain)]
    order: Order,
    /// Open a fresh index for every task instead of refreshing one: slower, but a check
    /// that incremental re-indexing ranks exactly like a cold index.
    #[arg(long)]
    cold_each: bool,
    /// Where bundles are cloned (one working copy per repository).
    /// [default: target/eval, from the workspace root]
    #[arg(long)]
    workdir: Option<PathBuf>,
    /// Also run the value-model loop per task (endpoint from SIGHTLINE_MODEL etc.).
    #[arg(long)]
    agent: bool,
    /// Leave-one-repository-out: rank each repository with weights fitted (as `cargo xtask
    /// fit` does) on the other repositories' candidates in this earlier `eval --json`
    /// output, instead of the checked-in weights. Every figure is then out-of-sample.
    #[arg(long, value_name = "EVAL_JSON")]
    loro: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Order {
    /// Task-file order.
    File,
    /// Nearest-neighbour chain over the base trees.
    Chain,
}

/// One arm's answer to one task.
#[derive(Clone, Debug, Serialize)]
pub struct ArmResult {
    #[serde(flatten)]
    pub scores: TaskScores,
    pub query_ms: f64,
    pub ranked_files: usize,
    pub report_chars: Option<usize>,
    /// Line widths of the ranges the report cites.
    pub cited_widths: Vec<u32>,
    /// Files the report cites as primary, and whether a changed file is among them.
    pub cited_files: usize,
    pub report_hit: Option<bool>,
    /// The report's first primary place's file is a changed file.
    pub report_hit1: Option<bool>,
    /// A changed file is among the first five files the report names: its primary places'
    /// files, then its runners-up (`also:`).
    pub report_hit5: Option<bool>,
    /// Runner-up files the report names after its primary places'.
    pub also_files: usize,
    /// Each ranked file's score as a share of the first's, for the first [`KEEP_TOP`] files.
    pub top_shares: Vec<f64>,
    /// The report's confidence (`high`, `medium`, `low`).
    pub confidence: Option<sightline_registry::Confidence>,
    /// Characters of `explore_code`'s text for the query as a session's first call, with
    /// default arguments: what an agent reads first.
    pub first_chars: Option<usize>,
    pub quotes_total: usize,
    pub quotes_verified: usize,
    pub top: Vec<String>,
}

/// Everything measured for one task; `skipped` is set instead of the arms when the base
/// tree could not be checked out.
#[derive(Clone, Debug, Serialize)]
pub struct TaskResult {
    pub repo: String,
    pub source: String,
    pub commit: String,
    pub kind: String,
    pub query: String,
    pub gold_files: Vec<String>,
    pub skipped: Option<String>,
    /// Gold files the index does not hold at all (no ranking can find them).
    pub gold_not_indexed: Vec<String>,
    pub source_files: usize,
    /// Time to bring the index to this base: a cold open for the first task of a
    /// repository, an incremental refresh afterwards.
    pub index_ms: f64,
    pub cold: bool,
    pub changed_files: usize,
    pub engine: Option<ArmResult>,
    pub bm25: Option<ArmResult>,
    /// The engine's candidates with their rank features (in `--json` output, for `fit`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub candidates: Vec<engine::CandidateFeatures>,
    /// Query words the repository never uses (to study how they bear on the confidence).
    #[serde(default)]
    pub unknown_words: usize,
}

pub fn run(args: EvalArgs) -> anyhow::Result<()> {
    let started = Instant::now();
    if cfg!(debug_assertions) {
        eprintln!(
            "eval: unoptimized build; latencies and re-index times are not representative \
             (use `cargo run --release -p xtask -- eval`)"
        );
    }
    let root = workspace_root();
    let tasks_path = or_default(&root, args.tasks, "../shared/eval/tasks");
    let snapshots = or_default(&root, args.snapshots, "../shared/eval/snapshots");
    let workdir = or_default(&root, args.workdir, "target/eval");

    let by_repo = select_tasks(&tasks_path, &args.repos, args.limit)?;
    // Fail before any work when a bundle is missing, naming the file.
    for (repo, tasks) in &by_repo {
        let bundle = bundle_path(&snapshots, repo);
        if !bundle.is_file() {
            let t = &tasks[0];
            bail!(
                "snapshot bundle {} for repository {repo:?} does not exist (first needed by {}:{})",
                bundle.display(),
                t.file.display(),
                t.line
            );
        }
    }

    let held_out = match &args.loro {
        Some(path) => Some(crate::fit::held_out_weights(path)?),
        None => None,
    };
    let mut agent_arm = agent::Arm::new(args.agent);
    let mut results = Vec::new();
    for (repo, tasks) in &by_repo {
        let weights = match &held_out {
            Some(held_out) => held_out.for_repo(repo),
            None => *sightline_rank::Weights::fitted(),
        };
        let wc = WorkingCopy::prepare(&bundle_path(&snapshots, repo), &workdir.join(repo))?;
        let visit = visiting_order(&wc, tasks, args.order);
        results.extend(run_repo(
            repo,
            &visit,
            &wc,
            args.cold_each,
            &weights,
            &mut agent_arm,
        )?);
    }
    if held_out.is_some() {
        println!(
            "Every figure below is leave-one-repository-out: each repository was ranked with weights fitted on the others.\n"
        );
    }
    let wall = started.elapsed().as_secs_f64();

    let summary = report::Summary::of(&results);
    print!("{}", report::markdown(&summary));
    print!("{}", agent_arm.summary());
    // The model's weights judged on repositories they were not fitted on: each
    // repository's tasks ranked by weights fitted on the others' (files ordered by their
    // best candidate, as `cargo xtask fit` measures them).
    let fit_tasks = results
        .iter()
        .map(|r| crate::fit::FitTask {
            repo: r.repo.clone(),
            gold_files: r.gold_files.clone(),
            candidates: r.candidates.clone(),
        })
        .collect();
    match crate::fit::leave_one_repository_out(fit_tasks) {
        Ok((table, _)) => print!("\n### Leave-one-repository-out (rank model)\n\n{table}"),
        Err(e) => println!("\nleave-one-repository-out: {e}"),
    }
    println!("\nwall time: {wall:.1} s");
    if let Some(path) = args.json {
        let doc = serde_json::json!({
            "wall_seconds": wall,
            "summary": summary,
            "tasks": results,
        });
        let text = serde_json::to_string_pretty(&doc)?;
        std::fs::write(&path, text).with_context(|| format!("writing {}", path.display()))?;
        eprintln!("eval: wrote {}", path.display());
    }
    Ok(())
}

/// Loads and filters the tasks, grouped by repository (sorted by name, file order within).
fn select_tasks(
    path: &Path,
    repos: &[String],
    limit: Option<usize>,
) -> anyhow::Result<BTreeMap<String, Vec<LocatedTask>>> {
    let mut by_repo: BTreeMap<String, Vec<LocatedTask>> = BTreeMap::new();
    for file in tasks::task_files(path)? {
        for t in tasks::load_file(&file)? {
            by_repo.entry(t.task.repo.clone()).or_default().push(t);
        }
    }
    if !repos.is_empty() {
        if let Some(missing) = repos.iter().find(|r| !by_repo.contains_key(*r)) {
            let known: Vec<&str> = by_repo.keys().map(String::as_str).collect();
            bail!(
                "no tasks for repository {missing:?} in {} (have: {})",
                path.display(),
                known.join(", ")
            );
        }
        by_repo.retain(|r, _| repos.contains(r));
    }
    if let Some(n) = limit {
        for tasks in by_repo.values_mut() {
            tasks.truncate(n);
        }
    }
    by_repo.retain(|_, t| !t.is_empty());
    if by_repo.is_empty() {
        bail!("no tasks selected from {}", path.display());
    }
    Ok(by_repo)
}

/// The tasks in the order their bases will be checked out.
fn visiting_order<'a>(
    wc: &WorkingCopy,
    tasks: &'a [LocatedTask],
    how: Order,
) -> Vec<&'a LocatedTask> {
    if how == Order::File {
        return tasks.iter().collect();
    }
    // A tag that cannot be read gets an empty tree; its checkout fails later and is
    // reported there, with the task's file and line.
    let trees: Vec<order::Tree> = tasks
        .iter()
        .map(|t| wc.tree(&t.task.commit).unwrap_or_default())
        .collect();
    order::chain(&trees)
        .into_iter()
        .map(|i| &tasks[i])
        .collect()
}

/// Runs every task of one repository against one long-lived index.
fn run_repo(
    repo: &str,
    tasks: &[&LocatedTask],
    wc: &WorkingCopy,
    cold_each: bool,
    weights: &sightline_rank::Weights,
    agent_arm: &mut agent::Arm,
) -> anyhow::Result<Vec<TaskResult>> {
    let mut index: Option<Index<RegistryDatabase>> = None;
    let mut counts = bm25::CountCache::default();
    let mut out = Vec::with_capacity(tasks.len());
    for (i, lt) in tasks.iter().enumerate() {
        let t = &lt.task;
        let source = format!("{}:{}", lt.file.display(), lt.line);
        let mut result = TaskResult {
            repo: repo.to_owned(),
            source: source.clone(),
            commit: t.commit.clone(),
            kind: t.kind.clone(),
            query: t.query.clone(),
            gold_files: t.gold_files.clone(),
            skipped: None,
            gold_not_indexed: Vec::new(),
            source_files: 0,
            index_ms: 0.0,
            cold: false,
            changed_files: 0,
            engine: None,
            bm25: None,
            candidates: Vec::new(),
            unknown_words: 0,
        };
        let progress = format!("[{repo} {}/{}]", i + 1, tasks.len());
        if let Err(e) = wc.checkout(&t.commit) {
            eprintln!("{progress} skipped {source}: {e:#}");
            result.skipped = Some(format!("{e:#}"));
            out.push(result);
            continue;
        }

        if cold_each {
            index = None;
        }
        let t0 = Instant::now();
        match index.as_mut() {
            Some(idx) => {
                let r = idx.refresh();
                result.changed_files = r.changed.len() + r.added.len() + r.removed.len();
            }
            None => {
                let opts = IndexOptions {
                    cache: CacheMode::Disabled,
                    progress: None,
                };
                let idx = Index::open_with_db(RegistryDatabase::default(), &wc.dir, &opts)
                    .with_context(|| format!("indexing {}", wc.dir.display()))?;
                result.cold = true;
                index = Some(idx);
            }
        }
        result.index_ms = ms(t0);
        let idx = index.as_mut().expect("opened above");
        result.gold_not_indexed = t
            .gold_files
            .iter()
            .filter(|g| idx.file(g).is_none())
            .cloned()
            .collect();

        let t0 = Instant::now();
        let run = engine::rank_files(idx, &t.query, weights);
        let engine_ms = ms(t0);
        let first_chars = engine::first_exploration_chars(idx, &t.query, weights);
        let idx = &*idx;
        let mut engine_arm = arm(
            TaskScores::of(&run.files, &run.packet_files, &t.gold_files),
            engine_ms,
            &run.files,
            run.report_chars,
        );
        engine_arm.cited_widths = run.cited_widths;
        engine_arm.cited_files = run.cited_files.len();
        let is_gold = |f: &String| t.gold_files.iter().any(|g| g == f);
        engine_arm.report_hit = Some(run.cited_files.iter().any(is_gold));
        engine_arm.report_hit1 = Some(run.cited_files.first().is_some_and(is_gold));
        // Hit@5 counts every file the report names, runners-up after the primary places.
        engine_arm.report_hit5 = Some(
            run.cited_files
                .iter()
                .chain(&run.also_files)
                .take(5)
                .any(is_gold),
        );
        engine_arm.also_files = run.also_files.len();
        engine_arm.top_shares = run.file_shares.iter().take(KEEP_TOP).copied().collect();
        engine_arm.confidence = run.confidence;
        engine_arm.first_chars = first_chars;
        engine_arm.quotes_total = run.quotes_total;
        engine_arm.quotes_verified = run.quotes_verified;
        result.engine = Some(engine_arm);
        result.candidates = run.candidates;
        result.unknown_words = run.unknown_words;

        let corpus = bm25::Corpus::build(idx, &mut counts);
        result.source_files = corpus.len();
        let t0 = Instant::now();
        let ranked = bm25::Corpus::rank(&corpus, &t.query);
        let bm25_ms = ms(t0);
        let packet: Vec<String> = ranked.iter().take(BM25_PACKET).cloned().collect();
        result.bm25 = Some(arm(
            TaskScores::of(&ranked, &packet, &t.gold_files),
            bm25_ms,
            &ranked,
            None,
        ));

        eprintln!(
            "{progress} {} {:.0} ms ({} changed) | engine {:.1} ms, gold at {} | bm25 gold at {}",
            if result.cold { "open" } else { "refresh" },
            result.index_ms,
            result.changed_files,
            engine_ms,
            ranks_text(result.engine.as_ref()),
            ranks_text(result.bm25.as_ref()),
        );
        if let Some(idx) = index.as_mut() {
            agent_arm.task(idx, repo, &t.query, &t.gold_files);
        }
        out.push(result);
    }
    Ok(out)
}

fn arm(scores: TaskScores, query_ms: f64, ranked: &[String], chars: Option<usize>) -> ArmResult {
    ArmResult {
        scores,
        query_ms,
        ranked_files: ranked.len(),
        report_chars: chars,
        cited_widths: Vec::new(),
        cited_files: 0,
        report_hit: None,
        report_hit1: None,
        report_hit5: None,
        also_files: 0,
        top_shares: Vec::new(),
        confidence: None,
        first_chars: None,
        quotes_total: 0,
        quotes_verified: 0,
        top: ranked.iter().take(KEEP_TOP).cloned().collect(),
    }
}

fn ranks_text(arm: Option<&ArmResult>) -> String {
    let Some(arm) = arm else {
        return "-".into();
    };
    let parts: Vec<String> = arm
        .scores
        .gold_ranks
        .iter()
        .map(|r| r.map_or_else(|| "-".to_owned(), |r| r.to_string()))
        .collect();
    parts.join(",")
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

pub(crate) fn bundle_path(snapshots: &Path, repo: &str) -> PathBuf {
    snapshots.join(format!("{repo}.bundle"))
}

/// The workspace this xtask belongs to (xtask lives one level below it).
pub(crate) fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}

/// Defaults live next to the workspace, so the plain command means the same thing from any
/// directory; paths the user gives are taken as written (relative to the current directory).
pub(crate) fn or_default(root: &Path, given: Option<PathBuf>, default: &str) -> PathBuf {
    given.unwrap_or_else(|| {
        let p = root.join(default);
        // `/repo/../shared` reads badly in messages; tidy it when it exists.
        std::fs::canonicalize(&p).unwrap_or(p)
    })
}
