//! The shared vocabulary of Sightline's stages.

pub mod candidate;
pub mod escape;
pub mod id;
pub mod lines;
pub mod path_traits;
pub mod registry;
pub mod search_components;
pub mod selection;
pub mod tool;

pub use candidate::{Candidate, CandidateSymbol, ObservedText, Provenance};
pub use id::{BadCandidateId, CandidateId};
pub use lines::LineRange;
pub use path_traits::PathTraits;
pub use registry::{Location, NoOutline, Outline, Registry, Sighting};
pub use search_components::ScoreComponents;
pub use selection::{Action, Confidence, FlowLink, Intent, ReadTarget, SearchTarget, Selection};
pub use tool::ToolName;
