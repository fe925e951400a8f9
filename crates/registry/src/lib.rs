//! The registry stage: typed observations become candidates with stable IDs (`c1`, `c2`, …),
//! merged across tools, so a model can select places it has seen and nothing else.
//!
//! Contract: each tool call of a session is a [`RecordedCall`] (the [`ToolCall`] and its
//! typed [`Observation`]). [`RecordObservation::record`] turns an observation into
//! sightings and merges them into the base crate's [`Registry`], snapping grep hits and
//! reads to declaration boundaries through an [`Outline`] ([`DbOutline`] reads them from
//! the observe stage's facts). [`annotate`] renders an observation as the text a model
//! reads, with each location's ID inline. As salsa data, a [`Session`] input holds the
//! calls and [`session_registry`] derives the registry from them.
//!
//! Invariants:
//! - One location, one ID: the same path and range seen again, by any tool, is the same
//!   candidate; IDs are dense, in order of first sighting, and never renumbered, so the
//!   same calls over an unchanged tree give the same IDs.
//! - Every ID a call assigns is printed in that call's annotated text, so a model can only
//!   select IDs it has seen.
//! - A candidate's path and range come from the tool's result, never from model text.
//!
//! Embedding it on its own, without an index (a [`NoOutline`] keeps ranges as shown):
//!
//! ```
//! use sightline_observe::tools::read_file::ReadFileResult;
//! use sightline_registry::annotate::render_observation;
//! use sightline_registry::{CandidateId, NoOutline, Observation, RecordObservation, Registry};
//!
//! let read = Observation::ReadFile(ReadFileResult {
//!     path: "src/a.ts".into(),
//!     start_line: 1,
//!     end_line: 2,
//!     total_lines: 2,
//!     truncated: false,
//!     line_cut: false,
//!     text: "export function a() {\n}\n".into(),
//!     invalid_utf8: false,
//! });
//! let mut registry = Registry::new();
//! assert_eq!(registry.record(0, &read, &NoOutline), [CandidateId(1)]);
//! assert_eq!(registry.record(1, &read, &NoOutline), [CandidateId(1)], "same place, same ID");
//! assert!(render_observation(&read, &registry).starts_with("src/a.ts:1-2 of 2 [c1]\n"));
//! ```

#![warn(missing_docs)]

pub mod annotate;
pub mod observation;
pub mod registry;
pub mod session;
mod sightings;

pub use sightline_base::{candidate, id, selection};

pub use candidate::{Candidate, CandidateSymbol, ObservedText, Provenance};
pub use id::CandidateId;
pub use observation::{Observation, RecordedCall, ToolCall, ToolName};
pub use registry::{Location, NoOutline, Outline, RecordObservation, Registry};
pub use selection::{
    Action, Confidence, EvidenceLine, FlowLink, Intent, ReadTarget, SearchTarget, Selection,
};
pub use session::{Db, DbOutline, RegistryDatabase, Session, session_registry};
