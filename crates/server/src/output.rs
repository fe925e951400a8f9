//! `structuredContent` of the tools. Some clients forward only the text content to the
//! model, others (Claude Code) only `structuredContent`; so each structured result carries
//! the whole text too (`text`, and `validation` for a report), next to the typed fields
//! programs use.
//!
//! The tools declare no output schema: each schema would be loaded into every session of
//! every client and repeat the others, while the content is the same text either way.
//! The types still derive `JsonSchema` for programs that want to validate what they get.

use schemars::JsonSchema;
use serde::Serialize;
use sightline_registry::{Action, CandidateId, Confidence, Registry};
use sightline_render::{JsonPlace, JsonRead, ReportJson};

/// The report's machine block, field for field the render stage's `ReportJson` (which
/// carries no schema of its own).
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct ReportOut {
    /// The rendered report, exactly as the text content has it.
    pub text: String,
    /// What validation removed or lowered, one line per change (empty when nothing was).
    pub validation: String,
    /// What the caller should do next.
    #[schemars(description = "")]
    pub action: Action,
    /// How sure the validated selection is.
    #[schemars(description = "")]
    pub confidence: Confidence,
    /// The places that matter most, in order.
    pub primary: Vec<PlaceOut>,
    /// Ranges to read before acting.
    pub read: Vec<ReadOut>,
    /// The ranking's next files after the primary places' (paths only).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

/// A cited place: a path and, when it has one, a line range.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(description = "")]
pub struct PlaceOut {
    /// Repository-relative path.
    pub path: String,
    /// Absent for a place without a line range (a listed file).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    /// Last line of the range, with `start`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(description = "")]
    pub end: Option<u32>,
}

/// A range to read before acting.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(description = "")]
pub struct ReadOut {
    /// Repository-relative path.
    #[schemars(description = "")]
    pub path: String,
    /// First line to read.
    #[schemars(description = "")]
    pub start: u32,
    /// Last line to read.
    #[schemars(description = "")]
    pub end: u32,
    /// Whether the task cannot be done without reading it.
    #[schemars(description = "")]
    pub required: bool,
}

impl ReportOut {
    /// The machine block `json` of a report rendered as `text`.
    pub fn new(json: ReportJson, text: String, validation: Option<String>) -> ReportOut {
        // Destructured so a new report field fails to compile here instead of being lost.
        let ReportJson {
            action,
            confidence,
            primary,
            read,
            also,
        } = json;
        ReportOut {
            text,
            validation: validation.unwrap_or_default(),
            action,
            confidence,
            primary: primary.into_iter().map(PlaceOut::from).collect(),
            read: read.into_iter().map(ReadOut::from).collect(),
            also,
        }
    }
}

impl From<JsonPlace> for PlaceOut {
    fn from(p: JsonPlace) -> PlaceOut {
        let JsonPlace { path, start, end } = p;
        PlaceOut { path, start, end }
    }
}

impl From<JsonRead> for ReadOut {
    fn from(r: JsonRead) -> ReadOut {
        let JsonRead {
            path,
            start,
            end,
            required,
        } = r;
        ReadOut {
            path,
            start,
            end,
            required,
        }
    }
}

/// What one raw tool call added to its session.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
pub struct CallOut {
    /// What the tool showed, candidate IDs inline, exactly as the text content has it.
    pub text: String,
    /// The session the call was recorded in; pass it to the next calls.
    pub session: String,
    /// The tool that was called (for programs; the client knows it).
    #[serde(skip)]
    pub tool: String,
    /// Candidates this call created, in ID order (for programs: the text shows each, so
    /// a model reading `structuredContent` is not sent them twice).
    #[serde(skip)]
    pub new_candidates: Vec<CandidateOut>,
    /// The text was cut at the per-call cap (the full observation is still recorded).
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    pub cut: bool,
}

/// A candidate a call created: its ID and the place it stands for.
#[derive(Clone, Debug, PartialEq, Serialize, JsonSchema)]
#[schemars(description = "")]
pub struct CandidateOut {
    /// The ID to select it by.
    #[schemars(description = "")]
    pub id: CandidateId,
    /// Repository-relative path.
    #[schemars(description = "")]
    pub path: String,
    /// First line, when it has a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(description = "")]
    pub start: Option<u32>,
    /// Last line, when it has a range.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(description = "")]
    pub end: Option<u32>,
}

impl CandidateOut {
    /// The candidates `ids` name in `registry`, in that order; unknown IDs are skipped.
    pub fn lookup(registry: &Registry, ids: &[CandidateId]) -> Vec<CandidateOut> {
        ids.iter()
            .filter_map(|id| registry.get(*id))
            .map(|c| CandidateOut {
                id: c.id,
                path: c.path.clone(),
                start: c.range.map(|r| r.start),
                end: c.range.map(|r| r.end),
            })
            .collect()
    }
}
