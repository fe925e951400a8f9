//! proptest generators for submitted selections against the fixture registry: IDs that
//! exist and IDs that do not, quotes taken from observed text and quotes that were never
//! observed, every action, confidence and intent, and lists past every limit.

use proptest::prelude::*;
use sightline_registry::{
    Action, CandidateId, Confidence, EvidenceLine, FlowLink, Intent, ReadTarget, SearchTarget,
    Selection,
};

use super::fixture::{KNOWN, observed_lines, unverified_quotes, verified_quotes};

pub fn arb_id() -> impl Strategy<Value = CandidateId> {
    // 0 and everything past KNOWN are unknown.
    (0u32..=KNOWN + 3).prop_map(CandidateId)
}

pub fn arb_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        Just(Action::AnswerFromReport),
        Just(Action::ReadTargets),
        Just(Action::TargetedGapSearch),
        Just(Action::SkipExploreResult),
    ]
}

pub fn arb_confidence() -> impl Strategy<Value = Confidence> {
    prop_oneof![
        Just(Confidence::Low),
        Just(Confidence::Medium),
        Just(Confidence::High)
    ]
}

pub fn arb_intent() -> impl Strategy<Value = Intent> {
    prop_oneof![
        Just(Intent::Explain),
        Just(Intent::Locate),
        Just(Intent::Edit),
        Just(Intent::Debug)
    ]
}

/// Short text, sometimes with a newline, sometimes far past any limit.
pub fn arb_text() -> impl Strategy<Value = String> {
    prop_oneof![
        6 => "[A-Za-z][A-Za-z ,.()]{0,50}",
        1 => "[a-z]{1,10}\n[a-z ]{0,20}",
        1 => "[a-z ]{250,320}",
        1 => Just(String::new()),
    ]
}

pub fn arb_role() -> impl Strategy<Value = String> {
    prop_oneof![8 => "[a-z][a-z ]{0,14}", 1 => "[a-z]{81,100}"]
}

pub fn arb_link() -> impl Strategy<Value = FlowLink> {
    let good = proptest::sample::select(verified_quotes());
    let bad = proptest::sample::select(unverified_quotes());
    let any_pool = proptest::sample::select([verified_quotes(), unverified_quotes()].concat());
    let quote_and_id = prop_oneof![
        4 => good.prop_map(|(n, q)| (CandidateId(n), q)),
        2 => bad.prop_map(|(n, q)| (CandidateId(n), q)),
        // A real quote attributed to a random candidate.
        2 => (arb_id(), any_pool).prop_map(|(id, (_, q))| (id, q)),
        1 => (arb_id(), "[a-z(){}; ]{0,40}"),
    ];
    (quote_and_id, arb_role(), arb_text(), arb_evidence()).prop_map(
        |((candidate, quote), role, fact, evidence)| FlowLink {
            candidate,
            role,
            fact,
            quote,
            evidence,
        },
    )
}

/// Evidence lines: observed lines at their own numbers (which check out only against the
/// candidate that shows them), at a number off by one, blank, or never observed; sometimes
/// past the limit.
pub fn arb_evidence() -> impl Strategy<Value = Vec<EvidenceLine>> {
    let observed = proptest::sample::select(observed_lines());
    let line = prop_oneof![
        4 => observed.clone().prop_map(|(line, text)| EvidenceLine { line, text }),
        1 => observed.prop_map(|(line, text)| EvidenceLine { line: line + 1, text }),
        1 => (0u32..80).prop_map(|line| EvidenceLine { line, text: "  ".to_owned() }),
        1 => (0u32..80, "[a-z(){}; ]{1,30}").prop_map(|(line, text)| EvidenceLine { line, text }),
    ];
    proptest::collection::vec(line, 0..7)
}

pub fn arb_read() -> impl Strategy<Value = ReadTarget> {
    (arb_id(), arb_text(), any::<bool>()).prop_map(|(candidate, purpose, required)| ReadTarget {
        candidate,
        purpose,
        required,
    })
}

pub fn arb_search() -> impl Strategy<Value = SearchTarget> {
    let term = prop_oneof![6 => "[A-Za-z_]{1,20}", 1 => "[a-z]{81,90}", 1 => Just(" ".to_owned())];
    (term, proptest::option::of("[a-z/]{1,20}"))
        .prop_map(|(term, scope)| SearchTarget { term, scope })
}

pub fn arb_selection() -> impl Strategy<Value = Selection> {
    (
        prop::collection::vec(arb_id(), 0..9),
        prop::collection::vec(arb_link(), 0..12),
        prop::collection::vec(arb_read(), 0..9),
        prop::collection::vec(arb_text(), 0..5),
        arb_action(),
        prop::collection::vec(arb_search(), 0..7),
        arb_confidence(),
        prop::collection::vec(arb_id(), 0..7),
    )
        .prop_map(
            |(
                primary,
                flow,
                read_targets,
                missing,
                action,
                search_targets,
                confidence,
                runners_up,
            )| {
                Selection {
                    primary,
                    flow,
                    read_targets,
                    missing,
                    action,
                    search_targets,
                    confidence,
                    runners_up,
                }
            },
        )
}
