//! Discovering and loading the files an index is built from. Skips are counted by reason so
//! nothing disappears silently.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use sightline_lang::{LangId, Languages};

/// Files larger than this are not indexed (they are data or bundles, not hand-written source).
pub const MAX_FILE_BYTES: u64 = 1024 * 1024;
/// A line longer than this in a file whose average line is also long marks minified output.
const MINIFIED_LINE_BYTES: usize = 1000;

/// Why a file was discovered but not indexed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum SkipReason {
    /// Over [`MAX_FILE_BYTES`].
    TooLarge,
    /// A NUL byte in the first 8 KiB.
    Binary,
    /// The contents are not valid UTF-8.
    InvalidUtf8,
    /// Very long lines on average: bundled or minified output.
    Minified,
    /// A "generated"/"do not edit" comment in the first five lines.
    Generated,
    /// Metadata or contents could not be read (permissions, a file removed mid-walk).
    Unreadable,
    /// Under a directory a language names as installed third-party code or caches.
    DependencyDir,
    /// A directory holding a language's marker file of installed code (an environment's
    /// marker), whatever its name.
    MarkedDependencyDir,
    /// A directory a language's own tools skip by name wherever it appears (its test data).
    IgnoredDir,
    /// A language's build-output directory next to one of its packaging manifests: copies
    /// of the sources made by a build tool.
    BuildOutput,
    /// A file name that is not valid UTF-8: paths are UTF-8 everywhere downstream.
    NonUtf8Name,
    /// A symbolic link to a file: links are never followed (they can point anywhere).
    Symlink,
}

impl SkipReason {
    /// A short stable name for reports and counts.
    pub fn as_str(self) -> &'static str {
        match self {
            SkipReason::TooLarge => "too large",
            SkipReason::Binary => "binary",
            SkipReason::InvalidUtf8 => "invalid utf-8",
            SkipReason::Minified => "minified",
            SkipReason::Generated => "generated",
            SkipReason::Unreadable => "unreadable",
            SkipReason::DependencyDir => "dependency dir",
            SkipReason::MarkedDependencyDir => "marked dependency dir",
            SkipReason::IgnoredDir => "ignored by toolchain",
            SkipReason::BuildOutput => "build output",
            SkipReason::NonUtf8Name => "non-utf-8 name",
            SkipReason::Symlink => "symlink",
        }
    }
}

/// What role a loaded file plays in the index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum FileRole {
    /// Source code parsed for facts, in this language and dialect.
    Source(LangId),
    /// Package and compiler configuration read by module resolution.
    Manifest,
}

impl FileRole {
    /// The role of a repo-relative path among `languages`, or `None` if the index does not
    /// load it.
    pub fn of(languages: Languages, path: &str) -> Option<FileRole> {
        if let Some(lang) = languages.of_path(path) {
            return Some(FileRole::Source(lang));
        }
        let name = path.rsplit('/').next().unwrap_or(path);
        languages.is_manifest(name).then_some(FileRole::Manifest)
    }
}

/// File metadata used to notice changes without reading contents.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stamp {
    /// Size in bytes.
    pub len: u64,
    /// Modification time in nanoseconds since the Unix epoch (0 when unavailable).
    pub modified_nanos: u128,
    /// Inode change time: any write or `utime` moves it, so an edit whose size and mtime
    /// were restored is still seen. 0 where the platform has none.
    pub changed_nanos: i128,
    /// The inode (0 where the platform has none): a file replaced by another is a change.
    pub inode: u64,
    /// The file was read within `RACY_WINDOW` (2 s) of its last change, so a second write in
    /// the same timestamp tick could leave every field above equal. A racy stamp never
    /// equals a fresh one, so the next refresh reads the file again (and keeps the old
    /// input when the text is the same), as git does for its racily clean entries.
    pub racy: bool,
}

/// How close to its last change a file's read must be for the stamp to be ambiguous: the
/// coarsest common timestamp granularity (FAT's 2 s; Linux stamps come from a clock tick of
/// a few ms, network file systems may round further).
pub(crate) const RACY_WINDOW: std::time::Duration = std::time::Duration::from_secs(2);

impl Stamp {
    /// The stamp of a file's metadata, not yet marked racy (see `Stamp::read_at`).
    pub fn of(meta: &std::fs::Metadata) -> Stamp {
        let modified_nanos = meta
            .modified()
            .ok()
            .and_then(|t| t.duration_since(SystemTime::UNIX_EPOCH).ok())
            .map_or(0, |d| d.as_nanos());
        #[cfg(unix)]
        let (changed_nanos, inode) = {
            use std::os::unix::fs::MetadataExt;
            (
                i128::from(meta.ctime()) * 1_000_000_000 + i128::from(meta.ctime_nsec()),
                meta.ino(),
            )
        };
        #[cfg(not(unix))]
        let (changed_nanos, inode) = (0, 0);
        Stamp {
            len: meta.len(),
            modified_nanos,
            changed_nanos,
            inode,
            racy: false,
        }
    }

