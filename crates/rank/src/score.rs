//! Scoring one candidate: its features, weighed by the fitted model.

use sightline_observe::query::QueryTerms;
use sightline_registry::Candidate;

use crate::model::{Features, ScoreBreakdown, Weights};

/// Scores one candidate with the fitted weights. `include_secondary` is the caller's
/// explicit request for tests, examples and other secondary files (`include_tests`);
/// without it they are penalised, once.
pub fn score(c: &Candidate, terms: &QueryTerms, include_secondary: bool) -> ScoreBreakdown {
    Weights::fitted().score(&Features::of(c, terms), include_secondary)
}
