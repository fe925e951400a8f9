//! `grep`: literal or regex line search over the repository's files, with typed matches
//! and diagnostics kept apart from them.

use std::collections::HashSet;
use std::fmt::Write as _;
use std::path::PathBuf;

use grep_matcher::Matcher as _;
use grep_regex::{RegexMatcher, RegexMatcherBuilder};
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder};
use serde::{Deserialize, Serialize};

use super::empty_scope::EmptyScope;
use super::error::ToolError;
use super::grep_sink::{CountSink, FileSink};
use super::grep_skipped::{SkipReason, SkippedFile, SkippedFiles};
use super::path_glob::PathGlob;
use super::walk::{self, SkipCounts};
use crate::path_traits::path_traits;
use crate::paths::{RepoRoot, to_rel};
use sightline_lang::Languages;

/// Default for [`GrepArgs::max_matches`].
pub(crate) const DEFAULT_MAX_MATCHES: usize = 50;
/// Largest accepted [`GrepArgs::max_matches`]; larger values are lowered to it.
pub const MAX_MATCHES_CAP: usize = 500;
/// Largest accepted [`GrepArgs::context`]; larger values are lowered to it.
pub const MAX_CONTEXT: u32 = 3;
/// Files larger than this are skipped (and counted): they are almost always generated.
pub const MAX_FILE_BYTES: u64 = 1 << 20;
/// Longest line text kept in a result, in characters.
pub const MAX_LINE_CHARS: usize = 300;
/// Matching lines counted (reported or not) before counting stops; totals past it are
/// lower bounds (`totals_capped`).
pub(crate) const MAX_COUNTED_MATCHES: usize = 100_000;
/// Bytes of files read only to count matches (after `max_matches` was reached) before
/// counting stops; bounds the extra work on a huge repository.
pub(crate) const MAX_COUNTED_BYTES: u64 = 256 << 20;
/// Folded files listed by name; the rest are counted.
pub const MAX_FOLDED_LISTED: usize = 20;
/// Diagnostics beyond this many are summarized in one final entry.
const MAX_DIAGNOSTICS: usize = 100;

/// Arguments of [`run`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, schemars::JsonSchema)]
// The doc is for Rust callers; a model reads the tool's own description, not this one.
#[schemars(description = "")]
pub struct GrepArgs {
    /// Text to search for; a regular expression when `regex` is true. Must not be empty.
    pub pattern: String,
    /// Interpret `pattern` as a regular expression (Rust regex syntax) instead of a
    /// literal string.
    #[serde(default)]
    pub regex: bool,
    /// Match case exactly (`true`) or ignore it (`false`). Absent, case is ignored only
    /// when the pattern has no capital letter (`rg --smart-case`): `RecordStore` is a name as
    /// written, `timeout` a word in any spelling.
    #[serde(default)]
    pub case_sensitive: Option<bool>,
    /// Repository-relative directory or file to search under; the whole repository when
    /// absent.
    #[serde(default)]
    pub path: Option<String>,
    /// Only search files matching these globs, separated by whitespace (globset syntax,
    /// case-sensitive): a file is searched when it matches one glob (or only `!` globs are
    /// given) and no glob starting with `!`, which excludes it and everything under a
    /// directory it matches (`*.ts !**/test/**`, `!vendor`). `*` and `?` stay within one
    /// path segment, `**` spans segments, `{ts,tsx}` lists alternatives, `[0-9]` is a
    /// class. Without `/` (`*.ts`, `tsconfig*.json`) a glob matches file names at any
    /// depth. With `/` it matches the repository-relative path (`src/**/*.ts`; a trailing
    /// `/` means everything below). Under `path`, a glob that starts with that path is used
    /// as written, otherwise it is read relative to `path`: with `path: "packages"`,
    /// `packages/foo*/src/**/*.ts` and `foo*/src/**/*.ts` select the same files. Not
    /// applied when `path` names a single file.
    #[serde(default)]
    pub glob: Option<String>,
    /// Stop after this many matches (default 50, at most 500).
    #[serde(default = "default_max_matches")]
    pub max_matches: usize,
    /// Lines of context before and after each match (default 0, at most 3).
    #[serde(default)]
    pub context: u32,
    /// List each matching file once with its count of matching lines, in path order,
    /// instead of the lines (`rg -c`): at most `max_matches` files. The cheap first look
    /// at a pattern that may match widely.
    #[serde(default)]
    pub files_only: bool,
    /// Print the lines of every file that matched: by default a source file's match folds
    /// the lines of files no registered language reads as source (a changelog, a schema)
    /// and of secondary files (tests, examples, generated or vendored code, by
    /// [`path_traits`]) to one count per file after the printed lines, and a non-source
    /// file's match folds the secondary files' (see `Tier`).
    #[serde(default)]
    pub secondary: bool,
}

