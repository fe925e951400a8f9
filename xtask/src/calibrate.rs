//! Confidence calibration: the margins at which the deterministic selection may say `high`
//! or `medium`, learned from the evaluation tasks so that an agent can act on the word.
//!
//! A task's case is the margin of its best file over the next (files ranked by their best
//! candidate under the weights being calibrated, as the packet ranks them), whether that
//! best file is a changed one, and whether the query has words the repository never uses
//! (the selection then never says `high`). `high` is the least margin above which every
//! threshold keeps the first place right at least [`HIGH_PRECISION`] of the time; `medium`
//! the least below it for [`MEDIUM_PRECISION`]; a threshold's precision is only trusted
//! over at least [`MIN_SUPPORT`] tasks, and at the lower end of its confidence interval
//! (Wilson, one-sided 95%): a level calibrated at its point estimate came out just under
//! its precision on held-out repositories. Fitted on some repositories, measured on
//! another.

use sightline_rank::{ConfidenceThresholds, Weights, margin};
use sightline_registry::Confidence;

use crate::fit::FitTask;

/// Share of `high` reports whose first place must be right.
pub(crate) const HIGH_PRECISION: f64 = 0.9;
/// Share of `medium` reports whose first place must be right.
pub(crate) const MEDIUM_PRECISION: f64 = 0.7;
/// Fewest tasks a threshold's precision is measured over.
const MIN_SUPPORT: usize = 20;
/// The normal quantile of the one-sided 95% bound a precision is read at.
const Z: f64 = 1.645;
/// A threshold no margin reaches: the level is never said. (JSON has no infinity.)
pub(crate) const NEVER: f64 = 1e9;

/// One task as calibration sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Case {
    pub margin: f64,
    pub right: bool,
    /// The query has words the repository never uses: at most `medium`.
    pub capped: bool,
}

impl Case {
    /// The case of one task under `w`: `None` when the task ranked no file.
    pub(crate) fn of(t: &FitTask, w: &Weights) -> Option<Case> {
        let files = crate::fit::ranked_files(t, w);
        let first = files.first()?;
        let m = margin(Some(first.1), files.get(1).map(|f| f.1));
        Some(Case {
            margin: m.min(NEVER),
            right: t.gold_files.iter().any(|g| g == first.0),
            capped: t.unknown_words > 0,
        })
    }

    /// The confidence the selection would give this case under `th`.
    pub(crate) fn level(&self, th: &ConfidenceThresholds) -> Confidence {
        let level = th.level(self.margin);
        if level == Confidence::High && self.capped {
            Confidence::Medium
        } else {
            level
        }
    }
}

/// The thresholds calibrated on `cases`.
pub(crate) fn calibrate(cases: &[Case]) -> ConfidenceThresholds {
    let mut candidates: Vec<f64> = cases.iter().map(|c| c.margin).collect();
    candidates.sort_by(f64::total_cmp);
    candidates.dedup();
    let high_at = |t: f64| ConfidenceThresholds { high: t, medium: t };
    let high = least(&candidates, HIGH_PRECISION, &|t| {
        at_level(cases, &high_at(t), Confidence::High)
    });
    let medium = least(
        &candidates
            .iter()
            .copied()
            .filter(|&t| t <= high)
            .collect::<Vec<_>>(),
        MEDIUM_PRECISION,
        &|t| {
            at_level(
                cases,
                &ConfidenceThresholds { high, medium: t },
                Confidence::Medium,
            )
        },
    );
    ConfidenceThresholds {
        high,
        medium: medium.min(high),
    }
}

/// Whether the cases at `level` under `th`, and how many of them are right.
fn at_level(cases: &[Case], th: &ConfidenceThresholds, level: Confidence) -> (usize, usize) {
    let at: Vec<&Case> = cases.iter().filter(|c| c.level(th) == level).collect();
    (at.len(), at.iter().filter(|c| c.right).count())
}

