//! Scoring one candidate from structure only, explained by its components.

use serde::{Deserialize, Serialize};
use sightline_observe::query::QueryTerms;
use sightline_observe::terms::split_identifier;
use sightline_registry::Candidate;

/// Ranges up to this many lines are "tight"; wider ones lose score gradually.
const TIGHT_LINES: f64 = 80.0;
/// Share of score a secondary file (test, example, generated, vendored) keeps unless the
/// query's own terms name it.
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
    /// Query terms naming one of the candidate's path kinds.
    pub path_kind: f64,
    /// Multiplier for range width (1 for tight ranges).
    pub tightness: f64,
    /// Multiplier for secondary traits (1 when none applies).
    pub trait_factor: f64,
    pub total: f64,
}

pub fn score(c: &Candidate, terms: &QueryTerms) -> ScoreBreakdown {
    let tool = c
        .provenance
        .iter()
        .filter_map(|p| p.score)
        .fold(0.0, f64::max);
    let mut name = 0.0;
    let mut named: Vec<String> = Vec::new();
    for s in &c.symbols {
        for w in split_identifier(&s.name) {
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
    let path_kind: f64 = c
        .path_kinds
        .iter()
        .filter_map(|k| terms.get(k.as_str()))
        .map(|t| t.idf * 0.5)
        .sum();
    let tightness = match c.range {
        Some(r) if f64::from(r.len()) > TIGHT_LINES => (TIGHT_LINES / f64::from(r.len())).powf(0.3),
        Some(_) => 1.0,
        None => RANGELESS_FACTOR,
    };
    let names_trait = c.path.split(['/', '.']).any(|seg| {
        split_identifier(seg).iter().any(|w| terms.get(w).is_some())
            && sightline_observe::path_traits::PathTraits::of(&format!("{seg}/x")).is_secondary()
    });
    let trait_factor = if c.traits.is_secondary() && !names_trait {
        SECONDARY_FACTOR
    } else {
        1.0
    };
    // Empty float sums are -0.0; normalise so explanations never print "-0.00".
    let (lexical, path_kind) = (lexical + 0.0, path_kind + 0.0);
    let total = (tool + 0.5 * name + 0.2 * lexical + path_kind) * tightness * trait_factor;
    ScoreBreakdown {
        tool,
        name,
        lexical,
        path_kind,
        tightness,
        trait_factor,
        total,
    }
}
