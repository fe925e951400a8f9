//! The search's extractor constants ([`SearchShape`]) as the search applies them on a real
//! index: the constants `cargo xtask fit` learns act only on the weighing of recorded
//! components, never on the components themselves, and the per-declaration constants move
//! exactly the scores they name.

mod common;

use sightline_observe::Index;
use sightline_observe::search::{SearchOptions, SearchResult, SearchShape, SearchWeights, search};

fn search_with(index: &Index, query: &str, shape: SearchShape) -> SearchResult {
    let opts = SearchOptions {
        weights: SearchWeights {
            shape,
            ..SearchWeights::UNFITTED
        },
        ..SearchOptions::default()
    };
    search(index.db(), index.workspace(), query, &opts)
}

#[test]
fn the_fitted_constants_leave_every_recorded_component_unchanged() {
    let index = common::fixture_index();
    let unfitted = SearchShape::UNFITTED;
    let refitted = SearchShape {
        rest_name: 0.9,
        path_dir: 1.7,
        ..unfitted
    };
    let (mut rests, mut dirs) = (0, 0);
    for query in ["record store save", "format label", "shared ids"] {
        let a = search_with(&index, query, unfitted);
        let b = search_with(&index, query, refitted);
        let components = |r: &SearchResult| {
            let mut c: Vec<_> = r.files.iter().map(|f| (f.file, f.components)).collect();
            c.sort_by_key(|x| x.0);
            c
        };
        assert!(!a.files.is_empty(), "{query}");
        rests += a
            .files
            .iter()
            .filter(|f| f.components.name_rest > 0.0)
            .count();
        dirs += a
            .files
            .iter()
            .filter(|f| f.components.path_dir > 0.0)
            .count();
        // What a fit over recorded components assumes: they do not depend on the
        // constants it learns, only the scores weighed from them do.
        assert_eq!(components(&a), components(&b), "{query}");
        for f in &b.files {
            assert_eq!(
                f.score,
                f.components.total(&SearchWeights {
                    shape: refitted,
                    ..SearchWeights::UNFITTED
                }),
                "{query}: file {}",
                f.file
            );
        }
    }
    // The queries exercise both fitted constants.
    assert!(rests > 0 && dirs > 0, "{rests} {dirs}");
}

#[test]
fn a_variable_scores_the_member_kind_share_of_a_function_with_the_same_name() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("parse.ts"),
        "export function parseConfig(text: string) {\n  return text;\n}\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("settings.ts"),
        "export const parseConfig = 1;\n",
    )
    .unwrap();
    let index = common::open_uncached(dir.path());
    let name_scores = |shape: SearchShape| -> Vec<f64> {
        let r = search_with(&index, "parse config", shape);
        let mut scores: Vec<f64> = r
            .symbols
            .iter()
            .map(|s| s.name_score)
            .filter(|&s| s > 0.0)
            .collect();
        scores.sort_by(f64::total_cmp);
        scores
    };
    let shape = SearchShape::UNFITTED;
    let scores = name_scores(shape);
    assert_eq!(scores.len(), 2, "{scores:?}");
    assert!(
        (scores[0] - scores[1] * shape.member_kind).abs() < 1e-9,
        "{scores:?}"
    );
    let alike = name_scores(SearchShape {
        member_kind: 1.0,
        ..shape
    });
    assert_eq!(alike[0], alike[1], "{alike:?}");
}
