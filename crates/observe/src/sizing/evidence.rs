//! How much of a place the evidence pays for. The search's margin says whether one file is
//! the answer (decisive: it outscores the next by the model's `decisive_margin`, see
//! [`crate::search::SearchWeights`]) or the question is spread over several (diffuse);
//! a place's own
//! evidence (its name's match to the query's words and literals, not what it inherited
//! over graph edges) says whether its body is worth reading or a signature line says
//! enough. Every threshold compares the query's own scores with each other, never with a
//! fixed amount of text.

use rustc_hash::FxHashMap;

use crate::query::QueryTerms;
use crate::search::{FileHit, SearchResult, SymbolHit};
use crate::terms::{Openings, for_each_term_where, identifier_tokens};

/// A place's body is shown when its own evidence is at least this share of the best
/// place's: below it, a place matched fewer or more common words than the best one did.
pub const FULL_SHARE: f64 = 0.5;
/// Most declaration names whose mention makes a line evidence (the best name matches).
const MATCHED_NAMES: usize = 24;

/// The first file's score over the second's: how decisive the ranking is (infinite for a
/// lone file, 0 without files).
pub fn margin(files: &[&FileHit]) -> f64 {
    match files {
        [] => 0.0,
        [_] => f64::INFINITY,
        [first, second, ..] if second.score > 0.0 => first.score / second.score,
        [_, _, ..] => f64::INFINITY,
    }
}

/// What makes a line worth keeping when a window is cut: the query's words and literals
/// on it, and mentions of the declarations the query matched by name.
pub struct LineEvidence<'a> {
    terms: &'a QueryTerms,
    /// Looked up for every token of every line weighed.
    names: FxHashMap<String, f64>,
    /// The query terms' openings: only the words starting with one are stemmed.
    openings: Openings,
}

impl<'a> LineEvidence<'a> {
    /// Evidence for `found`'s query; `name_of` gives a matched declaration's name.
    pub fn new(found: &'a SearchResult, name_of: &dyn Fn(&SymbolHit) -> Option<String>) -> Self {
        let mut names: FxHashMap<String, f64> = FxHashMap::default();
        for s in found
            .symbols
            .iter()
            .filter(|s| s.own_score() > 0.0)
            .take(MATCHED_NAMES)
        {
            if let Some(name) = name_of(s) {
                let e = names.entry(name).or_default();
                *e = e.max(s.own_score());
            }
        }
        LineEvidence {
            terms: &found.terms,
            names,
            openings: Openings::of(found.terms.terms.iter().map(|t| t.term.as_str())),
        }
    }

    /// The weight of one line: the IDF of the distinct query terms on it, the specificity
    /// of the literals in it, and the best matched declaration it mentions.
    pub fn weight(&self, line: &str) -> f64 {
        let mut seen: Vec<&str> = Vec::new();
        let mut w = 0.0;
        let mut mention: f64 = 0.0;
        let worth = |lower: &str| self.openings.admit(lower);
        for tok in identifier_tokens(line) {
            if let Some(s) = self.names.get(tok) {
                mention = mention.max(*s);
            }
            for_each_term_where(tok, worth, |t| {
                if let Some(q) = self.terms.terms.iter().find(|q| q.term == t && !q.compound)
                    && !seen.contains(&q.term.as_str())
                {
                    seen.push(q.term.as_str());
                    w += q.idf;
                }
            });
        }
        for lit in self.terms.known_literals() {
            if lit.occurs_in(line) {
                w += lit.idf;
            }
        }
        w + mention
    }
}

/// The query's evidence on one line, each piece once with its weight: the distinct
/// (non-compound) query terms among the line's words, by IDF, and the known literals it
/// holds, by their specificity. Keys are the term (`pretti`) or the literal as written
/// (`` `must_use` `` gives `must_use`), so a caller can tell what two lines share.
pub fn line_terms(terms: &QueryTerms, line: &str) -> Vec<(String, f64)> {
    let openings = Openings::of(terms.terms.iter().map(|t| t.term.as_str()));
    let mut found: Vec<(String, f64)> = Vec::new();
    for tok in identifier_tokens(line) {
        for_each_term_where(
            tok,
            |lower| openings.admit(lower),
            |t| {
                if let Some(q) = terms.terms.iter().find(|q| q.term == t && !q.compound)
                    && !found.iter().any(|(k, _)| *k == q.term)
                {
                    found.push((q.term.clone(), q.idf));
                }
            },
        );
    }
    for lit in terms.known_literals() {
        if lit.occurs_in(line) && !found.iter().any(|(k, _)| *k == lit.text) {
            found.push((lit.text.clone(), lit.idf));
        }
    }
    found
}
