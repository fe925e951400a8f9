//! How an `explore` call turns a query into a validated report: with a configured value
//! model (the agent loop explores and selects), or deterministically (one exploration, the
//! rank stage's selection).

use sightline_agent::{Budgets, ChatProvider, ExploreSession, Finished, Trace, agent};
use sightline_observe::Index;
use sightline_observe::tools::explore_code::ExploreArgs;
use sightline_registry::{RegistryDatabase, ToolCall};

use crate::error::CallError;

/// A chat endpoint and the limits one `explore` conversation runs under.
pub struct ValueModel {
    provider: Box<dyn ChatProvider + Send + Sync>,
    budgets: Budgets,
}

impl ValueModel {
    /// A value model behind `provider`, each conversation limited by `budgets`.
    pub fn new(provider: Box<dyn ChatProvider + Send + Sync>, budgets: Budgets) -> ValueModel {
        ValueModel { provider, budgets }
    }

    /// The provider and model, for logs (no credentials).
    pub fn describe(&self) -> String {
        self.provider.describe()
    }

    /// This model as the judge of one exploration.
    pub fn judge(&self) -> Judge<'_> {
        Judge {
            provider: self.provider.as_ref(),
            budgets: &self.budgets,
        }
    }
}

/// The model that judges one exploration and the limits it runs under: the server's
/// configured value model, or the client's own through sampling.
#[derive(Clone, Copy)]
pub struct Judge<'a> {
    /// Where the judging conversation runs.
    pub provider: &'a dyn ChatProvider,
    /// The limits it runs under.
    pub budgets: &'a Budgets,
}

/// Explores `session` (fresh, nothing recorded yet) and returns its validated report.
///
/// VALUE MODEL HOOK: the single place where the configured value model is used. With one,
/// the agent loop drives the session (it explores on its own, so `max_files` does not
/// apply) and always ends in a report, falling back to the deterministic selection itself.
/// Without one, one `explore_code` call of `max_files` files is followed by the rank
/// stage's deterministic selection.
pub fn explore(
    index: &mut Index<RegistryDatabase>,
    session: &mut ExploreSession,
    max_files: u32,
    model: Option<Judge<'_>>,
) -> Result<Finished, CallError> {
    if let Some(Judge { provider, budgets }) = model {
        session.observation_cap = budgets.observation_cap;
        // The loop's trace is a debugging aid of the `agent` command; the server keeps none.
        let mut trace = Trace::disabled();
        let run = agent::run(index, session, provider, budgets, &mut trace);
        eprintln!(
            "value model finished after {} steps: {:?}",
            run.stats.steps, run.stop
        );
        return Ok(run.finished);
    }
    let args = ExploreArgs {
        max_files,
        ..ExploreArgs::new(session.query())
    };
    let outcome = session.call(index, ToolCall::ExploreCode(args));
    if outcome.is_error {
        return Err(CallError::Tool(outcome.text.trim_end().to_owned()));
    }
    Ok(session.finish_deterministic(index))
}
