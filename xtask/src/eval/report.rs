//! Aggregating task results per repository and overall, and rendering the markdown tables.

use serde::Serialize;

use super::TaskResult;
use super::metrics::{MeanScores, percentile};

#[derive(Clone, Debug, Serialize)]
pub struct ArmSummary {
    #[serde(flatten)]
    pub scores: MeanScores,
    pub query_p50_ms: Option<f64>,
    pub query_p95_ms: Option<f64>,
}

/// How dense the engine's reports are.
#[derive(Clone, Debug, Serialize)]
pub struct Density {
    pub report_chars_p50: Option<f64>,
    pub report_chars_p90: Option<f64>,
    pub cited_width_p50: Option<f64>,
    pub cited_width_p90: Option<f64>,
    /// Share of tasks whose report cites a changed file among its primary places.
    pub report_hit: Option<f64>,
    pub cited_files_p50: Option<f64>,
    /// Share of the selection's flow quotes that validation verified.
    pub quotes_verified: Option<f64>,
    /// Characters of the first `explore_code` call's text (default arguments).
    pub first_chars_p50: Option<f64>,
    pub first_chars_p90: Option<f64>,
    /// Share of tasks whose report's first primary place is in a changed file.
    pub report_hit1: Option<f64>,
    /// Share of tasks with a changed file among the first five files the report names
    /// (its primary places' files, then its runners-up).
    pub report_hit5: Option<f64>,
    /// Runner-up files (`also:`) per report, on average.
    pub also_files_mean: Option<f64>,
    /// Per confidence level: how many reports said it and how often their first place
    /// was right.
    pub calibration: Vec<Calibration>,
}

/// One confidence level's share of the reports and its precision (the first primary
/// place is in a changed file).
#[derive(Clone, Debug, Serialize)]
pub struct Calibration {
    pub level: sightline_registry::Confidence,
    pub reports: usize,
    pub share: f64,
    pub precision: Option<f64>,
}

/// The share of `true` among the values present.
fn rate(values: impl Iterator<Item = Option<bool>>) -> Option<f64> {
    let v: Vec<bool> = values.flatten().collect();
    (!v.is_empty()).then(|| v.iter().filter(|h| **h).count() as f64 / v.len() as f64)
}

fn calibration(arms: &[&super::ArmResult]) -> Vec<Calibration> {
    use sightline_registry::Confidence;
    let rated: Vec<(Confidence, bool)> = arms
        .iter()
        .filter_map(|a| Some((a.confidence?, a.report_hit1?)))
        .collect();
    [Confidence::High, Confidence::Medium, Confidence::Low]
        .into_iter()
        .map(|level| {
            let at: Vec<bool> = rated
                .iter()
                .filter(|(c, _)| *c == level)
                .map(|(_, h)| *h)
                .collect();
            Calibration {
                level,
                reports: at.len(),
                share: at.len() as f64 / rated.len().max(1) as f64,
                precision: rate(at.iter().map(|h| Some(*h))),
            }
        })
        .collect()
}

impl Density {
    fn of(arms: &[&super::ArmResult]) -> Density {
        let chars: Vec<f64> = arms
            .iter()
            .filter_map(|a| a.report_chars)
            .map(|c| c as f64)
            .collect();
        let widths: Vec<f64> = arms
            .iter()
            .flat_map(|a| a.cited_widths.iter().map(|&w| f64::from(w)))
            .collect();
        let hits: Vec<bool> = arms.iter().filter_map(|a| a.report_hit).collect();
        let cited: Vec<f64> = arms.iter().map(|a| a.cited_files as f64).collect();
        let first: Vec<f64> = arms
            .iter()
            .filter_map(|a| a.first_chars)
            .map(|c| c as f64)
            .collect();
        let total: usize = arms.iter().map(|a| a.quotes_total).sum();
        let verified: usize = arms.iter().map(|a| a.quotes_verified).sum();
        Density {
            report_chars_p50: percentile(&chars, 50.0),
            report_chars_p90: percentile(&chars, 90.0),
            cited_width_p50: percentile(&widths, 50.0),
            cited_width_p90: percentile(&widths, 90.0),
            report_hit: (!hits.is_empty())
                .then(|| hits.iter().filter(|h| **h).count() as f64 / hits.len() as f64),
            cited_files_p50: percentile(&cited, 50.0),
            also_files_mean: (!arms.is_empty())
                .then(|| arms.iter().map(|a| a.also_files as f64).sum::<f64>() / arms.len() as f64),
            quotes_verified: (total > 0).then(|| verified as f64 / total as f64),
            first_chars_p50: percentile(&first, 50.0),
            first_chars_p90: percentile(&first, 90.0),
            report_hit1: rate(arms.iter().map(|a| a.report_hit1)),
            report_hit5: rate(arms.iter().map(|a| a.report_hit5)),
            calibration: calibration(arms),
        }
    }
}

