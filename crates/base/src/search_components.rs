//! The unweighted components of the search's score of one file, kept on each candidate the
//! search showed so later stages can weigh them (the rank stage does; nothing before it).

use serde::{Deserialize, Serialize};

/// Weights of the components in the search's own total, which orders its files.
const W_NAME: f64 = 1.0;
const W_LEXICAL: f64 = 0.35;
const W_PATH: f64 = 0.8;
const W_GRAPH: f64 = 0.6;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreComponents {
    pub name: f64,
    pub lexical: f64,
    pub path: f64,
    pub graph: f64,
    /// Multiplier applied for secondary traits (1.0 when none applies).
    pub trait_factor: f64,
}

impl ScoreComponents {
    pub fn total(&self) -> f64 {
        (W_NAME * self.name + W_LEXICAL * self.lexical + W_PATH * self.path + W_GRAPH * self.graph)
            * self.trait_factor
    }
}
