//! The unweighted components of the search's score of one file, kept on each candidate the
//! search showed so later stages can weigh them (the rank stage does; nothing before it).

use serde::{Deserialize, Serialize};

/// Weights of the components in the search's own total, which orders its files.
const W_NAME: f64 = 1.0;
const W_LEXICAL: f64 = 0.35;
const W_PATH: f64 = 0.8;
const W_GRAPH: f64 = 0.6;

/// The search's per-file score, component by component, before weighting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreComponents {
    /// Query terms matched in declaration names, IDF-weighted.
    pub name: f64,
    /// File-level BM25 over split identifiers.
    pub lexical: f64,
    /// Query terms matched in the file's path words.
    pub path: f64,
    /// Score spread over graph edges from the best name hits.
    pub graph: f64,
    /// Multiplier applied for secondary traits (1.0 when none applies).
    pub trait_factor: f64,
}

impl ScoreComponents {
    /// The search's own weighted total, which orders the files it returns.
    pub fn total(&self) -> f64 {
        (W_NAME * self.name + W_LEXICAL * self.lexical + W_PATH * self.path + W_GRAPH * self.graph)
            * self.trait_factor
    }
}
