//! The validate stage: a selection submitted by a value model is checked against the
//! registry of observed candidates. Validation only ever removes or lowers: it never adds a
//! candidate, a search, a range or a fact, and it never reorders the model's flow.
//!
//! Contract: [`validate`] takes the submitted [`Selection`](sightline_base::Selection),
//! the session's [`Registry`](sightline_base::Registry), the caller's intent and the
//! deterministic fallback selection, and returns a [`Validated`]: the surviving selection
//! and every [`Drop`] made, each with its [`Rule`] and a reason a model can act on.
//! [`validate_on_disk`] also re-reads every cited file, so a file changed or deleted since
//! it was observed cannot be cited. [`parse_selection`] turns the raw `submit_report`
//! argument into a selection with errors that name the field.
//!
//! Invariants (held by property tests in `tests/properties.rs`):
//! - Validators only downgrade. Every ID that survives was in the submission, or is the
//!   declaration inside a submitted candidate that holds a surviving flow link's quote (a
//!   narrowing, [`Rule::Narrowed`]), and names a candidate in the registry; every quote
//!   that survives is verbatim in text a tool showed for that candidate; the confidence
//!   never rises; counts and free text fit [`Budget`], whose lengths count characters as
//!   submitted (the `maxLength` a client sees in the schema).
//! - Runners-up (the deterministic selection's next files) are only dropped: each left
//!   resolves, names a file no primary place is in, once, and the primary places' files
//!   and theirs are at most five; none is added when a primary place is dropped.
//! - When nothing usable survives, the result is the validated fallback, never an empty
//!   report (`fell_back` says so).
//! - It depends on `sightline-base` alone: no parser, index or database, so it is a pure
//!   function of its arguments (and, for `validate_on_disk`, of the files it re-reads).
//!
//! Embedding it on its own: an ID the registry never assigned is dropped, a quote a tool
//! showed survives.
//!
//! ```
//! use sightline_base::{
//!     Action, Intent, LineRange, Location, ObservedText, PathTraits, Registry, Sighting,
//!     ToolName,
//! };
//! use sightline_validate::{Budget, Rule, parse_selection, validate};
//!
//! let lines = LineRange::new(3, 4);
//! let mut registry = Registry::new();
//! registry.record_sightings(0, ToolName::ReadFile, [Sighting {
//!     path: "src/save.ts".into(),
//!     location: Location::Lines(lines),
//!     range: Some(lines),
//!     symbols: Vec::new(),
//!     reason: "read lines 3-4".into(),
//!     score: None,
//!     search: None,
//!     matched_terms: Vec::new(),
//!     text: Some(ObservedText {
//!         lines,
//!         text: "export function save(d) {\n  return store.put(d);\n".into(),
//!     }),
//!     traits: PathTraits::of("src/save.ts"),
//! }]);
//!
//! let submitted = parse_selection(r#"{
//!     "primary": ["c1", "c9"],
//!     "flow": [{"candidate": "c1", "role": "handler", "fact": "stores the draft",
//!               "quote": "return store.put(d);"}],
//!     "action": "answer_from_report",
//!     "confidence": "high"
//! }"#).unwrap();
//! let fallback = submitted.clone();
//! let validated = validate(&submitted, &registry, Intent::Explain, &fallback, &Budget::default());
//!
//! assert_eq!(validated.selection.primary.len(), 1, "c9 was never shown");
//! assert_eq!(validated.selection.flow.len(), 1, "the quote is verbatim in what was read");
//! assert!(validated.drops.iter().any(|d| d.rule == Rule::UnknownId));
//! assert_eq!(validated.selection.action, Action::AnswerFromReport);
//! assert!(!validated.fell_back);
//! ```

#![warn(missing_docs)]

mod budget;
mod clamp;
mod confidence;
mod intent;
mod known;
mod narrow;
mod outcome;
mod parse;
mod pass;
pub mod quote;
mod runners;
mod scope;
mod stale;
mod validate;

pub use budget::Budget;
pub use outcome::{CriticalGap, Drop, DroppedRead, Rule, Validated};
pub use parse::{SelectionError, parse_selection};
pub use stale::ReadNow;
pub use validate::{validate, validate_on_disk};
