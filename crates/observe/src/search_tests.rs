//! Unit tests of the search's feature extractors, each against the constant of
//! [`SearchShape`] it applies: changing a constant moves exactly the score it names.

use super::*;
use sightline_base::EdgeWeights;

const S: SearchShape = SearchShape::UNFITTED;

use crate::terms::{compound_key, matched_subwords, subword_count, term_words};

/// [`super::name_score`] with fresh scratch.
fn name_score(name: &str, terms: &QueryTerms, shape: &SearchShape) -> (f64, Vec<String>) {
    super::name_score(name, terms, shape, &mut NameWords::default())
}

/// The name score as the separate passes over the name compute it (split and stem it,
/// count its subwords, build its compound key, find its matched subwords): what the one
/// pass of [`super::name_score`] must equal, bit for bit.
fn name_score_by_passes(name: &str, terms: &QueryTerms, shape: &SearchShape) -> (f64, Vec<String>) {
    let words = term_words(name);
    if words.is_empty() {
        return (0.0, Vec::new());
    }
    let mut matched: Vec<String> = Vec::new();
    let mut score = 0.0;
    for w in &words {
        if matched.contains(w) {
            continue;
        }
        if let Some(t) = terms.get(w).filter(|t| !t.compound) {
            score += t.idf;
            matched.push(w.clone());
        }
    }
    if matched.is_empty() {
        return (0.0, matched);
    }
    let distinct_words = {
        let mut w = words.clone();
        w.sort();
        w.dedup();
        w.len()
    };
    let coverage = matched.len() as f64 / distinct_words as f64;
    score *= shape.coverage(coverage);
    if subword_count(name) > 1 && terms.get(&compound_key(name)).is_some_and(|t| t.compound) {
        score *= shape.compound_name;
    }
    (score, matched_subwords(name, &matched))
}

proptest::proptest! {
    #[test]
    fn one_pass_name_scores_equal_the_separate_passes(
        name in "([a-zA-Z]{1,7}[0-9]{0,2}|[_$.]|HTTP|Routes|routing|İx){0,10}|\\PC{0,16}",
        query in proptest::collection::vec(
            ("[a-z]{2,6}[0-9]{0,1}|rout|http|routingroutes", 0.1f64..9.0, proptest::bool::ANY),
            0..6,
        ),
    ) {
        let list: Vec<(&str, f64, bool)> =
            query.iter().map(|(t, idf, c)| (t.as_str(), *idf, *c)).collect();
        let mut q = terms(&list);
        // Also the terms the name itself has, so that names match.
        for (i, t) in term_words(&name).into_iter().enumerate().step_by(2) {
            q.terms.push(crate::query::QueryTerm { term: t, idf: 0.5 + i as f64, df: 1, compound: false });
        }
        q.terms.push(crate::query::QueryTerm { term: compound_key(&name), idf: 3.0, df: 1, compound: true });
        let mut scratch = NameWords::default();
        scratch.read("unrelatedPreviousName");
        let (score, shown) = super::name_score(&name, &q, &S, &mut scratch);
        let (expected, expected_shown) = name_score_by_passes(&name, &q, &S);
        proptest::prop_assert_eq!(score.to_bits(), expected.to_bits());
        proptest::prop_assert_eq!(shown, expected_shown);
    }
}

/// Query terms with the given IDFs; `compound` marks whole multi-word identifiers.
fn terms(list: &[(&str, f64, bool)]) -> QueryTerms {
    QueryTerms {
        terms: list
            .iter()
            .map(|&(term, idf, compound)| crate::query::QueryTerm {
                term: term.to_owned(),
                idf,
                df: 1,
                compound,
            })
            .collect(),
        unknown: Vec::new(),
        literals: Vec::new(),
    }
}

/// The normalised word of `w` (stemmed as identifier words are).
fn word(w: &str) -> String {
    term_words(w).pop().expect("a word")
}

fn parse_config() -> QueryTerms {
    terms(&[(&word("parse"), 2.0, false), (&word("config"), 3.0, false)])
}

#[test]
fn a_name_without_query_words_scores_nothing() {
    let (score, matched) = name_score("renderWidget", &parse_config(), &S);
    assert_eq!(score, 0.0);
    assert!(matched.is_empty());
}

#[test]
fn a_fully_covered_name_scores_the_sum_of_its_terms_idf() {
    let (score, matched) = name_score("parseConfig", &parse_config(), &S);
    assert_eq!(score, 5.0);
    assert_eq!(matched.len(), 2);
}

#[test]
fn words_the_query_did_not_write_lower_a_name_by_the_coverage_constant() {
    let (score, _) = name_score("parseConfigFile", &parse_config(), &S);
    assert_eq!(score, 5.0 * S.coverage(2.0 / 3.0));
    assert!(score < 5.0);
    let no_penalty = SearchShape {
        coverage_floor: 1.0,
        ..S
    };
    assert_eq!(
        name_score("parseConfigFile", &parse_config(), &no_penalty).0,
        5.0
    );
}