#[derive(Clone, Debug, Serialize)]
pub struct GroupSummary {
    pub density: Density,
    pub name: String,
    /// Tasks measured (skipped ones excluded).
    pub tasks: usize,
    pub skipped: usize,
    /// Median number of source files in the index across the group's bases.
    pub source_files: Option<f64>,
    /// Tasks with a gold file that is not in the index at all.
    pub tasks_gold_not_indexed: usize,
    /// Cold opens (one per repository).
    pub cold_open_ms: Vec<f64>,
    /// Incremental refreshes (every task after a repository's first).
    pub reindex_p50_ms: Option<f64>,
    pub reindex_p95_ms: Option<f64>,
    pub engine: ArmSummary,
    pub bm25: ArmSummary,
}

#[derive(Clone, Debug, Serialize)]
pub struct Summary {
    pub repos: Vec<GroupSummary>,
    pub overall: GroupSummary,
}

impl Summary {
    pub fn of(results: &[TaskResult]) -> Summary {
        let mut names: Vec<&str> = results.iter().map(|r| r.repo.as_str()).collect();
        names.dedup();
        let repos = names
            .iter()
            .map(|n| {
                let rs: Vec<&TaskResult> = results.iter().filter(|r| r.repo == *n).collect();
                GroupSummary::of(n, &rs)
            })
            .collect();
        let all: Vec<&TaskResult> = results.iter().collect();
        Summary {
            repos,
            overall: GroupSummary::of("overall", &all),
        }
    }
}

impl GroupSummary {
    fn of(name: &str, results: &[&TaskResult]) -> GroupSummary {
        let done: Vec<&TaskResult> = results
            .iter()
            .copied()
            .filter(|r| r.skipped.is_none())
            .collect();
        let arm = |pick: fn(&TaskResult) -> Option<&super::ArmResult>| {
            let arms: Vec<&super::ArmResult> = done.iter().filter_map(|r| pick(r)).collect();
            let lat: Vec<f64> = arms.iter().map(|a| a.query_ms).collect();
            ArmSummary {
                scores: MeanScores::of(arms.iter().map(|a| &a.scores)),
                query_p50_ms: percentile(&lat, 50.0),
                query_p95_ms: percentile(&lat, 95.0),
            }
        };
        let refresh: Vec<f64> = done
            .iter()
            .filter(|r| !r.cold)
            .map(|r| r.index_ms)
            .collect();
        let files: Vec<f64> = done.iter().map(|r| r.source_files as f64).collect();
        let engine_arms: Vec<&super::ArmResult> =
            done.iter().filter_map(|r| r.engine.as_ref()).collect();
        GroupSummary {
            density: Density::of(&engine_arms),
            name: name.to_owned(),
            tasks: done.len(),
            skipped: results.len() - done.len(),
            source_files: percentile(&files, 50.0),
            tasks_gold_not_indexed: done
                .iter()
                .filter(|r| !r.gold_not_indexed.is_empty())
                .count(),
            cold_open_ms: done.iter().filter(|r| r.cold).map(|r| r.index_ms).collect(),
            reindex_p50_ms: percentile(&refresh, 50.0),
            reindex_p95_ms: percentile(&refresh, 95.0),
            engine: arm(|r| r.engine.as_ref()),
            bm25: arm(|r| r.bm25.as_ref()),
        }
    }
}

