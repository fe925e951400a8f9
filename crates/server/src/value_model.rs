//! How an `explore` call turns a query into a validated report: with a configured value
//! model (the agent loop explores and selects), or deterministically (one exploration, the
//! rank stage's selection).

use sightline_agent::{Budgets, ChatProvider, ExploreError, ExploreSession, Finished, Mode};
use sightline_observe::Index;
use sightline_registry::RegistryDatabase;

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
/// VALUE MODEL HOOK: the single place where the server chooses how `explore` is judged:
/// by `model` when there is one (the agent loop explores on its own, so `max_files` does
/// not apply), else deterministically with one `explore_code` call of `max_files` files.
/// Both go through [`sightline_agent::explore`], the one entry point every caller shares.
pub fn explore(
    index: &mut Index<RegistryDatabase>,
    session: &mut ExploreSession,
    max_files: u32,
    model: Option<Judge<'_>>,
) -> Result<Finished, CallError> {
    let mode = match model {
        Some(Judge { provider, budgets }) => Mode::Judged { provider, budgets },
        None => Mode::Deterministic { max_files },
    };
    sightline_agent::explore(index, session, mode).map_err(|e| match e {
        ExploreError::Tool(text) => CallError::Tool(text),
    })
}
