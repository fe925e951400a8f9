//! `explore_code`: raw graph exploration. Finds the declarations a query names (by
//! identifier structure and the repository's IDF), spreads over the graph, and returns
//! source windows snapped to declarations, within caps on files, windows, lines and
//! characters. Every window says why it was included.

use serde::{Deserialize, Serialize};
use sightline_base::EvidenceLine;

use super::error::ToolError;
use crate::db::{Db, Workspace, file_index, workspace_graph};
use crate::facts::{FileFacts, LineRange};
use crate::graph::{Graph, NodeId};
use crate::query::QueryTerms;
use crate::search::{
    FileHit, HitVia, ScoreComponents, SearchOptions, SearchWeights, SymbolHit, search,
};
use crate::terms::{identifier_tokens, term_words};
use sightline_base::SHORT_DECLARATION_LINES;

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
    /// Size the output to the evidence (default true): a decisive answer shows its own
    /// places and lists the others by signature line, a diffuse one shows the bodies its
    /// evidence pays for; interchangeable implementations off the traced flow show as
    /// signature skeletons and tests are left out unless asked for. False shows every
    /// window in full.
    #[serde(default = "default_adaptive")]
    pub adaptive: bool,
    /// Character budget overriding `max_chars`.
    #[serde(default)]
    pub budget_chars: Option<u32>,
    /// Most files listed by path and ID past the ones shown with source (0..=16; default:
    /// those scoring at least half the best, at most 8; 16 when not adaptive).
    #[serde(default)]
    pub max_listed: Option<u32>,
    /// For a caller that quotes each place's evidence (the deterministic report): the most
    /// lines of a place its windows do not show that each place offers as
    /// [`Window::evidence`] (0..=8; default 0, none). Not offered to a model: a model reads
    /// the windows' text.
    #[serde(default, skip_serializing_if = "is_zero")]
    #[schemars(skip)]
    pub evidence_lines: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
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
            max_listed: None,
            evidence_lines: 0,
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
        if self.evidence_lines > MAX_EVIDENCE_LINES {
            return Err(ToolError::invalid_argument(
                "evidence_lines",
                self.evidence_lines,
                "must be 0..=8",
            ));
        }
        if self
            .max_listed
            .is_some_and(|n| n as usize > MORE_FILES_SHOWN)
        {
            return Err(ToolError::invalid_argument(
                "max_listed",
                self.max_listed.unwrap_or_default(),
                "must be 0..=16",
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
    /// The place these lines stand for when they are only part of it: the declaration a
    /// signature line opens, or a window cut to its evidence (its runs share the place).
    /// `None` when the lines are the whole place.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub place: Option<LineRange>,
    /// The look-alikes this place is one of (`4 implementations of Step`, `copies of
    /// Store.save`): the text shows the first of them and names the others on its line.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub alike: Option<String>,
    /// The place's strongest evidence lines its windows do not show, in line order (the
    /// first window of a place carries them; only when [`ExploreArgs::evidence_lines`]
    /// asks). They are the file's lines as read, returned for a caller that quotes them,
    /// and not part of the rendered text.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub evidence: Vec<EvidenceLine>,
}

impl Window {
    /// The place the window stands for: [`Window::place`], or its own lines.
    pub fn place(&self) -> LineRange {
        self.place.unwrap_or(self.lines)
    }
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

/// Most files listed past the shown ones (each with a candidate ID when tagged); the rest
/// are only counted.
pub const MORE_FILES_SHOWN: usize = 16;
/// A sized exploration lists the files past the shown ones that score at least this share
/// of the best file, at most [`SIZED_LISTED`] of them: weaker ones are noise next to it,
/// and a follow-up call reaches them.
const LIST_SHARE: f64 = 0.5;
/// Most files a sized exploration lists past the shown ones, unless asked for more.
const SIZED_LISTED: usize = 8;

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
    let budget = crate::sizing::budget_chars(args.max_chars, args.budget_chars);
    // Adaptive sizing fills the files itself; the loop below is the plain path.
    let plain: &[FileHit] = if args.adaptive {
        let limits = crate::sizing::Limits {
            budget,
            decisive_margin: weights.decisive_margin,
        };
        crate::sizing::fill(db, ws, args, &found, &graph, limits, &mut result);
        &[]
    } else {
        &found.files
    };
    let name_of = |s: &SymbolHit| {
        let file = files.get(graph.file_of(s.node) as usize)?;
        let decl = graph.decl_of(s.node)?;
        Some(
            file_index(db, *file)
                .facts
                .decls
                .get(decl as usize)?
                .name
                .clone(),
        )
    };
    let evidence = crate::sizing::evidence::LineEvidence::new(&found, &name_of);
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
        let weight = |l: u32| {
            l.checked_sub(1)
                .and_then(|i| lines.get(i as usize))
                .map_or(0.0, |t| evidence.weight(t))
        };
        let mut windows = Vec::new();
        for (range, score, reason, allowed) in plan {
            let runs = place_windows(facts, &lines, range, score, &reason, allowed, &weight);
            let body: usize = runs.iter().map(|w| w.text.len()).sum();
            if body > chars_left {
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
            chars_left -= body;
            windows.extend(runs);
        }
        if windows.is_empty() {
            continue;
        }
        result.files.push(ExploredFile {
            path: graph.paths[hit.file as usize].clone(),
            score: round3(hit.score),
            components: round_components(&hit.components),
            matched_terms: crate::search::matched_terms(db, files[hit.file as usize], &found.terms),
            windows,
        });
    }
    let shown: std::collections::HashSet<&str> =
        result.files.iter().map(|f| f.path.as_str()).collect();
    // Sized: the files scoring at least a share of the best are listed, unless the caller
    // says how many.
    let best_score = found
        .files
        .iter()
        .find(|h| !(args.adaptive && crate::sizing::is_unasked_test(h)))
        .map_or(0.0, |h| h.score);
    let default_listed = if args.adaptive {
        SIZED_LISTED
    } else {
        MORE_FILES_SHOWN
    };
    let listed = args
        .max_listed
        .map_or(default_listed, |n| n as usize)
        .min(MORE_FILES_SHOWN);
    let more: Vec<FileMatch> = found
        .files
        .iter()
        .filter(|h| !shown.contains(graph.paths[h.file as usize].as_str()))
        .filter(|h| !(args.adaptive && crate::sizing::is_unasked_test(h)))
        .filter(|h| {
            !args.adaptive || args.max_listed.is_some() || h.score >= LIST_SHARE * best_score
        })
        .take(listed)
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
                path: graph.paths[h.file as usize].clone(),
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
        path: graph.paths[h.file as usize].clone(),
        score: round3(h.score),
        components: round_components(&h.components),
        best_range: None,
        best_symbol: None,
    });
    result.more_files = named.chain(more).take(MORE_FILES_SHOWN).collect();
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
        literal_name: round3(c.literal_name),
        literal_path: round3(c.literal_path),
        literal_text: round3(c.literal_text),
        proximity: round3(c.proximity),
        size: round3(c.size),
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
    make_window_of(facts, range, None, score, reason, text, truncated)
}