fn default_max_matches() -> usize {
    DEFAULT_MAX_MATCHES
}

impl GrepArgs {
    /// Literal, smart-case search of the whole repository with default limits.
    pub fn new(pattern: impl Into<String>) -> GrepArgs {
        GrepArgs {
            pattern: pattern.into(),
            regex: false,
            case_sensitive: None,
            path: None,
            glob: None,
            max_matches: DEFAULT_MAX_MATCHES,
            context: 0,
            files_only: false,
            secondary: false,
        }
    }
}

/// One line of a file as reported by `grep`.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GrepLine {
    /// 1-based line number.
    pub line: u32,
    /// The line without its terminator; a line over 300 characters is cut to 300 (see
    /// [`GrepMatch::text`]) with `…` on each cut side.
    pub text: String,
    /// Whether `text` was cut.
    pub truncated: bool,
}

/// A matching line with its surrounding context.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct GrepMatch {
    /// Repository-relative path with `/` separators.
    pub path: String,
    /// 1-based line number of the match.
    pub line: u32,
    /// The matching line without its terminator. A line over 300 characters is cut to
    /// 300 around its first match (from the start when the match lies within the first
    /// 300), with `…` on each cut side.
    pub text: String,
    /// Whether `text` was cut.
    pub truncated: bool,
    /// Up to `context` lines before the match (may include other matching lines).
    pub context_before: Vec<GrepLine>,
    /// Up to `context` lines after the match (may include other reported matches; a
    /// match left out by `max_matches` ends it).
    pub context_after: Vec<GrepLine>,
}

/// Result of [`run`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
pub struct GrepResult {
    /// Matches of source files, then of non-source files, then of secondary files, each in
    /// path order (directory contents right after the directory), then line order; a
    /// group's only when no earlier group matched (see `folded`).
    pub matches: Vec<GrepMatch>,
    /// With [`GrepArgs::files_only`]: the files with a match and their counts of matching
    /// lines (at most `max_matches` files), instead of `matches`: primary files (source
    /// or not) first, then secondary ones, each in path order.
    #[serde(default)]
    pub file_counts: Vec<FileCount>,
    /// Non-source and secondary files whose lines were left out of `matches` because an
    /// earlier group matched (unless [`GrepArgs::secondary`]), with their counts, in the
    /// order of `matches`; at most 20 (`folded_files` counts them all).
    #[serde(default)]
    pub folded: Vec<FileCount>,
    /// Files folded, listed or not.
    #[serde(default)]
    pub folded_files: usize,
    /// Matching lines in the folded files (part of `total_matches`).
    #[serde(default)]
    pub folded_matches: usize,
    /// Files whose contents were searched.
    pub files_searched: usize,
    /// Files with at least one reported match.
    pub files_with_matches: usize,
    /// Files skipped because they contain NUL bytes.
    pub files_skipped_binary: usize,
    /// Files skipped because they are larger than 1 MiB.
    pub files_skipped_large: usize,
    /// Directories left out of the walk.
    pub skipped: SkipCounts,
    /// More matches exist than `max_matches` allowed to report.
    pub truncated: bool,
    /// Matching lines in all searched files, reported or not (a lower bound when
    /// `totals_capped`).
    #[serde(default)]
    pub total_matches: usize,
    /// Files with at least one matching line, reported or not (a lower bound when
    /// `totals_capped`).
    #[serde(default)]
    pub total_files_with_matches: usize,
    /// Counting stopped after 100,000 matching lines or 256 MiB of files read only to
    /// count; the totals are "at least".
    #[serde(default)]
    pub totals_capped: bool,
    /// Skipped files (binary, over 1 MiB, unreadable) whose raw bytes hold a match or
    /// could not be checked, in path order; at most 20.
    #[serde(default)]
    pub skipped_files: Vec<SkippedFile>,
    /// Further skipped files that hold or may hold a match, beyond the 20 listed.
    #[serde(default)]
    pub skipped_files_unlisted: usize,
    /// Problems that did not stop the search (unreadable files, invalid UTF-8 lines).
    pub diagnostics: Vec<String>,
    /// Set when the pattern as sent matched nothing (or was not a valid regex) and these
    /// results are its other reading: as a regex when it was sent as literal text, as
    /// literal text when it was sent as a regex. An agent that wrote `a|b` without
    /// `regex: true` wants the alternation, not a hint and a second call.
    #[serde(default)]
    pub read_as: Option<ReadAs>,
    /// `path` and `glob` selected no file at all: no line was looked at.
    #[serde(default)]
    pub empty_scope: Option<EmptyScope>,
    /// No line matched in any reading: the searched files whose path the pattern (as
    /// sent) matches, at most [`PATH_MATCHES_SHOWN`], in path order. An agent grepping
    /// for a file's name (`config/loader`) is told where it is, not "no matches".
    #[serde(default)]
    pub path_matches: Vec<String>,
    /// Every searched file whose path matches, listed or not.
    #[serde(default)]
    pub path_matches_total: usize,
    /// Lines matched, yet some source files the result does not show have a file name the
    /// pattern matches: those files, in path order, when there are at most
    /// [`NAMED_FILES_SHOWN`] (more are a common word, not a pointer). An agent grepping
    /// `loader` is told of `loader.py` even when its lines never say the word.
    #[serde(default)]
    pub named_files: Vec<String>,
}

