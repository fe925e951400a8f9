//! The unweighted components of the search's score of one file, kept on each candidate the
//! search showed so later stages can weigh them, and the weights that order the search's
//! files (the rank stage's fitted model supplies them).

use serde::{Deserialize, Serialize};

use crate::search_shape::SearchShape;

/// How the search weighs a file's components into the order it shows files in. The
/// values belong to the rank crate's fitted model (`sightline_rank::Weights::search`),
/// which every product path passes in; [`SearchWeights::UNFITTED`] is what a caller
/// without a model (observe's own tests, benches, embedders of `observe` alone) gets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchWeights {
    /// Weight of declaration-name matches.
    pub name: f64,
    /// Weight of the file's BM25.
    pub lexical: f64,
    /// Weight of path-word matches.
    pub path: f64,
    /// Weight of graph proximity to the best name matches.
    pub graph: f64,
    /// Share of score a secondary file (test, example, generated, vendored) keeps unless
    /// the caller asked for such files.
    pub secondary_factor: f64,
    /// Share a declaration-only file (`.d.ts`) keeps: it describes code living elsewhere.
    pub declaration_only_factor: f64,
    /// The constants inside the extractors that compute the components.
    pub shape: SearchShape,
}

impl SearchWeights {
    /// The hand-set weights the search used before the rank model was fitted.
    pub const UNFITTED: SearchWeights = SearchWeights {
        name: 1.0,
        lexical: 0.35,
        path: 0.8,
        graph: 0.6,
        secondary_factor: 0.3,
        declaration_only_factor: 0.6,
        shape: SearchShape::UNFITTED,
    };
}

impl Default for SearchWeights {
    fn default() -> Self {
        SearchWeights::UNFITTED
    }
}

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
    /// The unweighted sum of the match components: which of two sightings of one file
    /// matched more, for a caller that holds no model.
    pub fn sum(&self) -> f64 {
        self.name + self.lexical + self.path + self.graph
    }

    /// The file's score under `w` (its trait factor was taken from the same weights).
    pub fn total(&self, w: &SearchWeights) -> f64 {
        (w.name * self.name + w.lexical * self.lexical + w.path * self.path + w.graph * self.graph)
            * self.trait_factor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const W: SearchWeights = SearchWeights::UNFITTED;

    fn only(f: impl FnOnce(&mut ScoreComponents)) -> ScoreComponents {
        let mut c = ScoreComponents {
            trait_factor: 1.0,
            ..ScoreComponents::default()
        };
        f(&mut c);
        c
    }

    #[test]
    fn each_component_counts_by_its_own_weight() {
        assert_eq!(only(|c| c.name = 2.0).total(&W), 2.0 * W.name);
        assert_eq!(only(|c| c.lexical = 2.0).total(&W), 2.0 * W.lexical);
        assert_eq!(only(|c| c.path = 2.0).total(&W), 2.0 * W.path);
        assert_eq!(only(|c| c.graph = 2.0).total(&W), 2.0 * W.graph);
        let all = ScoreComponents {
            name: 1.0,
            lexical: 2.0,
            path: 3.0,
            graph: 4.0,
            trait_factor: 1.0,
        };
        let parts = W.name + 2.0 * W.lexical + 3.0 * W.path + 4.0 * W.graph;
        assert!((all.total(&W) - parts).abs() < 1e-12);
        assert_eq!(all.sum(), 10.0);
    }

    #[test]
    fn the_trait_factor_scales_the_whole_score() {
        let c = ScoreComponents {
            name: 1.0,
            lexical: 2.0,
            path: 3.0,
            graph: 4.0,
            trait_factor: 1.0,
        };
        let penalised = ScoreComponents {
            trait_factor: W.secondary_factor,
            ..c
        };
        assert!((penalised.total(&W) - c.total(&W) * W.secondary_factor).abs() < 1e-12);
        // The unweighted sum ignores the factor: it compares sightings, not rankings.
        assert_eq!(penalised.sum(), c.sum());
    }
}
