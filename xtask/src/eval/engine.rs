//! The engine arm: the single place the harness calls the pipeline. It runs the
//! deterministic explore through `sightline_agent::explore` (explore_code -> registry ->
//! rank -> validate -> render), as the CLI and the MCP server do, with intent `locate`,
//! and reads the ranking off the packet.

use sightline_agent::{ExploreSession, Finished, Mode};
use sightline_observe::Index;
use sightline_observe::tools::explore_code::ExploreArgs;
use sightline_registry::{Confidence, Intent, RegistryDatabase, ToolCall};

/// What one engine call produced for one query.
#[derive(Clone, Debug, Default)]
pub struct EngineRun {
    /// Ranked, unique, best first (packet order).
    pub files: Vec<String>,
    /// Every file in the candidate packet (recall@packet is measured against these).
    pub packet_files: Vec<String>,
    /// Characters of the report's prose, the text a client reads (without the JSON block).
    pub report_chars: Option<usize>,
    /// Line widths of the ranges the report cites.
    pub cited_widths: Vec<u32>,
    /// The distinct files the report cites as primary, in report order.
    pub cited_files: Vec<String>,
    /// The report's runners-up (`also:`), in report order: files it names after those.
    pub also_files: Vec<String>,
    /// Each ranked file's best score as a share of the first file's, in packet order
    /// (what a runner-up's least share is chosen from).
    pub file_shares: Vec<f64>,
    /// The report's confidence after validation.
    pub confidence: Option<Confidence>,
    /// Flow links submitted by the deterministic selection, and how many kept a verified quote.
    pub quotes_total: usize,
    pub quotes_verified: usize,
    /// Every candidate the exploration registered, with the rank model's features: what
    /// `cargo xtask fit` learns the weights from.
    pub candidates: Vec<CandidateFeatures>,
    /// Query words the repository never uses.
    pub unknown_words: usize,
}

/// One candidate's file and features.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct CandidateFeatures {
    pub path: String,
    pub features: sightline_rank::Features,
}

pub fn rank_files(
    index: &mut Index<RegistryDatabase>,
    query: &str,
    weights: &sightline_rank::Weights,
) -> EngineRun {
    let intent = Intent::Locate;
    // The one entry point the CLI and the MCP server use too.
    let Ok(mut session) = ExploreSession::new(index, query, intent) else {
        return EngineRun::default();
    };
    session.weights = *weights;
    let finished = sightline_agent::explore(index, &mut session, Mode::DETERMINISTIC);
    let run = session.ranked(index);
    session.close(index);
    let Ok(Finished { validated, report }) = finished else {
        return EngineRun::default();
    };
    let scores = run.packet.file_scores(&run.registry);
    let files: Vec<String> = scores.iter().map(|(f, _)| (*f).to_owned()).collect();
    let best = scores.first().map_or(0.0, |s| s.1);
    let file_shares = scores
        .iter()
        .map(|(_, s)| if best > 0.0 { s / best } else { 0.0 })
        .collect();
    let cited_widths = report
        .json
        .primary
        .iter()
        .filter_map(|p| Some(p.end? - p.start? + 1))
        .collect();
    let mut cited_files: Vec<String> = Vec::new();
    for p in &report.json.primary {
        if !cited_files.contains(&p.path) {
            cited_files.push(p.path.clone());
        }
    }
    let candidates = run
        .registry
        .iter()
        .map(|c| CandidateFeatures {
            path: c.path.clone(),
            features: sightline_rank::Features::of(c, &run.terms),
        })
        .collect();
    EngineRun {
        candidates,
        unknown_words: run.terms.unknown.len(),
        packet_files: files.clone(),
        files,
        // What a client reads: the CLI and the MCP server return the prose, not the fenced
        // JSON block the report text ends with (that block is `--json` / structuredContent).
        report_chars: Some(report.prose().chars().count()),
        cited_widths,
        cited_files,
        also_files: report.json.also.clone(),
        file_shares,
        confidence: Some(validated.selection.confidence),
        quotes_total: run.selection.flow.len(),
        quotes_verified: validated.selection.flow.len(),
    }
}

/// Characters of the text an agent reads when its first call is `explore_code` for `query`
/// with default arguments (what the MCP server and the agent loop return, candidate IDs
/// inline; the server's one-line session header is not counted).
pub fn first_exploration_chars(
    index: &mut Index<RegistryDatabase>,
    query: &str,
    weights: &sightline_rank::Weights,
) -> Option<usize> {
    let mut session = ExploreSession::new(index, query, Intent::Locate).ok()?;
    session.weights = *weights;
    let outcome = session.call(index, ToolCall::ExploreCode(ExploreArgs::new(query)));
    session.close(index);
    (!outcome.is_error).then(|| outcome.text.chars().count())
}
