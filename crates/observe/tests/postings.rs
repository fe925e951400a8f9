//! The per-chunk postings the search scores from hold exactly what each file's own term
//! counts hold: every (term, file, count) once, and nothing else.

mod common;

use std::collections::BTreeSet;

use sightline_observe::db::{file_terms, term_chunk_postings, term_chunks};
use sightline_observe::walk::FileRole;

#[test]
fn postings_hold_exactly_the_files_term_counts() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let files = ws.files(db);
    let mut from_files: BTreeSet<(String, String, u32, u32)> = BTreeSet::new();
    for f in files {
        if !matches!(f.role(db), FileRole::Source(_)) {
            continue;
        }
        let counts = file_terms(db, *f);
        for (term, tf) in counts.iter() {
            from_files.insert((term.to_string(), f.path(db).clone(), tf, counts.total));
        }
    }
    assert!(!from_files.is_empty());
    let mut from_postings: BTreeSet<(String, String, u32, u32)> = BTreeSet::new();
    for chunk in term_chunks(db, ws) {
        let postings = term_chunk_postings(db, ws, chunk);
        for (term, list) in postings.iter() {
            for p in list {
                let path = p.file.path(db).clone();
                let fresh = from_postings.insert((term.to_string(), path.clone(), p.tf, p.total));
                assert!(fresh, "{term} in file {path} posted twice");
            }
        }
    }
    assert_eq!(from_files, from_postings);
}

/// Chunks are kept near their nominal size: paths that differ in a digit or a directory
/// spread over every chunk, none holding more than twice its share.
#[test]
fn chunk_hashes_spread_similar_paths_evenly() {
    use sightline_observe::db::{TERM_CHUNK_FILES, term_chunk_count, term_chunk_of};
    let paths: Vec<String> = (0..4096)
        .map(|i| format!("packages/p{}/src/module{}.ts", i % 7, i))
        .collect();
    let count = term_chunk_count(paths.len());
    assert_eq!(count as usize, paths.len() / TERM_CHUNK_FILES);
    let mut sizes = vec![0usize; count as usize];
    for p in &paths {
        sizes[term_chunk_of(p, count) as usize] += 1;
    }
    let share = paths.len() / count as usize;
    assert!(
        sizes.iter().all(|&n| n > share / 2 && n < share * 2),
        "{sizes:?}"
    );
}