pub fn markdown(s: &Summary) -> String {
    let mut out = String::new();
    out.push_str(
        "| repo | arm | tasks | hit@1 | hit@5 | all@5 | recall@5 | recall@packet | MRR \
         | query p50 ms | query p95 ms |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|---|---|---|\n");
    for g in s.repos.iter().chain(std::iter::once(&s.overall)) {
        quality_rows(&mut out, g);
    }
    out.push_str(
        "\n| repo | tasks | skipped | source files | gold not indexed | cold open ms \
         | re-index p50 ms | re-index p95 ms |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|\n");
    for g in s.repos.iter().chain(std::iter::once(&s.overall)) {
        let cold = if g.cold_open_ms.len() == 1 {
            fmt_ms(Some(g.cold_open_ms[0]))
        } else {
            // Overall: the repositories differ in size, so a sum is meaningless; show a range.
            let lo = g.cold_open_ms.iter().copied().reduce(f64::min);
            let hi = g.cold_open_ms.iter().copied().reduce(f64::max);
            format!("{}–{}", fmt_ms(lo), fmt_ms(hi))
        };
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} |\n",
            g.name,
            g.tasks,
            g.skipped,
            g.source_files.map_or("-".into(), |f| format!("{f:.0}")),
            g.tasks_gold_not_indexed,
            cold,
            fmt_ms(g.reindex_p50_ms),
            fmt_ms(g.reindex_p95_ms),
        ));
    }
    out.push_str(
        "\n| repo | report hit (primary) | cited files p50 | runners-up mean | report chars p50 \
         | report chars p90 | cited lines p50 | cited lines p90 | quotes verified |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|---|\n");
    for g in s.repos.iter().chain(std::iter::once(&s.overall)) {
        let d = &g.density;
        let f = |v: Option<f64>| v.map_or("-".to_owned(), |x| format!("{x:.0}"));
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
            g.name,
            d.report_hit.map_or("-".to_owned(), |x| format!("{x:.3}")),
            f(d.cited_files_p50),
            d.also_files_mean
                .map_or("-".to_owned(), |x| format!("{x:.2}")),
            f(d.report_chars_p50),
            f(d.report_chars_p90),
            f(d.cited_width_p50),
            f(d.cited_width_p90),
            d.quotes_verified
                .map_or("-".to_owned(), |x| format!("{:.0}%", x * 100.0)),
        ));
    }
    out.push_str(
        "\n| repo | first explore_code chars p50 | p90 | report hit@1 | report hit@5 \
         | high: share, precision | medium | low |\n",
    );
    out.push_str("|---|---|---|---|---|---|---|---|\n");
    for g in s.repos.iter().chain(std::iter::once(&s.overall)) {
        let d = &g.density;
        let f = |v: Option<f64>| v.map_or("-".to_owned(), |x| format!("{x:.0}"));
        let r = |v: Option<f64>| v.map_or("-".to_owned(), |x| format!("{x:.3}"));
        let levels: Vec<String> = d
            .calibration
            .iter()
            .map(|c| format!("{:.2}, {}", c.share, r(c.precision)))
            .collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            g.name,
            f(d.first_chars_p50),
            f(d.first_chars_p90),
            r(d.report_hit1),
            r(d.report_hit5),
            levels.join(" | "),
        ));
    }
    out
}

fn quality_rows(out: &mut String, g: &GroupSummary) {
    for (arm, a) in [("engine", &g.engine), ("bm25", &g.bm25)] {
        let m = &a.scores;
        out.push_str(&format!(
            "| {} | {arm} | {} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {:.3} | {} | {} |\n",
            g.name,
            m.tasks,
            m.hit1,
            m.hit5,
            m.all5,
            m.recall5,
            m.recall_packet,
            m.mrr,
            fmt_ms(a.query_p50_ms),
            fmt_ms(a.query_p95_ms),
        ));
    }
    let (e, b) = (&g.engine.scores, &g.bm25.scores);
    let r = |x: f64, y: f64| ratio(Some(x), Some(y));
    out.push_str(&format!(
        "| {} | engine/bm25 | | {} | {} | {} | {} | {} | {} | {} | {} |\n",
        g.name,
        r(e.hit1, b.hit1),
        r(e.hit5, b.hit5),
        r(e.all5, b.all5),
        r(e.recall5, b.recall5),
        r(e.recall_packet, b.recall_packet),
        r(e.mrr, b.mrr),
        ratio(g.engine.query_p50_ms, g.bm25.query_p50_ms),
        ratio(g.engine.query_p95_ms, g.bm25.query_p95_ms),
    ));
}

fn ratio(x: Option<f64>, y: Option<f64>) -> String {
    match (x, y) {
        (Some(x), Some(y)) if y > 0.0 => format!("{:.2}x", x / y),
        _ => "-".into(),
    }
}

fn fmt_ms(v: Option<f64>) -> String {
    match v {
        Some(v) if v >= 100.0 => format!("{v:.0}"),
        Some(v) => format!("{v:.1}"),
        None => "-".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_guard_against_zero() {
        assert_eq!(ratio(Some(1.0), Some(0.5)), "2.00x");
        assert_eq!(ratio(Some(1.0), Some(0.0)), "-");
        assert_eq!(ratio(None, Some(1.0)), "-");
    }
}
