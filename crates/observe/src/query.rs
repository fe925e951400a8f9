//! Turning a free-text query into weighted terms using only identifier structure and the
//! repository's own statistics: no stop-word lists, no stemming tables. Words the repository
//! never uses are dropped; words it uses everywhere weigh almost nothing.

use serde::{Deserialize, Serialize};

use crate::idf::TermStats;
use crate::terms::{compound_key, identifier_tokens, is_term, split_identifier};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueryTerm {
    /// Lowercase subword, or a compound key (`recordstore`) for a multi-word identifier.
    pub term: String,
    /// IDF over the repository's source files.
    pub idf: f64,
    /// Number of source files containing the term.
    pub df: u32,
    /// True for a whole multi-word identifier written in the query (`recordStore`).
    pub compound: bool,
    /// For a word of the repository that shares a long prefix with a query word
    /// (`serialize` for `serializing`): that query word. Its `idf` is damped.
    pub variant_of: Option<String>,
}

/// A repository word is a variant of a query word when they share a prefix of at least
/// this many characters...
const VARIANT_MIN_PREFIX: usize = 4;
/// ...covering at least this share of the shorter word.
const VARIANT_MIN_SHARE: f64 = 0.75;
/// Variants differ in length by at most this much (an inflection, not another word).
const VARIANT_MAX_LEN_DIFF: usize = 3;
/// Variants weigh this share of their IDF: likely the same word, not certainly.
const VARIANT_WEIGHT: f64 = 0.6;
/// Most variants kept per query word (the most frequent in the repository).
const MAX_VARIANTS: usize = 3;

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QueryTerms {
    pub terms: Vec<QueryTerm>,
    /// Query words with no occurrence in the repository (kept for diagnostics).
    pub unknown: Vec<String>,
}

impl QueryTerms {
    /// Parses a query against the repository's statistics (sorting its vocabulary for
    /// variant lookups; use [`QueryTerms::parse_with`] with the tracked [`vocabulary`] to
    /// reuse it across queries).
    pub fn parse(query: &str, stats: &TermStats) -> QueryTerms {
        Self::parse_with(query, stats, &Vocabulary::of(stats))
    }

    pub fn parse_with(query: &str, stats: &TermStats, vocabulary: &Vocabulary) -> QueryTerms {
        let mut out = QueryTerms::default();
        let mut seen = std::collections::HashSet::new();
        for token in identifier_tokens(query) {
            let words = split_identifier(token);
            if words.len() > 1 {
                let key = compound_key(token);
                if seen.insert(key.clone()) {
                    out.push(key, stats, true);
                }
            }
            for w in words {
                if is_term(&w) && seen.insert(w.clone()) {
                    out.push(w, stats, false);
                }
            }
        }
        out.add_variants(stats, vocabulary, &mut seen);
        out
    }

    /// Adds the repository's words that share a long prefix with a query word, so
    /// `caching` finds `cache` and `handler` finds `handle`, from string shape alone.
    fn add_variants(
        &mut self,
        stats: &TermStats,
        vocabulary: &Vocabulary,
        seen: &mut std::collections::HashSet<String>,
    ) {
        let words: Vec<String> = self
            .terms
            .iter()
            .filter(|t| !t.compound)
            .map(|t| t.term.clone())
            .chain(self.unknown.iter().cloned())
            .filter(|w| w.len() >= VARIANT_MIN_PREFIX)
            .collect();
        let mut found_for: std::collections::HashSet<String> = std::collections::HashSet::new();
        for word in words {
            let mut variants: Vec<(&String, u32)> = vocabulary
                .with_prefix(&word[..VARIANT_MIN_PREFIX])
                .iter()
                .filter(|(v, _)| !seen.contains(v) && is_variant(&word, v))
                .map(|(v, df)| (v, *df))
                .collect();
            variants.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
            for (v, df) in variants.into_iter().take(MAX_VARIANTS) {
                seen.insert(v.clone());
                found_for.insert(word.clone());
                self.terms.push(QueryTerm {
                    term: v.clone(),
                    idf: stats.idf(v) * VARIANT_WEIGHT,
                    df,
                    compound: false,
                    variant_of: Some(word.clone()),
                });
            }
        }
        self.unknown.retain(|w| !found_for.contains(w));
    }

    fn push(&mut self, term: String, stats: &TermStats, compound: bool) {
        let df = stats.df(&term);
        if df == 0 {
            self.unknown.push(term);
        } else {
            self.terms.push(QueryTerm {
                idf: stats.idf(&term),
                df,
                term,
                compound,
                variant_of: None,
            });
        }
    }

    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    pub fn get(&self, term: &str) -> Option<&QueryTerm> {
        self.terms.iter().find(|t| t.term == term)
    }

    /// Sum of all term weights: the most any one match can cover.
    pub fn total_weight(&self) -> f64 {
        self.terms
            .iter()
            .filter(|t| !t.compound)
            .map(|t| t.idf)
            .sum()
    }
}

/// The repository's terms in sorted order, so the words sharing a prefix are one slice.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Vocabulary {
    terms: Vec<(String, u32)>,
}

impl Vocabulary {
    pub fn of(stats: &TermStats) -> Vocabulary {
        let mut terms: Vec<(String, u32)> = stats.df.iter().map(|(t, n)| (t.clone(), *n)).collect();
        terms.sort_unstable();
        Vocabulary { terms }
    }

    /// Terms starting with `prefix`, with their document frequencies.
    pub fn with_prefix(&self, prefix: &str) -> &[(String, u32)] {
        let start = self.terms.partition_point(|(t, _)| t.as_str() < prefix);
        let len = self.terms[start..].partition_point(|(t, _)| t.starts_with(prefix));
        &self.terms[start..start + len]
    }
}

/// The workspace's vocabulary, sorted once per change of its term statistics.
#[salsa::tracked(returns(clone))]
pub fn vocabulary(db: &dyn crate::db::Db, ws: crate::db::Workspace) -> std::sync::Arc<Vocabulary> {
    std::sync::Arc::new(Vocabulary::of(&crate::db::term_stats(db, ws)))
}

/// Whether `b` shares a prefix with `a` long enough to be the same word in another form.
fn is_variant(a: &str, b: &str) -> bool {
    if a == b || b.len() < VARIANT_MIN_PREFIX {
        return false;
    }
    // Compound keys (`recordstore`) share a prefix with their first word but are other words.
    if a.len().abs_diff(b.len()) > VARIANT_MAX_LEN_DIFF {
        return false;
    }
    let common = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
    let shorter = a.len().min(b.len());
    common >= VARIANT_MIN_PREFIX && common as f64 >= VARIANT_MIN_SHARE * shorter as f64
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_share_a_long_prefix() {
        assert!(is_variant("caching", "cache"));
        assert!(is_variant("serializing", "serialize"));
        assert!(is_variant("handle", "handler"));
        assert!(!is_variant("process", "produce"));
        assert!(!is_variant("contain", "content"));
        assert!(!is_variant("test", "test"));
        assert!(!is_variant("record", "recordstore"));
    }

    #[test]
    fn unknown_words_with_a_variant_are_not_reported_missing() {
        let mut stats = TermStats::default();
        stats.add_document(&crate::terms::TermCounts::from_text(
            "function cacheValue() {}",
        ));
        stats.add_document(&crate::terms::TermCounts::from_text("function other() {}"));
        let q = QueryTerms::parse("caching things", &stats);
        assert!(
            q.terms
                .iter()
                .any(|t| t.term == "cache" && t.variant_of.as_deref() == Some("caching"))
        );
        assert_eq!(q.unknown, ["things"]);
    }
}
