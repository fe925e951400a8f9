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
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct QueryTerms {
    pub terms: Vec<QueryTerm>,
    /// Query words with no occurrence in the repository (kept for diagnostics).
    pub unknown: Vec<String>,
}

impl QueryTerms {
    pub fn parse(query: &str, stats: &TermStats) -> QueryTerms {
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
        out
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
