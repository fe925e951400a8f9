//! The report's machine-readable block: only paths, ranges, the action and the confidence.
//! Also the `--json` output.

use serde::{Deserialize, Serialize};
use sightline_base::LineRange;
use sightline_base::{Action, Confidence, Registry};
use sightline_validate::Validated;

/// A cited place: a path and, when the candidate has one, its line range.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonPlace {
    /// Repo-relative, forward slashes.
    pub path: String,
    /// Absent for a place without a line range (a listed file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    /// Last line of the range, with `start`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<u32>,
}

impl JsonPlace {
    pub(crate) fn of(path: &str, range: Option<LineRange>) -> JsonPlace {
        JsonPlace {
            path: path.to_owned(),
            start: range.map(|r| r.start),
            end: range.map(|r| r.end),
        }
    }
}

/// A read target: the exact lines to read next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonRead {
    /// Repo-relative, forward slashes.
    pub path: String,
    /// First line to read.
    pub start: u32,
    /// Last line to read.
    pub end: u32,
    /// Whether the task cannot be done without reading it.
    pub required: bool,
}

/// The report's machine-readable block, every path and range taken from the registry.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportJson {
    /// What the caller should do next.
    pub action: Action,
    /// How sure the (validated) selection is.
    pub confidence: Confidence,
    /// The places that matter most, in selection order.
    pub primary: Vec<JsonPlace>,
    /// What to read next, in order.
    pub read: Vec<JsonRead>,
    /// The ranking's next files after the primary places', best first (paths only).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

/// The machine-readable report for `--json` output: every surviving primary candidate,
/// read target and runner-up, with no character budget applied.
pub fn render_json(validated: &Validated, registry: &Registry) -> ReportJson {
    crate::parts::json_of(validated, registry)
}

/// The fenced block's form of a [`ReportJson`]: a read target at a primary place is a
/// flag on that place instead of a second entry repeating its path and range, and `read`
/// lists only targets elsewhere. It carries the same places, flags and action; the order
/// of the read targets among the primary places is kept only in the full form (`--json`,
/// the MCP `structuredContent`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockJson {
    /// What the caller should do next.
    pub action: Action,
    /// How sure the report is, after validation.
    pub confidence: Confidence,
    /// The primary places, each flagged when a read target is at it.
    pub primary: Vec<BlockPlace>,
    /// Read targets at places that are not primary.
    pub read: Vec<JsonRead>,
    /// The runners-up's paths.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub also: Vec<String>,
}

/// A primary place in the block, with its read-target flags.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockPlace {
    /// Repository-relative path.
    pub path: String,
    /// First line, absent for a place without a line range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
    /// Last line, absent for a place without a line range.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<u32>,
    /// A read target is at this place.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub read: bool,
    /// That read target is required.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub required: bool,
}

impl From<&ReportJson> for BlockJson {
    fn from(full: &ReportJson) -> BlockJson {
        let at = |p: &JsonPlace, r: &JsonRead| {
            p.path == r.path && p.start == Some(r.start) && p.end == Some(r.end)
        };
        let primary = full
            .primary
            .iter()
            .map(|p| {
                let reads: Vec<&JsonRead> = full.read.iter().filter(|r| at(p, r)).collect();
                BlockPlace {
                    path: p.path.clone(),
                    start: p.start,
                    end: p.end,
                    read: !reads.is_empty(),
                    required: reads.iter().any(|r| r.required),
                }
            })
            .collect();
        let read = full
            .read
            .iter()
            .filter(|r| !full.primary.iter().any(|p| at(p, r)))
            .cloned()
            .collect();
        BlockJson {
            action: full.action,
            confidence: full.confidence,
            primary,
            read,
            also: full.also.clone(),
        }
    }
}
