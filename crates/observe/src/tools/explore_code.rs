//! `explore_code`: raw graph exploration. Finds the declarations a query names (by
//! identifier structure and the repository's IDF), spreads over the graph, and returns
//! source windows snapped to declarations, within caps on files, windows, lines and
//! characters. Every window says why it was included.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::error::ToolError;
use crate::db::{Db, Workspace, file_index, workspace_graph};
use crate::escape::inline;
use crate::facts::{FileFacts, LineRange};
use crate::graph::{Graph, NodeId};
use crate::query::QueryTerms;
use crate::search::{
    FileHit, HitVia, ScoreComponents, SearchOptions, SearchWeights, SymbolHit, search,
};
use crate::terms::{identifier_tokens, term_words};

/// Files returned when `max_files` is not given.
pub const DEFAULT_MAX_FILES: u32 = 5;
/// Largest accepted `max_files`; more is an [`ToolError::InvalidArgument`].
pub const MAX_FILES_CAP: u32 = 8;
/// Largest accepted `max_depth` (graph hops).
pub const MAX_DEPTH_CAP: u32 = 3;
/// A declaration gets its own window only when it scores at least this share of the file's
/// best declaration.
const WEAK_WINDOW_SHARE: f64 = 0.3;

/// Arguments of [`run`]: the query and the caps on the result. Out-of-range caps are
/// refused with [`ToolError::InvalidArgument`], never clamped silently.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, schemars::JsonSchema)]
// The doc is for Rust callers; a model reads the tool's own description, not this one.
#[schemars(description = "")]
pub struct ExploreArgs {
    /// What to look for: identifiers, or a short description using the code's vocabulary.
    pub query: String,
    /// Most files to return (default 5, 1..=8).
    #[serde(default = "default_max_files")]
    pub max_files: u32,
    /// Graph hops to expand from the best name matches (default 2, 0..=3).
    #[serde(default = "default_max_depth")]
    pub max_depth: u32,
    /// Most source windows per file (default 3).
    #[serde(default = "default_windows")]
    pub max_windows_per_file: u32,
    /// Most source lines per file (default 80).
    #[serde(default = "default_lines")]
    pub max_lines_per_file: u32,
    /// Most characters of source in the whole result (default 12000).
    #[serde(default = "default_chars")]
    pub max_chars: u32,
    /// Rank tests, examples and generated files like other files (default false).
    #[serde(default)]
    pub include_tests: bool,
    /// Size the output to the answer (default true): interchangeable implementations off
    /// the traced flow show as signature skeletons, tests are left out unless asked for,
    /// and small repositories get a smaller budget. False shows every window in full.
    #[serde(default = "default_adaptive")]
    pub adaptive: bool,
    /// Character budget overriding both `max_chars` and the repository-size tiers.
    #[serde(default)]
    pub budget_chars: Option<u32>,
}

fn default_max_files() -> u32 {
    DEFAULT_MAX_FILES
}
fn default_max_depth() -> u32 {
    2
}
fn default_windows() -> u32 {
    3
}
fn default_lines() -> u32 {
    80
}
fn default_chars() -> u32 {
    12_000
}
fn default_adaptive() -> bool {
    true
}

impl ExploreArgs {
    /// Arguments for `query` with every other field at its default (as a call that gives only
    /// the query deserializes to).
    pub fn new(query: impl Into<String>) -> ExploreArgs {
        ExploreArgs {
            query: query.into(),
            max_files: DEFAULT_MAX_FILES,
            max_depth: default_max_depth(),
            max_windows_per_file: default_windows(),
            max_lines_per_file: default_lines(),
            max_chars: default_chars(),
            include_tests: false,
            adaptive: default_adaptive(),
            budget_chars: None,
        }
    }

