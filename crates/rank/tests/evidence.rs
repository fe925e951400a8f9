//! Evidence lines of the deterministic selection: every line a flow link quotes lies in its
//! place's range and reads, at the number it names, as the file does; and a line earns its
//! place only by a specific word, never by a common one alone.

use std::path::PathBuf;

use proptest::prelude::*;
use sightline_observe::path_traits::PathTraits;
use sightline_observe::query::{QueryTerm, QueryTerms};
use sightline_observe::{CacheMode, Index, IndexOptions, LineRange};
use sightline_rank::evidence::evidence_lines;
use sightline_rank::explore_deterministic;
use sightline_registry::selection::MAX_EVIDENCE_LINES;
use sightline_registry::{
    Candidate, CandidateId, CandidateSymbol, Intent, ObservedText, RegistryDatabase,
};

fn fixture_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app")
}

fn fixture_index() -> Index<RegistryDatabase> {
    Index::open_with_db(
        RegistryDatabase::default(),
        &fixture_root(),
        &IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        },
    )
    .unwrap()
}

const WORDS: &[&str] = &[
    "save", "record", "store", "shape", "area", "render", "row", "format", "client", "post", "id",
    "valid", "draft", "title", "queue", "export",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn every_evidence_line_is_in_its_place_and_reads_as_the_file(
        words in proptest::sample::subsequence(WORDS, 1..5),
    ) {
        let mut index = fixture_index();
        let ws = index.workspace();
        let run = explore_deterministic(index.db_mut(), ws, &words.join(" "), Intent::Locate).unwrap();
        for link in &run.selection.flow {
            let c = run.registry.get(link.candidate).unwrap();
            let range = c.range.unwrap();
            let file = std::fs::read_to_string(fixture_root().join(&c.path)).unwrap();
            let file_lines: Vec<&str> = file.lines().collect();
            prop_assert!(link.evidence.len() <= MAX_EVIDENCE_LINES);
            prop_assert!(link.evidence.windows(2).all(|w| w[0].line < w[1].line), "in line order");
            for e in &link.evidence {
                prop_assert!(range.contains_line(e.line), "line {} outside {range:?}", e.line);
                let on_disk = file_lines.get(e.line as usize - 1).copied().unwrap_or_default();
                prop_assert_eq!(on_disk.trim_end(), e.text.as_str());
            }
        }
    }
}

fn term(term: &str, idf: f64) -> QueryTerm {
    QueryTerm {
        term: term.to_owned(),
        idf,
        df: 1,
        compound: false,
    }
}

/// A place at lines 10..=10+n, its text `lines`, its signature the first line.
fn place(lines: &[&str]) -> Candidate {
    let range = LineRange::new(10, 10 + lines.len() as u32 - 1);
    let mut text = String::new();
    for l in lines {
        text.push_str(l);
        text.push('\n');
    }
    Candidate {
        id: CandidateId(1),
        path: "src/a.ts".into(),
        range: Some(range),
        symbols: vec![CandidateSymbol {
            name: "run".into(),
            qualified: "run".into(),
            kind: "function".into(),
            line: 10,
        }],
        provenance: Vec::new(),
        traits: PathTraits::of("src/a.ts"),
        matched_terms: Vec::new(),
        observed: vec![ObservedText { lines: range, text }],
        est_tokens: 0,
        search: None,
    }
}

fn terms(pieces: &[(&str, f64)]) -> QueryTerms {
    QueryTerms {
        terms: pieces.iter().map(|(t, w)| term(t, *w)).collect(),
        ..QueryTerms::default()
    }
}

#[test]
fn a_common_word_alone_earns_no_line() {
    let c = place(&[
        "function run() {",
        "  const kappa = load();",
        "  return kappa;",
        "}",
    ]);
    // "kappa" is common next to "zebra", the query's specific word found nowhere here.
    let q = terms(&[("zebra", 6.0), ("kappa", 1.0)]);
    assert!(evidence_lines(&c, &q, 10, 4).is_empty());
}

#[test]
fn the_line_adding_the_most_is_quoted_and_repeats_are_not() {
    let c = place(&[
        "function run() {",
        "  const kappa = load();",
        "  const zebra = gamma(kappa);",
        "  log(zebra);",
        "  return zebra;",
        "}",
    ]);
    let q = terms(&[("zebra", 6.0), ("gamma", 3.5), ("kappa", 1.0)]);
    let picked = evidence_lines(&c, &q, 10, 4);
    // Line 12 shows both specific words; the other lines holding them add nothing new,
    // and "kappa" alone is too common to earn line 11.
    assert_eq!(picked.len(), 1, "{picked:?}");
    assert_eq!(picked[0].line, 12);
    assert_eq!(picked[0].text, "  const zebra = gamma(kappa);");
}

#[test]
fn of_lines_adding_as_much_the_shorter_is_quoted() {
    let c = place(&["function run() {", "  return zebra;", "  log(zebra);", "}"]);
    let q = terms(&[("zebra", 6.0)]);
    let picked = evidence_lines(&c, &q, 10, 4);
    assert_eq!(picked.len(), 1, "{picked:?}");
    assert_eq!(picked[0].line, 12);
}

#[test]
fn what_the_signature_shows_is_not_quoted_again() {
    let c = place(&["function zebra() {", "  return zebra + 1;", "}"]);
    let q = terms(&[("zebra", 6.0)]);
    assert!(evidence_lines(&c, &q, 10, 4).is_empty());
}

#[test]
fn the_cap_bounds_the_lines() {
    let c = place(&[
        "function run() {",
        "  alpha();",
        "  bravo();",
        "  delta();",
        "}",
    ]);
    let q = terms(&[("alpha", 5.0), ("bravo", 5.0), ("delta", 5.0)]);
    assert_eq!(evidence_lines(&c, &q, 10, 2).len(), 2);
    assert_eq!(evidence_lines(&c, &q, 10, 4).len(), 3);
    assert!(evidence_lines(&c, &q, 10, 0).is_empty());
}

#[test]
fn a_fixture_query_quotes_the_call_its_place_makes() {
    let mut index = fixture_index();
    let ws = index.workspace();
    let run = explore_deterministic(
        index.db_mut(),
        ws,
        "handleSave: save a record through the store",
        Intent::Locate,
    )
    .unwrap();
    // handleSave was chosen by name; the line that saves through the store says why.
    let quoted: Vec<&str> = run
        .selection
        .flow
        .iter()
        .flat_map(|l| l.evidence.iter().map(|e| e.text.trim()))
        .collect();
    assert!(
        quoted.contains(&"return recordStore.save(valid);"),
        "{quoted:?}"
    );
}