/// Most files [`GrepResult::named_files`] lists; more list none.
pub const NAMED_FILES_SHOWN: usize = 3;

/// Most paths [`GrepResult::path_matches`] lists.
pub const PATH_MATCHES_SHOWN: usize = 5;

/// A file with matches and how many of its lines match.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct FileCount {
    /// Repository-relative path with `/` separators.
    pub path: String,
    /// Matching lines in the file.
    pub matches: usize,
}

/// How a pattern that matched nothing as sent was read instead.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReadAs {
    /// Read as a regex (it was sent as literal text); otherwise as literal text.
    pub regex: bool,
    /// It was sent as a regex that does not compile (rather than one that matched
    /// nothing).
    #[serde(default)]
    pub invalid_regex: bool,
    /// Read ignoring case: the pattern has a capital, so by default it matched case, and
    /// nothing matched that way. `regex` is then the pattern's reading as sent.
    #[serde(default)]
    pub ignoring_case: bool,
    /// Read as its `|` alternatives, each a regex where it compiles and literal text where
    /// it does not: the pattern is no valid regex, and matched nothing as sent nor in the
    /// other reading (`load?.(|\bload\(` is read as `load\?\.\(|\bload\(`; `f(|g(`
    /// sent as literal text as `f\(|g\(`).
    #[serde(default)]
    pub alternatives: bool,
}

impl GrepResult {
    /// The result as text for humans: see [`GrepResult::render_tagged`], without labels.
    pub fn render_text(&self) -> String {
        self.render_tagged(&|_| None)
    }

