//! The real provider clients against a loopback server speaking each wire format: tool
//! calls, usage, retries, errors, timeouts, and the key kept out of everything but the
//! request header.

mod common;

use std::time::{Duration, Instant};

use serde_json::{Value, json};
use sightline_agent::agent::explore;
use sightline_agent::chat::{ChatProvider, ChatRequest, Message, ProviderError, ToolChoice};
use sightline_agent::provider::{ApiKey, ProviderConfig, ProviderKind, RetryPolicy, connect};
use sightline_agent::tools::tool_specs;
use sightline_agent::{Budgets, StopReason, Trace};
use sightline_registry::Intent;

use common::open_fixture;
use common::server::{Canned, serve};

const KEY: &str = "sk-loopback-secret-4242";

fn config(kind: ProviderKind, base: &str) -> ProviderConfig {
    let mut c = ProviderConfig::new(kind, base, "test-model");
    c.api_key = Some(ApiKey::new(KEY));
    c.timeout = Duration::from_secs(5);
    c.retry = RetryPolicy {
        max_attempts: 3,
        base_delay: Duration::from_millis(10),
        max_delay: Duration::from_secs(2),
    };
    c
}

fn request() -> ChatRequest {
    ChatRequest {
        system: "sys".to_owned(),
        messages: vec![
            Message::user("Query: q"),
            Message::Assistant {
                text: String::new(),
                tool_calls: vec![sightline_agent::chat::ToolCallRequest {
                    id: "call_a".to_owned(),
                    name: "grep".to_owned(),
                    arguments: r#"{"pattern":"x"}"#.to_owned(),
                }],
            },
            Message::ToolResult {
                call_id: "call_a".to_owned(),
                name: "grep".to_owned(),
                content: "no matches\n".to_owned(),
                is_error: false,
            },
            Message::user("go on"),
        ],
        tools: tool_specs(),
        tool_choice: ToolChoice::Named("submit_report".to_owned()),
        max_tokens: 256,
    }
}

fn openai_turn(name: &str, args: &Value) -> Value {
    json!({
        "id": "x",
        "choices": [{
            "index": 0,
            "finish_reason": "tool_calls",
            "message": {
                "role": "assistant",
                "content": null,
                "tool_calls": [{
                    "id": "call_9",
                    "type": "function",
                    "function": {"name": name, "arguments": args.to_string()}
                }]
            }
        }],
        "usage": {"prompt_tokens": 120, "completion_tokens": 30, "total_tokens": 150}
    })
}

fn anthropic_turn(name: &str, args: &Value) -> Value {
    json!({
        "id": "msg_1",
        "type": "message",
        "role": "assistant",
        "content": [
            {"type": "text", "text": "Looking."},
            {"type": "tool_use", "id": "toolu_1", "name": name, "input": args}
        ],
        "stop_reason": "tool_use",
        "usage": {"input_tokens": 200, "output_tokens": 40}
    })
}

