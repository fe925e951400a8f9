//! Packet invariants and a snapshot of the packet for a fixture query.

use std::path::PathBuf;

use proptest::prelude::*;
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_rank::{PacketOptions, build_packet, explore_deterministic};
use sightline_registry::{Intent, RegistryDatabase};

fn fixture_index() -> Index<RegistryDatabase> {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app");
    Index::open_with_db(
        RegistryDatabase::default(),
        &root,
        &IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        },
    )
    .unwrap()
}

#[test]
fn packet_for_a_fixture_query() {
    let mut index = fixture_index();
    let ws = index.workspace();
    let run =
        explore_deterministic(index.db_mut(), ws, "save record store", Intent::Locate).unwrap();
    insta::assert_snapshot!(run.packet.render());
}

const WORDS: &[&str] = &[
    "save", "record", "store", "shape", "area", "render", "row", "format", "client", "post", "id",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn the_packet_respects_its_budget_and_diversity(
        words in proptest::sample::subsequence(WORDS, 1..4),
        budget in 80usize..4000,
        max_entries in 1usize..40,
        per_file in 1usize..4,
    ) {
        let mut index = fixture_index();
        let ws = index.workspace();
        let run = explore_deterministic(index.db_mut(), ws, &words.join(" "), Intent::Locate).unwrap();
        let opts = PacketOptions { min_entries: 0, max_entries, per_file, per_dir: 8, budget_chars: budget, include_secondary: false, ..PacketOptions::default() };
        let packet = build_packet(&run.registry, &run.terms, &opts);
        let rendered = packet.render();
        prop_assert!(rendered.len() <= budget, "{} > {budget}", rendered.len());
        prop_assert!(packet.entries.len() <= max_entries);
        let mut ids: Vec<_> = packet.entries.iter().map(|e| e.id).collect();
        ids.sort();
        ids.dedup();
        prop_assert_eq!(ids.len(), packet.entries.len());
        for path in packet.files(&run.registry) {
            let n = packet.entries.iter().filter(|e| run.registry.get(e.id).unwrap().path == path).count();
            prop_assert!(n <= per_file, "{path} has {n} entries");
        }
        // Scores are non-increasing.
        for w in packet.entries.windows(2) {
            prop_assert!(w[0].score.total >= w[1].score.total);
        }
        // The fallback selection cites only packet candidates.
        for id in &run.selection.primary {
            prop_assert!(run.packet.entries.iter().any(|e| e.id == *id));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// The deterministic report cites at most five places, one per file, each ranged, in
    /// packet order, and every place it cites is supported by its score: at least 0.4 of
    /// the best, and 0.6 of it past the third.
    #[test]
    fn the_fallback_cites_only_places_its_scores_support(
        words in proptest::sample::subsequence(WORDS, 1..4),
    ) {
        let mut index = fixture_index();
        let ws = index.workspace();
        let run = explore_deterministic(index.db_mut(), ws, &words.join(" "), Intent::Edit).unwrap();
        let primary = &run.selection.primary;
        prop_assert!(primary.len() <= 5);
        let best = run.packet.entries.first().map_or(0.0, |e| e.score.total);
        let mut last_position = None;
        let mut files = Vec::new();
        for (i, id) in primary.iter().enumerate() {
            let position = run.packet.entries.iter().position(|e| e.id == *id).expect("a packet entry");
            prop_assert!(last_position.is_none_or(|p| p < position), "out of packet order");
            last_position = Some(position);
            let c = run.registry.get(*id).unwrap();
            prop_assert!(c.range.is_some());
            prop_assert!(!files.contains(&c.path), "{} cited twice", c.path);
            files.push(c.path.clone());
            let share = run.packet.entries[position].score.total / best;
            prop_assert!(share >= if i < 3 { 0.4 } else { 0.6 } - 1e-9, "place {i} at {share:.2} of the best");
        }
    }
}

/// Salsa never frees an input: explores that hand their session back reuse one input.
#[test]
fn closed_explores_reuse_one_session_input() {
    let mut index = fixture_index();
    let ws = index.workspace();
    for query in ["save record store", "render shape", "format row"] {
        let run = explore_deterministic(index.db_mut(), ws, query, Intent::Locate).unwrap();
        index.db_mut().close_session(run.session);
    }
    assert_eq!(index.db().sessions_created(), 1);
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    /// Among candidates whose scores tie (places of one file share its search features),
    /// the one whose own name the query says more of ranks first.
    #[test]
    fn tied_scores_rank_the_name_the_query_says_first(
        words in proptest::sample::subsequence(WORDS, 1..4),
    ) {
        let mut index = fixture_index();
        let ws = index.workspace();
        let run = explore_deterministic(index.db_mut(), ws, &words.join(" "), Intent::Locate).unwrap();
        let ranked = sightline_rank::rank_all(&run.registry, &run.terms, false, &PacketOptions::default().weights);
        for w in ranked.windows(2) {
            if w[0].1.total == w[1].1.total {
                let coverage = |id| sightline_rank::packet::name_coverage(run.registry.get(id).unwrap(), &run.terms);
                prop_assert!(coverage(w[0].0) >= coverage(w[1].0), "{:?}", w);
            }
        }
    }
}
