//! The value-model loop: one conversation per explore call. The model explores with the
//! session's tools, sees candidate IDs inline, and must end with `submit_report`; the
//! selection is validated, a critical gap earns at most a few continuation rounds in the
//! same conversation, and every way of stopping still produces a report (the deterministic
//! selection when the model's is missing or unusable).

use std::time::{Duration, Instant};

use serde::Serialize;
use sightline_observe::Index;
use sightline_registry::{Intent, RegistryDatabase};

use crate::budget::{BudgetKind, Budgets, StopReason};
use crate::chat::{
    ChatProvider, ChatRequest, ChatResponse, Message, ProviderError, ToolCallRequest, ToolChoice,
    ToolSpec, Usage,
};
use crate::prompt;
use crate::session::{ExploreSession, Finished, SessionError};
use crate::tools::{SUBMIT, tool_specs};
use crate::trace::{Event, Trace, TracedCall};

/// Counters of one conversation.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RunStats {
    /// Assistant turns that called tools.
    pub steps: usize,
    /// Tool calls the model made (including refused and `submit_report` calls).
    pub tool_calls: usize,
    /// Tokens the whole conversation used.
    pub usage: Usage,
    /// Characters of tool results shown to the model.
    pub observation_chars: usize,
    /// Extra rounds asked for after a validated submission left a critical gap.
    pub continuations: usize,
    /// Turns without a tool call that were answered with a reminder to call one.
    pub nudges: usize,
    /// `submit_report` calls whose arguments did not parse.
    pub malformed_submits: usize,
    /// Provider responses that were not valid for the wire format.
    pub malformed_responses: usize,
}

/// What one conversation produced.
#[derive(Debug)]
pub struct AgentRun {
    /// The validated, rendered report (the fallback's when the model gave none).
    pub finished: Finished,
    /// Why the conversation ended.
    pub stop: StopReason,
    /// What it cost.
    pub stats: RunStats,
    /// Wall time of the whole run.
    pub elapsed: Duration,
}

/// Opens a session for `query` and runs the loop over it.
pub fn explore(
    index: &mut Index<RegistryDatabase>,
    query: &str,
    intent: Intent,
    provider: &dyn ChatProvider,
    budgets: &Budgets,
    trace: &mut Trace,
) -> Result<AgentRun, SessionError> {
    let mut session = ExploreSession::new(index, query, intent)?;
    session.observation_cap = budgets.observation_cap;
    let done = run(index, &session, provider, budgets, trace);
    session.close(index);
    Ok(done)
}

/// Runs the loop over an open session. Never fails: provider errors, malformed model
/// output and exhausted budgets all end in a report, with the reason in `stop`.
pub fn run(
    index: &mut Index<RegistryDatabase>,
    session: &ExploreSession,
    provider: &dyn ChatProvider,
    budgets: &Budgets,
    trace: &mut Trace,
) -> AgentRun {
    trace.record(&Event::Start {
        query: session.query(),
        intent: session.intent().as_str(),
        provider: provider.describe(),
        budgets,
    });
    let state = Loop {
        index,
        session,
        provider,
        budgets,
        trace,
        tools: tool_specs(),
        system: prompt::system_prompt(budgets),
        started: Instant::now(),
        messages: vec![Message::user(prompt::task_message(
            session.query(),
            session.intent(),
        ))],
        stats: RunStats::default(),
        nudged: false,
        force_submit: false,
        closed: None,
        last: None,
        explored_query: false,
    };
    state.drive()
}

/// A provider response that was malformed is retried this many times in a row (each
/// retry costs a step) before the loop gives up on the provider.
const MALFORMED_RETRIES: usize = 1;

