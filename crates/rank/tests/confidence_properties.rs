//! Invariants of the confidence score, for the checked-in model and for any model the loader
//! accepts (a margin weight and lead weights at least 0, any cut-offs).

use proptest::prelude::*;
use sightline_rank::{
    ConfidenceInputs, ConfidenceModel, EVIDENCE_KINDS, LeadWeights, Weights, confidence::MARGIN_CAP,
};
use sightline_registry::Confidence;

fn leads() -> impl Strategy<Value = [bool; EVIDENCE_KINDS]> {
    proptest::array::uniform10(any::<bool>())
}

/// Any margin a ranking can produce, the degenerate ones included.
fn any_margin() -> impl Strategy<Value = f64> {
    prop_oneof![
        0.0..MARGIN_CAP * 2.0,
        Just(0.0),
        Just(1.0),
        Just(f64::INFINITY),
        Just(f64::NAN),
    ]
}

/// A lead weight the loader accepts: 0 (a kind the fit dropped) or positive.
fn lead_weight() -> impl Strategy<Value = f64> {
    prop_oneof![Just(0.0), 0.0..5.0f64]
}

fn model() -> impl Strategy<Value = ConfidenceModel> {
    (
        -5.0..5.0f64,
        0.0..5.0f64,
        proptest::array::uniform10(lead_weight()),
        (0.0..1.2f64, 0.0..1.2f64),
    )
        .prop_map(|(intercept, margin, leads, (a, b))| ConfidenceModel {
            intercept,
            margin,
            leads: LeadWeights::from_array(leads),
            high: a.max(b),
            medium: a.min(b),
            decisive: 2.0,
        })
}

/// The checked-in model or a fitted-looking one, as the loader reads it back.
fn any_model() -> impl Strategy<Value = ConfidenceModel> {
    prop_oneof![Just(Weights::fitted().confidence), model()].prop_map(|m| {
        serde_json::from_value(serde_json::to_value(m).unwrap()).expect("the loader accepts it")
    })
}

fn rank(c: Confidence) -> u8 {
    match c {
        Confidence::Low => 0,
        Confidence::Medium => 1,
        Confidence::High => 2,
    }
}

proptest! {
    #[test]
    fn a_wider_margin_never_lowers_the_score_or_the_level(
        m in any_model(),
        leads in leads(),
        a in 0.0..MARGIN_CAP * 2.0,
        b in 0.0..MARGIN_CAP * 2.0,
    ) {
        let (narrow, wide) = (a.min(b), a.max(b));
        let at = |margin| ConfidenceInputs { margin, leads };
        prop_assert!(m.probability(&at(wide)) >= m.probability(&at(narrow)));
        prop_assert!(rank(m.level(&at(wide))) >= rank(m.level(&at(narrow))));
    }

    #[test]
    fn the_level_is_never_above_what_the_cut_offs_allow(
        m in any_model(),
        leads in leads(),
        margin in any_margin(),
    ) {
        let inputs = ConfidenceInputs { margin, leads };
        let p = m.probability(&inputs);
        prop_assert!(p.is_finite() && (0.0..=1.0).contains(&p), "{p}");
        match m.level(&inputs) {
            Confidence::High => prop_assert!(p >= m.high),
            Confidence::Medium => prop_assert!(p >= m.medium && p < m.high),
            Confidence::Low => prop_assert!(p < m.medium && p < m.high),
        }
    }

    #[test]
    fn leading_on_one_more_kind_never_lowers_the_score_or_the_level(
        m in any_model(),
        leads in leads(),
        margin in any_margin(),
        kind in 0..EVIDENCE_KINDS,
    ) {
        let mut without = leads;
        without[kind] = false;
        let mut with = leads;
        with[kind] = true;
        let at = |leads| ConfidenceInputs { margin, leads };
        prop_assert!(m.probability(&at(with)) >= m.probability(&at(without)));
        prop_assert!(rank(m.level(&at(with))) >= rank(m.level(&at(without))));
    }

    #[test]
    fn a_model_loads_only_if_no_lead_weight_is_negative(
        m in model(),
        weights in proptest::array::uniform10(-5.0..5.0f64),
    ) {
        let doc = serde_json::to_value(ConfidenceModel {
            leads: LeadWeights::from_array(weights),
            ..m
        })
        .unwrap();
        let loaded = serde_json::from_value::<ConfidenceModel>(doc);
        prop_assert_eq!(loaded.is_ok(), weights.iter().all(|w| *w >= 0.0), "{:?}", loaded);
    }

    #[test]
    fn thresholds_of_the_margin_rule_are_never_read_as_a_score(
        high in 1.0..10.0f64,
        medium in 1.0..10.0f64,
        high_leads in proptest::option::of(0u32..8),
        medium_leads in proptest::option::of(0u32..8),
        decisive in proptest::option::of(1.0..1e9f64),
    ) {
        let mut doc = serde_json::json!({ "high": high, "medium": medium });
        if let Some(l) = high_leads { doc["high_leads"] = l.into(); }
        if let Some(l) = medium_leads { doc["medium_leads"] = l.into(); }
        if let Some(d) = decisive { doc["decisive"] = d.into(); }
        let err = serde_json::from_value::<ConfidenceModel>(doc).expect_err("the margin rule");
        prop_assert!(err.to_string().contains("cargo xtask fit"), "{}", err);
    }
}

#[test]
fn the_checked_in_model_says_low_without_evidence_and_higher_with_all_of_it() {
    let m = Weights::fitted().confidence;
    assert!(m.margin >= 0.0, "{m:?}");
    assert!(m.medium <= m.high, "{m:?}");
    let all = ConfidenceInputs {
        margin: MARGIN_CAP,
        leads: [true; EVIDENCE_KINDS],
    };
    let none = ConfidenceInputs {
        margin: 1.0,
        leads: [false; EVIDENCE_KINDS],
    };
    assert_eq!(m.level(&none), Confidence::Low, "{m:?}");
    assert!(m.probability(&all) > m.probability(&none), "{m:?}");
}