/// A window showing `range` of `place` (the declarations listed are the place's).
pub(crate) fn make_window_of(
    facts: &FileFacts,
    range: LineRange,
    place: Option<LineRange>,
    score: f64,
    reason: String,
    text: String,
    truncated: bool,
) -> Window {
    let of = place.unwrap_or(range);
    let symbols = facts
        .decls
        .iter()
        .filter(|d| of.contains_line(d.signature_line))
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
        place: place.filter(|p| *p != range),
        alike: None,
        evidence: Vec::new(),
    }
}

/// The windows showing one planned place: the whole range when it fits its allowance
/// (`allowed` lines), else the runs [`crate::sizing::cut::cut`] keeps of its strongest
/// lines, all standing for one place. A range wider than one read
/// ([`crate::sizing::cut::MAX_PLACE_LINES`]) is narrowed first to the place around its
/// best line (see [`evidence_place`]).
pub(crate) fn place_windows(
    facts: &FileFacts,
    lines: &[&str],
    range: LineRange,
    score: f64,
    reason: &str,
    allowed: u32,
    weight: &dyn Fn(u32) -> f64,
) -> Vec<Window> {
    let range = evidence_place(facts, range, weight);
    // Only lines at least half as strong as the place's strongest are evidence worth
    // keeping in a cut: in a long body many lines mention a common query word.
    let best = (range.start..=range.end).map(weight).fold(0.0, f64::max);
    let strong = |l: u32| {
        let w = weight(l);
        if w >= STRONG_LINE_SHARE * best {
            w
        } else {
            0.0
        }
    };
    let runs = crate::sizing::cut::cut(range, allowed, &strong);
    if runs == [range] {
        let text = slice_lines(lines, range);
        return vec![make_window(
            facts,
            range,
            score,
            reason.to_owned(),
            text,
            false,
        )];
    }
    runs.iter()
        .map(|r| {
            let text = slice_lines(lines, *r);
            make_window_of(facts, *r, Some(range), score, reason.to_owned(), text, true)
        })
        .collect()
}

/// Most evidence lines a place may offer ([`ExploreArgs::evidence_lines`]).
pub const MAX_EVIDENCE_LINES: u32 = 8;

/// A line is kept in a cut when its evidence is at least this share of the place's best.
const STRONG_LINE_SHARE: f64 = 0.5;

