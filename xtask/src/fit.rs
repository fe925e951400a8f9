//! `cargo xtask fit`: learns the rank model's weights from the evaluation tasks and says
//! how well they generalise, leave-one-repository-out.
//!
//! Input: the per-task JSON of `cargo xtask eval --json PATH`, which holds every candidate
//! of each task's exploration with its features. A task's files are ranked by their best
//! candidate's score (the packet's order, one entry per file); the objective is the mean
//! over repositories of the mean reciprocal rank of the first changed file, so every
//! repository weighs the same whatever its task count.
//!
//! Method: coordinate ascent. Starting from the hand-set prior (`Weights::prior`, never
//! the checked-in fit, which has seen every repository), each weight in turn is
//! multiplied by a few factors (penalty factors and the rest-name share are kept in 0..=1,
//! the width exponent and the directory-word weight in 0..=2) and a change is kept when it
//! raises the objective; rounds repeat until none
//! does. `search_name` stays 1: scores only order candidates, so one weight fixes the
//! scale. For each repository the weights are fitted on the others and measured on it;
//! the final weights are fitted on all and written with `--write`. The other extractor
//! constants ([`sightline_rank::Weights::shape`]) are carried from the prior unchanged:
//! the recorded features were computed with them and cannot say what others would do.
//! The confidence score is fitted after the weights, on the same repositories
//! (`calibrate`), and the table says how it holds on the repository left out.
//! `--calibrate-only` keeps the checked-in ranking weights and fits only the confidence
//! score: the one command to run after the ranking's features change, from a fresh
//! `eval --json` (it also rewrites a weights file whose confidence is of an earlier
//! release's format).

use std::collections::BTreeMap;
use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use serde::Deserialize;
use sightline_rank::Weights;

use crate::calibrate::{Case, calibrate};
use crate::eval::engine::CandidateFeatures;
use crate::eval::{or_default, workspace_root};

#[derive(Args)]
pub struct FitArgs {
    /// The JSON written by `cargo xtask eval --json PATH`.
    #[arg(long)]
    from: PathBuf,
    /// Write the weights fitted on every repository to crates/rank/weights.json.
    #[arg(long)]
    write: bool,
    /// Keep the checked-in ranking weights and fit only their confidence score: print how
    /// it holds leave-one-repository-out, and fit it on every repository (what `--write`
    /// then writes). The rankings stay as they are.
    #[arg(long)]
    calibrate_only: bool,
}

#[derive(Deserialize)]
struct EvalDoc {
    tasks: Vec<FitTask>,
}

#[derive(Deserialize)]
pub(crate) struct FitTask {
    pub(crate) repo: String,
    pub(crate) gold_files: Vec<String>,
    #[serde(default)]
    pub(crate) candidates: Vec<CandidateFeatures>,
}

/// The tasks of one repository.
type Repo = Vec<FitTask>;

pub fn run(args: FitArgs) -> anyhow::Result<()> {
    let text = std::fs::read_to_string(&args.from)
        .with_context(|| format!("reading {}", args.from.display()))?;
    let doc: EvalDoc = serde_json::from_str(&text)
        .with_context(|| format!("{} is not `xtask eval --json` output", args.from.display()))?;
    let fitted = if args.calibrate_only {
        let mut w = checked_in_ranking()?;
        let by_repo: Vec<Vec<Case>> = by_repository(doc.tasks)?
            .values()
            .map(|tasks| tasks.iter().filter_map(|t| Case::of(t, &w)).collect())
            .collect();
        let held_out = crate::calibrate::leave_one_repository_out(&by_repo);
        println!(
            "Confidence under the checked-in weights, each repository leveled by a score fitted on the others:\n"
        );
        let leveled: Vec<_> = held_out.iter().map(|(l, _, r)| (*l, *r)).collect();
        print!("{}", crate::calibrate::table(&leveled));
        println!("\nWhat cut-offs could reach, the held-out scores pooled:\n");
        print!("{}", crate::calibrate::curve(&held_out));
        let all: Vec<Case> = by_repo.into_iter().flatten().collect();
        w.confidence = calibrate(&all);
        println!("\nthe checked-in weights, their confidence fitted on all repositories:");
        w
    } else {
        let (table, fitted) = leave_one_repository_out(doc.tasks)?;
        print!("{table}");
        println!("\nweights fitted on all repositories:");
        fitted
    };
    let json = serde_json::to_string_pretty(&fitted)?;
    println!("{json}");
    if args.write {
        let path = or_default(&workspace_root(), None, "crates/rank/weights.json");
        std::fs::write(&path, json + "\n")
            .with_context(|| format!("writing {}", path.display()))?;
        eprintln!("fit: wrote {}", path.display());
    }
    Ok(())
}