    /// The result as text: a `## path` heading per file, then `12: text` for a match
    /// line (with `tag`'s label, if any, after the colon) and `13- text` for a context
    /// line, overlapping context of one file merged and gaps marked `--`.
    pub fn render_tagged(&self, tag: &dyn Fn(&GrepMatch) -> Option<String>) -> String {
        let mut out = String::new();
        if let Some(read_as) = self.read_as {
            out.push_str(match (read_as.regex, read_as.invalid_regex) {
                _ if read_as.ignoring_case => "nothing matched in this case; ignoring case:\n",
                _ if read_as.alternatives && !read_as.invalid_regex => {
                    "nothing matched literally; its `|` alternatives read apart, an invalid \
                     regex as literal text:\n"
                }
                _ if read_as.alternatives => {
                    "not a valid regex; its `|` alternatives read apart, an invalid one as \
                     literal text:\n"
                }
                (true, _) => "nothing matched literally; read as a regex:\n",
                (false, true) => "not a valid regex; read as literal text:\n",
                (false, false) => "nothing matched as a regex; read as literal text:\n",
            });
        }
        super::grep_render::render_matches(&mut out, &self.matches, tag);
        super::grep_render::render_file_counts(&mut out, &self.file_counts);
        if !self.named_files.is_empty() {
            let _ = writeln!(
                out,
                "named so, lines not shown: {}",
                self.named_files.join(", ")
            );
        }
        if self.folded_files > 0 {
            let at_least = if self.totals_capped { "at least " } else { "" };
            let _ = writeln!(
                out,
                "{at_least}{} more lines in other files (`secondary: true`):",
                self.folded_matches
            );
            super::grep_render::render_file_counts(&mut out, &self.folded);
            let unlisted = self.folded_files.saturating_sub(self.folded.len());
            if unlisted > 0 {
                let _ = writeln!(out, "and {at_least}{unlisted} more files");
            }
        }
        if self.matches.is_empty() && self.file_counts.is_empty() {
            match &self.empty_scope {
                // No file was searched: the scope is what to fix, not the pattern.
                Some(scope) => {
                    let _ = writeln!(out, "{}", scope.describe());
                }
                None => {
                    out.push_str("no matches");
                    if !self.path_matches.is_empty() {
                        let more = self.path_matches_total - self.path_matches.len();
                        let _ = write!(
                            out,
                            " in any line; in {} path{}: {}",
                            self.path_matches_total,
                            if self.path_matches_total == 1 {
                                ""
                            } else {
                                "s"
                            },
                            self.path_matches.join(", ")
                        );
                        if more > 0 {
                            let _ = write!(out, " +{more}");
                        }
                    }
                    out.push('\n');
                }
            }
        }
        if self.truncated && !self.file_counts.is_empty() {
            let at_least = if self.totals_capped { "at least " } else { "" };
            let _ = writeln!(
                out,
                "({} of {at_least}{} files shown, {at_least}{} matching lines in all; narrow \
                 to see the rest)",
                self.file_counts.len(),
                self.total_files_with_matches.max(self.file_counts.len()),
                self.total_matches,
            );
        } else if self.truncated {
            let at_least = if self.totals_capped { "at least " } else { "" };
            // Folded files are listed above, not part of what is "not shown".
            let total = self.total_matches.saturating_sub(self.folded_matches);
            let files = self
                .total_files_with_matches
                .saturating_sub(self.folded_files);
            let _ = writeln!(
                out,
                "({} of {at_least}{} matches in {} of {at_least}{} files shown; narrow to see \
                 the rest)",
                self.matches.len(),
                total.max(self.matches.len()),
                self.files_with_matches,
                files.max(self.files_with_matches),
            );
        }
        for file in &self.skipped_files {
            let _ = writeln!(out, "skipped {}", file.describe());
        }
        if self.skipped_files_unlisted > 0 {
            let _ = writeln!(
                out,
                "skipped {} more files that may hold a match",
                self.skipped_files_unlisted
            );
        }
        for d in &self.diagnostics {
            let _ = writeln!(out, "note: {d}");
        }
        out
    }
}

