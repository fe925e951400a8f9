//! The packet: a bounded, diverse, budgeted list of the best candidates, each with its score
//! explanation. It is what a value model (or the deterministic fallback) chooses from.

use std::collections::HashMap;
use std::fmt::Write as _;

use serde::{Deserialize, Serialize};
use sightline_observe::query::QueryTerms;
use sightline_registry::{CandidateId, Registry};

use crate::model::{Features, ScoreBreakdown, Weights};

/// Size, diversity and scoring of a packet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PacketOptions {
    /// Fewest entries when the registry has enough candidates.
    pub min_entries: usize,
    /// Most entries.
    pub max_entries: usize,
    /// Most entries from one file in the first pass.
    pub per_file: usize,
    /// Most entries from one directory in the first pass.
    pub per_dir: usize,
    /// Character budget of the rendered packet.
    pub budget_chars: usize,
    /// Rank tests, examples and other secondary files like any other (`include_tests`).
    pub include_secondary: bool,
    /// The model's weights: the checked-in fit unless a caller measures others (eval's
    /// leave-one-repository-out run).
    pub weights: Weights,
}

impl Default for PacketOptions {
    fn default() -> Self {
        PacketOptions {
            min_entries: 20,
            max_entries: 40,
            per_file: 1,
            per_dir: 12,
            budget_chars: 6000,
            include_secondary: false,
            weights: *Weights::fitted(),
        }
    }
}

/// One candidate in the packet.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PacketEntry {
    /// The candidate's registry ID.
    pub id: CandidateId,
    /// Its score, explained.
    pub score: ScoreBreakdown,
    /// The rendered line for this entry.
    pub line: String,
}

/// The best candidates of a registry, bounded and diverse: what a value model (or the
/// fallback) chooses from.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Packet {
    /// Best first.
    pub entries: Vec<PacketEntry>,
    /// Candidates scored but left out (diversity or budget).
    pub left_out: usize,
}

impl Packet {
    /// One line per entry: ID, place, label and score explanation.
    pub fn render(&self) -> String {
        let mut out = String::new();
        for e in &self.entries {
            out.push_str(&e.line);
            out.push('\n');
        }
        out
    }

    /// Files in packet order, each once.
    pub fn files<'a>(&self, registry: &'a Registry) -> Vec<&'a str> {
        self.file_scores(registry)
            .into_iter()
            .map(|(f, _)| f)
            .collect()
    }

    /// Files in packet order, each once, with the score of their best entry.
    pub fn file_scores<'a>(&self, registry: &'a Registry) -> Vec<(&'a str, f64)> {
        let mut files: Vec<(&str, f64)> = Vec::new();
        for e in &self.entries {
            let Some(c) = registry.get(e.id) else {
                continue;
            };
            if !files.iter().any(|(f, _)| *f == c.path) {
                files.push((&c.path, e.score.total));
            }
        }
        files
    }
}

/// Scores every candidate with `weights`; best first. Ties are broken by how much of the
/// candidate's own name the query says ([`name_coverage`]), then by ID (arrival order).
pub fn rank_all(
    registry: &Registry,
    terms: &QueryTerms,
    include_secondary: bool,
    weights: &Weights,
) -> Vec<(CandidateId, ScoreBreakdown)> {
    let mut scored: Vec<(CandidateId, ScoreBreakdown, f64)> = registry
        .iter()
        .map(|c| {
            (
                c.id,
                weights.score(&Features::of(c, terms), include_secondary),
                name_coverage(c, terms),
            )
        })
        .collect();
    scored.sort_by(|a, b| {
        b.1.total
            .total_cmp(&a.1.total)
            .then(b.2.total_cmp(&a.2))
            .then(a.0.cmp(&b.0))
    });
    scored.into_iter().map(|(id, s, _)| (id, s)).collect()
}

/// The share of the words of a candidate's name (its first symbol's) that are query terms:
/// 1 for `save` on a query saying "save", a third for `_SaveSubHandler`. Candidates
/// of one file share the file's search features, so their scores tie whenever their names
/// match the same query words; the place whose name is what the query says is then the
/// one cited, not the one that happened to be observed first.
pub fn name_coverage(c: &sightline_registry::Candidate, terms: &QueryTerms) -> f64 {
    let Some(name) = c.symbols.first().map(|s| s.name.as_str()) else {
        return 0.0;
    };
    let words = sightline_observe::terms::term_words(name);
    if words.is_empty() {
        return 0.0;
    }
    let said = words.iter().filter(|w| terms.get(w).is_some()).count();
    said as f64 / words.len() as f64
}

/// Ranks `registry` for `terms` and keeps a packet within `opts`' limits.
pub fn build_packet(registry: &Registry, terms: &QueryTerms, opts: &PacketOptions) -> Packet {
    let ranked = rank_all(registry, terms, opts.include_secondary, &opts.weights);
    let mut per_file: HashMap<&str, usize> = HashMap::new();
    let mut per_dir: HashMap<&str, usize> = HashMap::new();
    let mut chosen: Vec<usize> = Vec::new();
    let mut deferred: Vec<usize> = Vec::new();
    for (i, (id, _)) in ranked.iter().enumerate() {
        let Some(c) = registry.get(*id) else { continue };
        let dir = c.path.rsplit_once('/').map_or("", |(d, _)| d);
        let f = per_file.entry(&c.path).or_default();
        let d = per_dir.entry(dir).or_default();
        if *f < opts.per_file && *d < opts.per_dir {
            *f += 1;
            *d += 1;
            chosen.push(i);
        } else {
            deferred.push(i);
        }
    }
    // Diversity first; near-duplicates only fill a packet that would be too small.
    if chosen.len() < opts.min_entries {
        let need = opts.min_entries - chosen.len();
        chosen.extend(deferred.iter().take(need));
        chosen.sort_unstable();
    }
    let mut packet = Packet::default();
    let mut used = 0;
    for &i in &chosen {
        if packet.entries.len() >= opts.max_entries {
            break;
        }
        let (id, s) = ranked[i];
        let Some(c) = registry.get(id) else { continue };
        let mut line = format!("{id} {}", c.path);
        if let Some(r) = c.range {
            let _ = write!(line, ":{}-{}", r.start, r.end);
        }
        let _ = write!(line, " {}", c.label());
        let _ = write!(
            line,
            " | score {:.2} (tool {:.2}, name {:.2}, lexical {:.2}, x{:.2} width, x{:.2} traits",
            s.total, s.tool, s.name, s.lexical, s.tightness, s.trait_factor
        );
        // The file-size prior, where it moves the score at the printed precision: the
        // printed factors then multiply out to the total.
        if format!("{:.2}", s.prior) != "1.00" {
            let _ = write!(line, ", x{:.2} size", s.prior);
        }
        line.push(')');
        if used + line.len() + 1 > opts.budget_chars {
            break;
        }
        used += line.len() + 1;
        packet.entries.push(PacketEntry { id, score: s, line });
    }
    packet.left_out = ranked.len() - packet.entries.len();
    packet
}