/// The checked-in ranking weights, whatever their confidence: `--calibrate-only` replaces
/// it, so a file whose confidence is of an earlier release's format is migrated by
/// refitting rather than refused.
fn checked_in_ranking() -> anyhow::Result<Weights> {
    let mut doc: serde_json::Value = serde_json::from_str(sightline_rank::model::WEIGHTS_JSON)
        .context("crates/rank/weights.json is not JSON")?;
    let fields = doc
        .as_object_mut()
        .context("crates/rank/weights.json is not a JSON object")?;
    fields.insert(
        "confidence".to_owned(),
        serde_json::to_value(sightline_rank::ConfidenceModel::default())?,
    );
    serde_json::from_value(doc).context("reading the ranking weights of crates/rank/weights.json")
}

/// Weights fitted without a given repository, from `eval --json` output.
pub(crate) struct HeldOut {
    by_repo: BTreeMap<String, Weights>,
    /// Fitted on every repository of the file: out-of-sample for any repository the file
    /// has no candidates of.
    all: Weights,
}

impl HeldOut {
    /// The weights that never saw `repo`.
    pub(crate) fn for_repo(&self, repo: &str) -> Weights {
        self.by_repo.get(repo).copied().unwrap_or(self.all)
    }
}

/// The weights fitted without each repository, by repository, from `eval --json` output.
pub(crate) fn held_out_weights(path: &std::path::Path) -> anyhow::Result<HeldOut> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    let doc: EvalDoc = serde_json::from_str(&text)
        .with_context(|| format!("{} is not `xtask eval --json` output", path.display()))?;
    let repos = by_repository(doc.tasks)?;
    let by_repo = repos
        .keys()
        .map(|name| (name.clone(), fit_without(&repos, Some(name))))
        .collect();
    Ok(HeldOut {
        by_repo,
        all: fit_without(&repos, None),
    })
}

/// Weights fitted from the prior on every repository but `left_out`, with confidence
/// thresholds calibrated on the same repositories under those weights.
fn fit_without(repos: &BTreeMap<String, Repo>, left_out: Option<&String>) -> Weights {
    let others: Vec<&Repo> = repos
        .iter()
        .filter(|(n, _)| Some(*n) != left_out)
        .map(|(_, r)| r)
        .collect();
    let mut w = fit(&others, Weights::prior());
    let cases: Vec<Case> = others
        .iter()
        .flat_map(|r| r.iter())
        .filter_map(|t| Case::of(t, &w))
        .collect();
    w.confidence = calibrate(&cases);
    w
}

/// The tasks with candidates, by repository; at least two repositories.
fn by_repository(tasks: Vec<FitTask>) -> anyhow::Result<BTreeMap<String, Repo>> {
    let mut repos: BTreeMap<String, Repo> = BTreeMap::new();
    for t in tasks {
        // A task whose exploration found nothing says nothing about the weights.
        if !t.candidates.is_empty() {
            repos.entry(t.repo.clone()).or_default().push(t);
        }
    }
    anyhow::ensure!(
        repos.len() >= 2,
        "need tasks of at least two repositories to fit leave-one-out"
    );
    Ok(repos)
}

/// For each repository, fits the weights on the others and measures them on it; returns
/// that table (markdown) and the weights fitted on every repository.
pub(crate) fn leave_one_repository_out(tasks: Vec<FitTask>) -> anyhow::Result<(String, Weights)> {
    use std::fmt::Write as _;
    let repos = by_repository(tasks)?;
    let start = Weights::prior();
    let mut out = String::new();
    out.push_str(
        "| held-out repo | tasks | MRR prior | MRR fitted | hit@1 prior | hit@1 fitted | hit@5 prior | hit@5 fitted |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|\n");
    let mut held_out = Vec::new();
    let mut leveled = Vec::new();
    for (name, tasks) in &repos {
        let fitted = fit_without(&repos, Some(name));
        leveled.extend(
            tasks
                .iter()
                .filter_map(|t| Case::of(t, &fitted))
                .map(|c| (fitted.confidence.level(&c.inputs), c.right)),
        );
        let before = metrics(tasks, &start);
        let after = metrics(tasks, &fitted);
        let _ = writeln!(
            out,
            "| {name} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
            tasks.len(),
            before.mrr,
            after.mrr,
            before.hit1,
            after.hit1,
            before.hit5,
            after.hit5
        );
        held_out.push((before, after));
    }
    let (before, after) = (
        Metrics::mean(held_out.iter().map(|h| h.0)),
        Metrics::mean(held_out.iter().map(|h| h.1)),
    );
    let _ = writeln!(
        out,
        "| mean (leave-one-repository-out) | | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} |",
        before.mrr, after.mrr, before.hit1, after.hit1, before.hit5, after.hit5
    );
    let _ = writeln!(
        out,
        "\nConfidence, each repository leveled by thresholds calibrated on the others:\n"
    );
    out.push_str(&crate::calibrate::table(&leveled));
    Ok((out, rounded(fit_without(&repos, None))))
}

/// The weights to three decimals, as the checked-in file keeps them.
fn rounded(w: Weights) -> Weights {
    let v: Vec<f64> = w
        .to_vec()
        .iter()
        .map(|x| (x * 1000.0).round() / 1000.0)
        .collect();
    w.with_fitted(&v).unwrap_or(w)
}

