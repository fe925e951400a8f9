//! The selection a value model submits (`submit_report`), made only of candidate IDs and
//! judgments. Its JSON Schema is generated from these types.
//!
//! Doc comments here become descriptions in that schema, which every model reads on every
//! call. Docs written for Rust readers only carry `#[schemars(description = "")]` so the
//! schema stays as terse as it was; the ones without it are meant for the model.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::id::CandidateId;

/// What the caller will do with the result; an argument, never inferred from wording.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum Intent {
    /// Answer a question about the code.
    Explain,
    /// Point at where something is.
    Locate,
    // The doc comments are the values' descriptions in the tools' schemas: the field's own
    // description says that edit and debug add exact ranges (`needs_ranges`).
    /// Change code.
    Edit,
    /// Find a fault.
    Debug,
}

impl Intent {
    /// The intent's argument spelling (`explain`, `locate`, `edit`, `debug`).
    pub fn as_str(self) -> &'static str {
        match self {
            Intent::Explain => "explain",
            Intent::Locate => "locate",
            Intent::Edit => "edit",
            Intent::Debug => "debug",
        }
    }
    /// Edit and debug need exact ranges to read; a report alone cannot serve them.
    pub fn needs_ranges(self) -> bool {
        matches!(self, Intent::Edit | Intent::Debug)
    }
}

impl std::str::FromStr for Intent {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s {
            "explain" => Ok(Intent::Explain),
            "locate" => Ok(Intent::Locate),
            "edit" => Ok(Intent::Edit),
            "debug" => Ok(Intent::Debug),
            other => Err(format!(
                "unknown intent `{other}` (expected explain, locate, edit or debug)"
            )),
        }
    }
}

#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema,
)]
#[serde(rename_all = "snake_case")]
/// How sure the selection is that its primary candidates answer the query: `low`,
/// `medium` or `high`, ordered. Validators may lower it, never raise it.
#[schemars(description = "")]
// The variants stay undocumented: a variant doc would turn the schema's `enum` into a
// longer `oneOf`, and the levels need no more words than their names.
#[allow(missing_docs)]
pub enum Confidence {
    Low,
    Medium,
    High,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
/// What the caller should do next with the result.
#[schemars(description = "")]
pub enum Action {
    /// The report answers it (explain/locate only).
    AnswerFromReport,
    /// Read the targets next.
    ReadTargets,
    /// Run the searches next.
    TargetedGapSearch,
    /// Nothing relevant found.
    SkipExploreResult,
}

impl Action {
    /// The action's JSON spelling (`answer_from_report`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            Action::AnswerFromReport => "answer_from_report",
            Action::ReadTargets => "read_targets",
            Action::TargetedGapSearch => "targeted_gap_search",
            Action::SkipExploreResult => "skip_explore_result",
        }
    }
}

/// One step of the explained flow, backed by a verbatim quote from the candidate.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct FlowLink {
    /// The place this step is.
    #[schemars(description = "")]
    pub candidate: CandidateId,
    /// Open vocabulary: what this place does in the flow (entry, handler, state, …).
    pub role: String,
    /// One sentence about this place.
    pub fact: String,
    /// At most 2 lines copied verbatim from what a tool showed for this candidate.
    pub quote: String,
    /// Lines of the place that show why it was chosen, beyond the quote: chosen by the
    /// deterministic selection from observed text, never submitted (a model's quote is
    /// its evidence), each checked against the line it names.
    #[serde(skip)]
    #[schemars(skip)]
    pub evidence: Vec<EvidenceLine>,
}

/// One line of a candidate's observed text, by its 1-based line number in the file: what
/// a report quotes as evidence beside a flow link's quote.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct EvidenceLine {
    /// The line's number in the file.
    pub line: u32,
    /// The line as the tool showed it.
    pub text: String,
}

/// A candidate the caller should read next, and why.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ReadTarget {
    /// The place to read.
    #[schemars(description = "")]
    pub candidate: CandidateId,
    /// Why to read it, tied to the caller's intent.
    pub purpose: String,
    /// Whether the caller's task cannot be done without reading it.
    #[schemars(description = "")]
    pub required: bool,
}

/// A bounded search the caller should run next (with `targeted_gap_search`).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct SearchTarget {
    /// A literal term to search for.
    pub term: String,
    /// A repo-relative directory or glob to search in.
    #[serde(default)]
    pub scope: Option<String>,
}

/// The `submit_report` argument.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Selection {
    /// 1-5 candidate IDs that matter most.
    pub primary: Vec<CandidateId>,
    /// The ordered flow, one link per place.
    #[serde(default)]
    pub flow: Vec<FlowLink>,
    /// What to read next, in order.
    #[serde(default)]
    #[schemars(description = "")]
    pub read_targets: Vec<ReadTarget>,
    /// At most 3 specific things not found.
    #[serde(default)]
    pub missing: Vec<String>,
    /// What the caller should do next.
    #[schemars(description = "")]
    pub action: Action,
    /// Only with `targeted_gap_search`.
    #[serde(default)]
    pub search_targets: Vec<SearchTarget>,
    /// How sure the selection is; validators may only lower it.
    #[schemars(description = "")]
    pub confidence: Confidence,
    /// The ranking's next files after the primary places' (the report's `also:` line): one
    /// candidate per file, none in a primary place's file, so that primary and runner-up
    /// files together are at most [`MAX_NAMED_FILES`]. Only the deterministic selection
    /// names them (a model's judgment is its primary places; its schema has no such field).
    #[serde(skip)]
    #[schemars(skip)]
    pub runners_up: Vec<CandidateId>,
}

/// Limits the validator enforces on a selection.
pub const MAX_PRIMARY: usize = 5;
/// Most missing items a selection may list.
pub const MAX_MISSING: usize = 3;
/// Most lines a flow quote may span.
pub const MAX_QUOTE_LINES: usize = 2;
/// Most evidence lines a flow link may carry beside its quote.
pub const MAX_EVIDENCE_LINES: usize = 4;
/// Most search targets a selection may list.
pub const MAX_SEARCH_TARGETS: usize = 4;
/// Most read targets a selection may list.
pub const MAX_READ_TARGETS: usize = 6;
/// Most flow links a selection may list.
pub const MAX_FLOW: usize = 8;
/// Most files a report names: its primary places' files and its runners-up together.
pub const MAX_NAMED_FILES: usize = 5;
