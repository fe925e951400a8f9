//! Scoring one candidate from structure only, explained by its components.

use serde::{Deserialize, Serialize};
use sightline_observe::query::QueryTerms;
use sightline_observe::terms::term_words;
use sightline_registry::Candidate;

/// Ranges up to this many lines are "tight"; wider ones lose score gradually.
const TIGHT_LINES: f64 = 80.0;
/// Share of its own components' score a secondary file (test, example, generated,
/// vendored) keeps unless the caller asked for such files.
const SECONDARY_FACTOR: f64 = 0.3;
/// Share of score a candidate without a range keeps: it can be cited but not read.
const RANGELESS_FACTOR: f64 = 0.6;

#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreBreakdown {
    /// The best score a ranking tool gave the candidate (observe's search: names, BM25,
    /// path, graph).
    pub tool: f64,
    /// Query terms in the candidate's symbol names, IDF-weighted.
    pub name: f64,
    /// Query terms the tools matched in the file, IDF-weighted.
    pub lexical: f64,
    /// Multiplier for range width (1 for tight ranges).
    pub tightness: f64,
    /// Multiplier for secondary traits on `name` and `lexical` (1 when none applies).
    pub trait_factor: f64,
    pub total: f64,
}

/// Scores one candidate. `include_secondary` is the caller's explicit request for tests,
/// examples and other secondary files (`include_tests`); without it they are penalised,
/// once per component: a ranking tool's score already carries the tool's own penalty, so
/// the factor here applies only to the components this function adds.
pub fn score(c: &Candidate, terms: &QueryTerms, include_secondary: bool) -> ScoreBreakdown {
    let tool = c
        .provenance
        .iter()
        .filter_map(|p| p.score)
        .fold(0.0, f64::max);
    let mut name = 0.0;
    let mut named: Vec<String> = Vec::new();
    for s in &c.symbols {
        for w in term_words(&s.name) {
            if named.contains(&w) {
                continue;
            }
            if let Some(t) = terms.get(&w).filter(|t| !t.compound) {
                name += t.idf;
                named.push(w);
            }
        }
    }
    let lexical: f64 = c
        .matched_terms
        .iter()
        .filter_map(|m| terms.get(m))
        .filter(|t| !t.compound)
        .map(|t| t.idf)
        .sum();
    let tightness = match c.range {
        Some(r) if f64::from(r.len()) > TIGHT_LINES => (TIGHT_LINES / f64::from(r.len())).powf(0.3),
        Some(_) => 1.0,
        None => RANGELESS_FACTOR,
    };
    let trait_factor = if c.traits.is_secondary() && !include_secondary {
        SECONDARY_FACTOR
    } else {
        1.0
    };
    // Empty float sums are -0.0; normalise so explanations never print "-0.00".
    let lexical = lexical + 0.0;
    let total = (tool + (0.5 * name + 0.2 * lexical) * trait_factor) * tightness;
    ScoreBreakdown {
        tool,
        name,
        lexical,
        tightness,
        trait_factor,
        total,
    }
}