#[test]
fn openai_round_trip_sends_tools_and_the_bearer_key() {
    let server = serve(vec![Canned::json(openai_turn(
        "grep",
        &json!({"pattern": "save"}),
    ))]);
    let provider = connect(config(ProviderKind::OpenAi, &format!("{}/v1", server.base)));
    let response = provider.complete(&request()).expect("response");
    assert_eq!(response.tool_calls.len(), 1);
    assert_eq!(response.tool_calls[0].id, "call_9");
    assert_eq!(response.tool_calls[0].name, "grep");
    assert_eq!(response.tool_calls[0].arguments, r#"{"pattern":"save"}"#);
    assert_eq!(response.usage.input_tokens, 120);
    assert_eq!(response.usage.output_tokens, 30);
    assert_eq!(response.finish_reason.as_deref(), Some("tool_calls"));

    let seen = server.requests();
    assert_eq!(seen.len(), 1);
    let r = &seen[0];
    assert_eq!(r.method, "POST");
    assert_eq!(r.path, "/v1/chat/completions");
    assert_eq!(
        r.header("authorization"),
        Some(format!("Bearer {KEY}").as_str())
    );
    let body = r.json();
    assert_eq!(body["model"], "test-model");
    assert_eq!(body["messages"][0]["role"], "system");
    assert_eq!(
        body["messages"][2]["tool_calls"][0]["function"]["name"],
        "grep"
    );
    assert_eq!(body["messages"][3]["role"], "tool");
    assert_eq!(body["messages"][3]["tool_call_id"], "call_a");
    let tools = body["tools"].as_array().unwrap();
    assert_eq!(tools.len(), sightline_agent::session::TOOL_NAMES.len());
    assert_eq!(tools[tools.len() - 1]["function"]["name"], "submit_report");
    assert_eq!(body["tool_choice"]["function"]["name"], "submit_report");
    assert_eq!(body["max_tokens"], 256);
    assert!(!r.body.contains(KEY));
}

#[test]
fn anthropic_round_trip_uses_blocks_and_the_key_header() {
    let server = serve(vec![Canned::json(anthropic_turn(
        "read_file",
        &json!({"path": "src/types.ts"}),
    ))]);
    let provider = connect(config(ProviderKind::Anthropic, &server.base));
    let response = provider.complete(&request()).expect("response");
    assert_eq!(response.text, "Looking.");
    assert_eq!(response.tool_calls[0].id, "toolu_1");
    assert_eq!(response.tool_calls[0].name, "read_file");
    let args: Value = serde_json::from_str(&response.tool_calls[0].arguments).unwrap();
    assert_eq!(args["path"], "src/types.ts");
    assert_eq!(response.usage.input_tokens, 200);
    assert_eq!(response.usage.output_tokens, 40);

    let seen = server.requests();
    let r = &seen[0];
    assert_eq!(r.path, "/v1/messages");
    assert_eq!(r.header("x-api-key"), Some(KEY));
    assert_eq!(r.header("anthropic-version"), Some("2023-06-01"));
    assert_eq!(r.header("authorization"), None);
    let body = r.json();
    assert_eq!(body["system"], "sys");
    assert_eq!(body["tools"][0]["input_schema"]["type"], "object");
    assert_eq!(
        body["tool_choice"],
        json!({"type": "tool", "name": "submit_report"})
    );
    let messages = body["messages"].as_array().unwrap();
    // user, assistant(tool_use), user(tool_result + text): roles alternate.
    assert_eq!(messages.len(), 3);
    assert_eq!(messages[1]["content"][0]["type"], "tool_use");
    assert_eq!(messages[1]["content"][0]["input"]["pattern"], "x");
    assert_eq!(messages[2]["content"][0]["type"], "tool_result");
    assert_eq!(messages[2]["content"][0]["tool_use_id"], "call_a");
    assert_eq!(messages[2]["content"][1]["text"], "go on");
}

#[test]
fn rate_limits_and_server_errors_are_retried_honoring_retry_after() {
    let server = serve(vec![
        Canned::raw(429, r#"{"error":{"message":"slow down"}}"#).header("retry-after", "1"),
        Canned::raw(503, "overloaded").header("retry-after", "0"),
        Canned::json(openai_turn("list_files", &json!({}))),
    ]);
    let provider = connect(config(ProviderKind::OpenAi, &server.base));
    let started = Instant::now();
    let response = provider
        .complete(&request())
        .expect("third attempt succeeds");
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "Retry-After: 1 honored"
    );
    assert_eq!(response.tool_calls[0].name, "list_files");
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn retries_are_bounded() {
    let server = serve(vec![
        Canned::raw(500, "a"),
        Canned::raw(500, "b"),
        Canned::raw(500, r#"{"error":{"message":"still broken"}}"#),
    ]);
    let provider = connect(config(ProviderKind::Anthropic, &server.base));
    let e = provider.complete(&request()).unwrap_err();
    assert_eq!(
        e,
        ProviderError::Http {
            status: 500,
            detail: "still broken".to_owned()
        }
    );
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn authentication_failures_are_not_retried_and_name_the_variable() {
    let server = serve(vec![Canned::raw(401, r#"{"error":{"message":"bad key"}}"#)]);
    let provider = connect(config(ProviderKind::OpenAi, &server.base));
    let e = provider.complete(&request()).unwrap_err();
    assert_eq!(e, ProviderError::Auth { status: 401 });
    assert!(
        e.to_string()
            .contains("authentication failed: check SIGHTLINE_API_KEY")
    );
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn malformed_responses_are_errors_not_panics() {
    let server = serve(vec![
        Canned::raw(200, "{\"choices\": [ oops"),
        Canned::json(json!({"choices": []})),
        Canned::json(json!({"content": "not a list"})),
    ]);
    let openai = connect(config(ProviderKind::OpenAi, &server.base));
    assert!(matches!(
        openai.complete(&request()),
        Err(ProviderError::Malformed(_))
    ));
    assert!(matches!(
        openai.complete(&request()),
        Err(ProviderError::Malformed(_))
    ));
    let anthropic = connect(config(ProviderKind::Anthropic, &server.base));
    assert!(matches!(
        anthropic.complete(&request()),
        Err(ProviderError::Malformed(_))
    ));
    assert_eq!(
        server.requests().len(),
        3,
        "malformed bodies are not retried"
    );
}

#[test]
fn a_slow_server_times_out() {
    let server = serve(vec![
        Canned::json(openai_turn("grep", &json!({"pattern": "x"})))
            .delayed(Duration::from_millis(1500)),
    ]);
    let mut c = config(ProviderKind::OpenAi, &server.base);
    c.timeout = Duration::from_millis(300);
    c.retry.max_attempts = 1;
    let provider = connect(c);
    let started = Instant::now();
    let e = provider.complete(&request()).unwrap_err();
    assert!(matches!(e, ProviderError::Timeout { .. }), "{e:?}");
    assert!(started.elapsed() < Duration::from_millis(1400));
    drop(server.requests());
}

#[test]
fn the_newer_output_limit_name_is_used_when_the_endpoint_asks_for_it() {
    let server = serve(vec![
        Canned::raw(
            400,
            r#"{"error":{"message":"Unsupported parameter: 'max_tokens'. Use 'max_completion_tokens' instead."}}"#,
        ),
        Canned::json(openai_turn("list_files", &json!({}))),
    ]);
    let provider = connect(config(ProviderKind::OpenAi, &server.base));
    provider
        .complete(&request())
        .expect("second request succeeds");
    let seen = server.requests();
    assert_eq!(seen[1].json()["max_completion_tokens"], 256);
    assert!(seen[1].json().get("max_tokens").is_none());
}

/// The whole loop over HTTP: the model explores, submits, and the key stays out of the
/// trace and every Debug rendering.
fn end_to_end(kind: ProviderKind, turn: fn(&str, &Value) -> Value) {
    let server = serve(vec![
        Canned::json(turn("explore_code", &json!({"query": "RecordStore save"}))),
        Canned::json(turn(
            "submit_report",
            &json!({"primary": ["c1"], "action": "answer_from_report", "confidence": "low"}),
        )),
    ]);
    let base = match kind {
        ProviderKind::OpenAi => format!("{}/v1", server.base),
        ProviderKind::Anthropic => server.base.clone(),
    };
    let c = config(kind, &base);
    let debug = format!("{c:?}");
    assert!(!debug.contains(KEY), "{debug}");
    let provider = connect(c);
    let dir = tempfile::tempdir().unwrap();
    let trace_path = dir.path().join("trace.jsonl");
    let mut trace = Trace::to_file(&trace_path).unwrap();
    let mut index = open_fixture();
    let run = explore(
        &mut index,
        "RecordStore save",
        Intent::Locate,
        provider.as_ref(),
        &Budgets::default(),
        &mut trace,
    )
    .unwrap();
    drop(trace);
    assert_eq!(
        run.stop,
        StopReason::Submitted,
        "{:?}",
        run.finished.validated.drops
    );
    assert_eq!(run.stats.steps, 2);
    assert!(run.stats.usage.output_tokens > 0);
    let seen = server.requests();
    assert_eq!(seen.len(), 2);
    // The second request carries the first tool result with IDs inline.
    assert!(
        seen[1].body.contains("[c1]"),
        "IDs are inline in the tool result"
    );
    let trace_text = std::fs::read_to_string(&trace_path).unwrap();
    assert!(trace_text.contains("\"event\":\"stop\""));
    assert!(trace_text.contains("test-model"));
    assert!(!trace_text.contains(KEY));
    assert!(!format!("{run:?}").contains(KEY));
}

#[test]
fn openai_end_to_end() {
    end_to_end(ProviderKind::OpenAi, openai_turn);
}

#[test]
fn anthropic_end_to_end() {
    end_to_end(ProviderKind::Anthropic, anthropic_turn);
}

#[test]
fn an_unreachable_endpoint_falls_back_with_the_reason() {
    // Bind then drop a listener so the port is (very likely) closed.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut c = config(ProviderKind::OpenAi, &format!("http://127.0.0.1:{port}"));
    c.retry.max_attempts = 2;
    let provider = connect(c);
    let mut index = open_fixture();
    let run = explore(
        &mut index,
        "RecordStore",
        Intent::Locate,
        provider.as_ref(),
        &Budgets::default(),
        &mut Trace::disabled(),
    )
    .unwrap();
    assert!(
        matches!(run.stop, StopReason::ProviderError { .. }),
        "{:?}",
        run.stop
    );
    // Nothing was observed before the failure; the fallback still explores the query.
    assert!(
        run.finished.report.text.contains("src/"),
        "{}",
        run.finished.report.text
    );
}
