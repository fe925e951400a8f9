//! Explore sessions and the value-model loop. Deterministic code retrieves, constrains and
//! verifies; a model only judges, by selecting candidate IDs it has seen.
//!
//! Contract: an [`ExploreSession`] records typed tool calls in salsa (the registry is
//! derived from them), returns each result as text with candidate IDs inline
//! ([`CallOutcome`]), and turns a submitted selection into a [`Finished`] report through
//! the validate and render stages. [`agent::explore`] runs the value-model loop over any
//! [`ChatProvider`] (OpenAI-compatible and Anthropic clients in [`provider`]) within
//! [`Budgets`], writing a JSON-lines [`Trace`]; every way it can stop ([`StopReason`])
//! still yields a report, the deterministic one when the model gave none.
//!
//! Invariants:
//! - Judgment versus authority: the model sees tool results and selects IDs; paths, ranges
//!   and quotes are checked against the registry, and validators only downgrade.
//! - Model input never panics the loop: malformed arguments, unknown tools and bad
//!   submissions become error results the model can correct.
//! - Budgets (steps, observation characters, wall time, output tokens) bound every run.
//! - `testing` (a feature) holds a scripted provider for tests of the loop and of crates
//!   built on it; production builds do not contain it.
//!
//! Embedding a session without a model: read a file, then cite what was shown.
//!
//! ```
//! use sightline_agent::ExploreSession;
//! use sightline_observe::{CacheMode, Index, IndexOptions};
//! use sightline_registry::{Intent, RegistryDatabase};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(
//!     dir.path().join("save.ts"),
//!     "export function saveRecord(title: string) {\n  return title.trim();\n}\n",
//! )?;
//! let options = IndexOptions { cache: CacheMode::Disabled, progress: None };
//! let mut index = Index::open_with_db(RegistryDatabase::default(), dir.path(), &options)?;
//!
//! let session = ExploreSession::new(&mut index, "where is a record saved", Intent::Locate)?;
//! let read = session.call_json(&mut index, "read_file", &serde_json::json!({"path": "save.ts"}));
//! assert!(!read.is_error);
//! let id = read.new_ids[0];
//! assert!(read.text.contains(&format!("[{id}]")), "the ID is shown with the text");
//!
//! let finished = session.submit_json(&index, &format!(r#"{{
//!     "primary": ["{id}", "c99"],
//!     "flow": [{{"candidate": "{id}", "role": "entry", "fact": "trims the title",
//!               "quote": "return title.trim();"}}],
//!     "action": "answer_from_report",
//!     "confidence": "high"
//! }}"#))?;
//! assert_eq!(finished.validated.selection.primary, [id], "c99 was never shown");
//! assert!(finished.report.text.contains("save.ts:1-3"));
//! session.close(&mut index);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

pub mod agent;
pub mod budget;
pub mod chain_probe;
pub mod chat;
pub mod explore;
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
pub use explore::{DETERMINISTIC_FILES, ExploreError, Mode, explore, query_exploration};
pub use session::{CallOutcome, ExploreSession, Finished, SessionError, parse_call};
pub use trace::Trace;
