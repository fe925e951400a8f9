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
    /// Weight of the query's literals naming one of the file's declarations.
    pub literal_name: f64,
    /// Weight of the query's literals naming the file's path.
    pub literal_path: f64,
    /// Weight of the query's literals occurring verbatim in the file's text.
    pub literal_text: f64,
    /// Weight of the query's terms gathered in one short run of the file's lines.
    pub proximity: f64,
    /// Share of score a secondary file (test, example, generated, vendored) keeps unless
    /// the caller asked for such files.
    pub secondary_factor: f64,
    /// Share a declaration-only file (`.d.ts`) keeps: it describes code living elsewhere.
    pub declaration_only_factor: f64,
    /// How far the first file must outscore the second for the exploration to treat it as
    /// the answer (show its places, list the others by signature): the rank model's
    /// calibrated threshold of high confidence.
    pub decisive_margin: f64,
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
        literal_name: 1.0,
        literal_path: 1.0,
        literal_text: 0.5,
        proximity: 0.3,
        secondary_factor: 0.3,
        declaration_only_factor: 0.6,
        decisive_margin: 1.5,
        shape: SearchShape::UNFITTED,
    };
}

impl Default for SearchWeights {
    fn default() -> Self {
        SearchWeights::UNFITTED
    }
}

/// The search's per-file score, component by component, before weighting. The name and
/// path components are kept in the parts [`SearchShape`]'s `rest_name` and `path_dir`
/// weigh, so that a fit over recorded components can learn those two constants.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreComponents {
    /// The file's best declaration-name match (or import of a whole identifier the query
    /// wrote), IDF-weighted.
    pub name: f64,
    /// The sum of the file's other declaration-name matches, before
    /// [`SearchShape::rest_name`].
    #[serde(default)]
    pub name_rest: f64,
    /// File-level BM25 over split identifiers.
    pub lexical: f64,
    /// Query terms matched in the file name's words, before [`SearchShape::path_stem`].
    pub path: f64,
    /// Query terms matched in the directories' words (and not the file name's), before
    /// [`SearchShape::path_dir`].
    #[serde(default)]
    pub path_dir: f64,
    /// Score spread over graph edges from the best name hits.
    pub graph: f64,
    /// The specificity (IDF over the files it matched) of the query's literals that name
    /// one of the file's declarations exactly, summed.
    #[serde(default)]
    pub literal_name: f64,
    /// The same for literals naming the file's path (its name, stem, a directory, a tail).
    #[serde(default)]
    pub literal_path: f64,
    /// The same for literals found verbatim in the file's text (string literals, code).
    #[serde(default)]
    pub literal_text: f64,
    /// The IDF of the distinct query terms found together in the file's best short run of
    /// lines: several of the query's words in one place, not scattered over the file.
    #[serde(default)]
    pub proximity: f64,
    /// A prior, not a match (the search's own score ignores it): the file's length against
    /// the repository's, `ln(words / mean words per file)`. Large files change more often.
    #[serde(default)]
    pub size: f64,
    /// Multiplier applied for secondary traits (1.0 when none applies).
    pub trait_factor: f64,
}

impl ScoreComponents {
    /// The name component under `shape`: the best match plus a capped share of the rest.
    pub fn name_score(&self, shape: &SearchShape) -> f64 {
        shape.file_name(self.name, self.name_rest)
    }

    /// The path component under `shape`: file-name and directory words weighed apart.
    pub fn path_score(&self, shape: &SearchShape) -> f64 {
        shape.path_stem * self.path + shape.path_dir * self.path_dir
    }

    /// The unweighted sum of the match components (name and path parts combined by the
    /// unfitted constants): which of two sightings of one file matched more, for a caller
    /// that holds no model.
    pub fn sum(&self) -> f64 {
        let shape = SearchShape::UNFITTED;
        self.name_score(&shape)
            + self.lexical
            + self.path_score(&shape)
            + self.graph
            + self.literal_sum()
            + self.proximity
    }

    /// The literal components together, unweighted.
    pub fn literal_sum(&self) -> f64 {
        self.literal_name + self.literal_path + self.literal_text
    }

    /// The file's score under `w` (its trait factor was taken from the same weights).
    pub fn total(&self, w: &SearchWeights) -> f64 {
        (w.name * self.name_score(&w.shape)
            + w.lexical * self.lexical
            + w.path * self.path_score(&w.shape)
            + w.graph * self.graph
            + w.literal_name * self.literal_name
            + w.literal_path * self.literal_path
            + w.literal_text * self.literal_text
            + w.proximity * self.proximity)
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

    /// Every search component set, each to a different value.
    fn mixed() -> ScoreComponents {
        ScoreComponents {
            name: 1.0,
            lexical: 2.0,
            path: 3.0,
            graph: 4.0,
            trait_factor: 1.0,
            ..ScoreComponents::default()
        }
    }

    #[test]
    fn each_component_counts_by_its_own_weight() {
        assert_eq!(only(|c| c.name = 2.0).total(&W), 2.0 * W.name);
        assert_eq!(only(|c| c.lexical = 2.0).total(&W), 2.0 * W.lexical);
        assert_eq!(only(|c| c.path = 2.0).total(&W), 2.0 * W.path);
        assert_eq!(only(|c| c.graph = 2.0).total(&W), 2.0 * W.graph);
        assert_eq!(
            only(|c| c.literal_name = 2.0).total(&W),
            2.0 * W.literal_name
        );
        assert_eq!(
            only(|c| c.literal_path = 2.0).total(&W),
            2.0 * W.literal_path
        );
        assert_eq!(
            only(|c| c.literal_text = 2.0).total(&W),
            2.0 * W.literal_text
        );
        assert_eq!(only(|c| c.proximity = 2.0).total(&W), 2.0 * W.proximity);
        let all = mixed();
        let parts = W.name + 2.0 * W.lexical + 3.0 * W.path + 4.0 * W.graph;
        assert!((all.total(&W) - parts).abs() < 1e-12);
        assert_eq!(all.sum(), 10.0);
    }

    #[test]
    fn the_name_and_path_parts_are_weighed_by_the_shape_constants() {
        let s = W.shape;
        let names = only(|c| {
            c.name = 2.0;
            c.name_rest = 1.0;
        });
        assert_eq!(names.name_score(&s), 2.0 + s.rest_name);
        assert_eq!(names.total(&W), W.name * (2.0 + s.rest_name));
        let dirs = only(|c| {
            c.path = 1.0;
            c.path_dir = 2.0;
        });
        assert_eq!(dirs.path_score(&s), s.path_stem + 2.0 * s.path_dir);
        let no_dirs = SearchWeights {
            shape: SearchShape { path_dir: 0.0, ..s },
            ..W
        };
        assert_eq!(dirs.total(&no_dirs), W.path * s.path_stem);
        assert_eq!(dirs.sum(), s.path_stem + 2.0 * s.path_dir);
    }

    #[test]
    fn the_trait_factor_scales_the_whole_score() {
        let c = mixed();
        let penalised = ScoreComponents {
            trait_factor: W.secondary_factor,
            ..c
        };
        assert!((penalised.total(&W) - c.total(&W) * W.secondary_factor).abs() < 1e-12);
        // The unweighted sum ignores the factor: it compares sightings, not rankings.
        assert_eq!(penalised.sum(), c.sum());
    }
}
