//! Invariants of the scoring model, for the checked-in weights and for any weights a fit
//! may produce (non-negative, penalty factors within 0..=1).

use proptest::prelude::*;
use sightline_rank::{Features, Weights};

fn features() -> impl Strategy<Value = Features> {
    (
        (0.0..20.0f64, 0.0..20.0f64, 0.0..20.0f64, 0.0..20.0f64),
        (0.0..20.0f64, 0.0..20.0f64, 0.0..20.0f64, 0.0..20.0f64),
        (any::<bool>(), any::<bool>(), any::<bool>(), 1u32..2000),
        proptest::array::uniform5(0.0..20.0f64),
        -4.0..4.0f64,
    )
        .prop_map(
            |((n, l, p, g), (s, m, rest, dir), (sec, decl, rangeless, width), lit, size)| {
                Features {
                    search_name: n,
                    search_name_rest: rest,
                    search_lexical: l,
                    search_path: p,
                    search_path_dir: dir,
                    search_graph: g,
                    search_literal_name: lit[0],
                    search_literal_path: lit[1],
                    search_literal_text: lit[2],
                    search_proximity: lit[3],
                    symbol_literal: lit[4],
                    symbol_name: s,
                    matched_lexical: m,
                    secondary: sec,
                    declaration_only: decl,
                    rangeless,
                    width: if rangeless { 0 } else { width },
                    size,
                }
            },
        )
}

fn weights() -> impl Strategy<Value = Weights> {
    (
        (
            0.0..4.0f64,
            0.0..4.0f64,
            0.0..4.0f64,
            0.0..4.0f64,
            0.0..4.0f64,
        ),
        (
            0.0..4.0f64,
            0.0..=1.0f64,
            0.0..=1.0f64,
            0.0..=1.0f64,
            0.0..2.0f64,
        ),
        (0.0..=1.0f64, 0.0..=2.0f64),
        proptest::array::uniform5(0.0..4.0f64),
        // The size prior may favour or disfavour large files.
        -1.0..1.0f64,
    )
        .prop_map(
            |((a, b, c, d, e), (f, g, h, i, j), (rest, dir), lit, size)| {
                let mut v = vec![a, b, c, d, e, f, g, h, i, j, rest, dir];
                v.extend(lit);
                v.push(size);
                Weights::prior()
                    .with_fitted(&v)
                    .expect("every fitted weight")
            },
        )
}

/// `better` matches at least as much as `base` on every feature, has no penalty `base`
/// lacks, is no wider, and has the same file size (a prior, not a match).
fn dominating(base: Features, gains: [f64; 13]) -> Features {
    Features {
        search_name: base.search_name + gains[0],
        search_name_rest: base.search_name_rest + gains[6],
        search_lexical: base.search_lexical + gains[1],
        search_path: base.search_path + gains[2],
        search_path_dir: base.search_path_dir + gains[7],
        search_graph: base.search_graph + gains[3],
        search_literal_name: base.search_literal_name + gains[8],
        search_literal_path: base.search_literal_path + gains[9],
        search_literal_text: base.search_literal_text + gains[10],
        search_proximity: base.search_proximity + gains[11],
        symbol_literal: base.symbol_literal + gains[12],
        symbol_name: base.symbol_name + gains[4],
        matched_lexical: base.matched_lexical + gains[5],
        secondary: false,
        declaration_only: false,
        rangeless: false,
        width: base.width.clamp(1, 80),
        ..base
    }
}

proptest! {
    #[test]
    fn a_candidate_whose_features_dominate_never_scores_lower(
        base in features(),
        gains in proptest::array::uniform13(0.0..5.0f64),
        w in weights(),
        include_secondary in any::<bool>(),
    ) {
        let better = dominating(base, gains);
        for w in [w, *Weights::fitted()] {
            let (b, a) = (w.score(&better, include_secondary).total, w.score(&base, include_secondary).total);
            prop_assert!(b >= a - 1e-9, "{better:?} scored {b} below {base:?} at {a} with {w:?}");
        }
    }

    #[test]
    fn scores_are_finite_non_negative_and_deterministic(f in features(), w in weights()) {
        let s = w.score(&f, false);
        prop_assert!(s.total.is_finite() && s.total >= 0.0, "{s:?}");
        prop_assert_eq!(s, w.score(&f, false));
    }

    #[test]
    fn a_zero_size_weight_leaves_the_score_to_the_matches(f in features(), w in weights()) {
        let plain = Weights { size: 0.0, ..w };
        let without = Features { size: 0.0, ..f };
        prop_assert_eq!(plain.score(&f, false).total, plain.score(&without, false).total);
        prop_assert_eq!(plain.score(&f, false).prior, 1.0);
    }

    #[test]
    fn a_prior_weighed_up_orders_equal_matches_by_that_prior(
        f in features(),
        w in weights(),
        more in 0.1..3.0f64,
    ) {
        // Two candidates matching alike: the one with the larger file wins under a positive
        // size weight, and loses under a negative one, unless both score nothing.
        let larger = Features { size: f.size + more, ..f };
        let up = Weights { size: 0.5, ..w };
        let down = Weights { size: -0.5, ..w };
        let (a, b) = (up.score(&larger, false).total, up.score(&f, false).total);
        prop_assert!(a >= b, "{a} < {b}");
        let (a, b) = (down.score(&larger, false).total, down.score(&f, false).total);
        prop_assert!(a <= b, "{a} > {b}");
    }

    #[test]
    fn asking_for_secondary_files_never_lowers_a_score(f in features(), w in weights()) {
        prop_assert!(w.score(&f, true).total >= w.score(&f, false).total - 1e-9);
    }
}
