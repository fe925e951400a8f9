//! The validate stage: a selection submitted by a value model is checked against the
//! registry of observed candidates. Validation only ever removes or lowers: it never adds a
//! candidate, a search, a range or a fact, and it never reorders the model's flow.

mod budget;
mod clamp;
mod confidence;
mod intent;
mod known;
mod outcome;
mod parse;
mod pass;
pub mod quote;
mod scope;
mod stale;
mod validate;

pub use budget::Budget;
pub use outcome::{CriticalGap, Drop, DroppedRead, Rule, Validated};
pub use parse::{SelectionError, parse_selection};
pub use stale::ReadNow;
pub use validate::{validate, validate_on_disk};