struct Loop<'a> {
    index: &'a mut Index<RegistryDatabase>,
    session: &'a ExploreSession,
    provider: &'a dyn ChatProvider,
    budgets: &'a Budgets,
    trace: &'a mut Trace,
    tools: Vec<ToolSpec>,
    system: String,
    started: Instant,
    messages: Vec<Message>,
    stats: RunStats,
    /// The one nudge was sent.
    nudged: bool,
    /// The next turn must call `submit_report`.
    force_submit: bool,
    /// A budget closed the exploration tools; one last turn may submit.
    closed: Option<BudgetKind>,
    /// The latest accepted submission (kept while a continuation round runs).
    last: Option<Finished>,
    /// The model ran `explore_code` on the query itself.
    explored_query: bool,
}

/// What to do after one model turn.
enum Next {
    Continue,
    Stop(Box<Finished>, StopReason),
    Fallback(StopReason),
}

impl Loop<'_> {
    fn drive(mut self) -> AgentRun {
        let mut malformed_in_a_row = 0;
        loop {
            if let Some(kind) = self.hard_limit() {
                self.trace.record(&Event::BudgetExhausted {
                    which: kind.as_str(),
                });
                return self.fall_back(StopReason::BudgetExhausted { which: kind });
            }
            let response = match self.provider.complete(&self.request()) {
                Ok(r) => {
                    malformed_in_a_row = 0;
                    r
                }
                Err(e) => {
                    self.trace.record(&Event::ProviderError {
                        message: e.to_string(),
                    });
                    // A garbled response is treated like a failed step: the same request
                    // is sent again while steps remain.
                    if matches!(e, ProviderError::Malformed(_))
                        && malformed_in_a_row < MALFORMED_RETRIES
                        && self.stats.steps < self.budgets.max_steps
                    {
                        malformed_in_a_row += 1;
                        self.stats.malformed_responses += 1;
                        self.stats.steps += 1;
                        continue;
                    }
                    return self.fall_back(StopReason::ProviderError {
                        message: e.to_string(),
                    });
                }
            };
            self.stats.usage += response.usage;
            let next = if response.tool_calls.is_empty() {
                self.on_text_only(response)
            } else {
                self.on_tool_calls(response)
            };
            match next {
                Next::Continue => {}
                Next::Stop(finished, stop) => return self.end(*finished, stop),
                Next::Fallback(stop) => return self.fall_back(stop),
            }
        }
    }

    fn request(&self) -> ChatRequest {
        let left = self
            .budgets
            .max_output_tokens
            .saturating_sub(self.stats.usage.output_tokens);
        ChatRequest {
            system: self.system.clone(),
            messages: self.messages.clone(),
            tools: self.tools.clone(),
            tool_choice: if self.force_submit {
                ToolChoice::Named(SUBMIT.to_owned())
            } else {
                ToolChoice::Auto
            },
            max_tokens: u32::try_from(left)
                .unwrap_or(u32::MAX)
                .min(self.budgets.max_tokens_per_turn),
        }
    }

    /// Budgets that end the conversation at once (no final turn can help).
    fn hard_limit(&self) -> Option<BudgetKind> {
        if self.started.elapsed() >= self.budgets.wall_time {
            Some(BudgetKind::WallTime)
        } else if self.stats.usage.output_tokens >= self.budgets.max_output_tokens {
            Some(BudgetKind::OutputTokens)
        } else {
            None
        }
    }

    fn on_text_only(&mut self, response: ChatResponse) -> Next {
        self.trace.record(&Event::NoToolCall {
            usage: response.usage,
            nudged: self.nudged,
        });
        if !response.text.trim().is_empty() {
            self.messages.push(Message::Assistant {
                text: response.text,
                tool_calls: Vec::new(),
            });
        }
        // After a continuation message the model may decline to improve its report; the
        // submission it already made stands.
        if self.last.is_some() {
            return Next::Fallback(StopReason::Submitted);
        }
        if let Some(kind) = self.closed {
            return Next::Fallback(StopReason::BudgetExhausted { which: kind });
        }
        if self.nudged {
            return Next::Fallback(StopReason::Fallback {
                why: "no submit_report after a nudge".to_owned(),
            });
        }
        self.nudged = true;
        self.force_submit = true;
        self.stats.nudges += 1;
        self.messages.push(Message::user(prompt::NUDGE));
        Next::Continue
    }

    fn on_tool_calls(&mut self, response: ChatResponse) -> Next {
        self.stats.steps += 1;
        let step = self.stats.steps;
        let mut accepted: Option<Finished> = None;
        let mut traced = Vec::with_capacity(response.tool_calls.len());
        let mut results = Vec::with_capacity(response.tool_calls.len());
        for (i, call) in response.tool_calls.iter().enumerate() {
            self.stats.tool_calls += 1;
            let (content, is_error, new_ids, full_chars, cut) =
                if i >= self.budgets.max_parallel_calls {
                    let text = prompt::too_many_calls(self.budgets.max_parallel_calls);
                    (text, true, Vec::new(), 0, false)
                } else if call.name == SUBMIT {
                    let (text, is_error) = self.submit(call, &mut accepted);
                    (text, is_error, Vec::new(), 0, false)
                } else if let Some(kind) = self.closed {
                    (
                        prompt::tools_closed(kind.as_str()),
                        true,
                        Vec::new(),
                        0,
                        false,
                    )
                } else {
                    self.explore_call(call)
                };
            traced.push(TracedCall {
                name: &call.name,
                args: traced_args(&call.arguments),
                chars: content.len(),
                full_chars,
                cut,
                is_error,
                new_ids,
            });
            results.push(Message::ToolResult {
                call_id: call.id.clone(),
                name: call.name.clone(),
                content,
                is_error,
            });
        }
        self.trace.record(&Event::Step {
            step,
            usage: response.usage,
            finish_reason: response.finish_reason.as_deref(),
            text_chars: response.text.len(),
            calls: traced,
            observation_chars_total: self.stats.observation_chars,
        });
        self.messages.push(Message::Assistant {
            text: response.text.clone(),
            tool_calls: response.tool_calls.clone(),
        });
        self.messages.extend(results);
        if let Some(finished) = accepted {
            return self.after_submit(finished);
        }
        if let Some(kind) = self.closed {
            // The last turn after a budget closed the tools did not submit.
            return Next::Fallback(StopReason::BudgetExhausted { which: kind });
        }
        if self.stats.steps >= self.budgets.max_steps {
            self.close(BudgetKind::Steps);
        } else if self.stats.observation_chars >= self.budgets.max_observation_chars {
            self.close(BudgetKind::ObservationChars);
        }
        Next::Continue
    }

    /// Runs one exploration tool; returns (text, is_error, new IDs, full chars, cut).
    fn explore_call(
        &mut self,
        call: &ToolCallRequest,
    ) -> (
        String,
        bool,
        Vec<sightline_registry::CandidateId>,
        usize,
        bool,
    ) {
        let args = match parse_arguments(&call.arguments) {
            Ok(v) => v,
            Err(e) => {
                let text = format!(
                    "error: arguments of {} are not a JSON object: {e}\n",
                    call.name
                );
                return (text, true, Vec::new(), 0, false);
            }
        };
        let outcome = self.session.call_json(self.index, &call.name, &args);
        if call.name == "explore_code" && !outcome.is_error {
            let query = args.get("query").and_then(serde_json::Value::as_str);
            self.explored_query |= query.is_some_and(|q| q.trim() == self.session.query().trim());
        }
        self.stats.observation_chars += outcome.text.len();
        (
            outcome.text,
            outcome.is_error,
            outcome.new_ids,
            outcome.full_chars,
            outcome.cut,
        )
    }

    /// Validates a submission; returns the tool result text and whether it is an error.
    fn submit(
        &mut self,
        call: &ToolCallRequest,
        accepted: &mut Option<Finished>,
    ) -> (String, bool) {
        if accepted.is_some() {
            return (prompt::ALREADY_SUBMITTED.to_owned(), true);
        }
        match self.session.submit_json(self.index, &call.arguments) {
            Err(e) => {
                self.stats.malformed_submits += 1;
                self.trace.record(&Event::Submit {
                    accepted: false,
                    error: Some(e.to_string()),
                    drops: Vec::new(),
                    fell_back: false,
                    critical_gap: None,
                });
                (prompt::submit_rejected(&e.to_string()), true)
            }
            Ok(finished) => {
                let v = &finished.validated;
                self.trace.record(&Event::Submit {
                    accepted: true,
                    error: None,
                    drops: v
                        .drops
                        .iter()
                        .map(|d| format!("{}: {}", d.what, d.reason))
                        .collect(),
                    fell_back: v.fell_back,
                    critical_gap: v.critical_gap.as_ref().map(ToString::to_string),
                });
                let text = prompt::submit_accepted(v.selection.flow.len(), v.drops.len());
                *accepted = Some(finished);
                (text, false)
            }
        }
    }

    fn after_submit(&mut self, finished: Finished) -> Next {
        let gap = finished
            .validated
            .critical_gap
            .as_ref()
            .map(ToString::to_string);
        let steps_left = self.budgets.max_steps.saturating_sub(self.stats.steps);
        let can_continue = self.stats.continuations < self.budgets.max_continuations
            && steps_left > 0
            && self.closed.is_none()
            && self.hard_limit().is_none();
        match gap {
            Some(gap) if can_continue => {
                self.stats.continuations += 1;
                self.trace.record(&Event::Continuation {
                    round: self.stats.continuations,
                    gap: gap.clone(),
                });
                self.messages
                    .push(Message::user(prompt::continuation(&gap, steps_left)));
                // The model needs the tools again to find the evidence.
                self.force_submit = false;
                self.last = Some(finished);
                Next::Continue
            }
            _ => {
                let stop = stop_for(&finished);
                Next::Stop(Box::new(finished), stop)
            }
        }
    }

    /// Closes the exploration tools and asks for a submission in one last turn.
    fn close(&mut self, kind: BudgetKind) {
        self.trace.record(&Event::BudgetExhausted {
            which: kind.as_str(),
        });
        self.closed = Some(kind);
        self.force_submit = true;
        self.messages
            .push(Message::user(prompt::submit_now(kind.as_str())));
    }

    /// Ends with the latest accepted submission if there is one, else the deterministic
    /// selection with `stop` as the reason.
    fn fall_back(mut self, stop: StopReason) -> AgentRun {
        if let Some(last) = self.last.take() {
            let stop = stop_for(&last);
            return self.end(last, stop);
        }
        // The deterministic selection ranks what was observed; make sure that includes
        // the exploration of the query itself, as a run without a model would.
        if !self.explored_query {
            let call = crate::explore::query_exploration(
                self.session.query(),
                crate::explore::DETERMINISTIC_FILES,
            );
            self.session.call(self.index, call);
        }
        let finished = self.session.finish_deterministic(self.index);
        self.end(finished, stop)
    }

    fn end(self, finished: Finished, stop: StopReason) -> AgentRun {
        let elapsed = self.started.elapsed();
        self.trace.record(&Event::Stop {
            reason: &stop,
            steps: self.stats.steps,
            tool_calls: self.stats.tool_calls,
            usage: self.stats.usage,
            continuations: self.stats.continuations,
            elapsed_ms: elapsed.as_millis(),
        });
        AgentRun {
            finished,
            stop,
            stats: self.stats,
            elapsed,
        }
    }
}

/// A submission whose every ID was dropped is reported as a fallback: the report is the
/// deterministic one.
fn stop_for(finished: &Finished) -> StopReason {
    if finished.validated.fell_back {
        StopReason::Fallback {
            why: "nothing in the submission survived validation".to_owned(),
        }
    } else {
        StopReason::Submitted
    }
}

/// Tool arguments as a JSON value; an empty string means no arguments.
fn parse_arguments(raw: &str) -> Result<serde_json::Value, serde_json::Error> {
    if raw.trim().is_empty() {
        return Ok(serde_json::Value::Object(serde_json::Map::new()));
    }
    serde_json::from_str(raw)
}

fn traced_args(raw: &str) -> serde_json::Value {
    parse_arguments(raw).unwrap_or_else(|_| serde_json::Value::String(raw.to_owned()))
}