    fn validate(&self) -> Result<(), ToolError> {
        if self.query.trim().is_empty() {
            return Err(ToolError::invalid_argument(
                "query",
                "\"\"",
                "must not be empty",
            ));
        }
        if !(1..=MAX_FILES_CAP).contains(&self.max_files) {
            return Err(ToolError::invalid_argument(
                "max_files",
                self.max_files,
                "must be 1..=8",
            ));
        }
        if self.max_depth > MAX_DEPTH_CAP {
            return Err(ToolError::invalid_argument(
                "max_depth",
                self.max_depth,
                "must be 0..=3",
            ));
        }
        if self.max_windows_per_file == 0
            || self.max_lines_per_file == 0
            || self.max_chars == 0
            || self.budget_chars == Some(0)
        {
            return Err(ToolError::invalid_argument(
                "max_windows_per_file/max_lines_per_file/max_chars/budget_chars",
                0,
                "caps must be positive",
            ));
        }
        Ok(())
    }
}

/// A declaration that starts inside a [`Window`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct WindowSymbol {
    /// The declared name as written.
    pub name: String,
    /// Dotted name through enclosing declarations (`Store.save`).
    pub qualified: String,
    /// [`crate::DeclKind::as_str`] of the declaration (`function`, `class`, …).
    pub kind: String,
    /// 1-based line of its signature.
    pub line: u32,
}

/// A run of source lines of one file, with the declarations in it and why it was shown.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct Window {
    /// 1-based inclusive lines shown, within the file.
    pub lines: LineRange,
    /// Declarations that start inside the window (at most 8).
    pub symbols: Vec<WindowSymbol>,
    /// Score of the declaration or match that put the window in (rounded to 3 decimals).
    pub score: f64,
    /// Why the window was included, e.g. `name matches handle, slash` or
    /// `called by Router.add (1 hop)`.
    pub reason: String,
    /// The window's source lines, without line numbers.
    pub text: String,
    /// The declaration was longer than the per-file line cap and was cut.
    pub truncated: bool,
    /// Full source, or signature lines only (the bodies between them elided). Either way
    /// `text` is exactly the source lines of `lines`.
    #[serde(default)]
    pub view: WindowView,
}

/// What a window shows of the declarations in it.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum WindowView {
    /// The declarations' source.
    #[default]
    Full,
    /// Signature lines of declarations shown as a skeleton; their bodies are not shown.
    Signatures,
}

/// One file shown with source: its score and its windows in line order.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ExploredFile {
    /// Repo-relative path, `/`-separated.
    pub path: String,
    /// The file's search score (rounded to 3 decimals; higher is better).
    pub score: f64,
    /// The parts the score was weighed from.
    pub components: ScoreComponents,
    /// Query terms found in the file.
    pub matched_terms: Vec<String>,
    /// Source windows, at least one; at most `max_windows_per_file`.
    pub windows: Vec<Window>,
}

/// Which caps cut an [`ExploreResult`] short; all false when nothing was left out.
#[derive(Serialize, Deserialize, Debug, Clone, Default, PartialEq)]
pub struct Truncation {
    /// More files scored than `max_files` allowed.
    pub files: bool,
    /// Some file had more windows than `max_windows_per_file`.
    pub windows: bool,
    /// Some window was cut to `max_lines_per_file`.
    pub lines: bool,
    /// The character budget ended the result early.
    pub chars: bool,
    /// Windows planned for the shown files but left out (per-file cap or budget).
    #[serde(default)]
    pub windows_left_out: u32,
}

/// The typed result of [`run`]: the files shown with source, and the next best files
/// without it.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ExploreResult {
    /// The query as given.
    pub query: String,
    /// The query's terms as the repository's statistics weigh them.
    pub terms: QueryTerms,
    /// Files that scored at all, before the file cap.
    pub matched_files: u32,
    /// Declarations that scored at all.
    pub matched_symbols: u32,
    /// Files shown with source, best first; at most `max_files`.
    pub files: Vec<ExploredFile>,
    /// The next best files past the cap, without source: where to look next.
    pub more_files: Vec<FileMatch>,
    /// Which caps cut the result.
    pub truncation: Truncation,
    /// When nothing was found and the tree holds files no registered language reads:
    /// how many, by type (the index cannot say they do not mention the query).
    #[serde(default)]
    pub not_indexed: Option<String>,
}

