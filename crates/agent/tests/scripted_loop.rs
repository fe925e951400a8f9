//! The loop driven by a scripted model over the fixture repository: every branch ends in a
//! report, and the reason is recorded.

mod common;

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use sightline_agent::agent::{AgentRun, explore};
use sightline_agent::chat::{ChatRequest, ChatResponse, Message, ProviderError, ToolChoice};
use sightline_agent::testing::{ScriptedProvider, Turn, response_with_calls, tool_results};
use sightline_agent::{BudgetKind, Budgets, StopReason, Trace};
use sightline_registry::Intent;

use common::{ShownWindow, open_fixture, windows};

const QUERY: &str = "RecordStore save postRecord";

fn explore_call() -> Turn {
    Turn::call("explore_code", json!({"query": QUERY}))
}

/// The windows shown by every tool result so far.
fn shown(request: &ChatRequest) -> Vec<ShownWindow> {
    tool_results(request)
        .into_iter()
        .flat_map(windows)
        .collect()
}

/// A submission citing the first shown window with a verbatim quote (or `quote`).
fn submit_first(quote: Option<&'static str>) -> Turn {
    Turn::computed(move |request| {
        let w = shown(request)
            .into_iter()
            .find(|w| !w.quote().is_empty())
            .expect("a window was shown");
        let quote = quote.map_or_else(|| w.quote(), str::to_owned);
        Ok(submit_response(json!({
            "primary": [w.id],
            "flow": [{"candidate": w.id, "role": "entry", "fact": "It saves.", "quote": quote}],
            "action": "answer_from_report",
            "confidence": "high",
        })))
    })
}

fn submit_response(selection: Value) -> ChatResponse {
    response_with_calls(vec![("submit_report".to_owned(), selection.to_string())])
}

fn run_with(provider: &ScriptedProvider, budgets: &Budgets) -> AgentRun {
    let mut index = open_fixture();
    explore(
        &mut index,
        QUERY,
        Intent::Explain,
        provider,
        budgets,
        &mut Trace::disabled(),
    )
    .expect("session")
}

fn last_user_text(request: &ChatRequest) -> &str {
    request
        .messages
        .iter()
        .rev()
        .find_map(|m| match m {
            Message::User { text } => Some(text.as_str()),
            _ => None,
        })
        .unwrap_or_default()
}

#[test]
fn happy_path_reports_the_cited_places() {
    let provider = ScriptedProvider::new([explore_call(), submit_first(None)]);
    let run = run_with(&provider, &Budgets::default());
    assert_eq!(
        run.stop,
        StopReason::Submitted,
        "{:?}",
        run.finished.validated.drops
    );
    assert!(!run.finished.validated.fell_back);
    assert_eq!(run.stats.steps, 2);
    assert_eq!(run.stats.tool_calls, 2);
    assert_eq!(run.stats.continuations, 0);
    assert_eq!(run.stats.usage.output_tokens, 40);
    let requests = provider.requests();
    assert_eq!(requests.len(), 2, "one conversation, one turn per step");
    // The contract is in the system prompt once; the first message is only the task.
    assert!(requests[0].system.contains("submit_report"));
    assert_eq!(
        requests[0].tools.len(),
        sightline_agent::session::TOOL_NAMES.len()
    );
    assert_eq!(requests[0].tool_choice, ToolChoice::Auto);
    assert_eq!(requests[0].messages.len(), 1);
    let w = &shown(&requests[1])[0];
    assert!(
        run.finished.report.text.contains(&w.path),
        "{}",
        run.finished.report.text
    );
    assert!(run.finished.report.text.contains(&w.quote()));
    assert_eq!(provider.remaining(), 0);
}

#[test]
fn unknown_ids_are_dropped_and_nothing_left_falls_back() {
    let selection = json!({
        "primary": ["c999"],
        "flow": [{"candidate": "c998", "role": "entry", "fact": "x", "quote": "y"}],
        "action": "answer_from_report",
        "confidence": "high",
    });
    let provider = ScriptedProvider::new([
        explore_call(),
        Turn::Fixed(Ok(submit_response(selection))),
        // A continuation may be offered; the model declines.
        Turn::text("done"),
    ]);
    let run = run_with(&provider, &Budgets::default());
    let v = &run.finished.validated;
    assert!(v.fell_back, "{:?}", v.drops);
    assert!(
        v.drops.iter().any(|d| d.what.contains("c999")),
        "{:?}",
        v.drops
    );
    assert!(
        matches!(run.stop, StopReason::Fallback { .. }),
        "{:?}",
        run.stop
    );
    assert!(
        run.finished.report.text.contains("src/"),
        "the fallback still reports"
    );
}

