//! The rank stage: scores candidates from structural features, builds a bounded diverse
//! packet, and derives the deterministic selection used when no value model runs.

pub mod fallback;
pub mod packet;
pub mod pipeline;
pub mod score;

pub use fallback::fallback_selection;
pub use packet::{Packet, PacketEntry, PacketOptions, build_packet, rank_all};
pub use pipeline::{ExploreRun, explore_deterministic, finish};
pub use score::{ScoreBreakdown, score};
