//! The constants inside the search's feature extractors: how a query term's IDF turns into
//! a name, text, path or graph score before the model weighs those scores. They live here,
//! next to the model's weights ([`crate::SearchWeights`]), so every number that shapes a
//! ranking is in one place, carried by the rank model's `weights.json` and testable on its
//! own.
//!
//! `cargo xtask fit` learns from features recorded by `cargo xtask eval --json`, which were
//! computed with these constants; a constant can only be fitted offline when the recorded
//! features keep the parts it weighs apart. Each field says whether the fit learns it.

use serde::{Deserialize, Serialize};

/// The extractor constants. Defaults are [`SearchShape::UNFITTED`], so a weights file
/// written before a constant existed still loads.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SearchShape {
    /// BM25's term-frequency saturation `k1`. Not fitted (BM25 is not linear in it).
    pub bm25_k1: f64,
    /// BM25's length normalisation `b`. Not fitted (BM25 is not linear in it).
    pub bm25_b: f64,
    /// Share of a file's other name hits (capped at its best one) added to the best: a
    /// file declaring several matching names beats one declaring one. Fitted (the
    /// recorded components keep the best name and the rest apart).
    pub rest_name: f64,
    /// How much of a declaration's name score survives words of its name the query did
    /// not write: the score is multiplied by `floor + (1 - floor) × coverage`, coverage
    /// being the matched share of the name's distinct words. Not fitted (it acts per
    /// declaration, before the file's best one is chosen).
    pub coverage_floor: f64,
    /// Multiplier of a property's or variable's name score: members and locals name less
    /// of what a file is about than functions and types. Not fitted (per declaration).
    pub member_kind: f64,
    /// Multiplier of a name score when the query wrote the declaration's whole
    /// multi-word identifier (and of an import of it). Not fitted (per declaration).
    pub compound_name: f64,
    /// Weight of each edge kind when score spreads over the graph. Not fitted (the spread
    /// keeps only the best path to each node).
    pub edges: EdgeWeights,
    /// Multiplier of score per hop of spreading. Not fitted (per path).
    pub hop_decay: f64,
    /// Weight of a module re-exporting an identifier the query wrote whole, relative to a
    /// declaration of it. Not fitted (the file keeps the larger of this and its names).
    pub import_reexport: f64,
    /// Weight of a module importing such an identifier. Not fitted.
    pub import_plain: f64,
    /// Weight of a query term among the file name's words. Not fitted (the scale anchor
    /// of the path score, whose model weight is fitted).
    pub path_stem: f64,
    /// Weight of a query term among the directories' words. Fitted (the recorded
    /// components keep file-name and directory matches apart).
    pub path_dir: f64,
    /// Multiplier of the path score when the query wrote the file name's words as one
    /// identifier. Not fitted.
    pub compound_path: f64,
}

/// How much score crosses each kind of graph edge (before [`SearchShape::hop_decay`]).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EdgeWeights {
    /// From a container to what it contains (a module to its declarations).
    pub contains_down: f64,
    /// From a declaration to its container.
    pub contains_up: f64,
    /// Calls and renders, either way.
    pub calls: f64,
    /// Instantiates, extends and implements, either way.
    pub structural: f64,
    /// References, either way.
    pub references: f64,
    /// Imports, either way.
    pub imports: f64,
    /// Multiplier of an edge resolved by name only (not certain).
    pub uncertain: f64,
}

impl EdgeWeights {
    /// The hand-set edge weights.
    pub const UNFITTED: EdgeWeights = EdgeWeights {
        contains_down: 0.5,
        contains_up: 0.3,
        calls: 0.6,
        structural: 0.5,
        references: 0.4,
        imports: 0.25,
        uncertain: 0.5,
    };

    /// `weight` of an edge kind, lowered when the edge is not certain.
    pub fn certainty(&self, weight: f64, certain: bool) -> f64 {
        if certain {
            weight
        } else {
            weight * self.uncertain
        }
    }
}

impl Default for EdgeWeights {
    fn default() -> Self {
        EdgeWeights::UNFITTED
    }
}

impl SearchShape {
    /// The hand-set constants the search has always used.
    pub const UNFITTED: SearchShape = SearchShape {
        bm25_k1: 1.2,
        bm25_b: 0.75,
        rest_name: 0.25,
        coverage_floor: 0.5,
        member_kind: 0.7,
        compound_name: 2.0,
        edges: EdgeWeights::UNFITTED,
        hop_decay: 0.5,
        import_reexport: 1.0,
        import_plain: 0.5,
        path_stem: 1.0,
        path_dir: 0.5,
        compound_path: 1.5,
    };

