//! The render stage: the compact report a coding agent reads, written only from validated
//! candidate IDs. It is the only place that writes paths and ranges, and it looks every one
//! up in the registry; nothing is ever copied from the selection's free text.
//!
//! Contract: [`render_report`] takes a
//! [`Validated`](sightline_validate::Validated) selection and the session's
//! [`Registry`](sightline_base::Registry), and returns a [`Report`]: text of at most
//! `budget_chars` characters ([`DEFAULT_BUDGET_CHARS`] by default) ending in a fenced
//! JSON block, and that block as [`ReportJson`]. [`render_json`] gives the JSON alone.
//!
//! Invariants:
//! - Every path and line range in the output is the registry's, looked up by a validated
//!   ID (a runner-up on the `also:` line too, by path alone); the model's free text (roles, facts, purposes) is escaped onto one line and can
//!   neither forge a path nor open a code fence.
//! - Dense output: each line saves the reader a read (a place with its range, a verified
//!   quote, the next read). Over budget, whole optional parts are left out in a fixed order
//!   (see `budget.rs`); nothing is cut inside a line, and the header and the JSON block's
//!   action and confidence always stay.
//! - It depends on `sightline-base` and `sightline-validate` only, and is a pure function.
//!
//! Embedding it on its own:
//!
//! ```
//! use sightline_base::{Intent, LineRange, Location, PathTraits, Registry, Sighting, ToolName};
//! use sightline_render::{DEFAULT_BUDGET_CHARS, render_report};
//! use sightline_validate::{Budget, parse_selection, validate};
//!
//! let lines = LineRange::new(12, 30);
//! let mut registry = Registry::new();
//! registry.record_sightings(0, ToolName::ExploreCode, [Sighting {
//!     path: "src/handlers/save.ts".into(),
//!     location: Location::Lines(lines),
//!     range: Some(lines),
//!     symbols: Vec::new(),
//!     reason: "name match".into(),
//!     score: Some(1.0),
//!     search: None,
//!     matched_terms: Vec::new(),
//!     text: None,
//!     traits: PathTraits::of("src/a.ts"),
//! }]);
//! let selection = parse_selection(r#"{
//!     "primary": ["c1"],
//!     "read_targets": [{"candidate": "c1", "purpose": "the save handler", "required": true}],
//!     "action": "read_targets",
//!     "confidence": "medium"
//! }"#).unwrap();
//! let validated = validate(&selection, &registry, Intent::Edit, &selection, &Budget::default());
//!
//! let report = render_report(&validated, &registry, DEFAULT_BUDGET_CHARS);
//! assert!(report.text.chars().count() <= DEFAULT_BUDGET_CHARS);
//! assert!(report.text.contains("src/handlers/save.ts:12-30"));
//! assert_eq!((report.json.read[0].start, report.json.read[0].end), (12, 30));
//! ```

#![warn(missing_docs)]

mod budget;
mod json;
mod parts;
mod text;

pub use budget::DEFAULT_BUDGET_CHARS;
pub use json::{BlockJson, BlockPlace, JsonPlace, JsonRead, ReportJson, render_json};

use sightline_base::Registry;
use sightline_validate::Validated;

/// A rendered report: the text for the agent (its JSON block is `json`).
#[derive(Clone, Debug, PartialEq)]
pub struct Report {
    /// The report text, at most the budget in characters.
    pub text: String,
    /// Where the text's fenced machine block starts: `text[..prose_len]` is the report
    /// for a reader that gets the block as structured data instead.
    pub prose_len: usize,
    /// The machine-readable block the text ends with.
    pub json: ReportJson,
}

impl Report {
    /// The text without its fenced machine block, for a reader that receives `json`
    /// as structured data (an MCP client gets it as `structuredContent`).
    pub fn prose(&self) -> &str {
        self.text.get(..self.prose_len).unwrap_or(&self.text)
    }
}

/// Renders the report for `validated`, at most `budget_chars` characters (see
/// [`budget`](crate::budget) for what is left out first when it does not fit).
pub fn render_report(validated: &Validated, registry: &Registry, budget_chars: usize) -> Report {
    let parts = parts::Parts::collect(validated, registry);
    budget::fit(parts, budget_chars)
}
