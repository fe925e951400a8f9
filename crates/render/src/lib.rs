//! The render stage: the compact report a coding agent reads, written only from validated
//! candidate IDs. It is the only place that writes paths and ranges, and it looks every one
//! up in the registry; nothing is ever copied from the selection's free text.

mod budget;
mod json;
mod parts;
mod text;

pub use budget::DEFAULT_BUDGET_CHARS;
pub use json::{JsonPlace, JsonRead, ReportJson, render_json};

use sightline_base::{Intent, Registry};
use sightline_validate::Validated;

/// A rendered report: the text for the agent (its JSON block is `json`).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    pub text: String,
    pub json: ReportJson,
}

/// Renders the report for `validated`, at most `budget_chars` characters (see
/// [`budget`](crate::budget) for what is left out first when it does not fit).
pub fn render_report(
    query: &str,
    intent: Intent,
    validated: &Validated,
    registry: &Registry,
    budget_chars: usize,
) -> Report {
    let parts = parts::Parts::collect(query, intent, validated, registry);
    budget::fit(parts, budget_chars)
}
