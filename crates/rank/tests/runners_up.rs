//! The deterministic selection's runners-up: the ranking's next files after the primary
//! places', each a candidate the registry resolves, never in a primary place's file, at
//! most five files named in all, none when the ranking is decisive; a ranking calibrated
//! `low` quotes one place and names the rest; and validating the selection (as the
//! one-call report does) never adds one.

use std::path::PathBuf;

use proptest::prelude::*;
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_rank::explore_deterministic;
use sightline_registry::selection::MAX_NAMED_FILES;
use sightline_registry::{Confidence, Intent, RegistryDatabase};
use sightline_validate::{Budget, validate};

fn fixture_index() -> Index<RegistryDatabase> {
    Index::open_with_db(
        RegistryDatabase::default(),
        &PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app"),
        &IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        },
    )
    .unwrap()
}

const WORDS: &[&str] = &[
    "save",
    "record",
    "store",
    "shape",
    "area",
    "render",
    "row",
    "format",
    "client",
    "post",
    "id",
    "valid",
    "draft",
    "title",
    "queue",
    "export",
    "postRecord",
    "RecordStore",
];

proptest! {
    #![proptest_config(ProptestConfig { cases: 32, ..ProptestConfig::default() })]

    #[test]
    fn runners_up_are_resolved_next_files_and_validation_adds_none(
        words in proptest::sample::subsequence(WORDS, 1..5),
    ) {
        let mut index = fixture_index();
        let ws = index.workspace();
        let run = explore_deterministic(index.db_mut(), ws, &words.join(" "), Intent::Locate).unwrap();
        let sel = &run.selection;
        let file = |id| run.registry.get(id).map(|c| c.path.as_str());
        let primary: Vec<&str> = sel.primary.iter().filter_map(|&id| file(id)).collect();
        let mut named: Vec<&str> = Vec::new();
        for &id in &sel.runners_up {
            let f = file(id);
            prop_assert!(f.is_some(), "runner-up {id} resolves");
            let f = f.expect("checked above");
            prop_assert!(!primary.contains(&f), "{f} is a primary place's file");
            prop_assert!(!named.contains(&f), "{f} named twice");
            named.push(f);
        }
        prop_assert!(primary.len() + named.len() <= MAX_NAMED_FILES);
        // They are the ranking's next files, in its order: the packet's files without the
        // primary places', from the first.
        let next: Vec<&str> = run
            .packet
            .files(&run.registry)
            .into_iter()
            .filter(|f| !primary.contains(f))
            .take(named.len())
            .collect();
        prop_assert_eq!(&named, &next);
        if sel.confidence == Confidence::High || sel.primary.is_empty() {
            prop_assert!(sel.runners_up.is_empty());
        }
        // Low for its ranking, not for want of a quote (which lowers any ranking).
        if sel.confidence == Confidence::Low && !sel.flow.is_empty() {
            prop_assert!(sel.primary.len() <= 1, "a low report quotes one place");
        }
        let v = validate(sel, &run.registry, Intent::Locate, sel, &Budget::default());
        let mut left = sel.runners_up.iter();
        prop_assert!(
            v.selection.runners_up.iter().all(|id| left.any(|s| s == id)),
            "validation only drops runners-up"
        );
    }
}
