//! The deterministic explore answers any query a model or a user may write: code fragments,
//! quotes and backticks, repeated and mixed-case words, punctuation alone. It returns a
//! report or an error, never panics, and its selection cites only the packet's places
//! (debug builds check every subtraction, so a count that can underflow fails here).

use std::path::PathBuf;

use proptest::prelude::*;
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_rank::explore_deterministic;
use sightline_registry::{Intent, RegistryDatabase};

fn query() -> impl Strategy<Value = String> {
    let token = prop::sample::select(vec![
        "save",
        "Save",
        "SAVE",
        "record",
        "recordStore",
        "RecordStore.save",
        "record_store",
        "record-store",
        "`save`",
        "\"record\"",
        "'x'",
        "save()",
        "a[b.c]",
        "src/state",
        ".ts",
        "the",
        "a",
        "of",
        "é",
        "日本",
        "--",
        "()",
        "`",
        "\"",
        "::",
        "#",
        "0",
        "123",
        "x",
        "savesave",
        "saveSaveSave",
        "",
    ]);
    let sep = prop::sample::select(vec![" ", "", ",", ": ", "\t"]);
    prop::collection::vec((token, sep), 1..8)
        .prop_map(|parts| parts.into_iter().map(|(t, s)| format!("{t}{s}")).collect())
}

/// One index for every case: building it is most of a case's time.
#[test]
fn any_query_gets_a_report_or_an_error_without_a_panic() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app");
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open_with_db(RegistryDatabase::default(), &root, &options).unwrap();
    // The runner takes a shared closure; each case borrows the index in turn.
    let index = std::cell::RefCell::new(index);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(200));
    runner
        .run(&query(), |query| {
            let mut index = index.borrow_mut();
            let ws = index.workspace();
            if let Ok(run) = explore_deterministic(index.db_mut(), ws, &query, Intent::Locate) {
                for id in &run.selection.primary {
                    prop_assert!(run.packet.entries.iter().any(|e| e.id == *id));
                }
                let _ = run.packet.render();
            }
            Ok(())
        })
        .unwrap();
}
