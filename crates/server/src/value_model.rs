//! How an `explore` call turns its exploration into a selection.

use sightline_agent::{ExploreSession, Finished};
use sightline_observe::Index;
use sightline_registry::RegistryDatabase;

/// Chooses, validates and renders the selection of an `explore` call whose first
/// exploration has already been recorded in `session`.
///
/// VALUE MODEL HOOK: this is the single place where a configured value model would drive
/// the session (explore further with the raw tools, then submit a selection that is
/// validated like any other). The server has no model configuration yet, so the rank
/// stage's deterministic selection is used. `index` is mutable because a model's further
/// tool calls record into the session.
pub fn finish_explore(index: &mut Index<RegistryDatabase>, session: &ExploreSession) -> Finished {
    session.finish_deterministic(index)
}
