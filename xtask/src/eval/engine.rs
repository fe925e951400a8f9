//! The engine arm: the single place the harness calls the ranking pipeline, so switching
//! to a different stage (e.g. the rank crate's packet) touches only this file.

use sightline_observe::Index;
use sightline_observe::search::{SearchOptions, search};

/// How many of the best files form the candidate packet until a real packet exists.
const PACKET_FILES: usize = 40;

/// What one engine call produced for one query.
#[derive(Clone, Debug, Default)]
pub struct EngineRun {
    /// Ranked, unique, best first.
    pub files: Vec<String>,
    /// Every file in the candidate packet (recall@packet is measured against these).
    pub packet_files: Vec<String>,
    /// Characters of the rendered report, once the pipeline renders one.
    pub report_chars: Option<usize>,
}

pub fn rank_files(index: &Index, query: &str) -> EngineRun {
    let result = search(
        index.db(),
        index.workspace(),
        query,
        &SearchOptions::default(),
    );
    let mut files: Vec<String> = Vec::with_capacity(result.files.len());
    for hit in result.files {
        if !files.contains(&hit.path) {
            files.push(hit.path);
        }
    }
    let packet_files = files.iter().take(PACKET_FILES).cloned().collect();
    EngineRun {
        files,
        packet_files,
        report_chars: None,
    }
}