/// The least of the (ascending) `candidates` at which the cases it admits, measured over
/// enough of them, reach `precision` at the lower bound of their confidence interval;
/// [`NEVER`] when none does. (A bound, not a point estimate, so a threshold is not chosen
/// for a run of lucky cases.)
fn least(candidates: &[f64], precision: f64, measure: &dyn Fn(f64) -> (usize, usize)) -> f64 {
    for &t in candidates {
        let (n, right) = measure(t);
        if n >= MIN_SUPPORT && wilson_lower(right, n) >= precision {
            return t;
        }
    }
    NEVER
}

/// The lower bound of the Wilson score interval of `right` successes in `n` trials.
fn wilson_lower(right: usize, n: usize) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let (n, p) = (n as f64, right as f64 / n as f64);
    let z2 = Z * Z;
    let centre = p + z2 / (2.0 * n);
    let spread = Z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (centre - spread) / (1.0 + z2 / n)
}

/// Share of reports and precision per level, over `cases` leveled by their own thresholds.
pub(crate) fn table(leveled: &[(Confidence, bool)]) -> String {
    use std::fmt::Write as _;
    let mut out = String::from("| confidence | reports | share | first place right |\n");
    out.push_str("|---|---|---|---|\n");
    for level in [Confidence::High, Confidence::Medium, Confidence::Low] {
        let at: Vec<bool> = leveled
            .iter()
            .filter(|(l, _)| *l == level)
            .map(|(_, r)| *r)
            .collect();
        let precision = if at.is_empty() {
            "-".to_owned()
        } else {
            format!(
                "{:.3}",
                at.iter().filter(|r| **r).count() as f64 / at.len() as f64
            )
        };
        let _ = writeln!(
            out,
            "| {} | {} | {:.2} | {precision} |",
            match level {
                Confidence::High => "high",
                Confidence::Medium => "medium",
                Confidence::Low => "low",
            },
            at.len(),
            at.len() as f64 / leveled.len().max(1) as f64
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn case(margin: f64, right: bool) -> Case {
        Case {
            margin,
            right,
            capped: false,
        }
    }

    #[test]
    fn thresholds_keep_each_level_at_its_precision_on_what_they_were_fitted_on() {
        // Wide margins are right, middling ones seven times in eight (enough, over 80
        // cases, for a lower bound above 70%), narrow ones a coin toss.
        let mut cases: Vec<Case> = (0..40)
            .map(|i| case(3.0 + f64::from(i) * 0.01, true))
            .collect();
        cases.extend((0..80).map(|i| case(1.6 + f64::from(i) * 0.005, i % 8 != 0)));
        cases.extend((0..100).map(|i| case(1.0 + f64::from(i) * 0.005, i % 2 == 0)));
        let th = calibrate(&cases);
        assert!(th.medium <= th.high);
        let leveled: Vec<(Confidence, bool)> =
            cases.iter().map(|c| (c.level(&th), c.right)).collect();
        for (level, precision) in [
            (Confidence::High, HIGH_PRECISION),
            (Confidence::Medium, MEDIUM_PRECISION),
        ] {
            let at: Vec<bool> = leveled
                .iter()
                .filter(|(l, _)| *l == level)
                .map(|(_, r)| *r)
                .collect();
            assert!(!at.is_empty(), "{level:?} is used");
            let p = at.iter().filter(|r| **r).count() as f64 / at.len() as f64;
            assert!(p >= precision, "{level:?} at {p}");
        }
    }

    #[test]
    fn a_level_no_margin_earns_is_never_said() {
        let cases: Vec<Case> = (0..100)
            .map(|i| case(1.0 + f64::from(i) * 0.01, i % 2 == 0))
            .collect();
        let th = calibrate(&cases);
        assert_eq!(th.high, NEVER);
        assert!(cases.iter().all(|c| c.level(&th) != Confidence::High));
    }

    #[test]
    fn a_capped_case_is_never_high() {
        let th = ConfidenceThresholds {
            high: 2.0,
            medium: 1.5,
        };
        let capped = Case {
            margin: 5.0,
            right: true,
            capped: true,
        };
        assert_eq!(capped.level(&th), Confidence::Medium);
    }
}
