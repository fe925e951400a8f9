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
    let index = fixture_index();
    let run = explore_deterministic(
        index.db(),
        index.workspace(),
        "save record store",
        Intent::Locate,
    )
    .unwrap();
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
        let index = fixture_index();
        let run = explore_deterministic(index.db(), index.workspace(), &words.join(" "), Intent::Locate).unwrap();
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
