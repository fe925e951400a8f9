//! How far the deterministic selection may be trusted: the level (`high`, `medium`, `low`)
//! a small fitted logistic score gives its evidence, with cut-offs that `cargo xtask fit`
//! calibrates on the evaluation tasks, leave-one-repository-out.
//!
//! The score reads what the selection knows when it is made ([`ConfidenceInputs`]): the
//! margin of the best file's score over the next file's ([`margin`], as its logarithm), and
//! on which independent kinds of direct evidence about the query the best file leads every
//! other ([`lead_kinds`]: declaration names, text relevance, path words, proximity of the
//! terms, the candidate's own symbol names, the terms the tools matched in it, and the
//! query's literals as written, by where they were found). The margin alone never
//! separated a level that is right nine times in ten (a file can win by a wide margin on
//! one kind of evidence); a rule "margin at least m and at least l leads" (the level before
//! this score) reached 0.11 of reports at 0.92 held out. Weighing each kind on its own
//! (some kinds say more than others: a file that alone holds a literal of the query is
//! right more often than one that alone leads on text relevance) reached 0.18 at 0.91
//! (`cargo xtask fit --calibrate-only`), and with every weight kept at least 0, so that
//! leading on one more kind never lowers the level, 0.17 at 0.91.

use serde::{Deserialize, Serialize};
use sightline_registry::Confidence;

use crate::model::Features;

/// How many kinds of evidence [`lead_kinds`] tells apart.
pub const EVIDENCE_KINDS: usize = 10;

/// A file leads on a kind only when it beats every other file by more than this factor: the
/// search rounds its components, so values this close are ties.
const LEAD_FACTOR: f64 = 1.000_000_1;

/// The margin the score reads is capped here: a best file with no runner-up (an infinite
/// margin) is as decisive as one a thousand times ahead, and the logarithm stays finite.
pub const MARGIN_CAP: f64 = 1e3;

/// A candidate's direct evidence about the query, one value per kind, in the order of
/// [`LeadWeights`]'s fields; the graph's spread is left out: it only echoes other files'
/// names. Most queries have no literal, and then nobody leads on the literal kinds.
fn evidence(f: &Features) -> [f64; EVIDENCE_KINDS] {
    [
        f.search_name,
        f.search_lexical,
        f.search_path + f.search_path_dir,
        f.search_proximity,
        f.symbol_name,
        f.matched_lexical,
        f.search_literal_name,
        f.search_literal_path,
        f.search_literal_text,
        f.symbol_literal,
    ]
}

/// On which kinds of evidence the file `best` leads every other file: each file counts
/// with its strongest candidate of each kind, and a kind nobody has evidence of is led by
/// nobody.
pub fn lead_kinds<'a>(
    candidates: impl IntoIterator<Item = (&'a str, Features)>,
    best: &str,
) -> [bool; EVIDENCE_KINDS] {
    let mut mine = [0.0_f64; EVIDENCE_KINDS];
    let mut others = [0.0_f64; EVIDENCE_KINDS];
    for (path, f) in candidates {
        let into = if path == best { &mut mine } else { &mut others };
        for (slot, v) in into.iter_mut().zip(evidence(&f)) {
            *slot = slot.max(v);
        }
    }
    std::array::from_fn(|k| mine[k] > 0.0 && mine[k] > others[k] * LEAD_FACTOR)
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

/// What the confidence score reads of one selection.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ConfidenceInputs {
    /// [`margin`] of the best file over the next.
    pub margin: f64,
    /// [`lead_kinds`] of the best file.
    pub leads: [bool; EVIDENCE_KINDS],
}

impl ConfidenceInputs {
    /// The inputs as the score weighs them: the logarithm of the margin (within 1 and
    /// [`MARGIN_CAP`]: the best file never trails the next), then each lead as 0 or 1.
    pub fn vector(&self) -> [f64; 1 + EVIDENCE_KINDS] {
        let m = if self.margin.is_nan() {
            1.0
        } else {
            self.margin.clamp(1.0, MARGIN_CAP)
        };
        let mut v = [0.0; 1 + EVIDENCE_KINDS];
        v[0] = m.ln();
        for (slot, led) in v[1..].iter_mut().zip(self.leads) {
            *slot = f64::from(u8::from(led));
        }
        v
    }
}

