//! A client that can sample gets `explore` judged by its own model: the server sends each
//! turn of the value-model loop as `sampling/createMessage`, and a scripted client answers
//! with tool calls in the text protocol the system prompt describes, then a selection.

mod support;

use serde_json::{Value, json};
use support::mcp::Server;

/// The first candidate ID a tool result shows (`[c3` → `c3`).
fn first_id(text: &str) -> Option<String> {
    let start = text.find("[c")? + 1;
    let id: String = text[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect();
    (id.len() > 1).then_some(id)
}

/// The scripted model: explore first, then submit citing the first ID it was shown.
fn answer(request: &Value, turn: usize) -> String {
    let messages = request["params"]["messages"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    let last = messages
        .last()
        .and_then(|m| m["content"]["text"].as_str())
        .unwrap_or_default()
        .to_owned();
    let seen: String = messages
        .iter()
        .filter_map(|m| m["content"]["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n");
    if turn == 0 {
        return r#"{"tool": "explore_code", "arguments": {"query": "validateDraft"}}"#.to_owned();
    }
    let id = first_id(&seen).unwrap_or_else(|| panic!("no candidate ID in {last}"));
    json!({"tool": "submit_report", "arguments": {
        "primary": [id], "action": "read_targets", "confidence": "medium",
        "read_targets": [{"candidate": id, "purpose": "the validation", "required": true}]
    }})
    .to_string()
}

#[test]
fn explore_is_judged_by_the_clients_model_through_sampling() {
    let (mut server, _) = Server::start_with(json!({"sampling": {}}));
    server.next_id += 1;
    let id = server.next_id;
    server.send(&json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "explore", "arguments": {"query": "validateDraft", "intent": "edit"}}}));
    let mut turns = 0;
    let result = loop {
        let message = server.next_message();
        if message["method"] == "sampling/createMessage" {
            let system = message["params"]["systemPrompt"]
                .as_str()
                .unwrap_or_default();
            assert!(
                system.contains("\"tool\""),
                "the tool protocol is explained: {system}"
            );
            let reply = json!({"jsonrpc": "2.0", "id": message["id"], "result": {
                "role": "assistant", "model": "scripted",
                "content": {"type": "text", "text": answer(&message, turns)}}});
            server.send(&reply);
            turns += 1;
            assert!(turns < 20, "the loop must end");
            continue;
        }
        if message["id"] == json!(id) {
            break message["result"].clone();
        }
    };
    assert!(
        turns >= 2,
        "explored and submitted through sampling ({turns} turns)"
    );
    assert_eq!(result["isError"], json!(false), "{result}");
    let report = result["structuredContent"]["text"]
        .as_str()
        .unwrap_or_default();
    // An edit report names what to read first (the intent reached the report).
    assert!(report.contains("read"), "{report}");
    assert!(
        !result["structuredContent"]["read"]
            .as_array()
            .unwrap()
            .is_empty(),
        "{result}"
    );
}

#[test]
fn a_client_without_sampling_gets_the_deterministic_report() {
    let (mut server, _) = Server::start();
    let (_, report) = server.ok(
        "explore",
        json!({"query": "validateDraft", "intent": "edit"}),
    );
    // The deterministic report of an edit names what to read first.
    assert!(
        report["text"]
            .as_str()
            .unwrap_or_default()
            .starts_with("confidence: "),
        "{report}"
    );
    assert!(!report["read"].as_array().unwrap().is_empty(), "{report}");
}