/// Searches the repository (or `args.path`) for `args.pattern`. A pattern that matches
/// nothing as sent but does when read the other way (a literal `a|b` as a regex, a regex
/// `f(x)` or an invalid one like `a[` as literal text), or, having a capital that made it
/// match case by default, does when ignoring case, is answered with that reading, and the
/// result says so ([`GrepResult::read_as`]); an invalid regex that matches nothing
/// literally either is an error.
pub fn run(root: &RepoRoot, args: &GrepArgs) -> Result<GrepResult, ToolError> {
    if args.pattern.is_empty() {
        return Err(ToolError::invalid_argument(
            "pattern",
            "\"\"",
            "must not be empty",
        ));
    }
    if args.max_matches == 0 {
        return Err(ToolError::invalid_argument(
            "max_matches",
            0,
            "must be at least 1",
        ));
    }
    // The walk is the pattern's business in neither reading: walked once for both.
    let scope = Scope::collect(root, args)?;
    // Read another way only what found nothing as sent: a pattern without regex syntax
    // reads the same both ways, one without a capital is already read ignoring case, and a
    // scope without files holds nothing for any reading.
    let as_sent = build_matcher(args);
    // `build_matcher` fails only on an invalid regex.
    let first = match &as_sent {
        Ok(matcher) => {
            let mut result = search(root, args, &scope, matcher);
            if result.total_matches > 0 {
                result.named_files = named_files(root, &scope, &result, matcher);
                return Ok(result);
            }
            if result.empty_scope.is_some() {
                return Ok(result);
            }
            Some(result)
        }
        Err(_) => None,
    };
    for (other, read_as) in super::grep_readings::other_readings(args, first.is_none()) {
        if let Ok(matcher) = build_matcher(&other) {
            let mut result = search(root, &other, &scope, &matcher);
            if result.total_matches > 0 {
                result.read_as = Some(read_as);
                return Ok(result);
            }
        }
    }
    // Nothing matched in any reading: an invalid regex is the error, a valid pattern may
    // still name paths.
    let matcher = as_sent?;
    let mut result = first.unwrap_or_else(|| search(root, args, &scope, &matcher));
    let matching = scope
        .files
        .iter()
        .chain(&scope.large)
        .map(|(rel, _, _)| rel)
        .filter(|rel| matcher.is_match(rel.as_bytes()).unwrap_or(false));
    for rel in matching {
        result.path_matches_total += 1;
        if result.path_matches.len() < PATH_MATCHES_SHOWN {
            result.path_matches.push(rel.clone());
        }
    }
    Ok(result)
}

/// The source files (primary ones, which the result prints in full) neither `result`'s
/// lines nor its counts show, whose file name the pattern matches: [`GrepResult::named_files`].
fn named_files(
    root: &RepoRoot,
    scope: &Scope,
    result: &GrepResult,
    matcher: &RegexMatcher,
) -> Vec<String> {
    let shown: HashSet<&str> = result
        .matches
        .iter()
        .map(|m| m.path.as_str())
        .chain(result.file_counts.iter().map(|f| f.path.as_str()))
        .collect();
    let mut named = Vec::new();
    for (rel, _, _) in scope.files.iter().chain(&scope.large) {
        let name = rel.rsplit('/').next().unwrap_or(rel);
        if shown.contains(rel.as_str())
            || !matcher.is_match(name.as_bytes()).unwrap_or(false)
            || Tier::of(root.languages(), rel) != Tier::Source
        {
            continue;
        }
        if named.len() == NAMED_FILES_SHOWN {
            return Vec::new();
        }
        named.push(rel.clone());
    }
    named.sort_by(|a, b| walk::tree_order(a, b));
    named
}

/// The files a search looks at, walked once for either reading of the pattern, and what
/// the walk recorded (skipped directories, diagnostics, a scope without files).
struct Scope {
    files: Vec<FoundFile>,
    large: Vec<FoundFile>,
    walked: GrepResult,
}

impl Scope {
    fn collect(root: &RepoRoot, args: &GrepArgs) -> Result<Scope, ToolError> {
        let path = args.path.as_deref().unwrap_or("");
        let mut walked = GrepResult::default();
        let (start, listed) = match root.resolve(path) {
            Ok(start) => (start, None),
            Err(e) => match several_paths(root, path) {
                Some(globs) => {
                    walked.diagnostics.push(format!(
                        "`path` named {} paths; searched them as the glob `{globs}`",
                        globs.split(' ').count()
                    ));
                    (root.resolve("")?, Some(globs))
                }
                None => return Err(e.into()),
            },
        };
        let glob = match (&listed, &args.glob) {
            // Both: a file is under a listed path and matches the glob.
            (Some(paths), Some(glob)) => {
                Some(PathGlob::new(glob, start.rel())?.and(PathGlob::new(paths, start.rel())?))
            }
            (Some(glob), None) | (None, Some(glob)) => Some(PathGlob::new(glob, start.rel())?),
            (None, None) => None,
        };
        let (files, large, seen) = collect_files(root, start.abs(), glob.as_ref(), &mut walked);
        if files.is_empty() && large.is_empty() {
            // The glob that selected nothing: the one given, or else the listed paths'.
            let (glob, listed) = match (listed, &args.glob) {
                (listed, Some(glob)) => (Some(glob.clone()), listed),
                (listed, None) => (listed, None),
            };
            walked.empty_scope = Some(EmptyScope {
                path: start.to_string(),
                glob,
                files: seen,
                depth: None,
                listed,
            });
        }
        Ok(Scope {
            files,
            large,
            walked,
        })
    }
}