/// The weight of a lead on each kind of evidence ([`lead_kinds`]), by name so the
/// checked-in file says which is which.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
#[allow(missing_docs)] // each field is the kind of evidence it weighs, as `evidence` lists them
pub struct LeadWeights {
    pub names: f64,
    pub text: f64,
    pub path: f64,
    pub proximity: f64,
    pub own_names: f64,
    pub matched_terms: f64,
    pub literal_names: f64,
    pub literal_path: f64,
    pub literal_text: f64,
    pub own_literals: f64,
}

impl LeadWeights {
    /// The name of each kind as `weights.json` writes it, in the order of [`lead_kinds`].
    pub const NAMES: [&'static str; EVIDENCE_KINDS] = [
        "names",
        "text",
        "path",
        "proximity",
        "own_names",
        "matched_terms",
        "literal_names",
        "literal_path",
        "literal_text",
        "own_literals",
    ];

    /// The weights in the order of [`lead_kinds`].
    pub fn to_array(&self) -> [f64; EVIDENCE_KINDS] {
        [
            self.names,
            self.text,
            self.path,
            self.proximity,
            self.own_names,
            self.matched_terms,
            self.literal_names,
            self.literal_path,
            self.literal_text,
            self.own_literals,
        ]
    }

    /// The weights from an array in the order of [`lead_kinds`].
    pub fn from_array(a: [f64; EVIDENCE_KINDS]) -> LeadWeights {
        let [
            names,
            text,
            path,
            proximity,
            own_names,
            matched_terms,
            literal_names,
            literal_path,
            literal_text,
            own_literals,
        ] = a;
        LeadWeights {
            names,
            text,
            path,
            proximity,
            own_names,
            matched_terms,
            literal_names,
            literal_path,
            literal_text,
            own_literals,
        }
    }
}

/// The fitted confidence score and its two cut-offs: the probability that the first place
/// is right is `1 / (1 + exp(-(intercept + margin · ln(margin) + Σ leads)))`; a selection
/// is `high` from [`ConfidenceModel::high`], `medium` from [`ConfidenceModel::medium`].
/// `cargo xtask fit` fits the coefficients (logistic regression) and picks each cut-off as
/// the lowest whose tasks' first place was right at least 90% (`high`) or 70% (`medium`)
/// of the time, at the lower end of a confidence interval.
///
/// Read from `weights.json` through [`ConfidenceFile`]: the margin-and-leads thresholds of
/// an earlier release are refused with an error that says how to refit, never read as a
/// score they are not.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(try_from = "ConfidenceFile")]
pub struct ConfidenceModel {
    /// The score of a selection with a margin of 1 and no lead.
    pub intercept: f64,
    /// The weight of the margin's logarithm; never negative, so a wider margin never lowers
    /// the score.
    pub margin: f64,
    /// The weight of each kind of evidence the best file leads on; never negative, so
    /// leading on one more kind never lowers the score.
    pub leads: LeadWeights,
    /// Least probability of a `high` selection (above 1: never said).
    pub high: f64,
    /// Least probability of a `medium` selection.
    pub medium: f64,
    /// Least margin at which the margin alone is right nine times in ten: where
    /// `explore_code` treats its first file as the answer, so that confidence never changes
    /// what an exploration shows.
    pub decisive: f64,
}

/// A cut-off no probability reaches, and a margin no ranking reaches: the level is never
/// said. (JSON has no infinity.)
pub const NEVER: f64 = 1e9;

impl Default for ConfidenceModel {
    /// The uncalibrated model: every selection is `low`, no margin is decisive.
    fn default() -> Self {
        ConfidenceModel {
            intercept: 0.0,
            margin: 0.0,
            leads: LeadWeights::default(),
            high: NEVER,
            medium: NEVER,
            decisive: NEVER,
        }
    }
}

impl ConfidenceModel {
    /// The probability the score gives that the first place is right.
    pub fn probability(&self, inputs: &ConfidenceInputs) -> f64 {
        let v = inputs.vector();
        let z = self.intercept
            + self.margin * v[0]
            + self
                .leads
                .to_array()
                .iter()
                .zip(&v[1..])
                .map(|(w, x)| w * x)
                .sum::<f64>();
        1.0 / (1.0 + (-z).exp())
    }

