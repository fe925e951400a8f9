//! Sizing raw exploration output to the evidence: show as much source as the answer's
//! evidence pays for, not as much as a budget allows.
//!
//! - **Margin and evidence** (`evidence`): when the first file outscores the next by the
//!   model's decisive margin, the answer is that file: its places are shown and the other
//!   files' places are listed by their signature lines. Otherwise a place's body is shown
//!   only when its own evidence (its name's match to the query's words and literals) is
//!   at least half the best place's; places reached only over graph edges, or through a
//!   common word, are listed by signature line. The first file's best place is always
//!   shown.
//! - **The cut** (`cut`): a body longer than its line allowance keeps its head and the
//!   lines that hold the query's words or literals or mention what matched, and elides
//!   the rest; its runs stand for one place (one candidate).
//! - the **flow spine** (`spine`) connects the symbols the query names through calls,
//!   renders, instantiations and references; spine declarations are shown in full;
//! - a file off the spine whose class extends or implements a supertype with at least
//!   three implementations (`family`) is one of many interchangeable siblings and shows
//!   as a **skeleton** of signature lines;
//! - a file is **spared** (kept full) when the query names a (near-)unique callable in it
//!   (`named`), unless the file declares such a supertype itself: that family file gets
//!   a **focused** view, full bodies only for spine, uniquely named and base members;
//! - tests are left out unless the query asks for them; the caller's character cap is a
//!   ceiling (`budget`), applied by importance only when the evidence asks for more.
//!
//! Windows stay verbatim: a signature line or a run of a cut body is real source, so every
//! line shown can still be checked against the file.

pub(crate) mod budget;
pub(crate) mod classify;
pub mod cut;
pub(crate) mod evidence;
pub(crate) mod family;
mod fill;
pub(crate) mod named;
pub(crate) mod spine;
pub(crate) mod view;

pub use budget::budget_chars;
pub use evidence::line_terms;
pub(crate) use fill::{Limits, fill};
pub use view::signature_line;

use crate::search::FileHit;

/// A test file the search down-weighted because the query did not ask for tests: left
/// out of sized output entirely.
pub(crate) fn is_unasked_test(hit: &FileHit) -> bool {
    hit.traits.test && hit.components.trait_factor < 1.0
}
