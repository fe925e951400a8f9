//! The baseline arm: plain BM25 over source files tokenized into split identifiers, with no
//! path, structure or graph signal — the reference ranking of `shared/eval/README.md`.
//!
//! Term counts are recomputed from text rather than taken from the index's `file_terms`,
//! which also count a compound key per multi-word identifier; the reference uses subwords
//! only. Counts are cached per file and reused while the file's text is unchanged.

use std::collections::HashMap;
use std::sync::Arc;

use sightline_observe::Index;
use sightline_observe::idf::TermStats;
use sightline_observe::terms::{TermCounts, identifier_tokens, is_term, split_identifier};
use sightline_observe::walk::FileRole;

const K1: f64 = 1.2;
const B: f64 = 0.75;

/// Subword counts of one file text: identifier-like tokens split into lowercase subwords.
pub fn subword_counts(text: &str) -> TermCounts {
    let mut map: HashMap<String, u32> = HashMap::new();
    let mut total: u32 = 0;
    for tok in identifier_tokens(text) {
        for w in split_identifier(tok) {
            if is_term(&w) {
                *map.entry(w).or_default() += 1;
                total = total.saturating_add(1);
            }
        }
    }
    TermCounts::from_map(map, total)
}

/// Query terms: the same tokenization, each distinct subword once.
pub fn query_terms(query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for tok in identifier_tokens(query) {
        for w in split_identifier(tok) {
            if is_term(&w) && !out.contains(&w) {
                out.push(w);
            }
        }
    }
    out
}

/// The corpus of one checked-out tree, built from the index's source files.
pub struct Corpus {
    docs: Vec<(String, Arc<TermCounts>)>,
    stats: TermStats,
}

/// Per-file counts kept across tasks: keyed by path, valid while the text `Arc` is the
/// same one the index holds (a refresh replaces the `Arc` of every changed file).
#[derive(Default)]
pub struct CountCache {
    by_path: HashMap<String, (Arc<str>, Arc<TermCounts>)>,
}

impl Corpus {
    pub fn build<D: sightline_observe::Db>(index: &Index<D>, cache: &mut CountCache) -> Corpus {
        let db = index.db();
        let mut docs = Vec::new();
        let mut live = HashMap::new();
        for f in index.workspace().files(db) {
            if !matches!(f.role(db), FileRole::Source(_)) {
                continue;
            }
            let path = f.path(db).clone();
            let text = f.text(db).clone();
            let counts = match cache.by_path.remove(&path) {
                Some((old, counts)) if Arc::ptr_eq(&old, &text) => counts,
                _ => Arc::new(subword_counts(&text)),
            };
            live.insert(path.clone(), (text, counts.clone()));
            docs.push((path, counts));
        }
        cache.by_path = live;
        Corpus::from_docs(docs)
    }

    fn from_docs(docs: Vec<(String, Arc<TermCounts>)>) -> Corpus {
        let mut stats = TermStats::default();
        for (_, counts) in &docs {
            stats.add_document(counts);
        }
        Corpus { docs, stats }
    }

    pub fn len(&self) -> usize {
        self.docs.len()
    }

    /// Files with a positive score, best first; ties by path so runs are reproducible.
    pub fn rank(&self, query: &str) -> Vec<String> {
        let terms: Vec<(String, f64)> = query_terms(query)
            .into_iter()
            .filter(|t| self.stats.df(t) > 0)
            .map(|t| {
                let idf = self.stats.idf(&t);
                (t, idf)
            })
            .collect();
        let avg = self.stats.average_length().max(1.0);
        let mut scored: Vec<(f64, &str)> = Vec::new();
        for (path, counts) in &self.docs {
            let norm = 1.0 - B + B * f64::from(counts.total) / avg;
            let mut score = 0.0;
            for (t, idf) in &terms {
                let tf = f64::from(counts.get(t));
                if tf > 0.0 {
                    score += idf * tf * (K1 + 1.0) / (tf + K1 * norm);
                }
            }
            if score > 0.0 {
                scored.push((score, path));
            }
        }
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(b.1)));
        scored.into_iter().map(|(_, p)| p.to_owned()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_subwords_without_compound_keys() {
        let c = subword_counts("const recordStore = new RecordStore(); // record it");
        assert_eq!(c.get("record"), 3);
        assert_eq!(c.get("store"), 2);
        assert_eq!(c.get("recordstore"), 0);
        assert_eq!(c.total, 8);
    }

    fn corpus(files: &[(&str, &str)]) -> Corpus {
        Corpus::from_docs(
            files
                .iter()
                .map(|(p, t)| ((*p).to_owned(), Arc::new(subword_counts(t))))
                .collect(),
        )
    }

    #[test]
    fn ranks_by_rare_terms_and_drops_non_matching_files() {
        let c = corpus(&[
            ("common.ts", "handle request"),
            ("rare.ts", "handle cookieJar"),
            ("other.ts", "handle widget"),
            ("none.ts", "render"),
        ]);
        // `cookie` is in one file, `handle` in three: the rare term decides the first place.
        assert_eq!(
            c.rank("handle cookie"),
            ["rare.ts", "common.ts", "other.ts"]
        );
        assert!(c.rank("nothing matches").is_empty());
    }

    #[test]
    fn ties_break_by_path() {
        let c = corpus(&[("b.ts", "alpha"), ("a.ts", "alpha"), ("c.ts", "beta")]);
        assert_eq!(c.rank("alpha"), ["a.ts", "b.ts"]);
    }

    #[test]
    fn query_terms_are_split_and_distinct() {
        assert_eq!(
            query_terms("fix parseHeader: header parse"),
            ["fix", "parse", "header"]
        );
    }
}
