//! Confidence calibration: the logistic score ([`sightline_rank::ConfidenceModel`]) that
//! says how far the deterministic selection may be trusted, fitted on the evaluation tasks
//! so that an agent can act on the word.
//!
//! A task's case is what the selection reads when it is made ([`ConfidenceInputs`]: the
//! margin of its best file over the next, files ranked by their best candidate under the
//! weights being calibrated as the packet ranks them, and the kinds of direct evidence that
//! best file leads every other on) and whether that file is a changed one. The score is a
//! logistic regression of that outcome on the logarithm of the margin and one 0/1 input per
//! kind of lead, fitted by Newton's method (iteratively reweighted least squares) with a
//! ridge penalty of [`RIDGE`] on every weight but the intercept, so that a kind led on by a
//! handful of tasks cannot take an extreme weight; every weight is kept at least 0 (an
//! input whose weight came out negative is dropped and the rest refitted, until none is),
//! so a wider margin or one more kind of lead never lowers the score. Each level's cut-off is then the lowest probability admitting the most tasks
//! whose first place stays right at least [`HIGH_PRECISION`] (`high`) or
//! [`MEDIUM_PRECISION`] (`medium`, of the tasks below `high`) of the time, measured over
//! at least [`MIN_SUPPORT`] tasks and at the lower end of a confidence interval (Wilson,
//! one-sided 90%): a cut-off chosen at its point estimate came out under its precision on
//! held-out repositories. Fitted on some repositories, measured on another
//! ([`leave_one_repository_out`]).
//!
//! The margin alone is calibrated too: `explore_code` treats a ranking as decisive from
//! that margin, so that confidence never changes what an exploration shows.

use sightline_rank::{
    ConfidenceInputs, ConfidenceModel, EVIDENCE_KINDS, LeadWeights, Weights, lead_kinds, margin,
};
use sightline_registry::Confidence;

use crate::fit::FitTask;

/// Share of `high` reports whose first place must be right.
pub(crate) const HIGH_PRECISION: f64 = 0.9;
/// Share of `medium` reports whose first place must be right.
pub(crate) const MEDIUM_PRECISION: f64 = 0.7;
/// Fewest tasks a cut-off's precision is measured over.
const MIN_SUPPORT: usize = 20;
/// The normal quantile of the one-sided bound `high`'s precision is read at: 90%. At 95% (1.645)
/// the cut-offs held out left `high` at 0.13 of reports at 0.915; at 90%, 0.18 at 0.911
/// (`cargo xtask fit --calibrate-only`, leave-one-repository-out over 1,110 tasks); at 84%
/// (1.0) the precision held out fell to the target itself.
const Z: f64 = 1.282;
/// The quantile `medium`'s precision is read at: one-sided 95%. At 90%, held out with the
/// ranking refitted too (`cargo xtask fit --from F`), `medium` came out at 0.679 (0.14 of
/// 1,110 reports) against its 70%; at 95%, 0.755 (0.09), and under the checked-in ranking
/// (`--calibrate-only`) 0.769 (0.17) where 90% gave 0.742 (0.19). `explore`'s description
/// tells agents what the level means, so it must hold out of sample.
const MEDIUM_Z: f64 = 1.645;
/// The quantile the decisive margin is read at: one-sided 95%, as before the score, so
/// that refitting the score never changes what an exploration shows.
const DECISIVE_Z: f64 = 1.645;
/// The ridge penalty on the score's weights (the intercept aside), in units of one task's
/// log-likelihood.
const RIDGE: f64 = 1.0;
/// Newton steps at most; the fit stops earlier once a step changes no weight by more than
/// [`CONVERGED`].
const NEWTON_STEPS: usize = 50;
const CONVERGED: f64 = 1e-9;
pub(crate) use sightline_rank::confidence::NEVER;

/// One task as calibration sees it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Case {
    pub inputs: ConfidenceInputs,
    pub right: bool,
}

impl Case {
    /// The case of one task under `w`: `None` when the task ranked no file.
    pub(crate) fn of(t: &FitTask, w: &Weights) -> Option<Case> {
        let files = crate::fit::ranked_files(t, w);
        let first = files.first()?;
        let leads = lead_kinds(
            t.candidates.iter().map(|c| (c.path.as_str(), c.features)),
            first.0,
        );
        Some(Case {
            inputs: ConfidenceInputs {
                margin: margin(Some(first.1), files.get(1).map(|f| f.1)),
                leads,
            },
            right: t.gold_files.iter().any(|g| g == first.0),
        })
    }
}

