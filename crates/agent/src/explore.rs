//! The one entry point from a query to a validated report, used by the CLI, the MCP
//! server, `xtask eval` and the agent loop's own fallback: with a value model the loop
//! explores and selects; without one, one `explore_code` call is followed by the rank
//! stage's deterministic selection. Both end in [`ExploreSession::submit`]'s validation.

use sightline_observe::Index;
use sightline_observe::tools::explore_code::{ExploreArgs, MAX_FILES_CAP, MORE_FILES_SHOWN};
use sightline_registry::selection::MAX_EVIDENCE_LINES;
use sightline_registry::{Observation, RegistryDatabase, ToolCall};

use crate::{Budgets, ChatProvider, ExploreSession, Finished, Trace};

/// Files the deterministic exploration asks `explore_code` for when the caller names no
/// number: the most the tool allows, since the rank stage, not the tool, picks what to cite.
pub const DETERMINISTIC_FILES: u32 = MAX_FILES_CAP;

/// How an exploration is judged.
#[derive(Clone, Copy)]
pub enum Mode<'a> {
    /// No model: one `explore_code` call of `max_files` files (and, when the question names
    /// a function and describes where it leads, the chain of calls between them:
    /// [`crate::chain_probe`]), then the deterministic selection.
    Deterministic {
        /// Files the exploration asks for.
        max_files: u32,
    },
    /// A value model drives the agent loop (it explores on its own) and selects.
    Judged {
        /// Where the judging conversation runs.
        provider: &'a dyn ChatProvider,
        /// The limits it runs under.
        budgets: &'a Budgets,
    },
}

impl Mode<'_> {
    /// The deterministic mode with the default file count.
    pub const DETERMINISTIC: Mode<'static> = Mode::Deterministic {
        max_files: DETERMINISTIC_FILES,
    };
}

/// Why an exploration produced no report.
#[derive(Debug, thiserror::Error)]
pub enum ExploreError {
    /// The deterministic exploration's tool call failed (an empty query, bad arguments).
    #[error("{0}")]
    Tool(String),
}

/// The call a session without a model starts with: `explore_code` for its query.
pub fn query_exploration(query: &str, max_files: u32) -> ToolCall {
    ToolCall::ExploreCode(ExploreArgs {
        max_files,
        // Nobody reads this call's text: every file worth a candidate is listed, so the
        // packet ranks them all.
        max_listed: Some(MORE_FILES_SHOWN as u32),
        // The report quotes each place's evidence lines; the call offers them.
        evidence_lines: MAX_EVIDENCE_LINES as u32,
        ..ExploreArgs::new(query)
    })
}

/// Explores `session` (fresh, nothing recorded yet) in `mode` and returns its validated,
/// rendered report. A judged run always ends in a report (the loop falls back to the
/// deterministic selection itself); a deterministic one fails only when its tool call does.
pub fn explore(
    index: &mut Index<RegistryDatabase>,
    session: &mut ExploreSession,
    mode: Mode<'_>,
) -> Result<Finished, ExploreError> {
    match mode {
        Mode::Judged { provider, budgets } => {
            session.observation_cap = budgets.observation_cap;
            // The loop's trace is a debugging aid of the `agent` command; this keeps none.
            let mut trace = Trace::disabled();
            let run = crate::agent::run(index, session, provider, budgets, &mut trace);
            Ok(run.finished)
        }
        Mode::Deterministic { max_files } => {
            // Nobody reads this call's text: it is recorded, not rendered.
            let call = query_exploration(session.query(), max_files);
            if let Observation::Error(e) = session.record(index, call) {
                return Err(ExploreError::Tool(e.trim_end().to_owned()));
            }
            // A question that names a function and describes where it leads asks how
            // they connect: the chain of calls between them is its answer, and no word
            // of the question ranks the steps.
            if let Some(chain) = crate::chain_probe::chain_call(index, session) {
                session.record(index, chain);
                return Ok(session.finish_traced(index));
            }
            Ok(session.finish_deterministic(index))
        }
    }
}