/// Ranking quality of the first changed file over some tasks.
#[derive(Clone, Copy, Debug, Default)]
struct Metrics {
    mrr: f64,
    hit1: f64,
    hit5: f64,
}

impl Metrics {
    /// The unweighted mean of several repositories' metrics.
    fn mean(all: impl Iterator<Item = Metrics>) -> Metrics {
        let mut sum = Metrics::default();
        let mut n = 0.0;
        for m in all {
            sum.mrr += m.mrr;
            sum.hit1 += m.hit1;
            sum.hit5 += m.hit5;
            n += 1.0;
        }
        let n: f64 = if n > 0.0 { n } else { 1.0 };
        Metrics {
            mrr: sum.mrr / n,
            hit1: sum.hit1 / n,
            hit5: sum.hit5 / n,
        }
    }
}

/// Mean reciprocal rank, hit@1 and hit@5 of the first changed file over one repository's
/// tasks.
fn metrics(tasks: &[FitTask], w: &Weights) -> Metrics {
    let mut m = Metrics::default();
    for t in tasks {
        if let Some(r) = first_gold_rank(t, w) {
            m.mrr += 1.0 / r as f64;
            m.hit1 += f64::from(u8::from(r == 1));
            m.hit5 += f64::from(u8::from(r <= 5));
        }
    }
    let n = tasks.len().max(1) as f64;
    Metrics {
        mrr: m.mrr / n,
        hit1: m.hit1 / n,
        hit5: m.hit5 / n,
    }
}

/// A task's files ordered by their best candidate's score under `w`, best first (ties by
/// path, as the packet breaks them by ID), with that score.
pub(crate) fn ranked_files<'a>(t: &'a FitTask, w: &Weights) -> Vec<(&'a str, f64)> {
    let mut best: BTreeMap<&str, f64> = BTreeMap::new();
    for c in &t.candidates {
        let s = w.score(&c.features, false).total;
        let e = best.entry(c.path.as_str()).or_insert(f64::MIN);
        if s > *e {
            *e = s;
        }
    }
    let mut files: Vec<(&str, f64)> = best.into_iter().collect();
    files.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(b.0)));
    files
}

/// The 1-based rank of the first changed file when files are ordered by their best
/// candidate's score.
fn first_gold_rank(t: &FitTask, w: &Weights) -> Option<usize> {
    ranked_files(t, w)
        .iter()
        .position(|(f, _)| t.gold_files.iter().any(|g| g == f))
        .map(|i| i + 1)
}

/// Mean over repositories of their MRR: the objective.
fn objective(repos: &[&Repo], w: &Weights) -> f64 {
    repos.iter().map(|r| metrics(r, w).mrr).sum::<f64>() / repos.len().max(1) as f64
}

/// Index of `search_name` in [`Weights::to_vec`]: the scale anchor, never changed.
const ANCHOR: usize = 0;
/// Indices of the weights kept within 0..=1 (the penalty factors and the share of a file's
/// other name matches) and within 0..=2 (the width exponent, the directory words' weight
/// relative to the file name's).
const FACTORS: [usize; 4] = [6, 7, 8, 10];
const UP_TO_TWO: [usize; 2] = [9, 11];
/// Indices of the prior exponents (file size): a prior may favour or disfavour, so one at
/// zero is tried in both directions.
const SIGNED: [usize; 1] = [17];
const STEPS: [f64; 6] = [0.25, 0.5, 0.8, 1.25, 2.0, 4.0];
const MAX_ROUNDS: usize = 8;

fn fit(repos: &[&Repo], start: Weights) -> Weights {
    let mut v = start.to_vec();
    let score = |v: &[f64]| {
        start
            .with_fitted(v)
            .map_or(f64::MIN, |w| objective(repos, &w))
    };
    let mut best = score(&v);
    for _ in 0..MAX_ROUNDS {
        let mut improved = false;
        for i in (0..v.len()).filter(|&i| i != ANCHOR) {
            let signs: &[f64] = if SIGNED.contains(&i) {
                &[1.0, -1.0]
            } else {
                &[1.0]
            };
            for (step, sign) in STEPS
                .iter()
                .flat_map(|&step| signs.iter().map(move |&sign| (step, sign)))
            {
                let mut trial = v.clone();
                // A weight at zero can only grow by adding.
                trial[i] = if trial[i] == 0.0 {
                    sign * 0.1 * step
                } else {
                    trial[i] * step
                };
                if FACTORS.contains(&i) {
                    trial[i] = trial[i].clamp(0.0, 1.0);
                }
                if UP_TO_TWO.contains(&i) {
                    trial[i] = trial[i].clamp(0.0, 2.0);
                }
                let s = score(&trial);
                if s > best + 1e-6 {
                    best = s;
                    v = trial;
                    improved = true;
                }
            }
        }
        if !improved {
            break;
        }
    }
    start.with_fitted(&v).unwrap_or(start)
}
