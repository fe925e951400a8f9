//! Confidence calibration: the margins and leads at which the deterministic selection may
//! say `high` or `medium`, learned from the evaluation tasks so that an agent can act on
//! the word.
//!
//! A task's case is the margin of its best file over the next (files ranked by their best
//! candidate under the weights being calibrated, as the packet ranks them), on how many
//! kinds of direct evidence that best file leads every other ([`sightline_rank::leads`]),
//! and whether it is a changed one (a query word the repository never uses does not cap
//! the level: such queries' best files were right as often as the others'). A level is a rule "margin at least m and at
//! least l leads"; each level's rule is the one admitting the most tasks whose first place
//! stays right at least [`HIGH_PRECISION`] (`high`) or [`MEDIUM_PRECISION`] (`medium`, of
//! the tasks `high` left) of the time. A rule's precision is only trusted over at least
//! [`MIN_SUPPORT`] tasks, and at the lower end of its confidence interval (Wilson,
//! one-sided 95%): a level calibrated at its point estimate came out just under its
//! precision on held-out repositories. Fitted on some repositories, measured on another.
//! The margin alone is calibrated too, as before leads were counted: `explore_code` treats
//! a ranking as decisive from that margin, so that confidence never changes what an
//! exploration shows.

use sightline_rank::{ConfidenceThresholds, EVIDENCE_KINDS, Weights, leads, margin};
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
    /// The kinds of evidence the best file leads on.
    pub leads: u32,
    pub right: bool,
}

impl Case {
    /// The case of one task under `w`: `None` when the task ranked no file.
    pub(crate) fn of(t: &FitTask, w: &Weights) -> Option<Case> {
        let files = crate::fit::ranked_files(t, w);
        let first = files.first()?;
        let m = margin(Some(first.1), files.get(1).map(|f| f.1));
        let led = leads(
            t.candidates.iter().map(|c| (c.path.as_str(), c.features)),
            first.0,
        );
        Some(Case {
            margin: m.min(NEVER),
            leads: led,
            right: t.gold_files.iter().any(|g| g == first.0),
        })
    }

    /// The confidence the selection would give this case under `th`.
    pub(crate) fn level(&self, th: &ConfidenceThresholds) -> Confidence {
        th.level(self.margin, self.leads)
    }
}

/// The thresholds calibrated on `cases`.
pub(crate) fn calibrate(cases: &[Case]) -> ConfidenceThresholds {
    let mut margins: Vec<f64> = cases.iter().map(|c| c.margin).collect();
    margins.sort_by(f64::total_cmp);
    margins.dedup();
    let rule = |high: (f64, u32), medium: (f64, u32)| ConfidenceThresholds {
        high: high.0,
        high_leads: high.1,
        medium: medium.0,
        medium_leads: medium.1,
        decisive: None,
    };
    let unreached = (NEVER, 0);
    let decisive = least(&margins, HIGH_PRECISION, &|t| {
        at_level(cases, &rule((t, 0), unreached), Confidence::High)
    });
    let high = widest(&margins, HIGH_PRECISION, &|r| {
        at_level(cases, &rule(r, unreached), Confidence::High)
    })
    .unwrap_or(unreached);
    let medium = widest(&margins, MEDIUM_PRECISION, &|r| {
        at_level(cases, &rule(high, r), Confidence::Medium)
    })
    .unwrap_or(high);
    ConfidenceThresholds {
        decisive: Some(decisive),
        ..rule(high, medium)
    }
}

/// The rule (least margin, fewest leads) admitting the most cases, measured over enough of
/// them, whose precision reaches `precision` at the lower bound of its confidence interval;
/// `None` when none does. Ties keep the first found (fewest leads, then least margin).
fn widest(
    margins: &[f64],
    precision: f64,
    measure: &dyn Fn((f64, u32)) -> (usize, usize),
) -> Option<(f64, u32)> {
    let mut best: Option<((f64, u32), usize)> = None;
    for l in 0..=EVIDENCE_KINDS {
        for &m in margins {
            let (n, right) = measure((m, l));
            if n >= MIN_SUPPORT
                && wilson_lower(right, n) >= precision
                && best.is_none_or(|(_, most)| n > most)
            {
                best = Some(((m, l), n));
            }
        }
    }
    best.map(|(r, _)| r)
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

    fn case(margin: f64, leads: u32, right: bool) -> Case {
        Case {
            margin,
            leads,
            right,
        }
    }

    /// The share of the cases at `level` whose first place is right (`None`: no case is).
    fn precision(cases: &[Case], th: &ConfidenceThresholds, level: Confidence) -> Option<f64> {
        let (n, right) = at_level(cases, th, level);
        (n > 0).then(|| right as f64 / n as f64)
    }

    #[test]
    fn thresholds_keep_each_level_at_its_precision_on_what_they_were_fitted_on() {
        // Wide margins are right, middling ones seven times in eight (enough, over 80
        // cases, for a lower bound above 70%), narrow ones a coin toss.
        let mut cases: Vec<Case> = (0..40)
            .map(|i| case(3.0 + f64::from(i) * 0.01, 0, true))
            .collect();
        cases.extend((0..80).map(|i| case(1.6 + f64::from(i) * 0.005, 0, i % 8 != 0)));
        cases.extend((0..100).map(|i| case(1.0 + f64::from(i) * 0.005, 0, i % 2 == 0)));
        let th = calibrate(&cases);
        for (level, want) in [
            (Confidence::High, HIGH_PRECISION),
            (Confidence::Medium, MEDIUM_PRECISION),
        ] {
            let p = precision(&cases, &th, level);
            assert!(p.is_some_and(|p| p >= want), "{level:?} at {p:?}");
        }
    }

    #[test]
    fn leads_earn_high_where_the_margin_alone_cannot() {
        // Every margin mixes right and wrong first places alike; only the cases whose best
        // file leads on most kinds of evidence are right.
        let cases: Vec<Case> = (0..200)
            .map(|i| {
                let leads = if i % 4 == 0 { 5 } else { 1 };
                case(
                    1.0 + f64::from(i % 50) * 0.02,
                    leads,
                    leads == 5 || i % 2 == 0,
                )
            })
            .collect();
        let th = calibrate(&cases);
        assert_eq!(th.decisive, Some(NEVER), "no margin alone is decisive");
        assert!(th.high_leads > 1, "high asks for leads: {th:?}");
        let p = precision(&cases, &th, Confidence::High);
        assert!(p.is_some_and(|p| p >= HIGH_PRECISION), "high at {p:?}");
    }

    #[test]
    fn a_level_no_rule_earns_is_never_said() {
        let cases: Vec<Case> = (0..100)
            .map(|i| case(1.0 + f64::from(i) * 0.01, (i % 7) as u32, i % 2 == 0))
            .collect();
        let th = calibrate(&cases);
        assert_eq!(th.high, NEVER);
        assert!(cases.iter().all(|c| c.level(&th) != Confidence::High));
    }
}
