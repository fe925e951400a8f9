//! The persistent facts cache: warm equals cold, and a damaged cache is rebuilt.

mod common;

use sightline_observe::db::file_index;
use sightline_observe::{CacheMode, Index, IndexOptions};

fn all_facts(index: &Index) -> Vec<(String, sightline_observe::db::FileIndex)> {
    let db = index.db();
    index
        .workspace()
        .files(db)
        .iter()
        .map(|f| (f.path(db).clone(), (*file_index(db, *f)).clone()))
        .collect()
}

#[test]
fn warm_start_gives_the_same_facts_as_a_cold_parse() {
    let cache = tempfile::tempdir().unwrap();
    let opts = IndexOptions {
        cache: CacheMode::Dir(cache.path().into()),
        progress: None,
    };
    let root = common::fixture_root();
    let cold = Index::open(&root, &opts).unwrap();
    assert_eq!(cold.report().cache_hits, 0);
    let warm = Index::open(&root, &opts).unwrap();
    assert_eq!(warm.report().parsed, 0, "{:?}", warm.report());
    assert_eq!(warm.report().cache_hits, cold.report().parsed);
    assert_eq!(all_facts(&cold), all_facts(&warm));
}

#[test]
fn a_corrupt_cache_is_ignored_and_rebuilt() {
    let cache = tempfile::tempdir().unwrap();
    let opts = IndexOptions {
        cache: CacheMode::Dir(cache.path().into()),
        progress: None,
    };
    let root = common::fixture_root();
    let cold = Index::open(&root, &opts).unwrap();
    let files: Vec<_> = std::fs::read_dir(cache.path())
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    assert_eq!(files.len(), 1);
    // Keep the header, damage the body.
    let mut bytes = std::fs::read(&files[0]).unwrap();
    let keep = bytes.len() / 2;
    bytes.truncate(keep);
    bytes.extend_from_slice(&[0xff; 64]);
    std::fs::write(&files[0], &bytes).unwrap();

    let rebuilt = Index::open(&root, &opts).unwrap();
    assert!(rebuilt.report().cache_note.is_some());
    assert_eq!(rebuilt.report().cache_hits, 0);
    assert_eq!(all_facts(&cold), all_facts(&rebuilt));
    // The rebuilt cache is good again.
    let warm = Index::open(&root, &opts).unwrap();
    assert_eq!(warm.report().parsed, 0);
}

#[test]
fn garbage_in_place_of_a_cache_is_not_trusted() {
    let cache = tempfile::tempdir().unwrap();
    let root = common::fixture_root();
    let path =
        sightline_observe::cache::cache_file(cache.path(), &std::fs::canonicalize(&root).unwrap());
    std::fs::write(&path, b"not a cache").unwrap();
    let opts = IndexOptions {
        cache: CacheMode::Dir(cache.path().into()),
        progress: None,
    };
    let index = Index::open(&root, &opts).unwrap();
    assert!(
        index
            .report()
            .cache_note
            .as_deref()
            .unwrap_or("")
            .contains("corrupt")
    );
    assert_eq!(index.report().cache_hits, 0);
}

/// The same bytes in files of two languages (or two dialects of one) are two files'
/// facts: a warm cache must give each the facts of its own grammar, not the other's.
#[test]
fn identical_bytes_in_two_languages_keep_their_own_facts_from_a_warm_cache() {
    let cache = tempfile::tempdir().unwrap();
    let root = tempfile::tempdir().unwrap();
    // A module-level assignment declares `total` in Python; in JavaScript it is an
    // assignment expression, and in TypeScript too (two dialects of one language).
    let text = "total = compute()\n";
    for name in ["a.py", "b.js", "c.ts"] {
        std::fs::write(root.path().join(name), text).unwrap();
    }
    let opts = IndexOptions {
        cache: CacheMode::Dir(cache.path().into()),
        progress: None,
    };
    let cold = Index::open(root.path(), &opts).unwrap();
    let warm = Index::open(root.path(), &opts).unwrap();
    assert_eq!(warm.report().parsed, 0, "{:?}", warm.report());
    let uncached = Index::open(
        root.path(),
        &IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        },
    )
    .unwrap();
    let declares = |facts: &[(String, sightline_observe::db::FileIndex)], path: &str| {
        let (_, index) = facts.iter().find(|(p, _)| p == path).unwrap();
        index.facts.decls.iter().any(|d| d.name == "total")
    };
    let truth = all_facts(&uncached);
    assert!(declares(&truth, "a.py") && !declares(&truth, "b.js"));
    assert_eq!(all_facts(&cold), truth);
    assert_eq!(all_facts(&warm), truth);
}
