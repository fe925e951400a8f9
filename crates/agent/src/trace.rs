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

    pub fn to_file(path: &Path) -> io::Result<Trace> {
        Ok(Trace::to_writer(BufWriter::new(File::create(path)?)))
    }

    pub fn to_writer(w: impl Write + Send + 'static) -> Trace {
        Trace {
            sink: Some(Box::new(w)),
            error: None,
        }
    }

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
    pub name: &'a str,
    /// The arguments as parsed JSON, or the raw text when they do not parse.
    pub args: serde_json::Value,
    /// Characters of the result shown to the model.
    pub chars: usize,
    /// Characters of the uncut observation.
    pub full_chars: usize,
    pub cut: bool,
    pub is_error: bool,
    pub new_ids: Vec<CandidateId>,
}

#[derive(Debug, Serialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event<'a> {
    Start {
        query: &'a str,
        intent: &'a str,
        provider: String,
        budgets: &'a Budgets,
    },
    Step {
        step: usize,
        usage: Usage,
        finish_reason: Option<&'a str>,
        text_chars: usize,
        calls: Vec<TracedCall<'a>>,
        observation_chars_total: usize,
    },
    /// The model answered with no tool call.
    NoToolCall {
        usage: Usage,
        nudged: bool,
    },
    ProviderError {
        message: String,
    },
    Submit {
        accepted: bool,
        error: Option<String>,
        drops: Vec<String>,
        fell_back: bool,
        critical_gap: Option<String>,
    },
    Continuation {
        round: usize,
        gap: String,
    },
    BudgetExhausted {
        which: &'a str,
    },
    Stop {
        reason: &'a StopReason,
        steps: usize,
        tool_calls: usize,
        usage: Usage,
        continuations: usize,
        elapsed_ms: u128,
    },
}