    /// This stamp, marked racy when the file's last change (its ctime, else its mtime) is
    /// not at least [`RACY_WINDOW`] older than `read_at`, the moment its text was read.
    pub(crate) fn read_at(mut self, read_at: SystemTime) -> Stamp {
        let read_nanos = read_at
            .duration_since(SystemTime::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos());
        let last_change = if self.changed_nanos > 0 {
            u128::try_from(self.changed_nanos).unwrap_or(0)
        } else {
            self.modified_nanos
        };
        self.racy = last_change + RACY_WINDOW.as_nanos() > read_nanos;
        self
    }
}

/// A file the walk read: its path, role, full text and stamp.
#[derive(Clone, Debug)]
pub struct LoadedFile {
    /// Repo-relative, forward slashes.
    pub path: String,
    /// Source or manifest.
    pub role: FileRole,
    /// The whole file, valid UTF-8, at most [`MAX_FILE_BYTES`].
    pub text: String,
    /// Metadata at the time of the read.
    pub stamp: Stamp,
}

/// The result of walking a root.
#[derive(Debug, Default)]
pub struct WalkOutcome {
    /// Sorted by path.
    pub files: Vec<LoadedFile>,
    /// Number of files or directories skipped, per reason.
    pub skipped: BTreeMap<SkipReason, u32>,
    /// Up to a few example paths per skip reason, for diagnostics.
    pub skipped_examples: BTreeMap<SkipReason, Vec<String>>,
    /// Files the walk saw that the index does not load (styles, docs, data).
    pub not_indexed: u32,
    /// Those files by their type among the `ignore` crate's default file types (`rust`,
    /// `markdown`, …); files of no known type are not counted here.
    pub not_indexed_types: BTreeMap<String, u32>,
    /// Files whose stamp matched the one the caller already had: not read again.
    pub unchanged: Vec<String>,
}

impl WalkOutcome {
    fn skip(&mut self, reason: SkipReason, path: String) {
        *self.skipped.entry(reason).or_default() += 1;
        let examples = self.skipped_examples.entry(reason).or_default();
        if examples.len() < 3 {
            examples.push(path);
        }
    }
}

/// Directory names of version-control metadata: never source, often huge, and never
/// entered by any walk of the tree.
pub(crate) const VCS_DIRS: &[&str] = &[".git", ".hg", ".svn", ".jj", ".bzr", "_darcs"];

/// The one set of rules every walk of the tree follows, so the index, the tools (`grep`,
/// `list_files`) and the file watcher agree on what the tree holds:
///
/// - ignore files: `.gitignore` and `.ignore` in every directory and its parents (also
///   without a `.git` directory), and the repository's `.git/info/exclude`; never the
///   user's global gitignore, so the same tree gives the same index on every machine
///   (and a watcher can see every file that decides what is admitted);
/// - hidden entries are walked like any other (configuration in `.github/` or
///   `.eslintrc.json` is part of the project), except version-control directories
///   ([`VCS_DIRS`]), which [`pruned_dir`] prunes;
/// - symbolic links are never followed (they can point anywhere, including outside the
///   root).
///
/// Directories are further pruned by [`pruned_dir`] in each walk's entry filter.
pub(crate) fn builder(start: &Path) -> ignore::WalkBuilder {
    let mut builder = ignore::WalkBuilder::new(start);
    builder
        .hidden(false)
        .parents(true)
        .ignore(true)
        .git_ignore(true)
        .git_global(false)
        .git_exclude(true)
        .require_git(false)
        .follow_links(false);
    builder
}

/// How deep below the walk's start a directory is looked at for a marker file of
/// installed code ([`sightline_lang::Language::dependency_dir_markers`]). Such
/// environments live at a project's root or one or two levels down; probing deeper would
/// add a `stat` per directory to every walk, including the sweep behind each incremental
/// refresh.
const MARKED_DIR_MAX_DEPTH: usize = 3;

/// Why a directory is not entered by any walk of the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Pruned {
    /// Version-control metadata ([`VCS_DIRS`]): not part of the project's files, so not
    /// counted as a skip by the index.
    VersionControl,
    /// Installed or built code, or a directory a language's tools skip, counted under
    /// this reason.
    Skipped(SkipReason),
}

