//! The one scoring model of the packet: typed features of a candidate, taken from what the
//! tools observed, weighed by weights fitted on data (`cargo xtask fit`) and checked in as
//! `weights.json`. Every weight and penalty is here and applied once.

use std::sync::OnceLock;

use serde::{Deserialize, Serialize};
use sightline_observe::query::QueryTerms;
use sightline_observe::search::{SearchShape, SearchWeights};
use sightline_observe::terms::term_words;
use sightline_registry::Candidate;

use crate::confidence::ConfidenceModel;

/// Ranges up to this many lines are "tight"; wider ones lose score by `width_exponent`.
pub const TIGHT_LINES: f64 = 80.0;

/// What the tools observed about one candidate, unweighted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Features {
    /// The search's components for the candidate's file (0 when no ranking tool showed it):
    /// declaration-name matches, BM25 text matches, path-word matches, graph proximity to
    /// the strongest name matches, each in the repository's IDF units.
    pub search_name: f64,
    /// The search's BM25 of the file.
    pub search_lexical: f64,
    /// The search's sum of the file's other declaration-name matches (weighed into
    /// [`Features::search_name`] by the shape's `rest_name`).
    #[serde(default)]
    pub search_name_rest: f64,
    /// The search's file-name word matches.
    pub search_path: f64,
    /// The search's directory word matches (weighed into [`Features::search_path`] by the
    /// shape's `path_dir`).
    #[serde(default)]
    pub search_path_dir: f64,
    /// The search's graph proximity to the best name matches.
    pub search_graph: f64,
    /// The search's literal components of the file: the specificity of the query's
    /// literals naming one of its declarations, its path, or found in its text.
    #[serde(default)]
    pub search_literal_name: f64,
    /// See [`Features::search_literal_name`].
    #[serde(default)]
    pub search_literal_path: f64,
    /// See [`Features::search_literal_name`].
    #[serde(default)]
    pub search_literal_text: f64,
    /// The search's proximity: query terms gathered in one short run of the file's lines.
    #[serde(default)]
    pub search_proximity: f64,
    /// The specificity of the query's literals naming one of the candidate's own symbols.
    #[serde(default)]
    pub symbol_literal: f64,
    /// Query terms in the candidate's own symbol names, IDF-weighted.
    pub symbol_name: f64,
    /// Query terms the tools matched in the candidate's file, IDF-weighted.
    pub matched_lexical: f64,
    /// A test, example, generated or vendored file.
    pub secondary: bool,
    /// A declaration-only file (`.d.ts`, stubs).
    pub declaration_only: bool,
    /// No line range: it can be cited but not read.
    pub rangeless: bool,
    /// Lines in its range (0 when rangeless).
    pub width: u32,
    /// A prior of the candidate's file, from the search: its length against the
    /// repository's mean, `ln(words / mean)` (0 when no ranking tool showed it).
    #[serde(default)]
    pub size: f64,
}

impl Features {
    /// The features of one candidate for a query's terms.
    pub fn of(c: &Candidate, terms: &QueryTerms) -> Features {
        let search = c.search.unwrap_or_default();
        let symbol_literal: f64 = terms
            .known_literals()
            .filter(|l| c.symbols.iter().any(|s| l.names(&s.name, &s.qualified)))
            .map(|l| l.idf)
            .sum::<f64>()
            + 0.0;
        let mut symbol_name = 0.0;
        let mut named: Vec<String> = Vec::new();
        for s in &c.symbols {
            for w in term_words(&s.name) {
                if named.contains(&w) {
                    continue;
                }
                if let Some(t) = terms.get(&w).filter(|t| !t.compound) {
                    symbol_name += t.idf;
                    named.push(w);
                }
            }
        }
        // Empty float sums are -0.0; normalise so explanations never print "-0.00".
        let matched_lexical: f64 = c
            .matched_terms
            .iter()
            .filter_map(|m| terms.get(m))
            .filter(|t| !t.compound)
            .map(|t| t.idf)
            .sum::<f64>()
            + 0.0;
        Features {
            search_name: search.name,
            search_name_rest: search.name_rest,
            search_lexical: search.lexical,
            search_path: search.path,
            search_path_dir: search.path_dir,
            search_graph: search.graph,
            search_literal_name: search.literal_name,
            search_literal_path: search.literal_path,
            search_literal_text: search.literal_text,
            search_proximity: search.proximity,
            symbol_literal,
            symbol_name,
            matched_lexical,
            secondary: c.traits.is_secondary(),
            declaration_only: c.traits.declaration_only,
            rangeless: c.range.is_none(),
            width: c.range.map_or(0, |r| r.len()),
            size: search.size,
        }
    }
}