#[test]
fn a_known_id_survives_beside_an_unknown_one() {
    let provider = ScriptedProvider::new([
        explore_call(),
        Turn::computed(|request| {
            let w = shown(request).remove(0);
            Ok(submit_response(json!({
                "primary": [w.id, "c999"],
                "action": "answer_from_report",
                "confidence": "medium",
            })))
        }),
    ]);
    let run = run_with(&provider, &Budgets::default());
    let v = &run.finished.validated;
    assert!(!v.fell_back);
    assert!(
        v.drops.iter().any(|d| d.what.contains("c999")),
        "{:?}",
        v.drops
    );
    assert_eq!(v.selection.primary.len(), 1);
}

#[test]
fn a_failed_quote_earns_one_continuation_round_naming_the_gap() {
    let provider = ScriptedProvider::new([
        explore_call(),
        submit_first(Some("this line was never shown by any tool")),
        submit_first(None),
    ]);
    let run = run_with(&provider, &Budgets::default());
    assert_eq!(run.stop, StopReason::Submitted);
    assert_eq!(run.stats.continuations, 1);
    let requests = provider.requests();
    assert_eq!(requests.len(), 3);
    let gap = last_user_text(&requests[2]);
    assert!(gap.contains("this line was never shown"), "{gap}");
    assert!(gap.contains("submit_report"), "{gap}");
    // The continuation reopens the tools.
    assert_eq!(requests[2].tool_choice, ToolChoice::Auto);
    assert!(run.finished.validated.critical_gap.is_none());
}

#[test]
fn continuation_rounds_are_bounded_and_the_last_submission_stands() {
    let bad = || submit_first(Some("never shown anywhere at all"));
    let provider = ScriptedProvider::new([explore_call(), bad(), bad(), bad(), bad()]);
    let run = run_with(&provider, &Budgets::default());
    assert_eq!(run.stats.continuations, 2);
    assert_eq!(
        provider.requests().len(),
        4,
        "two continuation rounds, no more"
    );
    assert_eq!(provider.remaining(), 1);
    assert!(run.finished.validated.critical_gap.is_some());
    assert_eq!(run.stop, StopReason::Submitted);
}

#[test]
fn no_submit_gets_one_nudge_then_the_deterministic_report() {
    let provider = ScriptedProvider::new([
        explore_call(),
        Turn::text("I think it is in the store."),
        Turn::text("Still thinking."),
    ]);
    let run = run_with(&provider, &Budgets::default());
    assert!(
        matches!(&run.stop, StopReason::Fallback { why } if why.contains("nudge")),
        "{:?}",
        run.stop
    );
    assert_eq!(run.stats.nudges, 1);
    let requests = provider.requests();
    assert_eq!(requests.len(), 3);
    assert!(last_user_text(&requests[2]).contains("submit_report"));
    assert_eq!(
        requests[2].tool_choice,
        ToolChoice::Named("submit_report".to_owned())
    );
    assert!(!run.finished.report.text.is_empty());
}

#[test]
fn a_nudge_can_be_answered_with_a_submission() {
    let provider =
        ScriptedProvider::new([explore_call(), Turn::text("Found it."), submit_first(None)]);
    let run = run_with(&provider, &Budgets::default());
    assert_eq!(run.stop, StopReason::Submitted);
    assert_eq!(run.stats.nudges, 1);
}

#[test]
fn the_step_budget_closes_the_tools_then_falls_back() {
    let budgets = Budgets {
        max_steps: 2,
        ..Budgets::default()
    };
    let provider = ScriptedProvider::new([
        explore_call(),
        explore_call(),
        explore_call(),
        explore_call(),
    ]);
    let run = run_with(&provider, &budgets);
    assert_eq!(
        run.stop,
        StopReason::BudgetExhausted {
            which: BudgetKind::Steps
        }
    );
    let requests = provider.requests();
    assert_eq!(requests.len(), 3, "one last turn after the budget closed");
    assert_eq!(
        requests[2].tool_choice,
        ToolChoice::Named("submit_report".to_owned())
    );
    assert_eq!(provider.remaining(), 1);
}