/// Why the directory at `path`, named `name`, `depth` levels below the root, is pruned,
/// if it is: version-control metadata, installed code (a dependency directory by name,
/// or by a marker file inside it), a directory a language's tools skip by name, or a
/// build tool's output, by the rules of `languages`. Every walk asks this of every
/// directory (with the depth below the root, wherever the walk starts), and the file
/// watcher of directories that appear.
pub(crate) fn pruned_dir(
    languages: Languages,
    path: &Path,
    name: &str,
    depth: usize,
) -> Option<Pruned> {
    if VCS_DIRS.contains(&name) {
        Some(Pruned::VersionControl)
    } else if depth <= MARKED_DIR_MAX_DEPTH && languages.has_dependency_dir_marker(path) {
        Some(Pruned::Skipped(SkipReason::MarkedDependencyDir))
    } else if languages.is_dependency_dir(name) {
        Some(Pruned::Skipped(SkipReason::DependencyDir))
    } else if languages.is_ignored_dir(name) {
        Some(Pruned::Skipped(SkipReason::IgnoredDir))
    } else if path
        .parent()
        .is_some_and(|parent| languages.is_build_output(parent, name))
    {
        Some(Pruned::Skipped(SkipReason::BuildOutput))
    } else {
        None
    }
}

/// Whether a file's appearance, removal or edit can change what the walk admits outside
/// the file itself: an ignore file, a marker of installed code, or packaging
/// configuration (which makes a sibling build directory output). Only a full walk
/// settles what such a change admits.
pub(crate) fn changes_admission(languages: Languages, file_name: &str) -> bool {
    is_ignore_file(file_name)
        || languages.is_dependency_dir_marker(file_name)
        || languages.is_packaging_manifest(file_name)
}

/// The names of the per-directory ignore files [`builder`]'s walks read.
pub(crate) fn is_ignore_file(file_name: &str) -> bool {
    file_name == ".gitignore" || file_name == ".ignore"
}

/// Told of the directories a walk enters, so a file watcher can watch exactly the
/// directories the walk admits: each one before its entries are listed, so a file
/// created in it after the listing is seen by the watch, and one created before by the
/// listing.
pub trait DirectoryObserver: Send + Sync {
    /// A walk starts, over the whole tree (`scope` is `None`) or over the given
    /// repo-relative paths and the directories on the way to them.
    fn walk_started(&self, scope: Option<&[&str]>);
    /// The walk admitted the directory `rel` (repo-relative, `""` for the root) at
    /// `abs`, and will list it next.
    fn entered(&self, rel: &str, abs: &Path);
    /// The walk is over: a directory inside its scope that it did not enter is no
    /// longer admitted.
    fn walk_finished(&self);
}

/// Walks `root` (respecting .gitignore and friends), then reads and classifies candidate
/// files of `languages` in parallel.
pub fn walk(root: &Path, languages: Languages) -> WalkOutcome {
    walk_changed(root, languages, &|_, _| false)
}

/// Like [`walk`], but files for which `unchanged(path, stamp)` holds are listed in
/// `WalkOutcome::unchanged` instead of being read: the stat sweep behind incremental refresh.
pub fn walk_changed(
    root: &Path,
    languages: Languages,
    unchanged: &(dyn Fn(&str, Stamp) -> bool + Sync),
) -> WalkOutcome {
    walk_within(root, languages, None, unchanged, None)
}

/// Like [`walk_changed`], restricted to `scope` (repo-relative paths of files or
/// directories): the same walk, with the same ignore files, hidden-entry rule, pruned
/// directories and file checks, that enters only the directories on the way to a scoped
/// path and those below it. What it finds under a scoped path is exactly what a full walk
/// finds there, at the cost of listing a few directories instead of the tree.
pub fn walk_scoped(
    root: &Path,
    languages: Languages,
    scope: &[&str],
    unchanged: &(dyn Fn(&str, Stamp) -> bool + Sync),
) -> WalkOutcome {
    walk_within(root, languages, Some(scope), unchanged, None)
}

/// [`walk_changed`] (`scope` is `None`) or [`walk_scoped`], telling `observer` of every
/// directory it enters.
pub(crate) fn walk_observed(
    root: &Path,
    languages: Languages,
    scope: Option<&[&str]>,
    unchanged: &(dyn Fn(&str, Stamp) -> bool + Sync),
    observer: Option<&std::sync::Arc<dyn DirectoryObserver>>,
) -> WalkOutcome {
    walk_within(root, languages, scope, unchanged, observer)
}

/// Whether the entry at repo-relative `rel` is on the way to, or inside, a scoped path.
fn in_scope(rel: &Path, scope: &[String]) -> bool {
    scope.iter().any(|s| {
        let s = Path::new(s.as_str());
        s.starts_with(rel) || rel.starts_with(s)
    })
}

/// The walk behind [`walk_changed`] and [`walk_scoped`]: one builder and one entry filter,
/// so a scoped walk admits a path exactly when the full walk does.
fn walk_within(
    root: &Path,
    languages: Languages,
    scope: Option<&[&str]>,
    unchanged: &(dyn Fn(&str, Stamp) -> bool + Sync),
    observer: Option<&std::sync::Arc<dyn DirectoryObserver>>,
) -> WalkOutcome {
    if let Some(observer) = observer {
        observer.walk_started(scope);
        // The root is never offered to the entry filter: it is always entered.
        observer.entered("", root);
    }
    let outcome = walk_entries(root, languages, scope, unchanged, observer);
    if let Some(observer) = observer {
        observer.walk_finished();
    }
    outcome
}