/// The model's weights: linear weights of the match features, the factors of the
/// penalties, and the constants of the search's feature extractors.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Weights {
    /// Weight of [`Features::search_name`] (the scale anchor, 1).
    pub search_name: f64,
    /// Weight of [`Features::search_lexical`].
    pub search_lexical: f64,
    /// Weight of [`Features::search_path`].
    pub search_path: f64,
    /// Weight of [`Features::search_graph`].
    pub search_graph: f64,
    /// Weight of [`Features::symbol_name`].
    pub symbol_name: f64,
    /// Weight of [`Features::matched_lexical`].
    pub matched_lexical: f64,
    /// Weight of [`Features::search_literal_name`] (0 in a file written before it).
    #[serde(default)]
    pub search_literal_name: f64,
    /// Weight of [`Features::search_literal_path`].
    #[serde(default)]
    pub search_literal_path: f64,
    /// Weight of [`Features::search_literal_text`].
    #[serde(default)]
    pub search_literal_text: f64,
    /// Weight of [`Features::search_proximity`].
    #[serde(default)]
    pub search_proximity: f64,
    /// Weight of [`Features::symbol_literal`].
    #[serde(default)]
    pub symbol_literal: f64,
    /// Exponent of the file-size prior: the score is multiplied by `exp(size · Features::size)`,
    /// i.e. by the file's length relative to the repository's to this power. Large files
    /// change more often, a classic prior of bug localization; the repository's mean only
    /// scales every score of a query alike. 0 (no prior) in a file written before it.
    #[serde(default)]
    pub size: f64,
    /// Share of score a secondary file keeps unless the caller asked for such files.
    pub secondary_factor: f64,
    /// Share of score a declaration-only file keeps.
    pub declaration_only_factor: f64,
    /// Share of score a rangeless candidate keeps.
    pub rangeless_factor: f64,
    /// How fast ranges wider than [`TIGHT_LINES`] lose score: `(TIGHT_LINES / width)^e`.
    pub width_exponent: f64,
    /// The constants inside the search's feature extractors (BM25's, name coverage,
    /// edge kinds, path fields…); a file without them gets the unfitted ones.
    #[serde(default)]
    pub shape: SearchShape,
    /// The deterministic selection's confidence score and cut-offs, fitted by `cargo xtask
    /// fit`. Required: a file without it, or with the margin-and-leads rule of an earlier
    /// release, is refused with an error that says how to refit.
    pub confidence: ConfidenceModel,
}

/// One candidate's score, explained by its parts.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct ScoreBreakdown {
    /// The weighted search features (what explore_code ranked the file by).
    pub tool: f64,
    /// The weighted symbol-name matches.
    pub name: f64,
    /// The weighted matched terms.
    pub lexical: f64,
    /// Multiplier for range width (1 for tight ranges, the rangeless factor for none).
    pub tightness: f64,
    /// Multiplier for secondary and declaration-only files (1 when none applies).
    pub trait_factor: f64,
    /// Multiplier of the file's size prior (1 with none).
    #[serde(default)]
    pub prior: f64,
    /// `(tool + name + lexical) × trait_factor × tightness × prior`.
    pub total: f64,
}

static FITTED: OnceLock<Weights> = OnceLock::new();

/// The checked-in weights, as `cargo xtask fit` wrote them.
pub const WEIGHTS_JSON: &str = include_str!("../weights.json");

