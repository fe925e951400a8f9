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
        for (term, tf) in &counts.terms {
            from_files.insert((term.clone(), f.path(db).clone(), *tf, counts.total));
        }
    }
    assert!(!from_files.is_empty());
    let mut from_postings: BTreeSet<(String, String, u32, u32)> = BTreeSet::new();
    for chunk in term_chunks(db, ws) {
        let postings = term_chunk_postings(db, ws, chunk);
        for (term, list) in postings.iter() {
            for p in list {
                let path = p.file.path(db).clone();
                let fresh = from_postings.insert((term.clone(), path.clone(), p.tf, p.total));
                assert!(fresh, "{term} in file {path} posted twice");
            }
        }
    }
    assert_eq!(from_files, from_postings);
}