/// A `path` that names no file but is several existing files or directories separated by
/// whitespace (`src/a.go lib/b.go`, as an agent lists them for `rg`), as the glob that
/// selects them (a directory as everything below it); `None` when any part does not
/// exist or holds glob syntax. A `glob` given too narrows it ([`PathGlob::and`]).
fn several_paths(root: &RepoRoot, path: &str) -> Option<String> {
    let parts: Vec<&str> = path.split_whitespace().collect();
    if parts.len() < 2 {
        return None;
    }
    let globs: Option<Vec<String>> = parts
        .iter()
        .map(|part| {
            if part.contains(['*', '?', '[', ']', '{', '}', '!']) {
                return None;
            }
            let resolved = root.resolve(part).ok()?;
            let rel = resolved.rel().to_owned();
            if rel.is_empty() {
                // The root: everything, which no list of paths means.
                return None;
            }
            match resolved.abs().is_dir() {
                true => Some(format!("{}/", rel.trim_end_matches('/'))),
                false => Some(rel),
            }
        })
        .collect();
    Some(globs?.join(" "))
}

/// [`run`] for the pattern read as `args` says (`matcher` built from it), over `scope`'s
/// files.
fn search(root: &RepoRoot, args: &GrepArgs, scope: &Scope, matcher: &RegexMatcher) -> GrepResult {
    let max_matches = args.max_matches.min(MAX_MATCHES_CAP);
    let context = args.context.min(MAX_CONTEXT);
    let mut result = scope.walked.clone();
    let (files, large) = (&scope.files, &scope.large);
    let mut skipped = SkippedFiles::new();
    result.files_skipped_large = large.len();
    for (rel, abs, size) in large {
        skipped.add(matcher, rel, abs, SkipReason::TooLarge, Some(*size));
    }

    let mut searcher = SearcherBuilder::new()
        .line_number(true)
        .binary_detection(BinaryDetection::quit(0))
        .before_context(context as usize)
        .after_context(context as usize)
        .build();
    // Once the limit is reached, later files are only counted (no context, nothing kept).
    let mut counter = SearcherBuilder::new()
        .binary_detection(BinaryDetection::quit(0))
        .build();
    // Source files are searched first, then the files no language reads as source, then
    // secondary files (see [`Tier`]). A later tier's lines fold to counts when an earlier
    // tier matched (a search under a secondary path, or one that only a later tier
    // matches, prints them as any other).
    let mut tiers: [Vec<&FoundFile>; 3] = Default::default();
    for file in files {
        let tier = match (args.secondary, Tier::of(root.languages(), &file.0)) {
            (true, _) => Tier::Source,
            // A files-only listing folds nothing: non-source files keep their path order
            // among the source files (one directory line for both), secondary ones follow.
            (false, Tier::Other) if args.files_only => Tier::Source,
            (false, tier) => tier,
        };
        tiers[tier as usize].push(file);
    }
    let mut counted_bytes = 0u64;
    // Whether an earlier tier matched, known once a tier's first file is reached.
    let mut earlier_matched: [Option<bool>; 3] = [Some(false), None, None];
    let in_order = tiers
        .iter()
        .enumerate()
        .flat_map(|(tier, files)| files.iter().map(move |f| (f, tier)));
    for ((rel, abs, size), tier) in in_order {
        let fold =
            !args.files_only && *earlier_matched[tier].get_or_insert(result.total_matches > 0);
        // Files read only to count (after the limit, or folded) are bounded in bytes.
        let count_only = result.truncated || fold;
        if result.total_matches >= MAX_COUNTED_MATCHES
            || (count_only && counted_bytes.saturating_add(*size) > MAX_COUNTED_BYTES)
        {
            result.totals_capped = true;
            break;
        }
        if count_only {
            counted_bytes += size;
        }
        let file = SearchedFile {
            rel,
            abs,
            size: *size,
        };
        if fold {
            let found = count_file(&mut counter, matcher, &file, &mut skipped, &mut result);
            if found > 0 {
                result.folded_files += 1;
                result.folded_matches += found;
                if result.folded.len() < MAX_FOLDED_LISTED {
                    result.folded.push(FileCount {
                        path: rel.clone(),
                        matches: found,
                    });
                }
            }
            continue;
        }
        if result.truncated || args.files_only {
            let found = count_file(&mut counter, matcher, &file, &mut skipped, &mut result);
            if args.files_only && found > 0 && !result.truncated {
                if result.file_counts.len() < max_matches {
                    result.file_counts.push(FileCount {
                        path: rel.clone(),
                        matches: found,
                    });
                    result.files_with_matches += 1;
                } else {
                    result.truncated = true;
                }
            }
            continue;
        }
        let remaining = max_matches - result.matches.len();
        let within_limit = search_file(
            &mut searcher,
            matcher,
            &file,
            (remaining, context),
            &mut skipped,
            &mut result,
        );
        if !within_limit {
            result.truncated = true;
        }
    }
    skipped
        .listed
        .sort_by(|a, b| walk::tree_order(&a.path, &b.path));
    result.skipped_files = skipped.listed;
    result.skipped_files_unlisted = skipped.unlisted;
    cap_diagnostics(&mut result.diagnostics);
    result
}