fn walk_entries(
    root: &Path,
    languages: Languages,
    scope: Option<&[&str]>,
    unchanged: &(dyn Fn(&str, Stamp) -> bool + Sync),
    observer: Option<&std::sync::Arc<dyn DirectoryObserver>>,
) -> WalkOutcome {
    let mut outcome = WalkOutcome::default();
    // Pruned directories are counted as one skip each (their contents are not walked).
    let pruned = std::sync::Arc::new(std::sync::Mutex::new(BTreeMap::<SkipReason, u32>::new()));
    let pruned_in_filter = pruned.clone();
    let scope: Option<Vec<String>> = scope.map(|s| s.iter().map(|p| (*p).to_owned()).collect());
    let scoped = scope.is_some();
    let root_in_filter = root.to_path_buf();
    let observer = observer.cloned();
    let mut builder = builder(root);
    builder.filter_entry(move |e| {
        // The ignore files were applied before this filter; the scope only narrows what
        // is entered, it never admits anything.
        let rel = e.path().strip_prefix(&root_in_filter).unwrap_or(e.path());
        if let Some(scope) = &scope
            && !in_scope(rel, scope)
        {
            return false;
        }
        if !e.file_type().is_some_and(|t| t.is_dir()) {
            return true;
        }
        let name = e.file_name().to_string_lossy();
        match pruned_dir(languages, e.path(), &name, e.depth()) {
            Some(Pruned::Skipped(reason)) => {
                let mut counts = pruned_in_filter.lock().unwrap_or_else(|p| p.into_inner());
                *counts.entry(reason).or_default() += 1;
                false
            }
            Some(Pruned::VersionControl) => false,
            None => {
                if let Some(observer) = &observer
                    && let Some(rel) = rel.to_str()
                {
                    observer.entered(&rel.replace(std::path::MAIN_SEPARATOR, "/"), e.path());
                }
                true
            }
        }
    });
    let classified = |entry: Result<ignore::DirEntry, ignore::Error>| match entry {
        Err(_) => Some(Found::Error),
        Ok(entry) => classify(root, languages, entry, unchanged),
    };
    let mut found: Vec<Found> = if scoped {
        // A scoped walk lists a handful of directories: on this thread, since starting the
        // parallel walker's threads would cost more than the listing.
        builder.build().filter_map(classified).collect()
    } else {
        walk_in_parallel(&builder, &classified)
    };
    found.sort_by(|a, b| a.key().cmp(&b.key()));
    let mut candidates: Vec<(String, PathBuf, FileRole, Option<Stamp>)> = Vec::new();
    for item in found {
        match item {
            Found::Error => outcome.skip(SkipReason::Unreadable, String::from("<walk error>")),
            Found::Skipped(reason, shown) => outcome.skip(reason, shown),
            Found::NotIndexed(kind) => {
                outcome.not_indexed += 1;
                if let Some(kind) = kind {
                    *outcome.not_indexed_types.entry(kind).or_default() += 1;
                }
            }
            Found::Unchanged(rel) => outcome.unchanged.push(rel),
            Found::Candidate(c) => candidates.push(*c),
        }
    }
    let pruned = std::mem::take(&mut *pruned.lock().unwrap_or_else(|p| p.into_inner()));
    for (reason, count) in pruned {
        *outcome.skipped.entry(reason).or_default() += count;
    }
    let loaded: Vec<Result<LoadedFile, (SkipReason, String)>> = candidates
        .into_par_iter()
        .map(|(rel, abs, role, meta)| load_with(languages, rel, &abs, role, meta))
        .collect();
    for item in loaded {
        match item {
            Ok(file) => outcome.files.push(file),
            Err((reason, path)) => outcome.skip(reason, path),
        }
    }
    outcome.files.sort_by(|a, b| a.path.cmp(&b.path));
    outcome
}

/// Directories are listed and files stat'ed on several threads; what they find is sorted by
/// path afterwards (component-wise, the order of a sorted depth-first walk), so the outcome
/// does not depend on thread timing.
fn walk_in_parallel(
    builder: &ignore::WalkBuilder,
    classified: &(dyn Fn(Result<ignore::DirEntry, ignore::Error>) -> Option<Found> + Sync),
) -> Vec<Found> {
    let found: std::sync::Mutex<Vec<Found>> = std::sync::Mutex::new(Vec::new());
    builder.build_parallel().run(|| {
        let mut flush = FlushOnDrop {
            local: Vec::new(),
            into: &found,
        };
        Box::new(move |entry| {
            if let Some(item) = classified(entry) {
                flush.local.push(item);
            }
            ignore::WalkState::Continue
        })
    });
    found.into_inner().unwrap_or_else(|e| e.into_inner())
}

