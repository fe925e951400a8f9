//! Recording observations: each tool's result becomes the sightings the registry merges
//! (the merge rules are documented on [`Registry`]).

pub use sightline_base::registry::{Location, NoOutline, Outline, Registry, Sighting};

use crate::id::CandidateId;
use crate::observation::Observation;
use crate::sightings::sightings;

/// How many files past explore_code's file cap are listed (and get IDs): the rest are
/// only counted, since an ID the text does not show cannot be selected.
pub use sightline_observe::tools::explore_code::MORE_FILES_SHOWN as UNREAD_FILES_SHOWN;

/// Recording a typed observation into a [`Registry`]: the registry type lives in the
/// base crate, which knows no tool result types.
pub trait RecordObservation {
    /// Records one observation of tool call number `call`; returns the IDs it touched in
    /// the order the observation lists them (new or existing, without repeats).
    fn record(
        &mut self,
        call: u32,
        observation: &Observation,
        outline: &dyn Outline,
    ) -> Vec<CandidateId>;
}

impl RecordObservation for Registry {
    fn record(
        &mut self,
        call: u32,
        observation: &Observation,
        outline: &dyn Outline,
    ) -> Vec<CandidateId> {
        let (tool, sightings) = sightings(observation, outline);
        self.record_sightings(call, tool, sightings)
    }
}