/// The order `grep` searches files in; a tier's lines fold to counts when an earlier tier
/// matched. An agent looking for code rarely needs a changelog's or a schema's lines in
/// full next to the code's, nor a test's; the fold names each such file with its count,
/// and `secondary: true` or a `path` under it prints them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tier {
    /// A registered language reads it as source, and its path is not secondary.
    Source = 0,
    /// No registered language reads it as source (a changelog, a page, a schema, a
    /// manifest), and its path is not secondary.
    Other = 1,
    /// Secondary by its path ([`path_traits`]): tests, examples, generated or vendored code.
    Secondary = 2,
}

impl Tier {
    fn of(languages: Languages, rel: &str) -> Tier {
        if path_traits(languages, rel).is_secondary() {
            Tier::Secondary
        } else if languages.of_path(rel).is_none() {
            Tier::Other
        } else {
            Tier::Source
        }
    }
}

fn build_matcher(args: &GrepArgs) -> Result<RegexMatcher, ToolError> {
    RegexMatcherBuilder::new()
        .case_insensitive(args.case_sensitive == Some(false))
        .case_smart(args.case_sensitive.is_none())
        .fixed_strings(!args.regex)
        // Line-oriented search: a match can never span lines, and NUL can never match
        // because files containing it are treated as binary.
        .line_terminator(Some(b'\n'))
        .ban_byte(Some(0))
        .build(&args.pattern)
        .map_err(|e| ToolError::InvalidRegex {
            pattern: args.pattern.clone(),
            message: e.to_string(),
        })
}

/// A file with its repository-relative path, absolute path and size in bytes.
type FoundFile = (String, PathBuf, u64);

/// Regular files under `start` within the size limit, sorted by repository-relative
/// path, the files over it, and how many files the walk found before `glob` chose among
/// them. Walk problems are recorded in `result`.
fn collect_files(
    root: &RepoRoot,
    start: &std::path::Path,
    glob: Option<&PathGlob>,
    result: &mut GrepResult,
) -> (Vec<FoundFile>, Vec<FoundFile>, usize) {
    let (walk, counters) = walk::walk(root.canonical(), start, root.languages(), None);
    let mut files = Vec::new();
    let mut large = Vec::new();
    let mut walked = 0;
    for entry in walk {
        let entry = match entry {
            Ok(entry) => entry,
            Err(err) => {
                result.diagnostics.push(format!("walk error: {err}"));
                continue;
            }
        };
        // Symlinks are not followed: their targets may lie outside the root.
        if !entry.file_type().is_some_and(|t| t.is_file()) {
            continue;
        }
        let Some(rel) = to_rel(root, entry.path()) else {
            result.diagnostics.push(format!(
                "skipped `{}`: path is not valid UTF-8",
                entry.path().to_string_lossy()
            ));
            continue;
        };
        walked += 1;
        if entry.depth() > 0 && glob.is_some_and(|g| !g.is_match(&rel)) {
            continue;
        }
        match entry.metadata() {
            Ok(meta) if meta.len() > MAX_FILE_BYTES => {
                large.push((rel, entry.into_path(), meta.len()));
            }
            Ok(meta) => files.push((rel, entry.into_path(), meta.len())),
            Err(err) => result
                .diagnostics
                .push(format!("{rel}: cannot stat: {err}")),
        }
    }
    result.skipped = counters.snapshot();
    files.sort_by(|(a, ..), (b, ..)| walk::tree_order(a, b));
    (files, large, walked)
}

