//! `read_file` paths that list several reads, as a model writes them, right or wrong:
//! splitting never panics, keeps every entry in order, and each entry reads or fails on
//! its own.

mod common;

use proptest::prelude::*;
use sightline_observe::paths::RepoRoot;
use sightline_observe::tools::read_file::{self, ReadFileArgs};
use sightline_observe::tools::read_list::{self, MAX_READS};

fn entry() -> impl Strategy<Value = String> {
    let path = prop::sample::select(vec![
        "src/main.tsx",
        "src/types.ts",
        "src",
        "missing.ts",
        "",
        "src/state/recordStore.ts",
    ]);
    let range = prop::sample::select(vec![
        "",
        ":",
        ":0",
        ":1",
        ":3-9",
        ":9-3",
        ":1-",
        ":-2",
        ":99999999999",
        ":2-99999",
        "::1-2",
    ]);
    (path, range).prop_map(|(p, r)| format!("{p}{r}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]
    #[test]
    fn a_listing_splits_into_its_entries_in_order_and_each_reads_or_fails(
        entries in prop::collection::vec(entry(), 1..11),
        sep in prop::sample::select(vec![" ", "  ", "\t", " \n"]),
    ) {
        let root = RepoRoot::new(common::fixture_root()).unwrap();
        let listing = entries.join(sep);
        let args = ReadFileArgs::new(listing.clone());
        match read_list::several_reads(&root, &args) {
            None => {
                // A single read: the path as given, whatever it reads.
                let _ = read_file::run(&root, &args);
            }
            Some(Err(refused)) => {
                let words = listing.split_whitespace().count();
                prop_assert!(words > MAX_READS, "refused {words} entries: {refused}");
            }
            Some(Ok(reads)) => {
                let words: Vec<&str> = listing.split_whitespace().collect();
                prop_assert_eq!(reads.len(), words.len());
                for (read, word) in reads.iter().zip(&words) {
                    prop_assert!(word.starts_with(read.path.as_str()), "{read:?} from {word}");
                    let _ = read_file::run(&root, read);
                }
            }
        }
    }
}
