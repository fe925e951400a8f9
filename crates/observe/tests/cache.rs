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