/// A file that scored but was not shown, with its best declaration's location.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct FileMatch {
    /// Repo-relative path.
    pub path: String,
    /// The file's search score.
    pub score: f64,
    /// The parts the score was weighed from.
    pub components: ScoreComponents,
    /// The file's best-scoring declaration, if a declaration matched.
    pub best_symbol: Option<WindowSymbol>,
    /// The best declaration's whole range.
    pub best_range: Option<LineRange>,
}

/// How many files past the cap are listed in `more_files`.
pub(crate) const MORE_FILES: usize = 48;
/// How many of those the text lists (each with a candidate ID when tagged); the rest are
/// only counted.
pub const MORE_FILES_SHOWN: usize = 16;

/// `explore_code` with the search's unfitted weights; see [`run_weighted`].
pub fn run(db: &dyn Db, ws: Workspace, args: &ExploreArgs) -> Result<ExploreResult, ToolError> {
    run_weighted(db, ws, args, &SearchWeights::UNFITTED)
}

/// `explore_code`, ordering files by `weights` (the rank model's, in the product).
pub fn run_weighted(
    db: &dyn Db,
    ws: Workspace,
    args: &ExploreArgs,
    weights: &SearchWeights,
) -> Result<ExploreResult, ToolError> {
    args.validate()?;
    let opts = SearchOptions {
        max_depth: args.max_depth,
        include_secondary: args.include_tests,
        weights: *weights,
    };
    let found = search(db, ws, &args.query, &opts);
    let graph = workspace_graph(db, ws);
    let files = ws.files(db);
    let mut result = ExploreResult {
        query: args.query.clone(),
        terms: found.terms.clone(),
        matched_files: found.files.len() as u32,
        matched_symbols: found.symbols.len() as u32,
        files: Vec::new(),
        more_files: Vec::new(),
        truncation: Truncation {
            files: found.files.len() > args.max_files as usize,
            ..Truncation::default()
        },
        not_indexed: match found.files.is_empty() {
            true => ws.not_indexed(db).note(),
            false => None,
        },
    };
    let budget = crate::sizing::budget_chars(
        args.adaptive,
        args.max_chars,
        args.budget_chars,
        crate::sizing::source_file_count(db, ws),
    );
    // Adaptive sizing fills the files itself; the loop below is the plain path.
    let plain: &[FileHit] = if args.adaptive {
        crate::sizing::fill(db, ws, args, &found, &graph, budget, &mut result);
        &[]
    } else {
        &found.files
    };
    let mut chars_left = budget;
    for hit in plain.iter().take(args.max_files as usize) {
        if chars_left == 0 {
            result.truncation.chars = true;
            break;
        }
        let Some(planned) = plan_file(db, ws, &graph, &found, hit, args, &mut result.truncation)
        else {
            continue;
        };
        let facts = &planned.index.facts;
        let lines: Vec<&str> = planned.text.lines().collect();
        let plan = planned.windows;
        let planned_windows = plan.len();
        let mut windows = Vec::new();
        for (range, score, reason, truncated) in plan {
            let body = slice_lines(&lines, range);
            if body.len() > chars_left {
                result.truncation.chars = true;
                result.truncation.windows_left_out += (planned_windows - windows.len()) as u32;
                if windows.is_empty() {
                    // Always show something of a chosen file: the lines that fit.
                    let fitting = fit_lines(&lines, range, chars_left);
                    if let Some(r) = fitting {
                        let body = slice_lines(&lines, r);
                        chars_left = chars_left.saturating_sub(body.len());
                        windows.push(make_window(facts, r, score, reason, body, true));
                    }
                }
                break;
            }
            chars_left -= body.len();
            windows.push(make_window(facts, range, score, reason, body, truncated));
        }
        if windows.is_empty() {
            continue;
        }
        result.files.push(ExploredFile {
            path: hit.path.clone(),
            score: round3(hit.score),
            components: round_components(&hit.components),
            matched_terms: hit.matched_terms.clone(),
            windows,
        });
    }
    let shown: std::collections::HashSet<&str> =
        result.files.iter().map(|f| f.path.as_str()).collect();
    let more: Vec<FileMatch> = found
        .files
        .iter()
        .filter(|h| !shown.contains(h.path.as_str()))
        .filter(|h| !(args.adaptive && crate::sizing::is_unasked_test(h)))
        .take(MORE_FILES)
        .map(|h| {
            let best = found
                .symbols
                .iter()
                .find(|s| graph.file_of(s.node) == h.file)
                .and_then(|s| {
                    let facts = &file_index(db, files[h.file as usize]).facts;
                    let d = facts.decls.get(graph.decl_of(s.node)? as usize)?;
                    Some((
                        WindowSymbol {
                            name: d.name.clone(),
                            qualified: d.qualified.clone(),
                            kind: d.kind.as_str().to_owned(),
                            line: d.signature_line,
                        },
                        d.lines,
                    ))
                });
            FileMatch {
                path: h.path.clone(),
                score: round3(h.score),
                components: round_components(&h.components),
                best_range: best.as_ref().map(|b| b.1),
                best_symbol: best.map(|b| b.0),
            }
        })
        .collect();
    // Files the query names but that hold no code (configuration, manifests) come first:
    // as whole-file candidates, since they have no declaration ranges.
    let named = found.named_files.iter().map(|h| FileMatch {
        path: h.path.clone(),
        score: round3(h.score),
        components: round_components(&h.components),
        best_range: None,
        best_symbol: None,
    });
    result.more_files = named.chain(more).take(MORE_FILES).collect();
    Ok(result)
}