/// The score fitted on `cases`, with its cut-offs and decisive margin.
pub(crate) fn calibrate(cases: &[Case]) -> ConfidenceModel {
    let (intercept, weights) = fit_logistic(cases);
    let mut model = ConfidenceModel {
        intercept,
        margin: weights[0],
        leads: LeadWeights::from_array(std::array::from_fn(|k| weights[k + 1])),
        high: NEVER,
        medium: NEVER,
        decisive: decisive_margin(cases),
    };
    let scored: Vec<(f64, bool)> = cases
        .iter()
        .map(|c| (model.probability(&c.inputs), c.right))
        .collect();
    model.high = lowest_cut(&scored, HIGH_PRECISION, Z).unwrap_or(NEVER);
    let below: Vec<(f64, bool)> = scored
        .iter()
        .copied()
        .filter(|(p, _)| *p < model.high)
        .collect();
    model.medium = lowest_cut(&below, MEDIUM_PRECISION, MEDIUM_Z).unwrap_or(model.high);
    model
}

/// The lowest cut-off among the `scored` values whose cases at or above it, at least
/// [`MIN_SUPPORT`] of them, are right at least `precision` of the time at the lower bound of
/// their confidence interval (at the normal quantile `z`): the widest such level. `None`
/// when no cut-off is.
fn lowest_cut(scored: &[(f64, bool)], precision: f64, z: f64) -> Option<f64> {
    let mut sorted = scored.to_vec();
    sorted.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut best = None;
    let mut right = 0;
    for (i, &(p, r)) in sorted.iter().enumerate() {
        right += usize::from(r);
        let n = i + 1;
        // A cut-off admits every case with its value: measure at the last of a tie.
        let tie_continues = sorted.get(n).is_some_and(|next| next.0 == p);
        if !tie_continues && n >= MIN_SUPPORT && wilson_lower(right, n, z) >= precision {
            best = Some(p);
        }
    }
    best
}

/// The least margin at which the cases it admits, the margin alone, reach
/// [`HIGH_PRECISION`] over at least [`MIN_SUPPORT`] of them at the lower bound of their
/// confidence interval ([`DECISIVE_Z`]); [`NEVER`] when none does.
fn decisive_margin(cases: &[Case]) -> f64 {
    let margins: Vec<(f64, bool)> = cases
        .iter()
        .map(|c| (c.inputs.margin.min(NEVER), c.right))
        .collect();
    lowest_cut(&margins, HIGH_PRECISION, DECISIVE_Z).unwrap_or(NEVER)
}

/// Number of the score's inputs: the margin's logarithm and one per kind of lead.
const INPUTS: usize = 1 + EVIDENCE_KINDS;

/// The intercept and weights of a ridge-penalised logistic regression of `right` on the
/// cases' inputs, every weight kept at least 0: an input whose weight came out negative is
/// dropped (its weight held at 0) and the rest refitted, until none is negative. A wider
/// margin or one more kind of lead then never lowers the score, which a user can follow;
/// a negative weight only said that a kind overlaps others it is counted with.
fn fit_logistic(cases: &[Case]) -> (f64, [f64; INPUTS]) {
    let rows: Vec<([f64; INPUTS], f64)> = cases
        .iter()
        .map(|c| (c.inputs.vector(), f64::from(u8::from(c.right))))
        .collect();
    let mut used = [true; INPUTS];
    loop {
        let fit = newton(&rows, &used);
        let mut dropped = false;
        for (u, w) in used.iter_mut().zip(fit.1) {
            if *u && w < 0.0 {
                *u = false;
                dropped = true;
            }
        }
        // Each round drops at least one input, so this ends within `INPUTS` rounds.
        if !dropped {
            return fit;
        }
    }
}

/// Newton's method on the penalised log-likelihood over the inputs `used` (the others stay
/// 0). Parameter 0 is the intercept, `1 + i` input `i`'s weight.
fn newton(rows: &[([f64; INPUTS], f64)], used: &[bool; INPUTS]) -> (f64, [f64; INPUTS]) {
    const P: usize = INPUTS + 1;
    let x = |row: &[f64; INPUTS], j: usize| match j {
        0 => 1.0,
        _ if used[j - 1] => row[j - 1],
        _ => 0.0,
    };
    let mut beta = [0.0_f64; P];
    for _ in 0..NEWTON_STEPS {
        let mut grad = [0.0_f64; P];
        let mut hess = [[0.0_f64; P]; P];
        for (row, y) in rows {
            let xs: [f64; P] = std::array::from_fn(|j| x(row, j));
            let z: f64 = beta.iter().zip(&xs).map(|(b, x)| b * x).sum();
            let p = 1.0 / (1.0 + (-z).exp());
            let w = p * (1.0 - p);
            for ((g, h), xj) in grad.iter_mut().zip(hess.iter_mut()).zip(xs) {
                *g += (p - y) * xj;
                for (hk, xk) in h.iter_mut().zip(xs) {
                    *hk += w * xj * xk;
                }
            }
        }
        for j in 1..P {
            grad[j] += RIDGE * beta[j];
            // An unused input's weight is held at 0 by the penalty alone.
            hess[j][j] += RIDGE;
        }
        let Some(step) = solve(hess, grad) else {
            break;
        };
        let mut largest = 0.0_f64;
        for j in 0..P {
            beta[j] -= step[j];
            largest = largest.max(step[j].abs());
        }
        if largest < CONVERGED {
            break;
        }
    }
    (beta[0], std::array::from_fn(|i| beta[i + 1]))
}

