//! Clients differ in what they hand their model: some forward only a tool result's text
//! blocks, others (Claude Code) only its `structuredContent`. Either way the model must get
//! the same information: every non-empty text line of every tool's result also appears in
//! a string value of its `structuredContent`.

mod support;

use serde_json::{Value, json};
use support::mcp::Server;

/// Every string inside a JSON value.
fn strings(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
        Value::Object(fields) => fields.values().for_each(|v| strings(v, out)),
        _ => {}
    }
}

/// Calls `tool` and checks the result carries its whole text in `structuredContent`.
fn assert_text_in_structured(server: &mut Server, tool: &str, arguments: Value) -> Value {
    let result = server.call(tool, arguments.clone());
    assert_eq!(
        result["isError"],
        json!(false),
        "{tool} {arguments}: {result}"
    );
    let structured = &result["structuredContent"];
    assert!(
        structured.is_object(),
        "{tool}: no structuredContent: {result}"
    );
    let mut values = Vec::new();
    strings(structured, &mut values);
    let blocks = result["content"].as_array().cloned().unwrap_or_default();
    assert!(!blocks.is_empty(), "{tool}: no text content");
    for block in &blocks {
        let text = block["text"].as_str().unwrap_or_default();
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            assert!(
                values.iter().any(|v| v.contains(line)),
                "{tool}: the text line {line:?} is missing from structuredContent {structured}"
            );
        }
    }
    structured.clone()
}

#[test]
fn every_tool_result_carries_its_whole_text_in_structured_content() {
    let (mut server, _) = Server::start();
    assert_text_in_structured(
        &mut server,
        "explore",
        json!({"query": "validateDraft", "intent": "edit"}),
    );
    let started = assert_text_in_structured(
        &mut server,
        "explore_code",
        json!({"query": "validateDraft handleSave"}),
    );
    let session = started["session"].as_str().unwrap().to_owned();
    assert_text_in_structured(
        &mut server,
        "explore_code",
        json!({"session": session, "query": "handleSave"}),
    );
    assert_text_in_structured(
        &mut server,
        "grep",
        json!({"session": session, "pattern": "validateDraft"}),
    );
    assert_text_in_structured(
        &mut server,
        "read_file",
        json!({"session": session, "path": "package.json"}),
    );
    assert_text_in_structured(
        &mut server,
        "list_files",
        json!({"session": session, "path": "src"}),
    );
    for (tool, arguments) in [
        (
            "definition",
            json!({"session": session, "name": "handleSave", "body": true}),
        ),
        (
            "references",
            json!({"session": session, "name": "validateDraft"}),
        ),
        (
            "references",
            json!({"session": session, "name": "handleSave", "callees": true}),
        ),
        ("outline", json!({"session": session, "path": "src"})),
        (
            "outline",
            json!({"session": session, "path": "src/handlers/save.ts"}),
        ),
    ] {
        assert_text_in_structured(&mut server, tool, arguments);
    }
    // A selection with an unknown ID: the report comes with a validation block, which must
    // reach a structuredContent-only client too.
    let report = assert_text_in_structured(
        &mut server,
        "submit_report",
        json!({"session": session, "primary": ["c1", "c999"], "action": "read_targets",
               "confidence": "high"}),
    );
    assert!(
        report["validation"]
            .as_str()
            .is_some_and(|v| v.contains("c999")),
        "{report}"
    );
}