pub(crate) fn round_components(c: &ScoreComponents) -> ScoreComponents {
    ScoreComponents {
        name: round3(c.name),
        name_rest: round3(c.name_rest),
        lexical: round3(c.lexical),
        path: round3(c.path),
        path_dir: round3(c.path_dir),
        graph: round3(c.graph),
        trait_factor: c.trait_factor,
    }
}

pub(crate) fn round3(x: f64) -> f64 {
    (x * 1000.0).round() / 1000.0
}

pub(crate) fn make_window(
    facts: &FileFacts,
    range: LineRange,
    score: f64,
    reason: String,
    text: String,
    truncated: bool,
) -> Window {
    let symbols = facts
        .decls
        .iter()
        .filter(|d| range.contains_line(d.signature_line))
        .take(8)
        .map(|d| WindowSymbol {
            name: d.name.clone(),
            qualified: d.qualified.clone(),
            kind: d.kind.as_str().to_owned(),
            line: d.signature_line,
        })
        .collect();
    Window {
        lines: range,
        symbols,
        score: round3(score),
        reason,
        text,
        truncated,
        view: WindowView::Full,
    }
}

/// One file's source and its planned windows, before any character budget.
pub(crate) struct PlannedFile {
    pub index: std::sync::Arc<crate::db::FileIndex>,
    pub text: std::sync::Arc<str>,
    pub windows: Vec<(LineRange, f64, String, bool)>,
}

/// Plans the windows of one ranked file: the step the plain and the adaptive paths share.
pub(crate) fn plan_file(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    found: &crate::search::SearchResult,
    hit: &FileHit,
    args: &ExploreArgs,
    trunc: &mut Truncation,
) -> Option<PlannedFile> {
    let file = *ws.files(db).get(hit.file as usize)?;
    let index = file_index(db, file);
    let text = file.text(db).clone();
    let lines: Vec<&str> = text.lines().collect();
    let file_symbols: Vec<&SymbolHit> = found
        .symbols
        .iter()
        .filter(|s| graph.file_of(s.node) == hit.file)
        .collect();
    let label = |node: NodeId| node_label(db, ws, graph, node);
    let ctx = FileContext {
        graph,
        facts: &index.facts,
        lines: &lines,
        terms: &found.terms,
        label: &label,
    };
    let windows = plan_windows(&ctx, &file_symbols, args, trunc);
    Some(PlannedFile {
        index,
        text,
        windows,
    })
}

