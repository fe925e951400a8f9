//! The deterministic explore traces the chain of calls from the function a question names
//! to the declaration its other words describe, and the report shows that chain as its
//! flow: the start as the one primary place, then one place per call in call order, every
//! quote a line a tool showed.

use std::path::Path;

use proptest::prelude::*;
use sightline_agent::{ExploreSession, Finished, Mode, explore};
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::selection::MAX_FLOW;
use sightline_registry::{Intent, RegistryDatabase};

/// A module whose `begin_work` reaches `transmit_network_packet` through `stages`
/// functions in a row, with a bystander whose name shares one word of the question.
fn write_chain(dir: &Path, stages: usize) {
    let mut src = String::from("def begin_work(x):\n");
    let first = if stages == 0 {
        "transmit_network_packet".to_owned()
    } else {
        "stage_1".to_owned()
    };
    src.push_str(&format!("    return {first}(x)\n\n"));
    for i in 1..=stages {
        let next = if i == stages {
            "transmit_network_packet".to_owned()
        } else {
            format!("stage_{}", i + 1)
        };
        src.push_str(&format!("def stage_{i}(x):\n    return {next}(x)\n\n"));
    }
    src.push_str("def transmit_network_packet(x):\n    return x\n\n");
    src.push_str("def network_settings():\n    return {}\n");
    std::fs::write(dir.join("flow.py"), src).unwrap();
}

fn open(dir: &Path) -> Index<RegistryDatabase> {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    Index::open_with_db(RegistryDatabase::default(), dir, &options).expect("index")
}

fn report(index: &mut Index<RegistryDatabase>, query: &str, intent: Intent) -> Finished {
    let mut session = ExploreSession::new(index, query, intent).unwrap();
    let finished = explore(index, &mut session, Mode::DETERMINISTIC).unwrap();
    session.close(index);
    finished
}

/// The names the report's numbered places carry, in their order.
fn place_names(text: &str) -> Vec<String> {
    text.lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
        .filter_map(|l| l.split(" - ").nth(1))
        .map(|fact| {
            fact.split_whitespace()
                .next()
                .unwrap_or_default()
                .to_owned()
        })
        .collect()
}

const QUESTION: &str = "How does begin_work end up sending the network packet?";

#[test]
fn a_named_start_and_a_described_end_report_the_chain_between_them() {
    let dir = tempfile::tempdir().unwrap();
    write_chain(dir.path(), 2);
    let mut index = open(dir.path());
    let finished = report(&mut index, QUESTION, Intent::Explain);
    let text = finished.report.prose();
    assert!(finished.validated.drops.is_empty(), "{text}");
    assert_eq!(
        place_names(text),
        [
            "begin_work",
            "stage_1",
            "stage_2",
            "transmit_network_packet"
        ],
        "{text}"
    );
    insta::assert_snapshot!("chain_flow_report", text);
}

#[test]
fn a_question_that_names_no_start_traces_nothing() {
    let dir = tempfile::tempdir().unwrap();
    write_chain(dir.path(), 2);
    let mut index = open(dir.path());
    let finished = report(
        &mut index,
        "How does the work end up sending the network packet?",
        Intent::Explain,
    );
    let text = finished.report.prose();
    assert!(!text.contains("flow:"), "{text}");
    assert!(!text.contains(" calls "), "{text}");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Whatever the chain's length and the intent: a chain that fits the flow is shown
    /// whole and in call order, each place quoting a verified line, at most `MAX_FLOW`
    /// links; one that does not fit is not shown at all (never a chain with a gap); and
    /// the chain never raises the level the ranking alone gives.
    #[test]
    fn a_traced_chain_is_shown_whole_in_call_order_or_not_at_all(
        stages in 0usize..10,
        intent in prop::sample::select(vec![Intent::Explain, Intent::Locate, Intent::Edit]),
    ) {
        let dir = tempfile::tempdir().unwrap();
        write_chain(dir.path(), stages);
        let mut index = open(dir.path());
        let finished = report(&mut index, QUESTION, intent);
        let text = finished.report.prose().to_owned();
        let ws = index.workspace();
        let plain =
            sightline_rank::explore_deterministic(index.db_mut(), ws, QUESTION, intent).unwrap();
        prop_assert!(finished.validated.drops.is_empty(), "{}", text);
        prop_assert!(finished.validated.selection.confidence <= plain.selection.confidence);
        prop_assert!(finished.validated.selection.flow.len() <= MAX_FLOW);
        let steps = stages + 1;
        if steps < MAX_FLOW {
            let mut expected = vec!["begin_work".to_owned()];
            expected.extend((1..=stages).map(|i| format!("stage_{i}")));
            expected.push("transmit_network_packet".to_owned());
            prop_assert_eq!(place_names(&text), expected, "{}", text);
            prop_assert_eq!(finished.validated.selection.primary.len(), 1);
        } else {
            prop_assert!(!text.contains(" calls "), "{}", text);
        }
    }
}