/// `range` itself when it is at most one read wide; else the innermost declaration around
/// its strongest line that is (or, without one, that line's neighbourhood within `range`),
/// so a long declaration is cited where its evidence is, never as a whole.
pub(crate) fn evidence_place(
    facts: &FileFacts,
    range: LineRange,
    weight: &dyn Fn(u32) -> f64,
) -> LineRange {
    let max = crate::sizing::cut::MAX_PLACE_LINES;
    if range.len() <= max {
        return range;
    }
    let best = (range.start..=range.end)
        .map(|l| (l, weight(l)))
        .fold((range.start, 0.0), |b, x| if x.1 > b.1 { x } else { b })
        .0;
    let inner = facts
        .decls
        .iter()
        .filter(|d| d.lines.contains_line(best) && d.lines.len() <= max && range.contains(&d.lines))
        .min_by_key(|d| d.lines.len());
    match inner {
        Some(d) => d.lines,
        None => {
            let half = max / 4;
            let start = best.saturating_sub(half).max(range.start);
            LineRange::new(start, (start + 2 * half).min(range.end))
        }
    }
}

/// One file's source and its planned windows, before any character budget.
pub(crate) struct PlannedFile {
    pub index: std::sync::Arc<crate::db::FileIndex>,
    pub text: std::sync::Arc<str>,
    /// Range, score, reason and the lines the window may show (see [`plan_windows`]).
    pub windows: Vec<(LineRange, f64, String, u32)>,
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
) -> Vec<(LineRange, f64, String, u32)> {
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
    let mut chosen: Vec<(LineRange, f64, String, u32)> = Vec::new();
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
        if has_hit_child && (d.lines.len() > cap || s.own_score() == 0.0) {
            continue;
        }
        let range = clamp_range(member_place(facts, d), line_count);
        if chosen.iter().any(|(r, ..)| r.contains(&range)) {
            continue;
        }
        chosen.push((range, s.score(), describe(s, label), 0));
    }
    if chosen.is_empty() {
        // Matched by text or path only: the declaration around the densest term matches.
        if let Some(range) = densest_region(facts, lines, terms) {
            chosen.push((range, 0.0, "text matches query terms".to_owned(), 0));
        }
    }
    // Keep the best, then show them in file order, merging neighbours.
    if chosen.len() > args.max_windows_per_file as usize {
        trunc.windows = true;
        trunc.windows_left_out += (chosen.len() - args.max_windows_per_file as usize) as u32;
        chosen.truncate(args.max_windows_per_file as usize);
    }
    chosen.sort_by_key(|(r, ..)| r.start);
    let mut merged: Vec<(LineRange, f64, String, u32)> = Vec::new();
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
    // Each window may show the lines the per-file cap leaves it; a longer one is cut to
    // its evidence when shown (`sizing::cut`).
    let mut used = 0u32;
    let mut out = Vec::new();
    for (range, score, reason, _) in merged {
        let left = cap.saturating_sub(used);
        if left == 0 {
            trunc.lines = true;
            break;
        }
        let allowed = range.len().min(left);
        trunc.lines |= allowed < range.len();
        used += allowed;
        out.push((range, score, reason, allowed));
    }
    out
}

/// Where a hit on `d` is shown: a one- or two-line data member (a field, constant or
/// enum variant) of a declaration that holds only data (no function or method) and is at
/// most [`SHORT_DECLARATION_LINES`] long is shown as that declaration, since a lone
/// `Bold,` or `timeout: number;` says that a file matters but not what the member belongs
/// to, and the reader's next step was to read around it. Anything else is its own place:
/// a member of a longer declaration, or of a class with methods (whose field a reader
/// wants without the methods), stays a line.
fn member_place(facts: &FileFacts, d: &crate::Declaration) -> LineRange {
    let is_data = |k: crate::DeclKind| {
        matches!(
            k,
            crate::DeclKind::Property | crate::DeclKind::Constant | crate::DeclKind::Variable
        )
    };
    if !is_data(d.kind) || d.lines.len() > MEMBER_LINES {
        return d.lines;
    }
    let Some(pi) = d.parent else {
        return d.lines;
    };
    let Some(parent) = facts.decls.get(pi as usize) else {
        return d.lines;
    };
    let only_data = facts
        .decls
        .iter()
        .filter(|c| c.parent == Some(pi))
        .all(|c| is_data(c.kind));
    if only_data && parent.lines.len() <= SHORT_DECLARATION_LINES {
        parent.lines
    } else {
        d.lines
    }
}

/// The longest declaration [`member_place`] treats as a data member.
const MEMBER_LINES: u32 = 2;

fn clamp_range(r: LineRange, line_count: u32) -> LineRange {
    LineRange::new(r.start.clamp(1, line_count), r.end.clamp(1, line_count))
}

/// Explains a hit in a few words, naming the neighbour it was reached from.
fn describe(hit: &SymbolHit, label: &dyn Fn(NodeId) -> String) -> String {
    match &hit.via {
        HitVia::Name { matched } if matched.is_empty() => {
            format!("the query names {}", label(hit.node))
        }
        HitVia::Name { .. } if hit.literal > 0.0 => {
            format!("the query names {}", label(hit.node))
        }
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