/// The solution of `a · x = b` by Gaussian elimination with partial pivoting; `None` when
/// `a` is singular.
fn solve<const N: usize>(mut a: [[f64; N]; N], mut b: [f64; N]) -> Option<[f64; N]> {
    for col in 0..N {
        let pivot = (col..N).max_by(|&i, &j| a[i][col].abs().total_cmp(&a[j][col].abs()))?;
        if a[pivot][col].abs() < 1e-12 {
            return None;
        }
        a.swap(col, pivot);
        b.swap(col, pivot);
        let (pivot_row, pivot_b) = (a[col], b[col]);
        for (r, rb) in a.iter_mut().zip(b.iter_mut()).skip(col + 1) {
            let f = r[col] / pivot_row[col];
            for (v, p) in r.iter_mut().zip(pivot_row).skip(col) {
                *v -= f * p;
            }
            *rb -= f * pivot_b;
        }
    }
    let mut x = [0.0_f64; N];
    for row in (0..N).rev() {
        let rest: f64 = (row + 1..N).map(|k| a[row][k] * x[k]).sum();
        x[row] = (b[row] - rest) / a[row][row];
    }
    Some(x)
}

/// The lower bound of the Wilson score interval of `right` successes in `n` trials, at the
/// normal quantile `z`.
fn wilson_lower(right: usize, n: usize, z: f64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    let (n, p) = (n as f64, right as f64 / n as f64);
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    (centre - spread) / (1.0 + z2 / n)
}

/// Each repository's cases leveled by a score fitted on the other repositories' cases,
/// with the probability that score gave them (`by_repo`: every repository's cases).
pub(crate) fn leave_one_repository_out(by_repo: &[Vec<Case>]) -> Vec<(Confidence, f64, bool)> {
    let mut out = Vec::new();
    for (i, held_out) in by_repo.iter().enumerate() {
        let others: Vec<Case> = by_repo
            .iter()
            .enumerate()
            .filter(|(j, _)| *j != i)
            .flat_map(|(_, r)| r.iter().copied())
            .collect();
        let model = calibrate(&others);
        out.extend(held_out.iter().map(|c| {
            (
                model.level(&c.inputs),
                model.probability(&c.inputs),
                c.right,
            )
        }));
    }
    out
}

