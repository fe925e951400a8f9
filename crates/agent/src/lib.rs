//! Explore sessions and the value-model loop. Deterministic code retrieves, constrains and
//! verifies; a model only judges, by selecting candidate IDs it has seen.

pub mod session;

pub use session::{CallOutcome, ExploreSession, Finished, SessionError, parse_call};