/// One file to search.
struct SearchedFile<'a> {
    rel: &'a str,
    abs: &'a std::path::Path,
    size: u64,
}

/// Why a searched file's lines do not count: it could not be read, or it turned out to be
/// binary.
fn not_searched(read: bool, binary: bool) -> Option<SkipReason> {
    if !read {
        Some(SkipReason::Unreadable)
    } else if binary {
        Some(SkipReason::Binary)
    } else {
        None
    }
}

/// Records a file whose lines do not count (see [`not_searched`]) among the skipped ones.
fn skip_file(
    matcher: &RegexMatcher,
    file: &SearchedFile<'_>,
    reason: SkipReason,
    skipped: &mut SkippedFiles,
    result: &mut GrepResult,
) {
    if reason == SkipReason::Binary {
        result.files_skipped_binary += 1;
    }
    skipped.add(matcher, file.rel, file.abs, reason, Some(file.size));
}

/// Searches one file and merges its matches into `result`; `(remaining, context)` are
/// the matches it may still report and the context lines around each. Returns `false`
/// when the match limit was exceeded: later files are then only counted.
fn search_file(
    searcher: &mut Searcher,
    matcher: &RegexMatcher,
    file: &SearchedFile<'_>,
    (remaining, context): (usize, u32),
    skipped: &mut SkippedFiles,
    result: &mut GrepResult,
) -> bool {
    let mut sink = FileSink::new(file.rel, matcher, remaining, context);
    let searched = searcher.search_path(matcher, file.abs, &mut sink);
    // A file found to contain NUL is binary; any lines reported before the NUL was seen
    // are discarded rather than shown as if it were text.
    if let Some(reason) = not_searched(searched.is_ok(), sink.binary) {
        skip_file(matcher, file, reason, skipped, result);
        return true;
    }
    result.files_searched += 1;
    let limit_hit = sink.limit_hit;
    let unreported = sink.unreported;
    let outcome = sink.finish();
    if let Some(diagnostic) = outcome.diagnostic {
        result.diagnostics.push(diagnostic);
    }
    if !outcome.matches.is_empty() {
        result.files_with_matches += 1;
    }
    let found = outcome.matches.len() + unreported;
    result.total_matches += found;
    result.total_files_with_matches += usize::from(found > 0);
    result.matches.extend(outcome.matches);
    !limit_hit
}

/// Counts one file's matching lines into the totals (after the match limit was reached,
/// or for a files-only search) and returns them.
fn count_file(
    searcher: &mut Searcher,
    matcher: &RegexMatcher,
    file: &SearchedFile<'_>,
    skipped: &mut SkippedFiles,
    result: &mut GrepResult,
) -> usize {
    let mut sink = CountSink::default();
    let searched = searcher.search_path(matcher, file.abs, &mut sink);
    if let Some(reason) = not_searched(searched.is_ok(), sink.binary) {
        skip_file(matcher, file, reason, skipped, result);
        return 0;
    }
    result.files_searched += 1;
    result.total_matches += sink.matches;
    result.total_files_with_matches += usize::from(sink.matches > 0);
    sink.matches
}

fn cap_diagnostics(diagnostics: &mut Vec<String>) {
    if diagnostics.len() > MAX_DIAGNOSTICS {
        let dropped = diagnostics.len() - MAX_DIAGNOSTICS;
        diagnostics.truncate(MAX_DIAGNOSTICS);
        diagnostics.push(format!("{dropped} more diagnostics not shown"));
    }
}