    /// One term's BM25 contribution to a file holding it `tf` times among `doc_len`
    /// words, the repository's files averaging `avg_len` words.
    pub fn bm25(&self, idf: f64, tf: f64, doc_len: f64, avg_len: f64) -> f64 {
        let len_norm = 1.0 - self.bm25_b + self.bm25_b * doc_len / avg_len;
        idf * tf * (self.bm25_k1 + 1.0) / (tf + self.bm25_k1 * len_norm)
    }

    /// The multiplier of a declaration's name score when `coverage` (0..=1) of its
    /// name's distinct words matched.
    pub fn coverage(&self, coverage: f64) -> f64 {
        self.coverage_floor + (1.0 - self.coverage_floor) * coverage
    }

    /// A file's name score from its best declaration's and the sum of its others'.
    pub fn file_name(&self, best: f64, rest: f64) -> f64 {
        best + self.rest_name * rest.min(best)
    }

    /// The weight of an import of a whole identifier the query wrote, re-exported or not.
    pub fn import(&self, reexport: bool) -> f64 {
        if reexport {
            self.import_reexport
        } else {
            self.import_plain
        }
    }
}

impl Default for SearchShape {
    fn default() -> Self {
        SearchShape::UNFITTED
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const S: SearchShape = SearchShape::UNFITTED;

    #[test]
    fn bm25_grows_with_term_frequency_but_saturates() {
        let one = S.bm25(2.0, 1.0, 100.0, 100.0);
        let two = S.bm25(2.0, 2.0, 100.0, 100.0);
        let many = S.bm25(2.0, 1000.0, 100.0, 100.0);
        assert!(one < two && two < many);
        // Never more than (k1 + 1) × idf, however often the term occurs.
        assert!(many < 2.0 * (S.bm25_k1 + 1.0));
        // A file of average length holding the term once scores exactly its idf.
        assert!((one - 2.0).abs() < 1e-12);
    }

    #[test]
    fn bm25_favours_the_shorter_of_two_files_holding_a_term_as_often() {
        assert!(S.bm25(1.0, 3.0, 50.0, 100.0) > S.bm25(1.0, 3.0, 400.0, 100.0));
        let flat = SearchShape { bm25_b: 0.0, ..S };
        assert_eq!(
            flat.bm25(1.0, 3.0, 50.0, 100.0),
            flat.bm25(1.0, 3.0, 400.0, 100.0)
        );
    }

    #[test]
    fn coverage_keeps_the_floor_for_no_coverage_and_everything_for_full() {
        assert_eq!(S.coverage(0.0), S.coverage_floor);
        assert_eq!(S.coverage(1.0), 1.0);
        assert!(S.coverage(0.3) < S.coverage(0.6));
    }

    #[test]
    fn a_file_name_score_adds_a_capped_share_of_its_other_names() {
        assert_eq!(S.file_name(2.0, 0.0), 2.0);
        assert_eq!(S.file_name(2.0, 1.0), 2.0 + S.rest_name);
        // Many weak names never add more than the rest share of the best one.
        assert_eq!(S.file_name(2.0, 100.0), 2.0 + S.rest_name * 2.0);
    }

    #[test]
    fn a_reexport_weighs_at_least_a_plain_import_and_uncertain_edges_weigh_less() {
        assert!(S.import(true) >= S.import(false));
        let e = S.edges;
        assert_eq!(e.certainty(e.calls, true), e.calls);
        assert!(e.certainty(e.calls, false) < e.calls);
    }

    #[test]
    fn every_unfitted_constant_keeps_scores_positive_and_decaying() {
        let s = SearchShape::default();
        for w in [
            s.rest_name,
            s.coverage_floor,
            s.member_kind,
            s.hop_decay,
            s.import_plain,
            s.import_reexport,
            s.path_dir,
            s.path_stem,
            s.edges.contains_down,
            s.edges.contains_up,
            s.edges.calls,
            s.edges.structural,
            s.edges.references,
            s.edges.imports,
            s.edges.uncertain,
        ] {
            assert!((0.0..=1.0).contains(&w) && w > 0.0, "{s:?}");
        }
        assert!(s.compound_name >= 1.0 && s.compound_path >= 1.0);
    }

    #[test]
    fn a_weights_file_without_some_constants_loads_them_unfitted() {
        let partial: SearchShape =
            serde_json::from_str(r#"{"rest_name": 0.4, "edges": {"calls": 0.7}}"#).unwrap();
        assert_eq!(partial.rest_name, 0.4);
        assert_eq!(partial.edges.calls, 0.7);
        assert_eq!(partial.edges.imports, EdgeWeights::UNFITTED.imports);
        assert_eq!(partial.bm25_k1, S.bm25_k1);
        let none: SearchShape = serde_json::from_str("{}").unwrap();
        assert_eq!(none, S);
    }
}