/// One walked entry, before files are read.
enum Found {
    Error,
    /// Counted under a skip reason (with a printable form of its path), never read.
    Skipped(SkipReason, String),
    /// A file no language reads, with its file type if it has a known one.
    NotIndexed(Option<String>),
    Unchanged(String),
    Candidate(Box<(String, PathBuf, FileRole, Option<Stamp>)>),
}

impl Found {
    /// Sort key: walk errors and unindexed files (only counted) first, then paths
    /// component-wise.
    fn key(&self) -> Option<&Path> {
        match self {
            Found::Error | Found::NotIndexed(_) | Found::Skipped(..) => None,
            Found::Unchanged(rel) => Some(Path::new(rel.as_str())),
            Found::Candidate(c) => Some(Path::new(c.0.as_str())),
        }
    }
}

/// A walker thread's findings, handed over when the thread's visitor is dropped.
struct FlushOnDrop<'a> {
    local: Vec<Found>,
    into: &'a std::sync::Mutex<Vec<Found>>,
}

impl Drop for FlushOnDrop<'_> {
    fn drop(&mut self) {
        let mut all = self.into.lock().unwrap_or_else(|e| e.into_inner());
        all.append(&mut self.local);
    }
}

fn classify(
    root: &Path,
    languages: Languages,
    entry: ignore::DirEntry,
    unchanged: &(dyn Fn(&str, Stamp) -> bool + Sync),
) -> Option<Found> {
    let file_type = entry.file_type()?;
    let shown = || {
        entry
            .path()
            .strip_prefix(root)
            .unwrap_or(entry.path())
            .to_string_lossy()
            .into_owned()
    };
    if file_type.is_symlink() {
        let indexable = entry
            .path()
            .to_str()
            .and_then(|p| FileRole::of(languages, p))
            .is_some();
        return indexable.then(|| Found::Skipped(SkipReason::Symlink, shown()));
    }
    if !file_type.is_file() {
        return None;
    }
    let Some(rel) = rel_path(root, entry.path()) else {
        return Some(Found::Skipped(SkipReason::NonUtf8Name, shown()));
    };
    let Some(role) = FileRole::of(languages, &rel) else {
        return Some(Found::NotIndexed(known_file_type(entry.path())));
    };
    // The walker's metadata is that of the entry itself (links are not followed), and
    // only regular files get here, so it is what `load` would stat again.
    let stamp = entry.metadata().ok().map(|m| Stamp::of(&m));
    if stamp.is_some_and(|s| unchanged(&rel, s)) {
        Some(Found::Unchanged(rel))
    } else {
        Some(Found::Candidate(Box::new((
            rel,
            entry.into_path(),
            role,
            stamp,
        ))))
    }
}

/// Reads and classifies one file; `Err` carries the skip reason and the path back.
pub(crate) fn load(
    languages: Languages,
    rel: String,
    abs: &Path,
    role: FileRole,
) -> Result<LoadedFile, (SkipReason, String)> {
    load_with(languages, rel, abs, role, None)
}

/// [`load`] with the file's stamp when the caller already has it.
fn load_with(
    languages: Languages,
    rel: String,
    abs: &Path,
    role: FileRole,
    stamp: Option<Stamp>,
) -> Result<LoadedFile, (SkipReason, String)> {
    let stamp = match stamp.map_or_else(|| std::fs::metadata(abs).map(|m| Stamp::of(&m)), Ok) {
        Ok(s) => s,
        Err(_) => return Err((SkipReason::Unreadable, rel)),
    };
    if stamp.len > MAX_FILE_BYTES {
        return Err((SkipReason::TooLarge, rel));
    }
    let read_at = SystemTime::now();
    let bytes = match std::fs::read(abs) {
        Ok(b) => b,
        Err(_) => return Err((SkipReason::Unreadable, rel)),
    };
    let stamp = stamp.read_at(read_at);
    if bytes[..bytes.len().min(8192)].contains(&0) {
        return Err((SkipReason::Binary, rel));
    }
    let text = match String::from_utf8(bytes) {
        Ok(t) => t,
        Err(_) => return Err((SkipReason::InvalidUtf8, rel)),
    };
    if let FileRole::Source(lang) = role {
        if looks_minified(&text) {
            return Err((SkipReason::Minified, rel));
        }
        if languages.of(lang).is_some_and(|l| l.is_generated(&text)) {
            return Err((SkipReason::Generated, rel));
        }
    }
    Ok(LoadedFile {
        path: rel,
        role,
        text,
        stamp,
    })
}

