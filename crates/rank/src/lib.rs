//! The rank stage: scores candidates from structural features, builds a bounded diverse
//! packet, and derives the deterministic selection used when no value model runs.
//!
//! Contract: [`Features::of`] turns a registry [`Candidate`](sightline_registry::Candidate)
//! and the query's terms into typed, unweighted features (the search's components, symbol
//! and term matches, path traits, range width). One model, [`Weights`] (checked in as
//! `weights.json`, written by `cargo xtask fit`), weighs them into an explained
//! [`ScoreBreakdown`]; its search part ([`Weights::search`]) also orders `explore_code`'s
//! files, so the tool and the packet follow the same weights. [`build_packet`] keeps a
//! bounded, diverse list of the best candidates; [`fallback_selection`] derives a
//! deterministic selection from it; [`explore_deterministic`] runs all of it from a query.
//! [`session_ranking`] is the tracked form of that last step: a session's ranking is
//! derived once per change of its calls or of the tree (its [`Db`] is implemented for the
//! pipeline's `RegistryDatabase`).
//!
//! Invariants (property tests in `tests/model_properties.rs` and `tests/packet.rs`):
//! - A candidate whose features dominate another's never scores lower; penalties (a
//!   secondary or declaration-only file, no range, a wide range) only lower a score; scores
//!   are finite, non-negative and deterministic.
//! - The packet respects its character budget and diversity limits and is ordered by score.
//! - The fallback cites only packet candidates with a range, one per file, at most five,
//!   each scoring at least 0.4 of the best (0.6 past the third); its confidence is the level
//!   the fitted [`ConfidenceModel`] gives the margin of the best file over the next
//!   ([`margin`]) and the kinds of evidence it leads on ([`lead_kinds`]), never above what
//!   its cut-offs allow, and `low` when no quote backs a place.
//! - Its runners-up are the packet's next files after the primary places' (one candidate
//!   each, the file's best entry), in packet order, so that at most five files are named in
//!   all; none when the ranking is decisive (`high`) or no place is cited (property tests in
//!   `tests/runners_up.rs`).
//!
//! Embedding it on its own: score two candidates' features with the checked-in model.
//!
//! ```
//! use sightline_rank::{Features, Weights};
//!
//! let named = Features { search_name: 3.0, symbol_name: 2.0, width: 12, ..Features::default() };
//! let test_file = Features { secondary: true, ..named };
//! let w = Weights::fitted();
//! let (a, b) = (w.score(&named, false), w.score(&test_file, false));
//! assert!(a.total > b.total, "a test file is penalised unless tests were asked for");
//! assert_eq!(w.score(&test_file, true).total, a.total);
//! ```
#![warn(missing_docs)]

pub mod chain_flow;
pub mod confidence;
pub mod db;
pub mod evidence;
pub mod fallback;
pub mod model;
pub mod packet;
pub mod pipeline;
pub mod score;

pub use confidence::{
    ConfidenceInputs, ConfidenceModel, EVIDENCE_KINDS, LeadWeights, lead_kinds, margin,
};
pub use db::{Db, ModelKey, ranked, session_ranking};
pub use fallback::fallback_selection;
pub use model::{Features, ScoreBreakdown, Weights};
pub use packet::{Packet, PacketEntry, PacketOptions, build_packet, rank_all};
pub use pipeline::{
    ExploreRun, explore_deterministic, explore_deterministic_with, finish, finish_with,
};
pub use score::score;
