//! Explore sessions and the value-model loop. Deterministic code retrieves, constrains and
//! verifies; a model only judges, by selecting candidate IDs it has seen.

pub mod agent;
pub mod budget;
pub mod chat;
pub mod prompt;
pub mod provider;
pub mod session;
#[cfg(any(test, feature = "testing"))]
pub mod testing;
pub mod tools;
pub mod trace;

pub use agent::{AgentRun, RunStats};
pub use budget::{BudgetKind, Budgets, StopReason};
pub use chat::{ChatProvider, ChatRequest, ChatResponse, Message, ProviderError};
pub use session::{CallOutcome, ExploreSession, Finished, SessionError, parse_call};
pub use trace::Trace;
