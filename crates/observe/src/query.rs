//! Turning a free-text query into weighted terms using only identifier structure, a
//! standard stemmer, a maintained stop-word list (`stop.rs`) and the repository's own
//! statistics: no word tables of our own.
//! Words the repository never uses are dropped; words it uses everywhere weigh almost
//! nothing. Query words are normalised exactly like identifier words
//! ([`crate::terms::term_words`]), so `retried` finds `retries` and `shared` finds `share`.

use serde::{Deserialize, Serialize};

use crate::idf::TermStats;
use crate::terms::{
    compound_key, for_each_term, identifier_tokens, is_term, split_identifier, subword_count,
};

/// One weighted term of a query, known to occur in the repository.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QueryTerm {
    /// A normalised subword, or a compound key (`recordstore`) for a multi-word identifier.
    pub term: String,
    /// IDF over the repository's source files.
    pub idf: f64,
    /// Number of source files containing the term.
    pub df: u32,
    /// True for a whole multi-word identifier written in the query (`recordStore`).
    pub compound: bool,
}

/// A query parsed into the terms the repository uses, with their weights.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QueryTerms {
    /// Known terms in query order, each once; never has a `df` of 0.
    pub terms: Vec<QueryTerm>,
    /// Query words with no occurrence in the repository (kept for diagnostics).
    pub unknown: Vec<String>,
    /// The query's tokens as written that match exactly ([`crate::literal`]); their
    /// specificity is set by [`crate::search::resolve_literals`] (0 until then).
    #[serde(default)]
    pub literals: Vec<crate::literal::Literal>,
}

impl QueryTerms {
    /// Parses a query against the repository's statistics.
    pub fn parse(query: &str, stats: &TermStats) -> QueryTerms {
        let mut out = QueryTerms {
            literals: crate::literal::literals(query),
            ..QueryTerms::default()
        };
        let mut seen = std::collections::HashSet::new();
        for token in identifier_tokens(query) {
            // A query's function words ("the", "on", "how") name nothing in code.
            if subword_count(token) == 1 && crate::stop::is_stop_word(token) {
                continue;
            }
            if subword_count(token) > 1 {
                let key = compound_key(token);
                if seen.insert(key.clone()) {
                    out.push(key, stats, true);
                }
            }
            for word in split_identifier(token) {
                for_each_term(&word, |t| {
                    if seen.insert(t.to_owned()) {
                        out.push(t.to_owned(), stats, false);
                    }
                });
                // A word whose every form is missing is reported as the query spelled it.
                let known = |t: &str| out.terms.iter().any(|q| q.term == t);
                let mut any_known = false;
                for_each_term(&word, |t| any_known |= known(t));
                if !any_known && is_term(&word) && !out.unknown.contains(&word) {
                    out.unknown.push(word);
                }
            }
        }
        out
    }

    /// Adds a term the repository uses; compound keys it does not use are reported unknown
    /// (plain words are reported by [`QueryTerms::parse`] as the query spelled them).
    fn push(&mut self, term: String, stats: &TermStats, compound: bool) {
        // The frequency sums over every chunk of the repository: looked up once.
        let df = stats.df(&term);
        if df == 0 {
            if compound {
                self.unknown.push(term);
            }
        } else {
            self.terms.push(QueryTerm {
                idf: stats.idf_of(df),
                df,
                term,
                compound,
            });
        }
    }

    /// Whether no query word occurs in the repository.
    pub fn is_empty(&self) -> bool {
        self.terms.is_empty()
    }

    /// The literals the repository holds (resolved, matched at least once).
    pub fn known_literals(&self) -> impl Iterator<Item = &crate::literal::Literal> {
        self.literals.iter().filter(|l| l.df > 0)
    }

    /// The query term equal to `term`, if the query has it.
    pub fn get(&self, term: &str) -> Option<&QueryTerm> {
        self.terms.iter().find(|t| t.term == term)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stats(docs: &[&str]) -> TermStats {
        let mut stats = TermStats::default();
        for d in docs {
            stats.add_document(&crate::terms::TermCounts::from_text(d));
        }
        stats
    }

    #[test]
    fn inflected_query_words_find_the_repositorys_words() {
        let s = stats(&[
            "function cacheValue() {}",
            "function retryRequest() {}",
            "x",
        ]);
        let q = QueryTerms::parse("caching retried things", &s);
        let terms: Vec<&str> = q.terms.iter().map(|t| t.term.as_str()).collect();
        assert_eq!(terms, ["cach", "retri"]);
        assert_eq!(q.unknown, ["things"]);
    }

    #[test]
    fn a_multi_word_identifier_is_a_compound_term_too() {
        let s = stats(&["const recordStore = 1;", "x"]);
        let q = QueryTerms::parse("where is recordStore set", &s);
        assert!(q.get("recordstore").is_some_and(|t| t.compound));
        assert!(q.get("record").is_some_and(|t| !t.compound));
    }

    #[test]
    fn identifiers_with_digits_are_searchable() {
        let s = stats(&["function f12345() {}", "function other() {}"]);
        let q = QueryTerms::parse("explore f12345", &s);
        assert!(q.get("f12345").is_some());
    }
}
