//! What each measured phase reports. The child process prints these as one JSON line and
//! the parent parses them back, so both sides share these types.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Marks the result line in a child's stdout, so stray output cannot be mistaken for it.
pub const RESULT_MARKER: &str = "sightline-bench-result ";

/// A cold build: empty cache directory, every file parsed.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ColdRun {
    pub wall_ms: f64,
    /// CPU time of all threads over the same span: wall × cores when parallelism is
    /// perfect, and independent of other load on the machine.
    pub cpu_ms: Option<f64>,
    /// The index report's per-phase timings (walk, cache_load, parse, cache_save, graph).
    pub timings_ms: BTreeMap<String, f64>,
    pub peak_rss_bytes: Option<u64>,
    pub source_files: u32,
    pub manifest_files: u32,
    pub source_bytes: u64,
    pub declarations: u32,
    pub edges: u32,
    pub parsed: u32,
    pub cache_note: Option<String>,
}

/// A warm start: a new process over the cache a cold build wrote, up to a ready graph.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct WarmRun {
    pub wall_ms: f64,
    pub cpu_ms: Option<f64>,
    pub timings_ms: BTreeMap<String, f64>,
    pub peak_rss_bytes: Option<u64>,
    pub cache_hits: u32,
    pub parsed: u32,
}

/// A warm process that then edits files, re-indexes, and answers explore queries.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Session {
    pub ready_ms: f64,
    pub edited_files: Vec<String>,
    /// Appending a comment: text and term counts change, the file's shape does not.
    pub body_edit_ms: Vec<f64>,
    /// Appending an exported function: the shape changes, so the graph is rebuilt.
    pub shape_edit_ms: Vec<f64>,
    /// The shape edit again, told to the index as a watcher would (`refresh_paths`), so
    /// no tree walk is timed.
    pub shape_edit_watched_ms: Vec<f64>,
    /// The body edit again, told by path: a file's fourth edit, the cost of an edit loop
    /// once its first edit has lowered its durability (the first body edit pays that).
    #[serde(default)]
    pub body_edit_watched_ms: Vec<f64>,
    /// Where the walked shape edits' time went: the index report's refresh phases
    /// (`refresh walk`, `tables`: deriving the changed chunks' and blocks' tables, `graph`,
    /// `term stats`, `query tables`, `totals`), one sample each.
    pub shape_edit_parts_ms: BTreeMap<String, Vec<f64>>,
    /// A new source file (an exported function) next to each edited file, told to the
    /// index by path; a path the index does not hold yet makes it walk the tree.
    pub new_file_ms: Vec<f64>,
    /// A refresh walk that finds nothing changed: the floor under every re-index.
    pub unchanged_walk_ms: f64,
    pub explore: Vec<QueryTiming>,
    /// The navigation tools on the sampled names: `definition`, `references` (uses),
    /// `callees` (references with callees), `chain` (references with `to` the next
    /// sampled name) and `outline` of the name's file.
    #[serde(default)]
    pub navigation: Vec<NavTiming>,
    pub peak_rss_bytes: Option<u64>,
    /// A server's `explore` right after a shape edit, against one with nothing changed.
    #[serde(default)]
    pub serve: super::serve::ServeTimings,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct QueryTiming {
    pub query: String,
    pub ms: f64,
    pub files: u32,
    pub error: Option<String>,
}

/// One navigation call: which tool, on what, how long, how many characters it printed.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct NavTiming {
    pub tool: String,
    pub target: String,
    pub ms: f64,
    pub chars: usize,
}

/// The headline numbers of one repository (medians over runs).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct Summary {
    pub source_files: u32,
    pub source_mb: f64,
    pub cold_s: Option<f64>,
    pub cold_rss_mb: Option<f64>,
    pub cold_cpu_s: Option<f64>,
    pub warm_s: Option<f64>,
    pub warm_rss_mb: Option<f64>,
    pub warm_cpu_s: Option<f64>,
    pub body_edit_ms: Option<f64>,
    pub shape_edit_ms: Option<f64>,
    pub shape_edit_watched_ms: Option<f64>,
    #[serde(default)]
    pub body_edit_watched_ms: Option<f64>,
    pub new_file_ms: Option<f64>,
    /// Median of each part of [`Session::shape_edit_parts_ms`].
    pub shape_edit_parts_ms: BTreeMap<String, f64>,
    pub explore_p50_ms: Option<f64>,
    pub explore_p95_ms: Option<f64>,
    pub explore_max_ms: Option<f64>,
    /// Each navigation tool's (p50, p95) in ms, by tool.
    #[serde(default)]
    pub navigation_ms: BTreeMap<String, (f64, f64)>,
    /// Median over edited files of what a server's `explore` right after a shape edit
    /// costs beyond the same call with nothing changed.
    #[serde(default)]
    pub serve_edit_extra_ms: Option<f64>,
    pub session_rss_mb: Option<f64>,
    /// Median cold timings per index phase.
    pub cold_timings_ms: BTreeMap<String, f64>,
    pub warm_timings_ms: BTreeMap<String, f64>,
}

#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct RepoResult {
    pub repo: String,
    /// The 1-minute load average when the repository's first phase started.
    pub load_average: Option<f64>,
    pub summary: Summary,
    pub cold: Vec<ColdRun>,
    pub warm: Vec<WarmRun>,
    pub session: Session,
}
