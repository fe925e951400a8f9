//! An ID the text does not show cannot be selected, so no call may allocate one: every
//! candidate a call creates is printed in that call's text, with its range, even when the
//! text is cut at the observation cap.

mod common;

use serde_json::json;
use sightline_agent::ExploreSession;
use sightline_registry::{CandidateId, Intent};

/// Whether `text` shows `id` as a label: `[c7]` or `[c7 3-9]`.
fn shows(text: &str, id: CandidateId) -> bool {
    text.contains(&format!("[{id}]")) || text.contains(&format!("[{id} "))
}

fn assert_all_shown(
    session: &ExploreSession,
    index: &mut sightline_observe::Index<sightline_registry::RegistryDatabase>,
    tool: &str,
    args: serde_json::Value,
) {
    let outcome = session.call_json(index, tool, &args);
    assert!(!outcome.is_error, "{tool}: {}", outcome.text);
    for id in &outcome.new_ids {
        assert!(
            shows(&outcome.text, *id),
            "{tool} allocated {id} without showing it:\n{}",
            outcome.text
        );
    }
}

#[test]
fn every_candidate_a_call_creates_is_shown_in_its_text() {
    let mut index = common::open_fixture();
    let session = ExploreSession::new(&mut index, "RecordStore save", Intent::Edit).unwrap();
    assert_all_shown(
        &session,
        &mut index,
        "explore_code",
        json!({"query": "RecordStore save"}),
    );
    assert_all_shown(
        &session,
        &mut index,
        "grep",
        json!({"pattern": "record", "max_matches": 50}),
    );
    assert_all_shown(
        &session,
        &mut index,
        "read_file",
        json!({"path": "src/state/recordStore.ts", "start_line": 20, "end_line": 40}),
    );
    assert_all_shown(&session, &mut index, "list_files", json!({"path": "src"}));
    assert_all_shown(
        &session,
        &mut index,
        "definition",
        json!({"name": "save", "body": true}),
    );
    assert_all_shown(
        &session,
        &mut index,
        "references",
        json!({"name": "RecordStore"}),
    );
    assert_all_shown(
        &session,
        &mut index,
        "references",
        json!({"name": "handleSave", "callees": true}),
    );
    assert_all_shown(
        &session,
        &mut index,
        "outline",
        json!({"path": "src/shapes"}),
    );
    assert_all_shown(
        &session,
        &mut index,
        "outline",
        json!({"path": "src/types.ts"}),
    );
    assert_all_shown(
        &session,
        &mut index,
        "read_file",
        json!({"path": "src/shapes/describe.ts"}),
    );
}

#[test]
fn candidates_cut_at_the_observation_cap_are_still_listed() {
    let mut index = common::open_fixture();
    let mut session = ExploreSession::new(&mut index, "record", Intent::Edit).unwrap();
    session.observation_cap = 600;
    let outcome = session.call_json(&mut index, "explore_code", &json!({"query": "record"}));
    assert!(
        outcome.cut,
        "the cap is small enough to cut: {}",
        outcome.text
    );
    assert!(outcome.text.contains("cut, not shown:"), "{}", outcome.text);
    for id in &outcome.new_ids {
        assert!(
            shows(&outcome.text, *id),
            "{id} is neither shown nor listed:\n{}",
            outcome.text
        );
    }
}
