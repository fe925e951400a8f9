//! Adaptive sizing of raw exploration output: show as much source as the answer needs,
//! not as much as the budget allows. Every rule reads graph structure only:
//!
//! - the **flow spine** (`spine`) connects the symbols the query names through calls,
//!   renders, instantiations and references; spine declarations are always shown in full;
//! - a file off the spine whose class extends or implements a supertype with at least
//!   three implementations (`family`) is one of many interchangeable siblings and shows
//!   as a **skeleton** of signature lines;
//! - a file is **spared** (kept full) when the query names a (near-)unique callable in it
//!   (`named`), unless the file declares such a supertype itself: that family file gets
//!   a **focused** view, full bodies only for spine, uniquely named and base members;
//! - tests are left out unless the query asks for them, and when the budget binds, pieces
//!   are picked by importance rather than source order (`budget`); small repositories
//!   get a smaller budget.
//!
//! Windows stay verbatim: a skeleton is made of runs of real signature lines, so every
//! line shown can still be checked against the file.

pub(crate) mod budget;
pub(crate) mod classify;
pub(crate) mod family;
mod fill;
pub(crate) mod named;
pub(crate) mod render;
pub(crate) mod spine;
pub(crate) mod view;

pub use budget::budget_chars;
pub(crate) use fill::fill;
pub use view::signature_line;

use crate::db::{Db, Workspace};
use crate::search::FileHit;
use crate::walk::FileRole;

/// A test file the search down-weighted because the query did not ask for tests: left
/// out of sized output entirely.
pub(crate) fn is_unasked_test(hit: &FileHit) -> bool {
    hit.traits.test && hit.components.trait_factor < 1.0
}

/// Number of source files in the workspace: the repository size the budget tiers read.
pub fn source_file_count(db: &dyn Db, ws: Workspace) -> usize {
    ws.files(db)
        .iter()
        .filter(|f| matches!(f.role(db), FileRole::Source(_)))
        .count()
}
