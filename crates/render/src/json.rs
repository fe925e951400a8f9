//! The report's machine-readable block: only paths, ranges, the action and the confidence.
//! Also the `--json` output.

use serde::{Deserialize, Serialize};
use sightline_base::LineRange;
use sightline_base::{Action, Confidence, Registry};
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