    /// The confidence a selection's inputs earn: `high` at or above the `high` cut-off,
    /// `medium` at or above the `medium` one.
    pub fn level(&self, inputs: &ConfidenceInputs) -> Confidence {
        let p = self.probability(inputs);
        if p >= self.high {
            Confidence::High
        } else if p >= self.medium {
            Confidence::Medium
        } else {
            Confidence::Low
        }
    }

    /// The margin `explore_code` treats as decisive.
    pub fn decisive_margin(&self) -> f64 {
        self.decisive
    }
}

/// The `confidence` object of `weights.json` as written, before it is checked.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
#[doc(hidden)]
pub struct ConfidenceFile {
    intercept: Option<f64>,
    margin: Option<f64>,
    leads: Option<LeadWeights>,
    high: f64,
    medium: f64,
    // Fields of the margin-and-leads rule, read only to name it in the error.
    high_leads: Option<u32>,
    medium_leads: Option<u32>,
    decisive: Option<f64>,
}

/// Why a `confidence` object cannot be read as a [`ConfidenceModel`].
#[derive(Debug, thiserror::Error, PartialEq)]
pub enum ConfidenceFileError {
    /// The thresholds of the rule the score replaced.
    #[error(
        "the confidence in this weights file is the margin-and-leads rule of an earlier release (`high`, `medium` as margins{}), not the fitted score (`intercept`, `margin`, `leads`, cut-offs): refit it with `cargo xtask fit --from EVAL.json --calibrate-only --write`",
        if *.0 { ", `high_leads`, `medium_leads`" } else { "" }
    )]
    MarginRule(bool),
    /// A score that could lower a selection's confidence as its margin widens.
    #[error("the confidence score's margin weight is {0}: it must be a finite number at least 0")]
    NegativeMargin(f64),
    /// A score that could lower a selection's confidence as its best file leads on one
    /// more kind of evidence: the kind's name and its weight.
    #[error(
        "the confidence score's weight of a lead on `{0}` is {1}: it must be a finite number at least 0 (refit it with `cargo xtask fit --from EVAL.json --calibrate-only --write`)"
    )]
    NegativeLead(&'static str, f64),
    /// A score without the margin `explore_code` treats as decisive.
    #[error(
        "the confidence score has no `decisive` margin: refit it with `cargo xtask fit --from EVAL.json --calibrate-only --write`"
    )]
    NoDecisiveMargin,
    /// A coefficient or cut-off that is not a number.
    #[error("the confidence score has a coefficient or cut-off that is not a finite number")]
    NotFinite,
}

impl TryFrom<ConfidenceFile> for ConfidenceModel {
    type Error = ConfidenceFileError;

