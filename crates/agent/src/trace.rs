//! A JSONL trace of one conversation: one line per event, for measurement and debugging.
//! It holds tool arguments and sizes, never message contents beyond those, and never a
//! credential (providers are described by kind, base URL and model only).

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use serde::Serialize;
use sightline_registry::CandidateId;

use crate::budget::{Budgets, StopReason};
use crate::chat::Usage;

/// Where trace lines go. A write failure is remembered, not raised: losing the trace must
/// not lose the answer.
pub struct Trace {
    sink: Option<Box<dyn Write + Send>>,
    error: Option<io::Error>,
}

impl std::fmt::Debug for Trace {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Trace")
            .field("enabled", &self.sink.is_some())
            .field("error", &self.error)
            .finish()
    }
}

impl Trace {
    /// A trace that records nothing.
    pub fn disabled() -> Trace {
        Trace {
            sink: None,
            error: None,
        }
    }

    /// A trace written as JSON lines to a new file at `path`.
    pub fn to_file(path: &Path) -> io::Result<Trace> {
        Ok(Trace::to_writer(BufWriter::new(File::create(path)?)))
    }

    /// A trace written as JSON lines to `w`.
    pub fn to_writer(w: impl Write + Send + 'static) -> Trace {
        Trace {
            sink: Some(Box::new(w)),
            error: None,
        }
    }

    /// Writes one event; after the first write error, nothing more (see [`Trace::error`]).
    pub fn record(&mut self, event: &Event<'_>) {
        let Some(sink) = self.sink.as_mut() else {
            return;
        };
        if self.error.is_some() {
            return;
        }
        let written = serde_json::to_writer(&mut *sink, event)
            .map_err(io::Error::from)
            .and_then(|()| sink.write_all(b"\n"))
            .and_then(|()| sink.flush());
        if let Err(e) = written {
            self.error = Some(e);
        }
    }

    /// The first write error, if any.
    pub fn error(&self) -> Option<&io::Error> {
        self.error.as_ref()
    }
}

/// One tool call as traced.
#[derive(Debug, Serialize)]
pub struct TracedCall<'a> {
    /// The tool called.
    pub name: &'a str,
    /// The arguments as parsed JSON, or the raw text when they do not parse.
    pub args: serde_json::Value,
    /// Characters of the result shown to the model.
    pub chars: usize,
    /// Characters of the uncut observation.
    pub full_chars: usize,
    /// Whether the result was cut at the cap.
    pub cut: bool,
    /// Whether the call failed.
    pub is_error: bool,
    /// Candidates the call created.
    pub new_ids: Vec<CandidateId>,
}

/// One line of a trace.
#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event<'a> {
    /// The run began.
    Start {
        /// The question.
        query: &'a str,
        /// The intent's name.
        intent: &'a str,
        /// The provider's description (never a credential).
        provider: String,
        /// The limits the run has.
        budgets: &'a Budgets,
    },
    /// An assistant turn with tool calls.
    Step {
        /// 1-based step number.
        step: usize,
        /// Tokens the turn used.
        usage: Usage,
        /// The provider's stop reason.
        finish_reason: Option<&'a str>,
        /// Characters of the turn's text.
        text_chars: usize,
        /// The calls it made.
        calls: Vec<TracedCall<'a>>,
        /// Characters of tool results shown so far.
        observation_chars_total: usize,
    },
    /// The model answered with no tool call.
    NoToolCall {
        /// Tokens the turn used.
        usage: Usage,
        /// Whether the model was reminded to call a tool.
        nudged: bool,
    },
    /// The provider failed after its retries.
    ProviderError {
        /// The error.
        message: String,
    },
    /// A `submit_report` call.
    Submit {
        /// Whether it parsed.
        accepted: bool,
        /// Why it did not parse.
        error: Option<String>,
        /// What validation removed or lowered, one entry per change.
        drops: Vec<String>,
        /// Whether the deterministic fallback replaced it.
        fell_back: bool,
        /// The gap the model was asked about, if any.
        critical_gap: Option<String>,
    },
    /// One more round asked for after a critical gap.
    Continuation {
        /// 1-based round.
        round: usize,
        /// The gap, in words.
        gap: String,
    },
    /// A budget ran out.
    BudgetExhausted {
        /// Which one.
        which: &'a str,
    },
    /// The run ended.
    Stop {
        /// Why.
        reason: &'a StopReason,
        /// Assistant turns with tool calls.
        steps: usize,
        /// Tool calls made.
        tool_calls: usize,
        /// Tokens used in all.
        usage: Usage,
        /// Continuation rounds.
        continuations: usize,
        /// Wall time in milliseconds.
        elapsed_ms: u128,
    },
}
