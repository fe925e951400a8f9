//! The shared vocabulary of Sightline's stages: what crosses the boundaries between
//! observe, registry, rank, validate and render, with no parser, search index or salsa
//! database behind it.
//!
//! - [`LineRange`]: 1-based, inclusive lines, the unit every stage cites code in.
//! - [`Candidate`] and [`CandidateId`]: one observed location with a stable ID (`c7`),
//!   its provenance, path traits and the verbatim text tools showed for it.
//! - [`Registry`]: every candidate of one session. [`Registry::record_sightings`] merges
//!   what a tool showed ([`Sighting`]s) under "one location, one ID".
//! - [`Intent`], [`Selection`], [`Action`], [`Confidence`]: the judgment a model (or the
//!   deterministic ranker) submits, made only of candidate IDs.
//!
//! Invariants:
//! - IDs are dense from `c1`, assigned in order of first sighting, never reused, and a
//!   candidate's path and range never change once assigned. A selection can therefore
//!   only name places a tool showed; the paths and ranges a report prints come from the
//!   registry, never from the model.
//! - Nothing here reads files or the clock: every value is plain data, serialisable and
//!   deterministic, so the stages that depend only on this crate (validate, render) are
//!   pure functions of their inputs.
//!
//! Embedding it on its own: merge two sightings of the same lines and select the result.
//!
//! ```
//! use sightline_base::{
//!     Action, CandidateId, Confidence, LineRange, Location, PathTraits, Registry, Selection,
//!     Sighting, ToolName,
//! };
//!
//! let sighting = |reason: &str| Sighting {
//!     path: "src/a.ts".into(),
//!     location: Location::Lines(LineRange::new(3, 9)),
//!     range: Some(LineRange::new(3, 9)),
//!     symbols: Vec::new(),
//!     reason: reason.into(),
//!     score: None,
//!     search: None,
//!     matched_terms: Vec::new(),
//!     text: None,
//!     traits: PathTraits::of("src/a.ts"),
//! };
//! let mut registry = Registry::new();
//! let first = registry.record_sightings(0, ToolName::ReadFile, [sighting("read")]);
//! let again = registry.record_sightings(1, ToolName::ReadFile, [sighting("read again")]);
//! assert_eq!(first, again, "one location, one ID");
//! assert_eq!(first, [CandidateId(1)]);
//! assert_eq!(registry.get(CandidateId(1)).unwrap().provenance.len(), 2);
//!
//! let selection: Selection = serde_json::from_str(
//!     r#"{"primary": ["c1"], "action": "read_targets", "confidence": "high"}"#,
//! )
//! .unwrap();
//! assert_eq!(selection.primary, [CandidateId(1)]);
//! assert_eq!((selection.action, selection.confidence), (Action::ReadTargets, Confidence::High));
//! ```

#![warn(missing_docs)]

pub mod candidate;
pub mod escape;
pub mod id;
pub mod lines;
pub mod path_traits;
pub mod registry;
pub mod search_components;
pub mod search_shape;
pub mod selection;
pub mod tool;

pub use candidate::{Candidate, CandidateSymbol, ObservedText, Provenance};
pub use id::{BadCandidateId, CandidateId};
pub use lines::LineRange;
pub use path_traits::PathTraits;
pub use registry::{
    Location, NEAR_IDENTICAL_DIVISOR, NoOutline, Outline, Registry, SHORT_DECLARATION_LINES,
    Sighting, hit_range, near_identical,
};
pub use search_components::{ScoreComponents, SearchWeights};
pub use search_shape::{EdgeWeights, SearchShape};
pub use selection::{
    Action, Confidence, EvidenceLine, FlowLink, Intent, ReadTarget, SearchTarget, Selection,
};
pub use tool::ToolName;