/// What window planning needs to know about one file.
pub(crate) struct FileContext<'a> {
    pub(crate) graph: &'a Graph,
    pub(crate) facts: &'a FileFacts,
    pub(crate) lines: &'a [&'a str],
    pub(crate) terms: &'a QueryTerms,
    pub(crate) label: &'a dyn Fn(NodeId) -> String,
}

/// The window ranges for one file: the best-scoring declarations (children preferred to a
/// long parent), merged when they touch, capped in count and lines.
pub(crate) fn plan_windows(
    ctx: &FileContext,
    symbols: &[&SymbolHit],
    args: &ExploreArgs,
    trunc: &mut Truncation,
) -> Vec<(LineRange, f64, String, bool)> {
    let FileContext {
        graph,
        facts,
        lines,
        terms,
        label,
    } = *ctx;
    let line_count = lines.len() as u32;
    if line_count == 0 {
        return Vec::new();
    }
    let cap = args.max_lines_per_file;
    let mut chosen: Vec<(LineRange, f64, String, bool)> = Vec::new();
    let hit_decls: Vec<u32> = symbols
        .iter()
        .filter_map(|s| graph.decl_of(s.node))
        .collect();
    // Weak neighbours (a type two hops away) do not take window slots from real hits.
    let best = symbols.iter().map(|s| s.score()).fold(0.0, f64::max);
    for s in symbols
        .iter()
        .filter(|s| s.score() >= WEAK_WINDOW_SHARE * best)
    {
        let Some(di) = graph.decl_of(s.node) else {
            continue;
        };
        let Some(d) = facts.decls.get(di as usize) else {
            continue;
        };
        // A long container whose members also hit is shown through those members.
        let has_hit_child = hit_decls.iter().any(|&c| {
            facts
                .decls
                .get(c as usize)
                .is_some_and(|cd| cd.parent == Some(di))
        });
        // A container reached only through its members (no name match of its own), or too
        // long to show, is shown through those members.
        if has_hit_child && (d.lines.len() > cap || s.name_score == 0.0) {
            continue;
        }
        let range = clamp_range(d.lines, line_count);
        if chosen.iter().any(|(r, ..)| r.contains(&range)) {
            continue;
        }
        chosen.push((range, s.score(), describe(s, label), false));
    }
    if chosen.is_empty() {
        // Matched by text or path only: the declaration around the densest term matches.
        if let Some(range) = densest_region(facts, lines, terms) {
            chosen.push((range, 0.0, "text matches query terms".to_owned(), false));
        }
    }
    // Keep the best, then show them in file order, merging neighbours.
    if chosen.len() > args.max_windows_per_file as usize {
        trunc.windows = true;
        trunc.windows_left_out += (chosen.len() - args.max_windows_per_file as usize) as u32;
        chosen.truncate(args.max_windows_per_file as usize);
    }
    chosen.sort_by_key(|(r, ..)| r.start);
    let mut merged: Vec<(LineRange, f64, String, bool)> = Vec::new();
    for w in chosen {
        match merged.last_mut() {
            Some(last) if w.0.start <= last.0.end + 2 => {
                last.0.end = last.0.end.max(w.0.end);
                if w.1 > last.1 {
                    last.1 = w.1;
                    last.2 = w.2;
                }
            }
            _ => merged.push(w),
        }
    }
    let mut used = 0u32;
    let mut out = Vec::new();
    for (mut range, score, reason, _) in merged {
        let left = cap.saturating_sub(used);
        if left == 0 {
            trunc.lines = true;
            break;
        }
        let mut truncated = false;
        if range.len() > left {
            range.end = range.start + left - 1;
            truncated = true;
            trunc.lines = true;
        }
        used += range.len();
        out.push((range, score, reason, truncated));
    }
    out
}