    fn try_from(f: ConfidenceFile) -> Result<Self, Self::Error> {
        let old_leads = f.high_leads.is_some() || f.medium_leads.is_some();
        let (Some(intercept), Some(margin), Some(leads), false) =
            (f.intercept, f.margin, f.leads, old_leads)
        else {
            return Err(ConfidenceFileError::MarginRule(old_leads));
        };
        if !(margin >= 0.0 && margin.is_finite()) {
            return Err(ConfidenceFileError::NegativeMargin(margin));
        }
        if let Some((kind, w)) = LeadWeights::NAMES
            .into_iter()
            .zip(leads.to_array())
            .find(|(_, w)| !(*w >= 0.0 && w.is_finite()))
        {
            return Err(ConfidenceFileError::NegativeLead(kind, w));
        }
        let decisive = f.decisive.ok_or(ConfidenceFileError::NoDecisiveMargin)?;
        let numbers = [intercept, f.high, f.medium, decisive];
        if !numbers
            .iter()
            .chain(&leads.to_array())
            .all(|x| x.is_finite())
        {
            return Err(ConfidenceFileError::NotFinite);
        }
        Ok(ConfidenceModel {
            intercept,
            margin,
            leads,
            high: f.high,
            medium: f.medium,
            decisive,
        })
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
    fn leads_are_the_kinds_the_best_file_beats_every_other_on() {
        let cands = [
            ("a", f(3.0, 1.0, 0.0)),
            ("a", f(0.0, 0.0, 2.0)),
            ("b", f(2.0, 1.0, 1.0)),
            ("c", f(1.0, 0.5, 0.5)),
        ];
        // a leads on names (3 > 2) and matched terms (its second candidate's 2 > 1); the
        // text relevance is a tie; nobody has path, proximity or symbol evidence.
        let a = lead_kinds(cands.iter().map(|(p, f)| (*p, *f)), "a");
        let mut want = [false; EVIDENCE_KINDS];
        want[0] = true;
        want[5] = true;
        assert_eq!(a, want);
        assert_eq!(
            lead_kinds(cands.iter().map(|(p, f)| (*p, *f)), "c"),
            [false; EVIDENCE_KINDS]
        );
    }

    fn model() -> ConfidenceModel {
        ConfidenceModel {
            intercept: -1.0,
            margin: 2.0,
            leads: LeadWeights {
                names: 1.0,
                literal_names: 2.0,
                ..LeadWeights::default()
            },
            high: 0.9,
            medium: 0.7,
            decisive: 3.0,
        }
    }

    #[test]
    fn a_level_is_where_the_probability_falls_between_the_cut_offs() {
        let m = model();
        let inputs = |margin: f64, names: bool| {
            let mut leads = [false; EVIDENCE_KINDS];
            leads[0] = names;
            ConfidenceInputs { margin, leads }
        };
        // z = -1 + 2 ln(margin) + names.
        assert_eq!(m.level(&inputs(1.0, false)), Confidence::Low);
        assert_eq!(m.level(&inputs(2.0, true)), Confidence::Medium); // p = 0.80
        assert_eq!(m.level(&inputs(4.0, true)), Confidence::High); // p = 0.94
        assert_eq!(m.level(&inputs(4.0, false)), Confidence::Medium); // p = 0.85
    }

    #[test]
    fn the_margin_rule_of_an_earlier_release_is_refused_with_how_to_refit() {
        for old in [
            r#"{"high": 1.57, "high_leads": 5, "medium": 1.46, "medium_leads": 2, "decisive": 1e9}"#,
            r#"{"high": 1.8, "medium": 1.3}"#,
        ] {
            let err = serde_json::from_str::<ConfidenceModel>(old).expect_err(old);
            let msg = err.to_string();
            assert!(msg.contains("margin-and-leads rule"), "{msg}");
            assert!(msg.contains("--calibrate-only --write"), "{msg}");
        }
    }

    #[test]
    fn a_score_that_falls_as_the_margin_widens_is_refused() {
        let mut doc = serde_json::to_value(model()).unwrap();
        doc["margin"] = serde_json::json!(-0.5);
        let err = serde_json::from_value::<ConfidenceModel>(doc).expect_err("negative margin");
        assert!(err.to_string().contains("at least 0"), "{err}");
    }

    #[test]
    fn a_score_that_falls_as_the_best_file_leads_on_one_more_kind_is_refused() {
        for (k, kind) in LeadWeights::NAMES.into_iter().enumerate() {
            let mut doc = serde_json::to_value(model()).unwrap();
            doc["leads"][kind] = serde_json::json!(-0.25);
            let err = serde_json::from_value::<ConfidenceModel>(doc).expect_err(kind);
            let msg = err.to_string();
            assert!(msg.contains(&format!("`{kind}`")), "{k}: {msg}");
            assert!(msg.contains("at least 0"), "{msg}");
        }
    }

    #[test]
    fn the_names_are_the_fields_of_the_file_in_order() {
        let doc = serde_json::to_value(LeadWeights::from_array(std::array::from_fn(|k| k as f64)))
            .unwrap();
        for (k, kind) in LeadWeights::NAMES.into_iter().enumerate() {
            assert_eq!(doc[kind], serde_json::json!(k as f64), "{kind}");
        }
    }

    #[test]
    fn the_model_round_trips_through_its_file() {
        let text = serde_json::to_string(&model()).unwrap();
        assert_eq!(
            serde_json::from_str::<ConfidenceModel>(&text).unwrap(),
            model()
        );
    }
}