/// Minified output has very long lines and few of them.
fn looks_minified(text: &str) -> bool {
    let lines = text.lines().count().max(1);
    let longest = text.lines().map(str::len).max().unwrap_or(0);
    longest > MINIFIED_LINE_BYTES && text.len() / lines > MINIFIED_LINE_BYTES / 4
}

/// The type of a file among the `ignore` crate's default file types (a maintained table of
/// file-name globs per language and format), by its name.
fn known_file_type(path: &Path) -> Option<String> {
    static TYPES: std::sync::OnceLock<FileTypeNames> = std::sync::OnceLock::new();
    let types = TYPES.get_or_init(FileTypeNames::from_defaults);
    let name = path.file_name()?.to_str()?;
    types.of(name).map(str::to_owned)
}

/// The `ignore` crate's default file types as lookups by extension and by exact file name.
/// Compiling its glob set costs more than a warm index of a small repository, and almost
/// every glob in the table is `*.ext`, `*.[ab]` or a plain name; the few others are not
/// looked up.
struct FileTypeNames {
    by_extension: rustc_hash::FxHashMap<String, String>,
    by_name: rustc_hash::FxHashMap<String, String>,
}

impl FileTypeNames {
    fn from_defaults() -> FileTypeNames {
        let mut builder = ignore::types::TypesBuilder::new();
        builder.add_defaults();
        let mut names = FileTypeNames {
            by_extension: Default::default(),
            by_name: Default::default(),
        };
        // Types with the same globs are one type under several names (`markdown`, `md`):
        // the first name stands for them.
        let mut seen_globs = std::collections::HashSet::new();
        for def in builder.definitions() {
            let mut globs = def.globs().to_vec();
            globs.sort();
            if !seen_globs.insert(globs) {
                continue;
            }
            for glob in def.globs() {
                let (table, pattern) = match glob.strip_prefix("*.") {
                    Some(ext) => (&mut names.by_extension, ext),
                    None => (&mut names.by_name, glob.as_str()),
                };
                for literal in expand_class(pattern) {
                    // A name several types claim (`.rb`: puppet and ruby, `.h`: c and cpp)
                    // is typed by all of them: choosing one would guess.
                    let typed = table.entry(literal).or_default();
                    if !typed.split('/').any(|t| t == def.name()) {
                        if !typed.is_empty() {
                            typed.push('/');
                        }
                        typed.push_str(def.name());
                    }
                }
            }
        }
        names
    }

    /// The type of a file name: an exact name first, then its longest extension that the
    /// table knows (`a.tar.gz` tries `tar.gz`, then `gz`).
    fn of(&self, name: &str) -> Option<&str> {
        if let Some(t) = self.by_name.get(name) {
            return Some(t);
        }
        name.match_indices('.')
            .find_map(|(i, _)| self.by_extension.get(&name[i + 1..]))
            .map(String::as_str)
    }
}

/// The literals a glob pattern stands for when its only metacharacters are one `[...]`
/// class of plain characters (`[ch]` → `c`, `h`); nothing for any other pattern.
fn expand_class(pattern: &str) -> Vec<String> {
    const META: &[char] = &['*', '?', '{', '}', '[', ']', '!', '\\'];
    let Some(open) = pattern.find('[') else {
        return if pattern.contains(META) {
            Vec::new()
        } else {
            vec![pattern.to_owned()]
        };
    };
    let Some(close) = pattern[open..].find(']').map(|c| open + c) else {
        return Vec::new();
    };
    let (head, class, tail) = (
        &pattern[..open],
        &pattern[open + 1..close],
        &pattern[close + 1..],
    );
    if head.contains(META)
        || tail.contains(META)
        || class.is_empty()
        || class.contains(META)
        || class.contains('-')
    {
        return Vec::new();
    }
    class.chars().map(|c| format!("{head}{c}{tail}")).collect()
}