#[test]
fn a_repeated_word_in_a_name_counts_once() {
    let (score, matched) = name_score("configConfig", &parse_config(), &S);
    assert_eq!(score, 3.0);
    assert_eq!(matched, vec![word("config")]);
}

#[test]
fn the_whole_identifier_written_in_the_query_multiplies_by_the_compound_constant() {
    let mut with_compound = parse_config();
    with_compound.terms.push(crate::query::QueryTerm {
        term: compound_key("parseConfig"),
        idf: 4.0,
        df: 1,
        compound: true,
    });
    let (score, _) = name_score("parseConfig", &with_compound, &S);
    assert_eq!(score, 5.0 * S.compound_name);
    // A compound term never matches as a plain word of another name.
    let (other, _) = name_score("parseConfigLoader", &with_compound, &S);
    assert_eq!(other, 5.0 * S.coverage(2.0 / 3.0));
}

fn path_words(stem: &[&str], dirs: &[&str]) -> (Vec<String>, Vec<String>) {
    (
        stem.iter().map(|w| word(w)).collect(),
        dirs.iter().map(|w| word(w)).collect(),
    )
}

#[test]
fn a_path_keeps_file_name_and_directory_matches_apart() {
    let t = parse_config();
    assert_eq!(
        path_score(&path_words(&["config"], &["src"]), &t, &S),
        (3.0, 0.0)
    );
    assert_eq!(
        path_score(&path_words(&["index"], &["config"]), &t, &S),
        (0.0, 3.0)
    );
    assert_eq!(
        path_score(&path_words(&["parse"], &["config"]), &t, &S),
        (2.0, 3.0)
    );
    // A word in both the file name and a directory counts once, as the file name's.
    assert_eq!(
        path_score(&path_words(&["config"], &["config"]), &t, &S),
        (3.0, 0.0)
    );
}

#[test]
fn a_file_name_spelled_as_one_identifier_multiplies_by_the_compound_path_constant() {
    let mut t = parse_config();
    let stem = path_words(&["parse", "config"], &[]);
    let plain = path_score(&stem, &t, &S);
    t.terms.push(crate::query::QueryTerm {
        term: stem.0.concat(),
        idf: 4.0,
        df: 1,
        compound: true,
    });
    let compound = path_score(&stem, &t, &S);
    assert_eq!(compound.0, plain.0 * S.compound_path);
    assert_eq!(compound.1, plain.1 * S.compound_path);
}

#[test]
fn only_whole_identifiers_score_imports_and_a_reexport_by_its_own_constant() {
    let t = terms(&[("recordstore", 3.0, true), ("record", 1.0, false)]);
    let plain = [("recordstore".to_owned(), false)];
    let reexport = [("recordstore".to_owned(), true)];
    let subword = [("record".to_owned(), true)];
    assert_eq!(
        import_score(&plain, &t, &S),
        3.0 * S.compound_name * S.import_plain
    );
    assert_eq!(
        import_score(&reexport, &t, &S),
        3.0 * S.compound_name * S.import_reexport
    );
    assert_eq!(import_score(&subword, &t, &S), 0.0);
    // The best key counts, not the sum.
    let both = [plain[0].clone(), reexport[0].clone()];
    assert_eq!(import_score(&both, &t, &S), import_score(&reexport, &t, &S));
}

#[test]
fn every_edge_kind_spreads_by_its_constant_and_uncertain_edges_by_less() {
    let e = S.edges;
    let cases = [
        (EdgeKind::Contains, false, e.contains_down),
        (EdgeKind::Contains, true, e.contains_up),
        (EdgeKind::Calls, false, e.calls),
        (EdgeKind::Renders, true, e.calls),
        (EdgeKind::Instantiates, false, e.structural),
        (EdgeKind::Extends, true, e.structural),
        (EdgeKind::Implements, false, e.structural),
        (EdgeKind::References, true, e.references),
        (EdgeKind::Imports, false, e.imports),
    ];
    for (kind, incoming, want) in cases {
        assert_eq!(edge_weight(kind, incoming, true, &S), want, "{kind:?}");
        assert_eq!(
            edge_weight(kind, incoming, false, &S),
            want * e.uncertain,
            "{kind:?}"
        );
    }
    let no_imports = SearchShape {
        edges: EdgeWeights { imports: 0.0, ..e },
        ..S
    };
    assert_eq!(edge_weight(EdgeKind::Imports, true, true, &no_imports), 0.0);
    assert_eq!(
        edge_weight(EdgeKind::Calls, true, true, &no_imports),
        e.calls
    );
}
