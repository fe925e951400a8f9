//! The registry stage: typed observations become candidates with stable IDs (`c1`, `c2`, …),
//! merged across tools, so a model can select places it has seen and nothing else.

pub mod annotate;
pub mod observation;
pub mod registry;
pub mod session;

pub use sightline_base::{candidate, id, selection};

pub use candidate::{Candidate, CandidateSymbol, ObservedText, Provenance};
pub use id::CandidateId;
pub use observation::{Observation, RecordedCall, ToolCall, ToolName};
pub use registry::{Location, NoOutline, Outline, RecordObservation, Registry};
pub use selection::{Action, Confidence, FlowLink, Intent, ReadTarget, SearchTarget, Selection};
pub use session::{Db, DbOutline, RegistryDatabase, Session, session_registry};
