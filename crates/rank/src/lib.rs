//! The rank stage: scores candidates from structural features, builds a bounded diverse
//! packet, and derives the deterministic selection used when no value model runs.

pub mod fallback;
pub mod model;
pub mod packet;
pub mod pipeline;
pub mod score;

pub use fallback::fallback_selection;
pub use model::{Features, ScoreBreakdown, Weights};
pub use packet::{Packet, PacketEntry, PacketOptions, build_packet, rank_all};
pub use pipeline::{
    ExploreRun, explore_deterministic, explore_deterministic_with, finish, finish_with,
};
pub use score::score;