#[test]
fn the_observation_budget_asks_for_a_submission() {
    let budgets = Budgets {
        max_observation_chars: 100,
        ..Budgets::default()
    };
    let provider = ScriptedProvider::new([
        Turn::calls(&[
            ("explore_code", json!({"query": QUERY})),
            ("grep", json!({"pattern": "postRecord"})),
        ]),
        // Tools are closed now: this grep is refused, the submission accepted.
        Turn::computed(|request| {
            let w = shown(request).remove(0);
            Ok(response_with_calls(vec![
                ("grep".to_owned(), json!({"pattern": "x"}).to_string()),
                (
                    "submit_report".to_owned(),
                    json!({"primary": [w.id], "action": "answer_from_report", "confidence": "low"})
                        .to_string(),
                ),
            ]))
        }),
    ]);
    let run = run_with(&provider, &budgets);
    assert_eq!(run.stop, StopReason::Submitted);
    let last = provider.requests().pop().unwrap();
    assert!(
        last_user_text(&last).contains("observation"),
        "{}",
        last_user_text(&last)
    );
    assert!(run.stats.observation_chars > 100);
}

#[test]
fn the_observation_budget_without_a_submission_falls_back() {
    let budgets = Budgets {
        max_observation_chars: 10,
        ..Budgets::default()
    };
    let provider = ScriptedProvider::new([explore_call(), Turn::text("no")]);
    let run = run_with(&provider, &budgets);
    assert_eq!(
        run.stop,
        StopReason::BudgetExhausted {
            which: BudgetKind::ObservationChars
        }
    );
}

#[test]
fn the_output_token_budget_ends_the_conversation() {
    let budgets = Budgets {
        max_output_tokens: 30,
        ..Budgets::default()
    };
    // Each scripted tool turn reports 20 output tokens.
    let provider = ScriptedProvider::new([explore_call(), explore_call(), explore_call()]);
    let run = run_with(&provider, &budgets);
    assert_eq!(
        run.stop,
        StopReason::BudgetExhausted {
            which: BudgetKind::OutputTokens
        }
    );
    let requests = provider.requests();
    assert_eq!(requests.len(), 2);
    assert_eq!(
        requests[1].max_tokens, 10,
        "a turn asks only for what is left"
    );
}

#[test]
fn malformed_arguments_and_unknown_tools_are_error_results_the_model_recovers_from() {
    let provider = ScriptedProvider::new([
        Turn::calls(&[
            ("grep", json!({"pattern": 5})),
            ("frobnicate", json!({})),
            ("read_file", json!({"path": "../outside.txt"})),
        ]),
        Turn::raw_call("explore_code", "{not json"),
        explore_call(),
        submit_first(None),
    ]);
    let run = run_with(&provider, &Budgets::default());
    assert_eq!(run.stop, StopReason::Submitted);
    let requests = provider.requests();
    let first = tool_results(&requests[1]);
    assert_eq!(first.len(), 3);
    assert!(
        first[0].contains("invalid arguments for grep"),
        "{}",
        first[0]
    );
    assert!(
        first[1].contains("unknown tool `frobnicate`"),
        "{}",
        first[1]
    );
    assert!(first[2].starts_with("error:"), "{}", first[2]);
    let second = tool_results(&requests[2]);
    assert!(second[3].contains("not a JSON object"), "{}", second[3]);
    let errors = requests[2]
        .messages
        .iter()
        .filter(|m| matches!(m, Message::ToolResult { is_error: true, .. }))
        .count();
    assert_eq!(errors, 4);
}

#[test]
fn calls_beyond_the_parallel_limit_are_refused_one_by_one() {
    let budgets = Budgets {
        max_parallel_calls: 2,
        ..Budgets::default()
    };
    let provider = ScriptedProvider::new([
        Turn::calls(&[
            ("explore_code", json!({"query": QUERY})),
            ("grep", json!({"pattern": "postRecord"})),
            ("list_files", json!({})),
        ]),
        submit_first(None),
    ]);
    let run = run_with(&provider, &budgets);
    assert_eq!(run.stop, StopReason::Submitted);
    assert_eq!(run.stats.tool_calls, 4);
    let request = &provider.requests()[1];
    let results: Vec<(&str, bool)> = request
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::ToolResult {
                call_id, is_error, ..
            } => Some((call_id.as_str(), *is_error)),
            _ => None,
        })
        .collect();
    assert_eq!(
        results,
        [("call_1", false), ("call_2", false), ("call_3", true)],
        "every call is answered, in order"
    );
    assert!(tool_results(request)[2].contains("at most 2"));
}

