//! The per-chunk postings the search scores from hold exactly what each file's own term
//! counts hold: every (term, file, count) once, and nothing else.

mod common;

use std::collections::BTreeSet;

use sightline_observe::db::{TERM_CHUNK_FILES, TermChunk, file_terms, term_chunk_postings};
use sightline_observe::walk::FileRole;

#[test]
fn postings_hold_exactly_the_files_term_counts() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let files = ws.files(db);
    let mut from_files: BTreeSet<(String, u32, u32, u32)> = BTreeSet::new();
    for (i, f) in files.iter().enumerate() {
        if !matches!(f.role(db), FileRole::Source(_)) {
            continue;
        }
        let counts = file_terms(db, *f);
        for (term, tf) in &counts.terms {
            from_files.insert((term.clone(), i as u32, *tf, counts.total));
        }
    }
    assert!(!from_files.is_empty());
    let mut from_postings: BTreeSet<(String, u32, u32, u32)> = BTreeSet::new();
    for c in 0..files.len().div_ceil(TERM_CHUNK_FILES) as u32 {
        let postings = term_chunk_postings(db, ws, TermChunk::new(db, c));
        for (term, list) in postings.iter() {
            for p in list {
                let fresh = from_postings.insert((term.clone(), p.file, p.tf, p.total));
                assert!(fresh, "{term} in file {} posted twice", p.file);
            }
        }
    }
    assert_eq!(from_files, from_postings);
}
