//! The report's machine-readable block: only paths, ranges, the action and the confidence.
//! Also the `--json` output.

use serde::{Deserialize, Serialize};
use sightline_observe::LineRange;
use sightline_registry::{Action, Confidence, Registry};
use sightline_validate::Validated;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonPlace {
    pub path: String,
    /// Absent for a place without a line range (a listed file).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
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

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonRead {
    pub path: String,
    pub start: u32,
    pub end: u32,
    pub required: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportJson {
    pub action: Action,
    pub confidence: Confidence,
    pub primary: Vec<JsonPlace>,
    pub read: Vec<JsonRead>,
}

/// The machine-readable report for `--json` output: every surviving primary candidate and
/// read target, with no character budget applied.
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
    pub action: Action,
    pub confidence: Confidence,
    pub primary: Vec<BlockPlace>,
    pub read: Vec<JsonRead>,
}

/// A primary place in the block, with its read-target flags.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockPlace {
    pub path: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<u32>,
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
        }
    }
}