fn clamp_range(r: LineRange, line_count: u32) -> LineRange {
    LineRange::new(r.start.clamp(1, line_count), r.end.clamp(1, line_count))
}

/// Explains a hit in a few words, naming the neighbour it was reached from.
fn describe(hit: &SymbolHit, label: &dyn Fn(NodeId) -> String) -> String {
    match &hit.via {
        HitVia::Name { matched } => format!("name matches {}", matched.join(", ")),
        HitVia::Edge {
            from,
            kind,
            incoming,
            hops,
        } => {
            let from_name = label(*from);
            // `incoming`: the edge points from this declaration to the one it was reached
            // from (it calls it); otherwise the other way (it is called by it).
            let relation = if *incoming {
                kind.as_str().to_owned()
            } else {
                format!("{} by", passive(kind.as_str()))
            };
            format!(
                "{relation} {from_name} ({hops} hop{})",
                if *hops == 1 { "" } else { "s" }
            )
        }
    }
}

fn passive(kind: &str) -> &str {
    match kind {
        "calls" => "called",
        "renders" => "rendered",
        "instantiates" => "instantiated",
        "references" => "referenced",
        "extends" => "extended",
        "implements" => "implemented",
        "imports" => "imported",
        _ => "contained",
    }
}

/// A node's qualified name (or its file's path for a module node), for explanations.
pub(crate) fn node_label(db: &dyn Db, ws: Workspace, graph: &Graph, node: NodeId) -> String {
    let fi = graph.file_of(node) as usize;
    let path = &graph.paths[fi];
    let Some(d) = graph.decl_of(node) else {
        return path.clone();
    };
    let Some(file) = ws.files(db).get(fi) else {
        return path.clone();
    };
    match file_index(db, *file).facts.decls.get(d as usize) {
        Some(decl) => decl.qualified.clone(),
        None => path.clone(),
    }
}

/// The innermost declaration around the line with the most query-term weight, or the
/// first lines of the file when no declaration contains it.
fn densest_region(facts: &FileFacts, lines: &[&str], terms: &QueryTerms) -> Option<LineRange> {
    let mut best: Option<(u32, f64)> = None;
    for (i, line) in lines.iter().enumerate() {
        let mut w = 0.0;
        for tok in identifier_tokens(line) {
            for word in term_words(tok) {
                if let Some(t) = terms.get(&word) {
                    w += t.idf;
                }
            }
        }
        if w > 0.0 && best.is_none_or(|(_, bw)| w > bw) {
            best = Some((i as u32 + 1, w));
        }
    }
    let (line, _) = best?;
    let count = lines.len() as u32;
    Some(match facts.innermost_decl_at(line) {
        Some(d) => clamp_range(facts.decls[d as usize].lines, count),
        None => LineRange::new(line.saturating_sub(3).max(1), (line + 3).min(count)),
    })
}

pub(crate) fn slice_lines(lines: &[&str], r: LineRange) -> String {
    let mut out = String::new();
    for l in &lines[(r.start - 1) as usize..(r.end as usize).min(lines.len())] {
        out.push_str(l);
        out.push('\n');
    }
    out
}

/// The longest prefix of `r` whose text fits in `budget` characters.
pub(crate) fn fit_lines(lines: &[&str], r: LineRange, budget: usize) -> Option<LineRange> {
    let mut used = 0;
    let mut end = None;
    for n in r.start..=r.end {
        used += lines.get((n - 1) as usize)?.len() + 1;
        if used > budget {
            break;
        }
        end = Some(n);
    }
    end.map(|e| LineRange::new(r.start, e))
}

impl ExploreResult {
    /// Line-numbered text for a human or a model. `annotate` may add a tag after a file's
    /// path (the registry passes candidate IDs through it).
    pub fn render_text(&self, annotate: &dyn Fn(&str, &Window) -> Option<String>) -> String {
        self.render_tagged(annotate, &|_| None)
    }