#[test]
fn a_malformed_submission_is_answered_with_the_field_error() {
    let provider = ScriptedProvider::new([
        explore_call(),
        Turn::call(
            "submit_report",
            json!({"primary": "c1", "action": "answer_from_report", "confidence": "high"}),
        ),
        Turn::raw_call("submit_report", "{\"primary\": [\"c1\"], "),
        submit_first(None),
    ]);
    let run = run_with(&provider, &Budgets::default());
    assert_eq!(run.stop, StopReason::Submitted);
    assert_eq!(run.stats.malformed_submits, 2);
    let requests = provider.requests();
    let field_error = tool_results(&requests[2]).pop().unwrap().to_owned();
    assert!(field_error.contains("primary"), "{field_error}");
    let syntax_error = tool_results(&requests[3]).pop().unwrap().to_owned();
    assert!(syntax_error.contains("JSON"), "{syntax_error}");
}

#[test]
fn provider_errors_fall_back_with_the_reason() {
    let provider = ScriptedProvider::new([
        explore_call(),
        Turn::error(ProviderError::Http {
            status: 503,
            detail: "overloaded".to_owned(),
        }),
    ]);
    let run = run_with(&provider, &Budgets::default());
    assert!(
        matches!(&run.stop, StopReason::ProviderError { message } if message.contains("503")),
        "{:?}",
        run.stop
    );
    assert!(run.finished.report.text.contains("src/"));
}

#[test]
fn a_provider_failing_at_once_still_yields_the_deterministic_report() {
    let provider = ScriptedProvider::new([Turn::error(ProviderError::Timeout { seconds: 1 })]);
    let run = run_with(&provider, &Budgets::default());
    assert!(matches!(run.stop, StopReason::ProviderError { .. }));
    assert_eq!(run.stats.steps, 0);
    assert!(
        run.finished.report.text.contains("src/"),
        "{}",
        run.finished.report.text
    );
}

#[test]
fn one_malformed_response_is_a_failed_step_not_the_end() {
    let provider = ScriptedProvider::new([
        explore_call(),
        Turn::error(ProviderError::Malformed("no choices".to_owned())),
        submit_first(None),
    ]);
    let run = run_with(&provider, &Budgets::default());
    assert_eq!(run.stop, StopReason::Submitted);
    assert_eq!(run.stats.malformed_responses, 1);
    assert_eq!(run.stats.steps, 3);
}

#[test]
fn the_trace_has_one_line_per_event_ending_with_the_stop_reason() {
    #[derive(Clone, Default)]
    struct Shared(Arc<Mutex<Vec<u8>>>);
    impl std::io::Write for Shared {
        fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(b);
            Ok(b.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let sink = Shared::default();
    let mut trace = Trace::to_writer(sink.clone());
    let provider = ScriptedProvider::new([
        explore_call(),
        submit_first(Some("never shown anywhere")),
        submit_first(None),
    ]);
    let mut index = open_fixture();
    let run = explore(
        &mut index,
        QUERY,
        Intent::Locate,
        &provider,
        &Budgets::default(),
        &mut trace,
    )
    .unwrap();
    assert!(trace.error().is_none());
    let text = String::from_utf8(sink.0.lock().unwrap().clone()).unwrap();
    let events: Vec<Value> = text
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let kinds: Vec<&str> = events
        .iter()
        .map(|e| e["event"].as_str().unwrap())
        .collect();
    assert_eq!(
        kinds,
        // A submission is traced while its step runs, before the step's own line.
        [
            "start",
            "step",
            "submit",
            "step",
            "continuation",
            "submit",
            "step",
            "stop"
        ]
    );
    let first_step = &events[1];
    assert_eq!(first_step["calls"][0]["name"], "explore_code");
    assert_eq!(first_step["calls"][0]["args"]["query"], QUERY);
    assert!(
        !first_step["calls"][0]["new_ids"]
            .as_array()
            .unwrap()
            .is_empty()
    );
    assert!(first_step["usage"]["output_tokens"].as_u64().unwrap() > 0);
    assert!(events[2]["critical_gap"].is_string());
    assert_eq!(events[7]["reason"]["kind"], "submitted");
    assert_eq!(events[7]["continuations"], 1);
    assert_eq!(run.stats.continuations, 1);
}
