//! Parsing errors name the field and what was expected.

use sightline_registry::{Action, Confidence};
use sightline_validate::{SelectionError, parse_selection};

#[test]
fn parses_a_minimal_selection() {
    let s =
        parse_selection(r#"{"primary":["c1","c2"],"action":"read_targets","confidence":"low"}"#)
            .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(s.primary.len(), 2);
    assert_eq!(s.action, Action::ReadTargets);
    assert_eq!(s.confidence, Confidence::Low);
}

fn err(json: &str) -> String {
    match parse_selection(json) {
        Ok(s) => panic!("parsed: {s:?}"),
        Err(e) => e.to_string(),
    }
}

#[test]
fn a_missing_field_is_named_with_its_path() {
    let e = err(
        r#"{"primary":["c1"],"flow":[{"candidate":"c1","role":"r","fact":"f","quote":"q"},{"candidate":"c1","role":"r","fact":"f"}],"action":"read_targets","confidence":"low"}"#,
    );
    assert_eq!(e, "flow[1].quote: missing field");
    assert_eq!(
        err(r#"{"primary":[],"confidence":"low"}"#),
        "action: missing field"
    );
}

#[test]
fn an_unknown_variant_lists_the_expected_ones() {
    let e = err(r#"{"primary":["c1"],"action":"foo","confidence":"low"}"#);
    assert!(
        e.starts_with("action: unknown variant `foo`, expected one of `answer_from_report`"),
        "{e}"
    );
}

#[test]
fn a_bad_id_is_named() {
    let e = err(r#"{"primary":["c1","7"],"action":"read_targets","confidence":"low"}"#);
    assert!(
        e.starts_with("primary[1]: `7` is not a candidate ID"),
        "{e}"
    );
}

#[test]
fn unknown_fields_and_bad_json_are_reported() {
    let e = err(r#"{"primary":[],"action":"read_targets","confidence":"low","extra":1}"#);
    assert!(
        e.starts_with("extra: unknown field `extra`, expected one of `primary`"),
        "{e}"
    );
    assert!(matches!(
        parse_selection("{\"primary\": ["),
        Err(SelectionError::Syntax { .. })
    ));
    assert!(matches!(
        parse_selection("{} {}"),
        Err(SelectionError::Syntax { .. }) | Err(SelectionError::Field { .. })
    ));
}

#[test]
fn a_model_cannot_name_runners_up() {
    // Only the deterministic selection names runners-up; a submission that tries is told
    // the field does not exist rather than having it ignored.
    let e =
        err(r#"{"primary":["c1"],"action":"read_targets","confidence":"low","runners_up":["c2"]}"#);
    assert!(
        e.starts_with("runners_up: unknown field `runners_up`"),
        "{e}"
    );
}