    /// The query's terms with their weights (`terms: save(2.3) record(1.1)`): a diagnostic
    /// of how the query was read, for people and measurements, left out of the text a
    /// model reads.
    pub fn terms_line(&self) -> String {
        let terms: Vec<String> = self
            .terms
            .terms
            .iter()
            .map(|t| format!("{}({:.1})", t.term, t.idf))
            .collect();
        format!("terms: {}", terms.join(" "))
    }

    /// [`Self::render_text`], with `file_tag`'s label on each listed file past the cap.
    pub fn render_tagged(
        &self,
        annotate: &dyn Fn(&str, &Window) -> Option<String>,
        file_tag: &dyn Fn(&FileMatch) -> Option<String>,
    ) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "## explore_code: {}", self.query);
        // The weighed terms are a diagnostic (`terms_line`), not for the model; words the
        // repository never uses tell it to rephrase.
        if !self.terms.unknown.is_empty() {
            let _ = writeln!(out, "not in repo: {}", self.terms.unknown.join(" "));
        }
        let _ = writeln!(
            out,
            "{} files, {} symbols matched",
            self.matched_files, self.matched_symbols
        );
        if let Some(note) = &self.not_indexed {
            let _ = writeln!(out, "{note}");
        }
        for f in &self.files {
            for (i, w) in f.windows.iter().enumerate() {
                if w.view == WindowView::Signatures {
                    // A run of signature windows prints as one skeleton block.
                    if i == 0 || f.windows[i - 1].view != WindowView::Signatures {
                        let run: Vec<&Window> = f.windows[i..]
                            .iter()
                            .take_while(|w| w.view == WindowView::Signatures)
                            .collect();
                        crate::sizing::render::signature_block(&mut out, &f.path, &run, annotate);
                    }
                    continue;
                }
                let tag = annotate(&f.path, w)
                    .map(|t| format!(" {t}"))
                    .unwrap_or_default();
                let syms: Vec<String> = w
                    .symbols
                    .iter()
                    .map(|s| format!("{} ({}:{})", inline(&s.qualified), s.kind, s.line))
                    .collect();
                let _ = writeln!(
                    out,
                    "\n#### {}:{}-{}{} - {}",
                    inline(&f.path),
                    w.lines.start,
                    w.lines.end,
                    tag,
                    syms.join(", ")
                );
                let _ = writeln!(out, "why: {}", w.reason);
                for (i, line) in w.text.lines().enumerate() {
                    let _ = writeln!(out, "{:>4} {}", w.lines.start + i as u32, line);
                }
                if w.truncated {
                    let _ = writeln!(
                        out,
                        "     … cut at the line cap; read_file {} for the rest",
                        inline(&f.path)
                    );
                }
            }
        }
        if !self.more_files.is_empty() {
            let _ = writeln!(out, "\nmore files:");
            for m in self.more_files.iter().take(MORE_FILES_SHOWN) {
                let id = file_tag(m).map(|t| format!(" {t}")).unwrap_or_default();
                let symbol = m
                    .best_symbol
                    .as_ref()
                    .map(|s| format!(" - {} ({}:{})", inline(&s.qualified), s.kind, s.line))
                    .unwrap_or_default();
                let _ = writeln!(out, "  {}{id}{symbol}", inline(&m.path));
            }
        }
        let t = &self.truncation;
        let mut notes = Vec::new();
        let unshown = (self.matched_files as usize).saturating_sub(self.files.len());
        if unshown > 0 {
            let listed = self.more_files.len().min(MORE_FILES_SHOWN);
            notes.push(format!(
                "{unshown} more matching files not shown ({listed} listed above)"
            ));
        }
        if t.windows_left_out > 0 {
            notes.push(format!(
                "{} windows of shown files left out",
                t.windows_left_out
            ));
        } else if t.windows {
            notes.push("more windows per file".to_owned());
        }
        if t.lines {
            notes.push("line cap reached".to_owned());
        }
        if t.chars {
            notes.push("character budget reached".to_owned());
        }
        if !notes.is_empty() {
            let _ = writeln!(out, "\ntruncated: {}", notes.join("; "));
        }
        out
    }
}
