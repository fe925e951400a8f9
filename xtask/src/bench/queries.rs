//! The explore queries, derived from the measured repository itself so that no query is
//! written for one repository: names of exported functions and classes sampled evenly
//! through the tree, plus two-word phrases built from the words of such names (the shape
//! of a natural-language question in the code's own vocabulary).

use sightline_observe::terms::split_identifier;
use sightline_observe::{DeclKind, Index};

pub const NAME_QUERIES: usize = 30;
pub const PHRASE_QUERIES: usize = 10;

/// The query set for an index: deterministic for the same indexed tree.
pub fn sample<D: sightline_observe::Db>(index: &Index<D>) -> Vec<String> {
    let names = candidate_names(index);
    let mut queries = spread(&names, NAME_QUERIES);
    queries.extend(spread(&phrases(&names), PHRASE_QUERIES));
    queries
}

/// The names the navigation tools are timed on: [`NAME_QUERIES`] of the sampled names.
pub fn names<D: sightline_observe::Db>(index: &Index<D>) -> Vec<String> {
    spread(&candidate_names(index), NAME_QUERIES)
}

/// Exported function and class names of primary files (not tests, examples, vendored or
/// generated code), in path order, each name once.
fn candidate_names<D: sightline_observe::Db>(index: &Index<D>) -> Vec<String> {
    let db = index.db();
    let mut seen = std::collections::HashSet::new();
    let mut names = Vec::new();
    for &file in index.workspace().files(db) {
        let traits = *sightline_observe::path_traits::file_traits(db, file);
        if traits.is_secondary() || traits.declaration_only {
            continue;
        }
        let facts = &sightline_observe::db::file_index(db, file).facts;
        for decl in &facts.decls {
            let wanted = matches!(decl.kind, DeclKind::Function | DeclKind::Class);
            if wanted && decl.exported && decl.name != "default" && seen.insert(decl.name.clone()) {
                names.push(decl.name.clone());
            }
        }
    }
    names
}

/// "first last" from each name of two or more words, skipping words under three letters
/// (prefixes like `is`/`to` make weak queries), each phrase once.
fn phrases(names: &[String]) -> Vec<String> {
    let mut seen = std::collections::HashSet::new();
    let mut out = Vec::new();
    for name in names {
        // Letters only (`part` of `part12`): numbered names make one phrase, not one each.
        let words: Vec<String> = split_identifier(name)
            .iter()
            .map(|w| w.trim_end_matches(|c: char| c.is_ascii_digit()).to_owned())
            .filter(|w| w.len() >= 3)
            .collect();
        if let [first, .., last] = words.as_slice() {
            let phrase = format!("{first} {last}");
            if first != last && seen.insert(phrase.clone()) {
                out.push(phrase);
            }
        }
    }
    out
}

/// At most `n` items spread evenly over the list, starting with the first: the i-th pick
/// is item `i * len / n`, so exactly `n` come back whenever there are that many.
fn spread(items: &[String], n: usize) -> Vec<String> {
    if items.len() <= n {
        return items.to_vec();
    }
    (0..n).map(|i| items[i * items.len() / n].clone()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use sightline_observe::{CacheMode, IndexOptions};

    fn strings(xs: &[&str]) -> Vec<String> {
        xs.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn spread_spreads_and_caps() {
        let items: Vec<String> = (0..10).map(|i| i.to_string()).collect();
        assert_eq!(spread(&items, 3), strings(&["0", "3", "6"]));
        assert_eq!(spread(&items, 20).len(), 10);
        assert!(spread(&items, 0).is_empty());
        assert!(spread(&[], 5).is_empty());
    }

    #[test]
    fn phrases_use_first_and_last_long_words() {
        let names = strings(&["parseConfigFile", "isReady", "loadUserProfile", "ab"]);
        assert_eq!(phrases(&names), strings(&["parse file", "load profile"]));
    }

    #[test]
    fn sampling_is_deterministic_and_skips_tests() {
        let dir = tempfile::tempdir().unwrap();
        let src = dir.path().join("src");
        std::fs::create_dir_all(&src).unwrap();
        for i in 0..40 {
            let text = format!(
                "export function buildWidgetPart{i}() {{ return {i}; }}\n\
                 export class RenderQueue{i} {{}}\n\
                 function hiddenHelper{i}() {{}}\n"
            );
            std::fs::write(src.join(format!("part{i:02}.ts")), text).unwrap();
        }
        std::fs::write(src.join("part.test.ts"), "export function testOnly() {}\n").unwrap();
        let open = || {
            let opts = IndexOptions {
                cache: CacheMode::Disabled,
                ..IndexOptions::default()
            };
            Index::open(dir.path(), &opts).unwrap()
        };
        let first = sample(&open());
        assert_eq!(first, sample(&open()));
        assert_eq!(first.len(), NAME_QUERIES + 2);
        assert!(
            first
                .iter()
                .all(|q| !q.contains("hidden") && q != "testOnly")
        );
        assert!(first.contains(&"build part".to_owned()));
        assert!(first.contains(&"render queue".to_owned()));
    }
}