/// `abs` relative to `root` with forward slashes, or `None` if it is not under `root` or not
/// valid UTF-8.
pub(crate) fn rel_path(root: &Path, abs: &Path) -> Option<String> {
    let rel = abs.strip_prefix(root).ok()?;
    let mut out = String::new();
    for comp in rel.components() {
        let std::path::Component::Normal(part) = comp else {
            return None;
        };
        if !out.is_empty() {
            out.push('/');
        }
        out.push_str(part.to_str()?);
    }
    (!out.is_empty()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LANGUAGES;

    fn source(path: &str) -> FileRole {
        FileRole::of(LANGUAGES, path).unwrap()
    }

    /// A second write in the timestamp tick of the read would leave size, mtime and ctime
    /// equal; a stamp taken that close to the change must not vouch for the text.
    #[test]
    fn a_stamp_read_within_the_window_of_its_change_never_matches_a_fresh_one() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.ts");
        std::fs::write(&file, "export const a = 1;\n").unwrap();
        let loaded = load(LANGUAGES, "a.ts".into(), &file, source("a.ts")).unwrap();
        let fresh = Stamp::of(&std::fs::metadata(&file).unwrap());
        assert!(loaded.stamp.racy);
        assert_ne!(loaded.stamp, fresh, "a refresh must read the file again");
    }

    #[test]
    fn a_stamp_read_well_after_its_change_is_trusted() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.ts");
        std::fs::write(&file, "export const a = 1;\n").unwrap();
        let fresh = Stamp::of(&std::fs::metadata(&file).unwrap());
        let later = SystemTime::now() + RACY_WINDOW;
        assert_eq!(fresh.read_at(later), fresh);
        assert!(fresh.read_at(SystemTime::now()).racy);
    }

    #[test]
    fn roles_by_name() {
        let role = |p: &str| FileRole::of(LANGUAGES, p);
        assert!(matches!(role("src/a.ts"), Some(FileRole::Source(_))));
        assert!(matches!(role("src/a.jsx"), Some(FileRole::Source(_))));
        assert_ne!(role("src/a.ts"), role("src/a.jsx"), "two dialects");
        assert_eq!(role("pkg/package.json"), Some(FileRole::Manifest));
        assert_eq!(role("tsconfig.build.json"), Some(FileRole::Manifest));
        assert_eq!(role("data.json"), None);
        assert_eq!(role("README.md"), None);
    }

    #[test]
    fn a_file_type_is_one_whose_own_globs_match_the_name() {
        let names = FileTypeNames::from_defaults();
        assert_eq!(names.of("main.rs"), Some("rust"));
        assert_eq!(names.of("no_extension"), None);
        // Every name the lookup types, the ignore crate's own matcher for that type matches.
        let samples = names
            .by_extension
            .keys()
            .map(|ext| format!("f.{ext}"))
            .chain(names.by_name.keys().cloned());
        let mut matchers = std::collections::HashMap::new();
        for name in samples {
            let typed = names.of(&name).unwrap();
            for ty in typed.split('/') {
                let types = matchers.entry(ty).or_insert_with(|| {
                    let mut builder = ignore::types::TypesBuilder::new();
                    builder.add_defaults();
                    builder.select(ty);
                    builder.build().unwrap()
                });
                assert!(
                    types.matched(&name, false).is_whitelist(),
                    "{name} typed {ty}, which does not match it"
                );
            }
        }
        // A name several types claim names them all.
        assert_eq!(names.of("util.h").map(|t| t.contains('/')), Some(true));
    }

    #[test]
    fn detects_minified() {
        let long = "a".repeat(5000);
        assert!(looks_minified(&long));
        assert!(!looks_minified("const a = 1;\nconst b = 2;\n"));
    }

    #[test]
    fn walk_counts_every_skip() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::create_dir_all(root.join("node_modules/x")).unwrap();
        std::fs::write(root.join("src/a.ts"), "export const a = 1;\n").unwrap();
        std::fs::write(root.join("src/bin.ts"), b"ab\0cd").unwrap();
        std::fs::write(root.join("src/bad.ts"), [0xffu8, 0xfe, b'a']).unwrap();
        std::fs::write(root.join("src/min.js"), "x".repeat(4000)).unwrap();
        std::fs::write(root.join("src/gen.ts"), "// Code generated. DO NOT EDIT.\n").unwrap();
        std::fs::write(root.join("node_modules/x/i.js"), "x").unwrap();
        std::fs::write(root.join("notes.md"), "# notes").unwrap();
        let out = walk(root, LANGUAGES);
        let paths: Vec<&str> = out.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(paths, ["src/a.ts"]);
        assert_eq!(out.skipped.get(&SkipReason::Binary), Some(&1));
        assert_eq!(out.skipped.get(&SkipReason::InvalidUtf8), Some(&1));
        assert_eq!(out.skipped.get(&SkipReason::Minified), Some(&1));
        assert_eq!(out.skipped.get(&SkipReason::Generated), Some(&1));
        assert_eq!(out.skipped.get(&SkipReason::DependencyDir), Some(&1));
        assert_eq!(out.not_indexed, 1);
        assert_eq!(out.not_indexed_types.get("markdown"), Some(&1));
    }

    #[test]
    fn walk_prunes_python_environments_caches_and_build_output_by_reason() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let write = |rel: &str, text: &str| {
            let path = root.join(rel);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        };
        write("pyproject.toml", "[project]\nname = \"p\"\n");
        write("p/__init__.py", "");
        write("p/core.py", "def f():\n    pass\n");
        write("p/__pycache__/core.py", "x = 1\n");
        // A virtual environment under any name, found by its marker file.
        write("env311/pyvenv.cfg", "home = /usr/bin\n");
        write("env311/lib/site.py", "x = 1\n");
        write("venv/lib/other.py", "x = 1\n");
        // Build output next to packaging configuration, but a `build` package elsewhere is source.
        write("build/lib/p/core.py", "def f():\n    pass\n");
        write("dist/p.py", "x = 1\n");
        write("tools/build/make.py", "def make():\n    pass\n");
        write("gen.py", "# @generated by a tool\nx = 1\n");
        let out = walk(root, LANGUAGES);
        let paths: Vec<&str> = out.files.iter().map(|f| f.path.as_str()).collect();
        assert_eq!(
            paths,
            [
                "p/__init__.py",
                "p/core.py",
                "pyproject.toml",
                "tools/build/make.py"
            ]
        );
        assert_eq!(out.skipped.get(&SkipReason::MarkedDependencyDir), Some(&1));
        assert_eq!(out.skipped.get(&SkipReason::DependencyDir), Some(&2));
        assert_eq!(out.skipped.get(&SkipReason::BuildOutput), Some(&2));
        assert_eq!(out.skipped.get(&SkipReason::Generated), Some(&1));
    }

    /// Records the directories a walk enters.
    #[derive(Default)]
    struct Entered(std::sync::Mutex<Vec<String>>);

    impl DirectoryObserver for Entered {
        fn walk_started(&self, _: Option<&[&str]>) {}
        fn entered(&self, rel: &str, _: &Path) {
            self.0.lock().unwrap().push(rel.to_owned());
        }
        fn walk_finished(&self) {}
    }

    const TREE_DIRS: &[&str] = &["src", ".hid", "node_modules", ".git", "gen", "build"];
    const TREE_FILES: &[&str] = &["a.ts", ".b.ts", "c.py", "pyproject.toml", "d.md"];
    const PATTERNS: &[&str] = &["gen/", "*.py", "!c.py", "/a.ts", ".hid", "d.*"];

    fn tree_path() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        (
            proptest::collection::vec(proptest::sample::select(TREE_DIRS), 0..3),
            proptest::sample::select(TREE_FILES),
        )
            .prop_map(|(mut parts, file)| {
                parts.push(file);
                parts.join("/")
            })
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig {
            cases: 32,
            ..proptest::prelude::ProptestConfig::default()
        })]

        /// One set of rules: the files the index walk loads are the indexable files the
        /// tools' walk lists, and the directories a walk tells its observer of (what a
        /// watcher watches) are the directories the tools' walk lists.
        #[test]
        fn the_index_walk_and_the_tools_walk_follow_one_set_of_rules(
            files in proptest::collection::btree_set(tree_path(), 1..12),
            ignores in proptest::collection::vec(
                (
                    proptest::collection::vec(proptest::sample::select(TREE_DIRS), 0..2),
                    proptest::collection::vec(proptest::sample::select(PATTERNS), 1..3),
                ),
                0..3,
            ),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let root = dir.path().canonicalize().unwrap();
            for rel in &files {
                let path = root.join(rel);
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, "export const a = 1;\n").unwrap();
            }
            for (dirs, lines) in &ignores {
                let mut parts = dirs.clone();
                parts.push(".gitignore");
                let path = root.join(parts.join("/"));
                std::fs::create_dir_all(path.parent().unwrap()).unwrap();
                std::fs::write(path, lines.join("\n") + "\n").unwrap();
            }
            let entered = std::sync::Arc::new(Entered::default());
            let observer: std::sync::Arc<dyn DirectoryObserver> = entered.clone();
            let walked = walk_observed(&root, LANGUAGES, None, &|_, _| false, Some(&observer));
            let index_files: Vec<String> = walked.files.into_iter().map(|f| f.path).collect();

            let (tools, _) = crate::tools::walk::walk(&root, &root, LANGUAGES, None);
            let mut tool_files = Vec::new();
            let mut tool_dirs = vec![String::new()];
            for entry in tools.flatten() {
                let Some(rel) = rel_path(&root, entry.path()) else { continue };
                if entry.file_type().is_some_and(|t| t.is_dir()) {
                    tool_dirs.push(rel);
                } else if FileRole::of(LANGUAGES, &rel).is_some() {
                    tool_files.push(rel);
                }
            }
            tool_files.sort();
            tool_dirs.sort();
            proptest::prop_assert_eq!(index_files, tool_files);
            let mut observed = entered.0.lock().unwrap().clone();
            observed.sort();
            proptest::prop_assert_eq!(observed, tool_dirs);
        }
    }

    #[test]
    fn python_sources_stubs_and_packaging_files_have_roles() {
        let role = |p: &str| FileRole::of(LANGUAGES, p);
        assert!(matches!(role("a/b.py"), Some(FileRole::Source(_))));
        assert_eq!(role("a/b.py"), role("a/b.pyi"));
        assert_eq!(role("pyproject.toml"), Some(FileRole::Manifest));
        assert_eq!(role("sub/setup.cfg"), Some(FileRole::Manifest));
        assert_eq!(role("a/b.pyc"), None);
    }
}
