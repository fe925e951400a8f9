//! How far the deterministic selection may be trusted: the level (`high`, `medium`, `low`)
//! its evidence earns under thresholds that `cargo xtask fit` calibrates on the evaluation
//! tasks, leave-one-repository-out.
//!
//! Two generic measures of how decisive a ranking is: the margin of the best file's score
//! over the next file's ([`margin`]), and on how many independent kinds of direct evidence
//! about the query's words the best file leads every other file ([`leads`]: declaration
//! names, text relevance, path words, proximity of the terms, the candidate's own symbol
//! names, the terms the tools matched in it, and the query's literals as written naming
//! one of its declarations or found in its text). The margin alone never separated a level
//! that is right nine times in ten (a file can win by a wide margin on one kind of
//! evidence); a file that wins by a margin *and* on most kinds at once is right far more
//! often. A file that alone holds what the query spells out literally is right more often
//! still: counted as a kind, it raised the `high` share held out from 0.09 to 0.12 at the
//! same precision (`cargo xtask fit`).

use serde::{Deserialize, Serialize};
use sightline_registry::Confidence;

use crate::model::Features;

/// How many kinds of evidence [`leads`] counts.
pub const EVIDENCE_KINDS: u32 = 7;

/// A file leads on a kind only when it beats every other file by more than this factor: the
/// search rounds its components, so values this close are ties.
const LEAD_FACTOR: f64 = 1.000_000_1;

/// A candidate's direct evidence about the query's words, one value per kind (see the
/// module's documentation); the graph's spread is left out: it only echoes other files'
/// names. The literal kind is the query's literals naming a declaration of the file or
/// found in its text (a literal in its path is already a path word); most queries have no
/// literal, and then nobody leads on it.
fn evidence(f: &Features) -> [f64; EVIDENCE_KINDS as usize] {
    [
        f.search_name,
        f.search_lexical,
        f.search_path + f.search_path_dir,
        f.search_proximity,
        f.symbol_name,
        f.matched_lexical,
        f.search_literal_name + f.search_literal_text,
    ]
}

/// On how many kinds of evidence the file `best` leads every other file: each file counts
/// with its strongest candidate of each kind, and a kind nobody has evidence of is led by
/// nobody.
pub fn leads<'a>(candidates: impl IntoIterator<Item = (&'a str, Features)>, best: &str) -> u32 {
    let mut mine = [0.0_f64; EVIDENCE_KINDS as usize];
    let mut others = [0.0_f64; EVIDENCE_KINDS as usize];
    for (path, f) in candidates {
        let into = if path == best { &mut mine } else { &mut others };
        for (slot, v) in into.iter_mut().zip(evidence(&f)) {
            *slot = slot.max(v);
        }
    }
    mine.iter()
        .zip(&others)
        .filter(|(m, o)| **m > 0.0 && **m > **o * LEAD_FACTOR)
        .count() as u32
}

/// The best file's score over the next file's (`second`; infinite when there is none or it
/// scored nothing, 0 when there is no best file): how decisive a ranking is.
pub fn margin(first: Option<f64>, second: Option<f64>) -> f64 {
    match (first, second) {
        (None, _) => 0.0,
        (Some(f), Some(s)) if s > 0.0 => f / s,
        (Some(_), _) => f64::INFINITY,
    }
}

/// What the deterministic selection needs to say `high` or `medium`: a [`margin`] and a
/// number of [`leads`], each level both. `cargo xtask fit` calibrates them on the
/// evaluation tasks: `high` where the first place was right at least 90% of the time,
/// `medium` at least 70%, at the lower end of a confidence interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConfidenceThresholds {
    /// Least margin of a `high` selection.
    pub high: f64,
    /// Fewest kinds of evidence the best file leads on in a `high` selection (0 in a file
    /// written before leads were counted).
    #[serde(default)]
    pub high_leads: u32,
    /// Least margin of a `medium` selection.
    pub medium: f64,
    /// Fewest leads of a `medium` selection.
    #[serde(default)]
    pub medium_leads: u32,
    /// Least margin at which the margin alone, leads aside, is right nine times in ten:
    /// where `explore_code` treats its first file as the answer. `None` (a file written
    /// before leads were counted): [`ConfidenceThresholds::high`], which was that margin.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub decisive: Option<f64>,
}

impl Default for ConfidenceThresholds {
    /// The hand-set thresholds before any calibration.
    fn default() -> Self {
        ConfidenceThresholds {
            high: 2.0,
            high_leads: 0,
            medium: 1.5,
            medium_leads: 0,
            decisive: None,
        }
    }
}

impl ConfidenceThresholds {
    /// The confidence a margin and a number of leads earn.
    pub fn level(&self, margin: f64, leads: u32) -> Confidence {
        if margin >= self.high && leads >= self.high_leads {
            Confidence::High
        } else if margin >= self.medium && leads >= self.medium_leads {
            Confidence::Medium
        } else {
            Confidence::Low
        }
    }

    /// The margin `explore_code` treats as decisive.
    pub fn decisive_margin(&self) -> f64 {
        self.decisive.unwrap_or(self.high)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(search_name: f64, search_lexical: f64, matched_lexical: f64) -> Features {
        Features {
            search_name,
            search_lexical,
            matched_lexical,
            ..Features::default()
        }
    }

    #[test]
    fn leads_count_the_kinds_the_best_file_beats_every_other_on() {
        let cands = [
            ("a", f(3.0, 1.0, 0.0)),
            ("a", f(0.0, 0.0, 2.0)),
            ("b", f(2.0, 1.0, 1.0)),
            ("c", f(1.0, 0.5, 0.5)),
        ];
        // a leads on names (3 > 2) and matched terms (its second candidate's 2 > 1); the
        // text relevance is a tie; nobody has path, proximity or symbol evidence.
        assert_eq!(leads(cands.iter().map(|(p, f)| (*p, *f)), "a"), 2);
        assert_eq!(leads(cands.iter().map(|(p, f)| (*p, *f)), "c"), 0);
    }

    #[test]
    fn a_level_needs_both_its_margin_and_its_leads() {
        let th = ConfidenceThresholds {
            high: 2.0,
            high_leads: 4,
            medium: 1.2,
            medium_leads: 2,
            decisive: None,
        };
        assert_eq!(th.level(3.0, 4), Confidence::High);
        assert_eq!(th.level(3.0, 3), Confidence::Medium);
        assert_eq!(th.level(1.5, 6), Confidence::Medium);
        assert_eq!(th.level(1.5, 1), Confidence::Low);
        assert_eq!(th.level(1.1, 6), Confidence::Low);
        assert_eq!(th.decisive_margin(), 2.0);
    }

    #[test]
    fn a_file_without_leads_or_a_decisive_margin_reads_as_before() {
        let th: ConfidenceThresholds =
            serde_json::from_str(r#"{"high": 1.8, "medium": 1.3}"#).expect("parses");
        assert_eq!(th.level(1.9, 0), Confidence::High);
        assert_eq!(th.decisive_margin(), 1.8);
    }
}