/// The precision of the held-out cases' first place at several shares of reports, the
/// cases taken by descending held-out probability: what any cut-offs could reach.
pub(crate) fn curve(held_out: &[(Confidence, f64, bool)]) -> String {
    use std::fmt::Write as _;
    let mut sorted: Vec<(f64, bool)> = held_out.iter().map(|(_, p, r)| (*p, *r)).collect();
    sorted.sort_by(|a, b| b.0.total_cmp(&a.0));
    let mut out =
        String::from("| share of reports (by held-out score) | first place right |\n|---|---|\n");
    for share in [0.05, 0.1, 0.15, 0.2, 0.25, 0.33, 0.5] {
        let n = ((sorted.len() as f64 * share).round() as usize)
            .max(1)
            .min(sorted.len());
        let right = sorted[..n].iter().filter(|(_, r)| *r).count();
        let _ = writeln!(
            out,
            "| {share:.2} | {:.3} |",
            right as f64 / n.max(1) as f64
        );
    }
    out
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

    fn case(margin: f64, lead: Option<usize>, right: bool) -> Case {
        let mut leads = [false; EVIDENCE_KINDS];
        if let Some(k) = lead {
            leads[k] = true;
        }
        Case {
            inputs: ConfidenceInputs { margin, leads },
            right,
        }
    }

    /// The share of the cases at `level` whose first place is right (`None`: no case is).
    fn precision(cases: &[Case], m: &ConfidenceModel, level: Confidence) -> Option<f64> {
        let at: Vec<bool> = cases
            .iter()
            .filter(|c| m.level(&c.inputs) == level)
            .map(|c| c.right)
            .collect();
        (!at.is_empty()).then(|| at.iter().filter(|r| **r).count() as f64 / at.len() as f64)
    }

    #[test]
    fn cut_offs_keep_each_level_at_its_precision_on_what_they_were_fitted_on() {
        // Wide margins are right, middling ones five times in six, narrow ones a coin
        // toss: high cannot take every middling case, medium takes the rest.
        let mut cases: Vec<Case> = (0..60)
            .map(|i| case(3.0 + f64::from(i) * 0.01, None, true))
            .collect();
        cases.extend((0..120).map(|i| case(1.6 + f64::from(i) * 0.005, None, i % 6 != 0)));
        cases.extend((0..100).map(|i| case(1.0 + f64::from(i) * 0.005, None, i % 2 == 0)));
        let m = calibrate(&cases);
        assert!(m.margin > 0.0, "{m:?}");
        for (level, want) in [
            (Confidence::High, HIGH_PRECISION),
            (Confidence::Medium, MEDIUM_PRECISION),
        ] {
            let p = precision(&cases, &m, level);
            assert!(p.is_some_and(|p| p >= want), "{level:?} at {p:?}: {m:?}");
        }
    }

    #[test]
    fn a_lead_that_tells_right_from_wrong_earns_high_where_the_margin_cannot() {
        // Every margin mixes right and wrong first places alike; only the cases whose best
        // file leads on the literal kind are right, and they earn high.
        let cases: Vec<Case> = (0..300)
            .map(|i| {
                let literal = i % 3 == 0;
                case(
                    1.0 + f64::from(i % 50) * 0.02,
                    literal.then_some(6),
                    literal || i % 2 == 0,
                )
            })
            .collect();
        let m = calibrate(&cases);
        assert!(m.leads.literal_names > 1.0, "{m:?}");
        let p = precision(&cases, &m, Confidence::High);
        assert!(
            p.is_some_and(|p| p >= HIGH_PRECISION),
            "high at {p:?}: {m:?}"
        );
        assert_eq!(m.decisive, NEVER, "no margin alone is decisive");
    }

    #[test]
    fn a_margin_that_goes_with_wrong_answers_gets_no_weight() {
        let cases: Vec<Case> = (0..200)
            .map(|i| case(1.0 + f64::from(i) * 0.05, None, i < 100))
            .collect();
        let m = calibrate(&cases);
        assert_eq!(m.margin, 0.0, "{m:?}");
    }

    #[test]
    fn a_lead_that_goes_with_wrong_answers_gets_no_weight_and_the_rest_stay_fitted() {
        // Leading on the path kind (2) is right; leading on the literal-path kind (7) as
        // well is wrong more often than the path kind alone: its unconstrained weight is
        // negative, so it is dropped and the path kind keeps a positive weight.
        let cases: Vec<Case> = (0..400)
            .map(|i: u32| {
                let mut leads = [false; EVIDENCE_KINDS];
                leads[2] = i.is_multiple_of(2);
                leads[7] = i.is_multiple_of(4);
                let right = if leads[7] {
                    !i.is_multiple_of(12)
                } else if leads[2] {
                    true
                } else {
                    i.is_multiple_of(3)
                };
                Case {
                    inputs: ConfidenceInputs {
                        margin: 1.0 + f64::from(i % 10) * 0.1,
                        leads,
                    },
                    right,
                }
            })
            .collect();
        let m = calibrate(&cases);
        assert_eq!(m.leads.literal_path, 0.0, "{m:?}");
        assert!(m.leads.path > 0.0, "{m:?}");
        assert!(m.leads.to_array().iter().all(|w| *w >= 0.0), "{m:?}");
        assert!(m.margin >= 0.0, "{m:?}");
    }

    #[test]
    fn a_level_no_cut_off_earns_is_never_said() {
        let cases: Vec<Case> = (0..100)
            .map(|i: u32| {
                case(
                    1.0 + f64::from(i) * 0.01,
                    Some(i as usize % 7),
                    i.is_multiple_of(2),
                )
            })
            .collect();
        let m = calibrate(&cases);
        assert_eq!(m.high, NEVER);
        assert!(cases.iter().all(|c| m.level(&c.inputs) != Confidence::High));
    }

    #[test]
    fn newton_finds_the_weights_a_known_logistic_model_generated() {
        // Outcomes drawn deterministically at the model's probabilities: p = σ(-1 + 2x).
        let mut rows = Vec::new();
        for i in 0..2000 {
            let x = f64::from(i % 40) / 10.0 - 1.0;
            let p = 1.0 / (1.0 + (1.0 - 2.0 * x).exp());
            let mut v = [0.0; INPUTS];
            v[0] = x;
            // A low-discrepancy sequence instead of a random draw.
            let u = (f64::from(i) * 0.618_033_988_749_895).fract();
            rows.push((v, f64::from(u8::from(u < p))));
        }
        let (b0, b) = newton(&rows, &[true; INPUTS]);
        assert!((b0 + 1.0).abs() < 0.25, "{b0}");
        assert!((b[0] - 2.0).abs() < 0.3, "{:?}", b);
    }
}