impl Weights {
    /// The fitted weights of `weights.json` (a unit test guarantees they parse).
    pub fn fitted() -> &'static Weights {
        FITTED.get_or_init(|| {
            serde_json::from_str(WEIGHTS_JSON).unwrap_or_else(|_| Weights::structural())
        })
    }

    /// The hand-set weights the engine ranked with before any fit: where `cargo xtask fit`
    /// starts, so that a weight fitted without one repository has seen nothing of it.
    pub fn prior() -> Weights {
        // The search's own hand-set weights, so the two never disagree.
        let search = SearchWeights::UNFITTED;
        Weights {
            search_name: search.name,
            search_lexical: search.lexical,
            search_path: search.path,
            search_graph: search.graph,
            symbol_name: 0.5,
            matched_lexical: 0.2,
            search_literal_name: search.literal_name,
            search_literal_path: search.literal_path,
            search_literal_text: search.literal_text,
            search_proximity: search.proximity,
            symbol_literal: 0.5,
            size: 0.0,
            secondary_factor: search.secondary_factor,
            declaration_only_factor: search.declaration_only_factor,
            rangeless_factor: 0.6,
            width_exponent: 0.3,
            shape: search.shape,
            confidence: ConfidenceModel::default(),
        }
    }

    /// Weights that use every feature a little and penalise nothing: the starting point
    /// of a fit, and what the model falls back to if `weights.json` were unreadable.
    pub fn structural() -> Weights {
        Weights {
            search_name: 1.0,
            search_lexical: 1.0,
            search_path: 1.0,
            search_graph: 1.0,
            symbol_name: 1.0,
            matched_lexical: 1.0,
            search_literal_name: 1.0,
            search_literal_path: 1.0,
            search_literal_text: 1.0,
            search_proximity: 1.0,
            symbol_literal: 1.0,
            size: 0.0,
            secondary_factor: 1.0,
            declaration_only_factor: 1.0,
            rangeless_factor: 1.0,
            width_exponent: 0.0,
            shape: SearchShape::UNFITTED,
            confidence: ConfidenceModel::default(),
        }
    }

    /// Scores `f`. `include_secondary` is the caller's request for tests and other
    /// secondary files: the secondary penalty then does not apply.
    pub fn score(&self, f: &Features, include_secondary: bool) -> ScoreBreakdown {
        let s = &self.shape;
        let tool = self.search_name * s.file_name(f.search_name, f.search_name_rest)
            + self.search_lexical * f.search_lexical
            + self.search_path * (s.path_stem * f.search_path + s.path_dir * f.search_path_dir)
            + self.search_graph * f.search_graph
            + self.search_literal_name * f.search_literal_name
            + self.search_literal_path * f.search_literal_path
            + self.search_literal_text * f.search_literal_text
            + self.search_proximity * f.search_proximity;
        let name = self.symbol_name * f.symbol_name + self.symbol_literal * f.symbol_literal;
        let lexical = self.matched_lexical * f.matched_lexical;
        let mut trait_factor = 1.0;
        if f.secondary && !include_secondary {
            trait_factor *= self.secondary_factor;
        }
        if f.declaration_only && !include_secondary {
            trait_factor *= self.declaration_only_factor;
        }
        let width = f64::from(f.width);
        let tightness = if f.rangeless {
            self.rangeless_factor
        } else if width > TIGHT_LINES {
            (TIGHT_LINES / width).powf(self.width_exponent)
        } else {
            1.0
        };
        let prior = (self.size * f.size).exp();
        ScoreBreakdown {
            tool,
            name,
            lexical,
            tightness,
            trait_factor,
            prior,
            total: (tool + name + lexical) * trait_factor * tightness * prior,
        }
    }

    /// The part of the model the search orders `explore_code`'s files by, so the tool's
    /// windows and the packet follow one set of weights.
    pub fn search(&self) -> SearchWeights {
        SearchWeights {
            name: self.search_name,
            lexical: self.search_lexical,
            path: self.search_path,
            graph: self.search_graph,
            literal_name: self.search_literal_name,
            literal_path: self.search_literal_path,
            literal_text: self.search_literal_text,
            proximity: self.search_proximity,
            secondary_factor: self.secondary_factor,
            declaration_only_factor: self.declaration_only_factor,
            // The exploration treats as decisive what the margin alone would call high.
            decisive_margin: self.confidence.decisive_margin(),
            shape: self.shape,
        }
    }

    /// The weights `cargo xtask fit` learns, in a fixed order.
    pub fn to_vec(&self) -> Vec<f64> {
        vec![
            self.search_name,
            self.search_lexical,
            self.search_path,
            self.search_graph,
            self.symbol_name,
            self.matched_lexical,
            self.secondary_factor,
            self.declaration_only_factor,
            self.rangeless_factor,
            self.width_exponent,
            self.shape.rest_name,
            self.shape.path_dir,
            self.search_literal_name,
            self.search_literal_path,
            self.search_literal_text,
            self.search_proximity,
            self.symbol_literal,
            self.size,
        ]
    }

    /// These weights with the fitted ones replaced by `v` (in [`Weights::to_vec`]'s
    /// order); the constants the fit does not learn are kept.
    pub fn with_fitted(&self, v: &[f64]) -> Option<Weights> {
        let [
            a,
            b,
            c,
            d,
            e,
            f,
            g,
            h,
            i,
            j,
            rest_name,
            path_dir,
            literal_name,
            literal_path,
            literal_text,
            proximity,
            symbol_literal,
            size,
        ] = v.try_into().ok()?;
        Some(Weights {
            search_name: a,
            search_lexical: b,
            search_path: c,
            search_graph: d,
            symbol_name: e,
            matched_lexical: f,
            search_literal_name: literal_name,
            search_literal_path: literal_path,
            search_literal_text: literal_text,
            search_proximity: proximity,
            symbol_literal,
            size,
            secondary_factor: g,
            declaration_only_factor: h,
            rangeless_factor: i,
            width_exponent: j,
            shape: SearchShape {
                rest_name,
                path_dir,
                ..self.shape
            },
            confidence: self.confidence,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_checked_in_weights_parse_and_penalties_only_lower() {
        let w: Weights = serde_json::from_str(WEIGHTS_JSON).expect("weights.json parses");
        for factor in [
            w.secondary_factor,
            w.declaration_only_factor,
            w.rangeless_factor,
        ] {
            assert!((0.0..=1.0).contains(&factor), "{w:?}");
        }
        assert!(w.width_exponent >= 0.0);
        // The fitted extractor constants stay within the ranges the fit searches.
        assert!((0.0..=1.0).contains(&w.shape.rest_name), "{w:?}");
        assert!((0.0..=2.0).contains(&w.shape.path_dir), "{w:?}");
        assert_eq!(w.with_fitted(&w.to_vec()), Some(w));
    }

    #[test]
    fn a_weights_file_without_extractor_constants_loads_the_unfitted_ones() {
        let mut doc: serde_json::Value = serde_json::from_str(WEIGHTS_JSON).unwrap();
        doc.as_object_mut().unwrap().remove("shape");
        let w: Weights = serde_json::from_value(doc).expect("loads without shape");
        assert_eq!(w.shape, SearchShape::UNFITTED);
        // The search is handed the model's constants, not its own.
        let tuned = Weights {
            shape: SearchShape {
                rest_name: 0.9,
                ..SearchShape::UNFITTED
            },
            ..w
        };
        assert_eq!(tuned.search().shape.rest_name, 0.9);
    }

    #[test]
    fn a_penalised_candidate_never_outscores_the_same_one_unpenalised() {
        let w = Weights::fitted();
        let base = Features {
            search_name: 2.0,
            search_lexical: 1.0,
            symbol_name: 1.5,
            width: 30,
            ..Features::default()
        };
        let plain = w.score(&base, false).total;
        for worse in [
            Features {
                secondary: true,
                ..base
            },
            Features {
                declaration_only: true,
                ..base
            },
            Features {
                rangeless: true,
                width: 0,
                ..base
            },
            Features { width: 400, ..base },
        ] {
            assert!(w.score(&worse, false).total <= plain, "{worse:?}");
        }
        let secondary = Features {
            secondary: true,
            ..base
        };
        assert_eq!(w.score(&secondary, true).total, plain);
    }
}
