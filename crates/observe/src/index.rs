//! Building and refreshing an index of one repository: walk, warm cache, parallel cold
//! parse, salsa inputs, then the workspace graph.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use rayon::prelude::*;
use salsa::Setter as _;
use serde::{Deserialize, Serialize};

use crate::cache::{FactsCache, FactsKey, cache_file, default_cache_dir, facts_key};
use crate::db::{
    FileBlock, FileIndex, ObserveDatabase, SourceFile, TermChunk, Workspace, decl_word_chunk,
    file_index, file_path_words, term_chunk_postings, term_chunks, term_stats, workspace_graph,
};
use crate::walk::{DirectoryObserver, LoadedFile, SkipReason, Stamp, WalkOutcome, walk_observed};

/// Why a repository could not be indexed at all (unreadable files inside it are
/// skipped and counted in the [`IndexReport`] instead).
#[derive(Debug, thiserror::Error)]
pub enum IndexError {
    /// The root could not be read (missing, no permission).
    #[error("cannot index {path}")]
    Root {
        /// The root as given.
        path: PathBuf,
        /// The operating system's error.
        source: std::io::Error,
    },
    /// The root exists but is a file.
    #[error("cannot index {path}: not a directory")]
    NotADirectory {
        /// The root as given.
        path: PathBuf,
    },
}

/// Where the persistent cache lives.
#[derive(Clone, Debug, Default)]
pub enum CacheMode {
    /// The user's cache directory.
    #[default]
    Default,
    /// This directory (created when missing).
    Dir(PathBuf),
    /// No persistent cache: every open parses every file.
    Disabled,
}

/// Progress of a long index build, reported to an optional callback.
#[derive(Clone, Copy, Debug)]
pub enum Progress {
    /// The walk found `files` files to index.
    Walked {
        /// Files found so far.
        files: usize,
    },
    /// `done` of `total` files parsed (or loaded from the cache).
    Parsed {
        /// Files done.
        done: usize,
        /// Files to do.
        total: usize,
    },
}

/// Durability of a manifest's text (package and compiler configuration): high, like the
/// file list ([`FILE_LIST_DURABILITY`]; paths, roles and the root never change:
/// [`FIXED_DURABILITY`]). What derives from the tree's structure alone (module resolution:
/// the languages' configurations, directory listings, every import's resolution) derives
/// from high-durability inputs only, so no source edit re-verifies it.
const TREE_DURABILITY: salsa::Durability = salsa::Durability::HIGH;

/// Durability of a source file's text as the index first reads it: medium, below the
/// structure and above sessions. Sessions change on every query and are low-durability
/// inputs, so a query never re-verifies what derives from unedited text (the graph, the
/// term tables).
///
/// A file's first edit is a medium-durability write: salsa re-verifies every memo that
/// reads some source text and is reached, but not what derives from the structure alone
/// (each import's resolution, the directory listings), which stays high. The
/// workspace-wide queries read the chunks' and blocks' tables as inputs the index sets
/// ([`Index::update_tables`]), so what is reached is the edited file's chunk and block
/// and the files a query scores, not every file's memos. Salsa refuses to backdate a
/// value whose durability dropped, so the edited file's consumers recompute once even
/// when the edit keeps its declarations; the index compares the tables by value, so the
/// assembly and the statistics do not (`xtask bench`'s body edit is a file's first edit
/// and measures this).
const SOURCE_DURABILITY: salsa::Durability = salsa::Durability::MEDIUM;

/// Durability of a source file's text from its first edit on, and of a file created after
/// the index opened (a file just written is the likeliest to be written again): low, with
/// sessions. Salsa skips re-verifying a memo whose inputs are all more durable than the
/// last write, so later edits, like every query, re-verify only what derives from edited
/// files (their own memos, their importers' edges, their chunks, the assembly, the term
/// tables), not every file's memos: the cost of an edit loop over a few files stops
/// growing with the workspace. The price of sharing sessions' level: each query verifies
/// again what derives from edited files (shallow checks for the rest of the tree).
const EDITED_SOURCE_DURABILITY: salsa::Durability = salsa::Durability::LOW;

/// Durability of one file's text: manifests change far more rarely than source and stay
/// at [`TREE_DURABILITY`] even when edited; sources start at [`SOURCE_DURABILITY`] and
/// drop to [`EDITED_SOURCE_DURABILITY`] at their first edit.
fn file_durability(role: crate::walk::FileRole, edited: bool) -> salsa::Durability {
    match role {
        crate::walk::FileRole::Source(_) if edited => EDITED_SOURCE_DURABILITY,
        crate::walk::FileRole::Source(_) => SOURCE_DURABILITY,
        crate::walk::FileRole::Manifest => TREE_DURABILITY,
    }
}

/// Durability of a file's path and role and of the workspace's root, which never change
/// after the input is created (a renamed file is a removal and an addition). Salsa never
/// re-verifies what derives from these alone (a path's words and traits, a manifest's
/// empty graph part), so a high-durability write does not walk those memos.
const FIXED_DURABILITY: salsa::Durability = salsa::Durability::NEVER_CHANGE;

/// A file's input with stable id `id`: its text at [`file_durability`] (`edited` for a
/// file created after the index opened), its id, path and role at [`FIXED_DURABILITY`].
fn new_source_file<D: crate::Db>(
    db: &D,
    id: u32,
    path: &str,
    text: String,
    role: crate::walk::FileRole,
    known: Option<Arc<FileIndex>>,
    edited: bool,
) -> SourceFile {
    SourceFile::builder(id, path.to_owned(), Arc::from(text), role, known)
        .durability(file_durability(role, edited))
        .id_durability(FIXED_DURABILITY)
        .path_durability(FIXED_DURABILITY)
        .role_durability(FIXED_DURABILITY)
        .new(db)
}

/// Blocks or chunks a prefetch computes before it frees the memos they replaced: an
/// eighth of the tables of a workspace of 256 chunks (the evaluation monorepo's) at most
/// are alive twice during a refresh that touches them all.
const PREFETCH_PHASE: usize = 32;

/// Durability of the workspace's file list, which changes only when a file is added or
/// removed. Adding or removing a file is a high-durability write, which re-verifies
/// everything derived from the tree.
const FILE_LIST_DURABILITY: salsa::Durability = salsa::Durability::HIGH;

/// How [`Index::open`] builds the index.
#[derive(Default)]
pub struct IndexOptions<'a> {
    /// Where the persistent facts cache lives, or none.
    pub cache: CacheMode,
    /// Called with progress on long builds (from worker threads).
    pub progress: Option<&'a (dyn Fn(Progress) + Sync)>,
}

/// What building the index saw and how long each phase took.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct IndexReport {
    /// The indexed root, as a display string.
    pub root: String,
    /// Files parsed as source.
    pub source_files: u32,
    /// Configuration files read for resolution (the languages' manifests).
    pub manifest_files: u32,
    /// Files and directories the walk skipped, counted by reason.
    pub skipped: BTreeMap<String, u32>,
    /// A few skipped paths per reason.
    pub skipped_examples: BTreeMap<String, Vec<String>>,
    /// Files the walk saw but no language reads.
    pub not_indexed: u32,
    /// Those of a known file type, by type (`rust`, `markdown`, …): what the index cannot
    /// see.
    pub not_indexed_languages: BTreeMap<String, u32>,
    /// Files whose facts came from the persistent cache.
    pub cache_hits: u32,
    /// Files parsed in this build.
    pub parsed: u32,
    /// Why the persistent cache was not used, when it was not.
    pub cache_note: Option<String>,
    /// Declarations in the workspace graph.
    pub declarations: u32,
    /// Edges in the workspace graph.
    pub edges: u32,
    /// Edges per kind (`calls`, `imports`, …).
    pub edges_by_kind: BTreeMap<String, u32>,
    /// Syntax errors tree-sitter recovered from, over all files.
    pub parse_errors: u32,
    /// Files with at least one syntax error.
    pub files_with_parse_errors: u32,
    /// Files nested so deep that some qualified names were shortened (`….name`).
    pub files_with_elided_names: u32,
    /// Problems in configuration files (any language's manifests) by reason; resolution
    /// carried on without the offending file or field.
    pub config_problems: BTreeMap<String, u32>,
    /// A few of them, as `file: problem`.
    pub config_problem_examples: Vec<String>,
    /// Imports resolved to a file or directory of the repository.
    pub imports_resolved: u32,
    /// Imports of packages outside the repository.
    pub imports_external: u32,
    /// Imports that resolve nowhere.
    pub imports_unresolved: u32,
    /// A few unresolved imports as (file, specifier).
    pub unresolved_examples: Vec<(String, String)>,
    /// Milliseconds per build phase (walk, parse, graph, …).
    pub timings_ms: BTreeMap<String, f64>,
    /// Heap MB per structure, when measured ([`Index::memory`]; `sightline index` does).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub memory_mb: BTreeMap<String, f64>,
}

/// What one [`Index::refresh`] changed.
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq, Eq)]
pub struct RefreshReport {
    /// Files whose text changed, sorted.
    pub changed: Vec<String>,
    /// Files that appeared, sorted.
    pub added: Vec<String>,
    /// Files that disappeared, sorted.
    pub removed: Vec<String>,
}

impl RefreshReport {
    /// Whether nothing changed.
    pub fn is_empty(&self) -> bool {
        self.changed.is_empty() && self.added.is_empty() && self.removed.is_empty()
    }
}

/// An indexed repository: the salsa database plus the bookkeeping to keep it fresh. Generic
/// over the database so later stages can index into a database that also holds their
/// queries.
pub struct Index<D = ObserveDatabase> {
    db: D,
    workspace: Workspace,
    root: PathBuf,
    files: HashMap<String, (SourceFile, Stamp)>,
    /// The id the next file input gets ([`crate::db::file_id`]): ids are never reused.
    next_file_id: u32,
    cache_path: Option<PathBuf>,
    report: IndexReport,
    /// Told of the directories every walk of this index enters (a file watcher).
    observer: Option<Arc<dyn DirectoryObserver>>,
    /// Source files whose text was set since the index opened (their durability dropped).
    edited: rustc_hash::FxHashSet<SourceFile>,
    /// The refresh in progress set a manifest's text (a high-durability write, which may
    /// change how any import resolves): every chunk's and block's tables are derived
    /// again.
    durable_write: bool,
    /// The source files the refresh in progress changed, with what other files' edges
    /// saw of each before ([`crate::db::file_exports`]): when each still shows the same,
    /// only the blocks and chunks of these files can have changed.
    changed_sources: Vec<ChangedSource>,
    /// What each file block counts for the report ([`chunk_totals`]), as last derived.
    block_totals: Vec<ChunkTotals>,
}

/// Which of the query tables ([`crate::db::TermTables`], [`crate::db::BlockGraph`]) a
/// refresh derives again.
enum TableScope {
    /// Every chunk and block (a new index, a file added or removed, a manifest edited).
    All,
    /// The term chunks of `sources` (the source files whose text changed) and the file
    /// blocks of `graph_files` (those, and every file whose edges may read what another
    /// file of them shows: [`Index::export_readers`]).
    Files {
        sources: Vec<SourceFile>,
        graph_files: Vec<SourceFile>,
    },
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

impl Index<ObserveDatabase> {
    /// Indexes `root` into a new observe-only database.
    pub fn open(root: &Path, options: &IndexOptions) -> Result<Index, IndexError> {
        Self::open_with_db(ObserveDatabase::default(), root, options)
    }
}

impl<D: crate::Db + Clone> Index<D> {
    /// Builds the index into a caller-supplied database (one with an event hook, or one
    /// that also implements later stages' `Db` traits).
    pub fn open_with_db(
        db: D,
        root: &Path,
        options: &IndexOptions,
    ) -> Result<Index<D>, IndexError> {
        Self::open_observed(db, root, options, None)
    }

    /// [`Index::open_with_db`], telling `observer` of every directory this walk and every
    /// later one enters (see [`Index::set_directory_observer`]).
    pub fn open_observed(
        db: D,
        root: &Path,
        options: &IndexOptions,
        observer: Option<Arc<dyn DirectoryObserver>>,
    ) -> Result<Index<D>, IndexError> {
        let root = std::fs::canonicalize(root).map_err(|source| IndexError::Root {
            path: root.into(),
            source,
        })?;
        if !root.is_dir() {
            return Err(IndexError::NotADirectory { path: root });
        }
        let mut report = IndexReport {
            root: root.display().to_string(),
            ..IndexReport::default()
        };
        let cache_path = match &options.cache {
            CacheMode::Default => default_cache_dir().map(|d| cache_file(&d, &root)),
            CacheMode::Dir(d) => Some(cache_file(d, &root)),
            CacheMode::Disabled => None,
        };
        // The cache is decoded on a thread of its own while the tree is walked; the report's
        // `cache_load` is how long the walk then still waited for it.
        let t = Instant::now();
        let (walked, cache, cache_wait) = std::thread::scope(|s| {
            let loader = cache_path
                .as_deref()
                .map(|path| s.spawn(|| FactsCache::load(path)));
            let walked = walk_observed(
                &root,
                db.languages(),
                None,
                &|_, _| false,
                observer.as_ref(),
            );
            let walked_at = Instant::now();
            let cache = match loader {
                Some(h) => h.join().unwrap_or_else(|p| std::panic::resume_unwind(p)),
                None => Ok(FactsCache::default()),
            };
            (walked, cache, ms(walked_at))
        });
        report.timings_ms.insert("walk".into(), ms(t) - cache_wait);
        report.timings_ms.insert("cache_load".into(), cache_wait);
        if let Some(p) = options.progress {
            p(Progress::Walked {
                files: walked.files.len(),
            });
        }
        record_skips(&mut report, &walked);
        let not_indexed_types = walked.not_indexed_types.clone();
        let cache = cache.unwrap_or_else(|e| {
            report.cache_note = Some(format!("{e}; rebuilding"));
            FactsCache::default()
        });

        let t = Instant::now();
        let (indexed, hits) = index_files(db.languages(), &walked.files, &cache, options.progress);
        report.cache_hits = hits;
        report.parsed = walked.files.len() as u32 - hits;
        report.timings_ms.insert("parse".into(), ms(t));

        let db = db;
        let mut files = HashMap::new();
        let mut inputs = Vec::with_capacity(walked.files.len());
        let mut fresh = FactsCache::default();
        let mut next_file_id = 0u32;
        for (file, (hash, idx)) in walked.files.into_iter().zip(indexed) {
            fresh.entries.insert(hash, idx.clone());
            let (path, text, role) = (&file.path, file.text, file.role);
            let input = new_source_file(&db, next_file_id, path, text, role, Some(idx), false);
            next_file_id += 1;
            files.insert(file.path, (input, file.stamp));
            inputs.push(input);
        }
        let not_indexed = crate::NotIndexed::of(&not_indexed_types);
        let workspace =
            Workspace::builder(root.clone(), inputs, not_indexed, Vec::new(), Vec::new())
                .durability(FILE_LIST_DURABILITY)
                .root_durability(FIXED_DURABILITY)
                .new(&db);
        let mut index = Index {
            db,
            workspace,
            root,
            files,
            next_file_id,
            cache_path,
            report,
            observer,
            edited: Default::default(),
            durable_write: false,
            changed_sources: Vec::new(),
            block_totals: Vec::new(),
        };
        let save = index.report.parsed > 0 || index.report.cache_note.is_some();
        match index.cache_path.clone() {
            // The cache is written on a thread of its own while the graph is built.
            Some(path) if save => {
                let saved = std::thread::scope(|s| {
                    let saver = s.spawn(move || {
                        let result = fresh.save(&path);
                        drop(fresh);
                        result
                    });
                    index.finish_report(None, TableScope::All);
                    let t = Instant::now();
                    let result = saver
                        .join()
                        .unwrap_or_else(|p| std::panic::resume_unwind(p));
                    (result, ms(t))
                });
                let (result, waited) = saved;
                if let Err(e) = result {
                    index.report.cache_note = Some(format!("could not write cache: {e}"));
                }
                index.report.timings_ms.insert("cache_save".into(), waited);
            }
            _ => {
                drop(fresh);
                index.finish_report(None, TableScope::All);
            }
        }
        // The parse's and the cache's garbage, freed on the threads that did not allocate it.
        drop(cache);
        crate::memory::release_freed();
        Ok(index)
    }

    /// Computes the workspace-wide queries and fills the report's totals. `refreshed` is
    /// what a refresh changed; `None` (a new index, where every per-file query is still to
    /// run) first computes the per-file queries they read on every core.
    fn finish_report(&mut self, refreshed: Option<&RefreshReport>, scope: TableScope) {
        let t = Instant::now();
        if refreshed.is_none() {
            self.prefetch();
        }
        self.update_tables(scope);
        self.report.timings_ms.insert("tables".into(), ms(t));
        let t = Instant::now();
        // The term statistics before the graph, and the memos they replaced freed in
        // between: the previous statistics hold every chunk's previous postings, the
        // previous graph is alive until the next one is assembled from it, and an edit
        // touching every chunk (a burst, a branch switch) would otherwise have both old
        // tables alive beside both new ones at once.
        let _ = term_stats(&self.db, self.workspace);
        self.report.timings_ms.insert("term stats".into(), ms(t));
        salsa::Database::trigger_lru_eviction(&mut self.db);
        let t = Instant::now();
        let graph = workspace_graph(&self.db, self.workspace);
        self.report.timings_ms.insert("graph".into(), ms(t));
        // The tables every query reads (term postings, declaration words, mirrors) are
        // brought up to date here, with the index, so a query after an edit does not pay
        // for them; each is per chunk, so only the chunks an edit touched are rebuilt.
        let t = Instant::now();
        for chunk in term_chunks(&self.db, self.workspace) {
            let _ = crate::db::path_word_chunk(&self.db, self.workspace, chunk);
            let _ = crate::db::path_literal_chunk(&self.db, self.workspace, chunk);
        }
        // Every file's path words, computed once: they depend on the path alone, which
        // never changes, so salsa never re-verifies them. A refresh computes those of the
        // files it added. (Import keys come with each file's parts, parsed or not.)
        match refreshed {
            None => {
                for f in self.workspace.files(&self.db) {
                    let _ = file_path_words(&self.db, *f);
                }
            }
            Some(refreshed) => {
                for p in &refreshed.added {
                    if let Some((f, _)) = self.files.get(p) {
                        let _ = file_path_words(&self.db, *f);
                    }
                }
            }
        }
        self.report.timings_ms.insert("query tables".into(), ms(t));
        let t = Instant::now();
        let _ = crate::mirrors::mirror_files(&self.db, self.workspace);
        let _ = crate::db::file_positions(&self.db, self.workspace);
        let _ = crate::path_traits::source_traits(&self.db, self.workspace);
        self.report.timings_ms.insert("mirrors".into(), ms(t));
        let t = Instant::now();
        self.fill_totals(&graph);
        self.report.timings_ms.insert("totals".into(), ms(t));
    }

    /// Computes each file's edges and each chunk's term tables on all cores, one database
    /// handle per thread (a handle runs one query at a time), so the workspace-wide
    /// queries that follow find them cached. Threads that need the same query (a popular
    /// module's exports) wait for each other inside salsa.
    ///
    /// In phases of [`PREFETCH_PHASE`] blocks or chunks, freeing the memos each phase
    /// replaced before the next: salsa keeps a replaced memo until the database is next
    /// borrowed mutably, so after a write that touches every chunk (a branch switch) all
    /// the old tables would otherwise be alive beside all the new ones (on the evaluation
    /// monorepo, a 500-file burst's live-heap peak fell from 649 to 611 MB). What a
    /// workspace-wide memo still holds stays until it is recomputed after the phases: the
    /// term statistics hold every chunk's postings, the assembly the previous graph
    /// ([`Self::finish_report`] frees the first before building the second).
    fn prefetch(&mut self) {
        let files = self.workspace.files(&self.db);
        let threads = rayon::current_num_threads().min(files.len() / 256);
        if threads < 2 {
            return;
        }
        let ws = self.workspace;
        // What every thread needs first, computed once before they start (a thread that
        // needs a query another is computing waits for it).
        for language in 0..self.db.languages().len() {
            let key = crate::db::ConfiguredLanguage::new(&self.db, language as u8);
            if let Some(configured) = key {
                let _ = crate::db::language_config(&self.db, ws, configured.key);
            }
        }
        let _ = crate::db::directory_table(&self.db, ws);
        let blocks = crate::db::file_block_layout(&self.db, ws).len();
        for phase in (0..blocks).step_by(PREFETCH_PHASE) {
            let phase = phase..blocks.min(phase + PREFETCH_PHASE);
            self.on_every_core(threads, |db, t| {
                let layout = crate::db::file_block_layout(db, ws);
                for b in phase.clone().skip(t).step_by(threads) {
                    for f in layout[b].iter() {
                        let _ = crate::db::file_edges(db, ws, *f);
                    }
                    let _ = crate::db::graph_chunk(db, ws, FileBlock::new(db, b as u32));
                }
            });
        }
        let chunks = crate::db::term_chunk_layout(&self.db, ws).len();
        for phase in (0..chunks).step_by(PREFETCH_PHASE) {
            let phase = phase..chunks.min(phase + PREFETCH_PHASE);
            self.on_every_core(threads, |db, t| {
                for c in phase.clone().skip(t).step_by(threads) {
                    let chunk = TermChunk::new(db, c as u32);
                    let _ = crate::db::term_chunk_stats(db, ws, chunk);
                    let _ = term_chunk_postings(db, ws, chunk);
                    let _ = decl_word_chunk(db, ws, chunk);
                    let _ = crate::db::path_word_chunk(db, ws, chunk);
                    let _ = crate::db::path_literal_chunk(db, ws, chunk);
                    let _ = crate::db::import_key_chunk(db, ws, chunk);
                }
            });
        }
    }

    /// Derives again the tables of `scope` (each chunk's term tables, each block's graph
    /// parts and report counts) and sets the inputs the queries read them from
    /// ([`crate::db::TermTables`], [`crate::db::BlockGraph`]) where they came out
    /// different. A table set once is set at low durability from then on, like an
    /// edited file's text; a new layout (a file added or removed changed the number of
    /// chunks or blocks) creates every input anew.
    ///
    /// Over existing inputs, the term tables in phases of [`PREFETCH_PHASE`] chunks, each
    /// set before the next is derived: a chunk's previous tables are held by its input,
    /// by the memos its new tables replaced (freed at the next write) and by the term
    /// statistics (which hold every chunk's postings), so deriving every changed chunk
    /// before setting any (a burst, a branch switch) kept all the previous tables alive
    /// beside all the new ones. After each phase the statistics are taken again and the
    /// memos they replaced freed, so the previous tables of a phase are gone before the
    /// next phase is built. The graph parts (a fifth of the size) are all derived before
    /// the first table is set and set after the last: an input's first write is at the
    /// durability it was created with (medium), which would make the memos the graph
    /// reads verify again (a first edit's block after its chunk).
    fn update_tables(&mut self, scope: TableScope) {
        let ws = self.workspace;
        let chunk_count = crate::db::term_chunk_layout(&self.db, ws).len();
        let block_count = crate::db::file_block_layout(&self.db, ws).len();
        let (chunks, blocks): (Vec<u32>, Vec<u32>) = match &scope {
            TableScope::All => (
                (0..chunk_count as u32).collect(),
                (0..block_count as u32).collect(),
            ),
            TableScope::Files {
                sources,
                graph_files,
            } => {
                let of = |files: &[SourceFile], count: usize| {
                    let mut at: Vec<u32> = files
                        .iter()
                        .map(|f| crate::db::term_chunk_of(f.path(&self.db), count as u32))
                        .collect();
                    at.sort_unstable();
                    at.dedup();
                    at
                };
                (of(sources, chunk_count), of(graph_files, block_count))
            }
        };
        let graphs = self.derive_graphs(&blocks);
        if ws.term_tables(&self.db).len() != chunk_count {
            let mut tables = Vec::with_capacity(chunk_count);
            for (_, (stats, postings, decl_words, import_keys)) in self.derive_terms(&chunks) {
                let input =
                    crate::db::TermTables::builder(stats, postings, decl_words, import_keys)
                        .durability(SOURCE_DURABILITY)
                        .new(&self.db);
                tables.push(input);
            }
            ws.set_term_tables(&mut self.db)
                .with_durability(FILE_LIST_DURABILITY)
                .to(tables);
        } else {
            for phase in chunks.chunks(PREFETCH_PHASE) {
                let terms = self.derive_terms(phase);
                if self.set_terms(terms) {
                    // The statistics that held the phase's previous postings, replaced
                    // and freed now rather than after every phase.
                    let _ = term_stats(&self.db, ws);
                    salsa::Database::trigger_lru_eviction(&mut self.db);
                }
            }
        }
        if ws.block_graphs(&self.db).len() != block_count {
            let mut inputs = Vec::with_capacity(block_count);
            self.block_totals.clear();
            for (_, parts, totals) in graphs {
                let input = crate::db::BlockGraph::builder(parts)
                    .durability(SOURCE_DURABILITY)
                    .new(&self.db);
                inputs.push(input);
                self.block_totals.push(totals);
            }
            ws.set_block_graphs(&mut self.db)
                .with_durability(FILE_LIST_DURABILITY)
                .to(inputs);
        } else {
            for (b, parts, totals) in graphs {
                let input = ws.block_graphs(&self.db)[b as usize];
                if !same(&input.parts(&self.db), &parts) {
                    input
                        .set_parts(&mut self.db)
                        .with_durability(EDITED_SOURCE_DURABILITY)
                        .to(parts);
                }
                self.block_totals[b as usize] = totals;
            }
        }
    }

    /// The term tables of `chunks`, derived ([`Self::update_tables`]).
    fn derive_terms(&self, chunks: &[u32]) -> Vec<(u32, TermTableValues)> {
        let (db, ws) = (&self.db, self.workspace);
        chunks
            .iter()
            .map(|&c| {
                let chunk = TermChunk::new(db, c);
                let values = (
                    crate::db::term_chunk_stats(db, ws, chunk),
                    term_chunk_postings(db, ws, chunk),
                    decl_word_chunk(db, ws, chunk),
                    crate::db::import_key_chunk(db, ws, chunk),
                );
                (c, values)
            })
            .collect()
    }

    /// The graph parts and report counts of `blocks`, derived ([`Self::update_tables`]).
    fn derive_graphs(
        &self,
        blocks: &[u32],
    ) -> Vec<(u32, Arc<Vec<crate::db::FileGraphPart>>, ChunkTotals)> {
        let (db, ws) = (&self.db, self.workspace);
        blocks
            .iter()
            .map(|&b| {
                let block = FileBlock::new(db, b);
                let parts = crate::db::graph_chunk(db, ws, block);
                (b, parts, *chunk_totals(db, ws, block))
            })
            .collect()
    }

    /// Sets the existing term tables of `terms`' chunks to their derived values, each
    /// field only where it came out different. Returns whether a chunk's statistics
    /// were set.
    fn set_terms(&mut self, terms: Vec<(u32, TermTableValues)>) -> bool {
        let mut stats_set = false;
        for (c, (stats, postings, decl_words, import_keys)) in terms {
            let input = self.workspace.term_tables(&self.db)[c as usize];
            let old_postings = input.postings(&self.db);
            let postings = if same(&old_postings, &postings) {
                old_postings
            } else {
                input
                    .set_postings(&mut self.db)
                    .with_durability(EDITED_SOURCE_DURABILITY)
                    .to(postings.clone());
                postings
            };
            // The stats read their frequencies from the postings the table keeps. Stats
            // equal by frequencies but holding other postings are set anyway, or the
            // input would keep the chunk's replaced postings alive beside the new ones
            // (the `term_stats` this wakes is a sum of handles, and comes out equal).
            let old_stats = input.stats(&self.db);
            if !same(&old_stats, &stats) || !Arc::ptr_eq(&old_stats.postings, &postings) {
                let stats = crate::idf::PartialStats {
                    postings,
                    ..(*stats).clone()
                };
                input
                    .set_stats(&mut self.db)
                    .with_durability(EDITED_SOURCE_DURABILITY)
                    .to(Arc::new(stats));
                stats_set = true;
            }
            if !same(&input.decl_words(&self.db), &decl_words) {
                input
                    .set_decl_words(&mut self.db)
                    .with_durability(EDITED_SOURCE_DURABILITY)
                    .to(decl_words);
            }
            if !same(&input.import_keys(&self.db), &import_keys) {
                input
                    .set_import_keys(&mut self.db)
                    .with_durability(EDITED_SOURCE_DURABILITY)
                    .to(import_keys);
            }
        }
        stats_set
    }

    /// The tables to derive again after a refresh that set only the texts of `changed`
    /// (each with what it showed other files before): their chunks and blocks, and the
    /// blocks of the files reading what one of them now shows differently.
    fn scope_of(&self, changed: Vec<ChangedSource>) -> TableScope {
        let shown_anew: Vec<SourceFile> = changed
            .iter()
            .filter(|(f, before)| crate::db::file_exports(&self.db, self.workspace, *f) != *before)
            .map(|(f, _)| *f)
            .collect();
        let sources: Vec<SourceFile> = changed.into_iter().map(|(f, _)| f).collect();
        let mut graph_files = sources.clone();
        graph_files.extend(self.export_readers(&shown_anew));
        TableScope::Files {
            sources,
            graph_files,
        }
    }

    /// The files, beside `files`, whose edges changed because what `files` show other
    /// files changed ([`crate::db::file_exports`]). A file's edges read the tables of its
    /// package peers and of the files its imports reach, following their imports at most
    /// [`crate::graph::file_edges::MAX_REEXPORT_HOPS`] times; so the files that may read one of
    /// `files` are found backwards, through peers and the `imports` edges of the graph
    /// assembled before this refresh (the block inputs are not set yet, so it is that
    /// graph; the file list is unchanged, since a file added or removed derives every
    /// table again, so its positions are the graph's), and each one's edges are derived
    /// and compared with those its block holds.
    fn export_readers(&self, files: &[SourceFile]) -> Vec<SourceFile> {
        if files.is_empty() {
            return Vec::new();
        }
        let (db, ws) = (&self.db, self.workspace);
        let graph = workspace_graph(db, ws);
        let positions = crate::db::file_positions(db, ws);
        let list = ws.files(db);
        let mut seen: rustc_hash::FxHashSet<SourceFile> = files.iter().copied().collect();
        let mut level: Vec<SourceFile> = files.to_vec();
        let mut readers = Vec::new();
        for _ in 0..=crate::graph::file_edges::MAX_REEXPORT_HOPS + 1 {
            let mut next = Vec::new();
            for f in &level {
                let peers = crate::graph::queries::package_of(db, ws, *f);
                let importers = positions.get(f).into_iter().flat_map(|&at| {
                    graph
                        .incoming(crate::graph::NodeId::module(at))
                        .filter(|e| e.kind == crate::graph::EdgeKind::Imports)
                        .filter_map(|e| list.get(e.from.file as usize).copied())
                });
                for r in peers.iter().copied().chain(importers) {
                    if seen.insert(r) {
                        next.push(r);
                    }
                }
            }
            readers.extend(next.iter().copied());
            level = next;
        }
        let blocks = ws.block_graphs(db);
        readers.retain(|r| {
            let block = crate::db::term_chunk_of(r.path(db), blocks.len() as u32) as usize;
            let held = blocks.get(block).map(|b| b.parts(db));
            let held = held
                .as_ref()
                .and_then(|parts| parts.iter().find(|p| p.file == *r));
            let now = crate::db::file_edges(db, ws, *r);
            match held {
                Some(part) => match (&part.edges, &now) {
                    (Some(a), Some(b)) => !same(a, b),
                    (a, b) => a.is_some() != b.is_some(),
                },
                None => true,
            }
        });
        readers
    }

    /// Runs `work(handle, t)` for `t` in `0..threads`, each on a thread of the rayon pool
    /// (which outlives the work: no thread is started per refresh) with a database handle
    /// of its own, then frees the memos the work replaced (no handle is alive by then).
    fn on_every_core(&mut self, threads: usize, work: impl Fn(&D, usize) + Sync) {
        let handles: Vec<D> = (0..threads).map(|_| self.db.clone()).collect();
        let work = &work;
        rayon::scope(move |s| {
            for (t, db) in handles.into_iter().enumerate() {
                s.spawn(move |_| work(&db, t));
            }
        });
        salsa::Database::trigger_lru_eviction(&mut self.db);
    }

    /// The report's counts: graph totals, configuration problems, file and error counts.
    fn fill_totals(&mut self, graph: &crate::graph::Graph) {
        let r = &mut self.report;
        r.declarations = graph.stats.declarations;
        r.edges = graph.edge_count() as u32;
        r.edges_by_kind = graph
            .stats
            .edges_by_kind
            .iter()
            .map(|(k, n)| (k.as_str().to_owned(), *n))
            .collect();
        r.imports_resolved = graph.stats.imports_resolved;
        r.imports_external = graph.stats.imports_external;
        r.imports_unresolved = graph.stats.imports_unresolved;
        r.unresolved_examples = graph.stats.unresolved_examples.clone();
        r.source_files = 0;
        r.manifest_files = 0;
        r.parse_errors = 0;
        r.files_with_parse_errors = 0;
        r.files_with_elided_names = 0;
        r.config_problems.clear();
        r.config_problem_examples.clear();
        for language in 0..self.db.languages().len() {
            let Some(configured) = crate::db::ConfiguredLanguage::new(&self.db, language as u8)
            else {
                continue;
            };
            let config = crate::db::language_config(&self.db, self.workspace, configured.key);
            for d in config.0.diagnostics() {
                *r.config_problems.entry(d.reason.clone()).or_default() += 1;
                if r.config_problem_examples.len() < 5 {
                    r.config_problem_examples.push(d.to_string());
                }
            }
        }
        for t in &self.block_totals {
            r.source_files += t.source_files;
            r.manifest_files += t.manifest_files;
            r.parse_errors += t.parse_errors;
            r.files_with_parse_errors += t.files_with_parse_errors;
            r.files_with_elided_names += t.files_with_elided_names;
        }
    }

    /// Re-stats the tree and updates only the inputs of files that changed, appeared or
    /// disappeared. Unchanged files are not read.
    pub fn refresh(&mut self) -> RefreshReport {
        let t = Instant::now();
        let stamps: HashMap<&str, Stamp> = self
            .files
            .iter()
            .map(|(p, (_, s))| (p.as_str(), *s))
            .collect();
        let languages = self.db.languages();
        let walked = walk_observed(
            &self.root,
            languages,
            None,
            &|p, s| stamps.get(p) == Some(&s),
            self.observer.as_ref(),
        );
        self.set_not_indexed(&walked);
        let mut out = RefreshReport::default();
        let mut seen: std::collections::HashSet<String> =
            walked.unchanged.iter().cloned().collect();
        let mut set_changed = false;
        for file in walked.files {
            seen.insert(file.path.clone());
            set_changed |= self.apply(file, &mut out);
        }
        set_changed |= self.remove_where(|p| !seen.contains(p), &mut out);
        self.report.timings_ms.insert("refresh walk".into(), ms(t));
        self.finish_refresh(set_changed, out)
    }

    /// Like [`Index::refresh`], for a caller that knows which repo-relative paths may have
    /// changed (a file watcher, an editor): only those are stat'ed and, when their stamp
    /// changed, read, instead of sweeping the whole tree. A path the index does not hold
    /// yet (a new file, or a directory) is looked up by a walk scoped to it
    /// ([`crate::walk::walk_scoped`]), which admits it exactly when the full walk would; a
    /// removed one that held no indexed file changes nothing. Ignore files, the other
    /// files the walk's rules read (`walk::changes_admission`) and paths inside
    /// `.git`, which change what the walk sees elsewhere, and paths that are not plain
    /// relative paths fall back to a full [`Index::refresh`].
    pub fn refresh_paths(&mut self, paths: &[&str]) -> RefreshReport {
        let mut paths: Vec<&str> = paths.iter().map(|p| p.trim_end_matches('/')).collect();
        let languages = self.db.languages();
        if paths.iter().any(|p| needs_full_walk(languages, p)) {
            return self.refresh();
        }
        paths.sort_unstable();
        paths.dedup();
        let (known, unknown): (Vec<&str>, Vec<&str>) =
            paths.into_iter().partition(|p| self.files.contains_key(*p));
        let mut out = RefreshReport::default();
        let mut set_changed = false;
        for p in known {
            let Some((input, stamp)) = self.files.get(p) else {
                continue;
            };
            let abs = self.root.join(p);
            let role = input.role(&self.db);
            let now = std::fs::symlink_metadata(&abs)
                .ok()
                .filter(|m| m.file_type().is_file());
            if now.as_ref().is_some_and(|m| Stamp::of(m) == *stamp) {
                continue;
            }
            match now.map(|_| crate::walk::load(languages, p.to_owned(), &abs, role)) {
                Some(Ok(file)) => set_changed |= self.apply(file, &mut out),
                _ => {
                    if let Some((input, _)) = self.files.remove(p) {
                        self.edited.remove(&input);
                    }
                    out.removed.push(p.to_owned());
                    set_changed = true;
                }
            }
        }
        if !unknown.is_empty() {
            set_changed |= self.refresh_unknown(&unknown, &mut out);
        }
        self.finish_refresh(set_changed, out)
    }

    /// The part of [`Index::refresh_paths`] for paths the index does not hold: a walk
    /// scoped to them adds what the full walk would admit (and re-reads changed files
    /// under a scoped directory); indexed files under a scoped directory that the walk no
    /// longer finds are removed. A path that no longer exists admits nothing, so it needs
    /// no walk: only the files indexed under it are removed. Returns whether the file set
    /// changed.
    fn refresh_unknown(&mut self, scope: &[&str], out: &mut RefreshReport) -> bool {
        let t = Instant::now();
        let (existing, missing): (Vec<&str>, Vec<&str>) = scope
            .iter()
            .partition(|p| std::fs::symlink_metadata(self.root.join(p)).is_ok());
        let mut seen: std::collections::HashSet<String> = Default::default();
        let mut set_changed = false;
        if !existing.is_empty() {
            let files = &self.files;
            let unchanged = |p: &str, s: Stamp| files.get(p).is_some_and(|(_, known)| *known == s);
            let languages = self.db.languages();
            let walked = walk_observed(
                &self.root,
                languages,
                Some(&existing),
                &unchanged,
                self.observer.as_ref(),
            );
            seen.extend(walked.unchanged);
            for file in walked.files {
                seen.insert(file.path.clone());
                set_changed |= self.apply(file, out);
            }
        }
        if !missing.is_empty()
            && let Some(observer) = &self.observer
        {
            // A walk that found nothing: directories watched under a gone path are
            // retired.
            observer.walk_started(Some(&missing));
            observer.walk_finished();
        }
        let inside = |p: &str| {
            scope
                .iter()
                .any(|s| p.strip_prefix(s).is_some_and(|rest| rest.starts_with('/')))
        };
        set_changed |= self.remove_where(|p| inside(p) && !seen.contains(p), out);
        self.report.timings_ms.insert("refresh walk".into(), ms(t));
        set_changed
    }

    /// Records what a full walk found no language reads, setting the workspace's input only
    /// when it changed. (A walk scoped to a few paths sees too little to recount it.)
    fn set_not_indexed(&mut self, walked: &WalkOutcome) {
        self.report.not_indexed = walked.not_indexed;
        self.report.not_indexed_languages = walked.not_indexed_types.clone();
        let not_indexed = crate::NotIndexed::of(&walked.not_indexed_types);
        if *self.workspace.not_indexed(&self.db) != not_indexed {
            self.workspace
                .set_not_indexed(&mut self.db)
                .with_durability(FILE_LIST_DURABILITY)
                .to(not_indexed);
        }
    }

    /// Drops the indexed files whose path `gone` holds for (files a walk no longer saw),
    /// recording them as removed. Returns whether any was.
    fn remove_where(&mut self, gone: impl Fn(&str) -> bool, out: &mut RefreshReport) -> bool {
        let removed: Vec<String> = self.files.keys().filter(|p| gone(p)).cloned().collect();
        for p in &removed {
            if let Some((input, _)) = self.files.remove(p) {
                self.edited.remove(&input);
            }
        }
        let any = !removed.is_empty();
        out.removed.extend(removed);
        any
    }

    /// Records one loaded file: updates a known file's text (if it changed) or adds a new
    /// input. Returns whether the workspace's file set changed.
    fn apply(&mut self, file: LoadedFile, out: &mut RefreshReport) -> bool {
        match self.files.get_mut(&file.path) {
            Some((input, stamp)) => {
                *stamp = file.stamp;
                if **input.text(&self.db) != *file.text {
                    let role = input.role(&self.db);
                    // Until its first edit a source's text is medium-durability (setting
                    // it re-verifies whatever reads some source text) and a manifest's is
                    // high (setting it re-verifies everything).
                    let source = matches!(role, crate::walk::FileRole::Source(_));
                    self.edited.insert(*input);
                    self.durable_write |= !source;
                    if source {
                        // Read before the write, while it is still the memo of the old text.
                        let before = crate::db::file_exports(&self.db, self.workspace, *input);
                        self.changed_sources.push((*input, before));
                    }
                    let durability = file_durability(role, true);
                    input
                        .set_text(&mut self.db)
                        .with_durability(durability)
                        .to(Arc::from(file.text));
                    input
                        .set_known(&mut self.db)
                        .with_durability(durability)
                        .to(None);
                    out.changed.push(file.path);
                }
                false
            }
            None => {
                let id = self.next_file_id;
                self.next_file_id += 1;
                let input =
                    new_source_file(&self.db, id, &file.path, file.text, file.role, None, true);
                self.files.insert(file.path.clone(), (input, file.stamp));
                out.added.push(file.path);
                true
            }
        }
    }

    fn finish_refresh(&mut self, set_changed: bool, mut out: RefreshReport) -> RefreshReport {
        if set_changed {
            // Sorted by reference: no path is copied.
            let mut inputs: Vec<(&str, SourceFile)> = self
                .files
                .iter()
                .map(|(p, (f, _))| (p.as_str(), *f))
                .collect();
            inputs.sort_unstable_by(|a, b| a.0.cmp(b.0));
            let inputs: Vec<SourceFile> = inputs.into_iter().map(|(_, f)| f).collect();
            self.workspace
                .set_files(&mut self.db)
                .with_durability(FILE_LIST_DURABILITY)
                .to(inputs);
        }
        out.changed.sort();
        out.added.sort();
        out.removed.sort();
        // Adding or removing a file is a high-durability write too (the file list).
        let reverify_all = std::mem::take(&mut self.durable_write) || set_changed;
        let changed = std::mem::take(&mut self.changed_sources);
        if !out.is_empty() {
            let scope = if reverify_all {
                TableScope::All
            } else {
                self.scope_of(changed)
            };
            if matches!(scope, TableScope::All) {
                // Salsa re-verifies every memo derived from the tree after such a write,
                // one query at a time; on every core instead, before the tables need
                // them.
                self.prefetch();
            }
            self.finish_report(Some(&out), scope);
            // Salsa frees the memos an input change made stale at the next write, which
            // would otherwise be the first query's session: the refresh pays for its own
            // garbage instead of the query after it. (No LRU capacity is configured, so
            // this evicts nothing live; it needs no other handle to the database alive,
            // and none is once the report's parallel work has joined.)
            salsa::Database::trigger_lru_eviction(&mut self.db);
            crate::memory::release_freed_if_worth();
        }
        out
    }
}

impl<D: crate::Db> Index<D> {
    /// Writes the current per-file data to the persistent cache (e.g. after refreshes).
    pub fn save_cache(&self) -> Result<(), crate::cache::CacheError> {
        let Some(path) = &self.cache_path else {
            return Ok(());
        };
        let mut cache = FactsCache::default();
        for f in self.workspace.files(&self.db) {
            let key = facts_key(self.db.languages(), f.role(&self.db), f.text(&self.db));
            cache.entries.insert(key, file_index(&self.db, *f));
        }
        cache.save(path)
    }

    /// The database, for queries and tool calls.
    pub fn db(&self) -> &D {
        &self.db
    }

    /// The database, for setting inputs of later stages (sessions).
    pub fn db_mut(&mut self) -> &mut D {
        &mut self.db
    }

    /// The workspace input every workspace-level query takes.
    pub fn workspace(&self) -> Workspace {
        self.workspace
    }

    /// The indexed root, canonicalized.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// What the last build or refresh saw.
    pub fn report(&self) -> &IndexReport {
        &self.report
    }

    /// Measures [`Index::memory`] into the report's `memory_mb`.
    pub fn measure_memory(&mut self) {
        self.report.memory_mb = self.memory().megabytes();
    }

    /// The input for a repo-relative path.
    pub fn file(&self, path: &str) -> Option<SourceFile> {
        self.files.get(path).map(|(f, _)| *f)
    }

    /// Where this index's memory goes: the heap bytes of each structure it keeps (every
    /// file's text, facts, shape, term counts; the graph; the search's tables), and the
    /// live heap when the binary counts it ([`crate::memory::Counting`]).
    pub fn memory(&self) -> crate::memory::MemoryReport {
        use crate::memory::HeapSize as _;
        let db = &self.db;
        let ws = self.workspace;
        let mut report = crate::memory::MemoryReport {
            live: crate::memory::live_bytes(),
            peak: crate::memory::peak_bytes(),
            ..Default::default()
        };
        let (mut text, mut facts, mut terms, mut shapes, mut keys, mut words) = (0, 0, 0, 0, 0, 0);
        for f in ws.files(db) {
            text += 16 + f.text(db).len() + 24 + f.path(db).capacity();
            let index = file_index(db, *f);
            facts += std::mem::size_of::<FileIndex>() + index.facts.heap_bytes();
            // One allocation, shared by the facts and the file's parts.
            terms += index.terms.heap_bytes();
            shapes += crate::db::file_shape(db, *f).heap_bytes();
            keys += crate::db::file_import_keys(db, *f).heap_bytes();
            words += file_path_words(db, *f).heap_bytes();
        }
        report.add("file texts and paths", text);
        report.add("facts: declarations, imports, usages", facts);
        report.add("term counts per file", terms);
        report.add("shapes (facts without lines)", shapes);
        report.add("import keys", keys);
        report.add("path words per file", words);
        let graph = workspace_graph(db, ws);
        let (edges, paths) = graph.heap_bytes();
        report.add("graph: edges and their index", edges);
        report.add("graph: paths", paths);
        report.add("graph: name table", graph.names.heap_bytes());
        let (mut postings, mut decl_words, mut path_words, mut import_keys) = (0, 0, 0, 0);
        for chunk in term_chunks(db, ws) {
            postings += crate::db::indexed_postings(db, ws, chunk).heap_bytes();
            decl_words += crate::db::indexed_decl_words(db, ws, chunk).heap_bytes();
            path_words += crate::db::path_word_chunk(db, ws, chunk).heap_bytes();
            path_words += crate::db::path_literal_chunk(db, ws, chunk).heap_bytes();
            import_keys += crate::db::indexed_import_keys(db, ws, chunk).heap_bytes();
        }
        report.add("search: term postings", postings);
        report.add("search: declaration words", decl_words);
        report.add("search: path words", path_words);
        report.add("search: import keys", import_keys);
        report
    }

    /// Tells `observer` (or no one) of the directories every later walk enters: a file
    /// watcher watches exactly the directories the walks admit.
    pub fn set_directory_observer(&mut self, observer: Option<Arc<dyn DirectoryObserver>>) {
        self.observer = observer;
    }
}

/// Whether `path`, given to [`Index::refresh_paths`], can change what the walk admits
/// elsewhere (an ignore file or another file the walk's rules read, anything inside a
/// version-control directory, such as git's `info/exclude`) or is not a plain relative
/// path: only a full walk settles those.
fn needs_full_walk(languages: sightline_lang::Languages, path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    path.is_empty()
        || path.starts_with('/')
        || crate::walk::changes_admission(languages, name)
        || path
            .split('/')
            .any(|c| c.is_empty() || c == "." || c == ".." || crate::walk::VCS_DIRS.contains(&c))
}

/// The report's per-file counts over one chunk of the file list.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
struct ChunkTotals {
    source_files: u32,
    manifest_files: u32,
    parse_errors: u32,
    files_with_parse_errors: u32,
    files_with_elided_names: u32,
}

/// A source file a refresh set the text of, with what other files' edges saw of it
/// before ([`crate::db::file_exports`]).
type ChangedSource = (
    SourceFile,
    Option<Arc<crate::graph::FileExports<SourceFile>>>,
);

/// One term chunk's tables as [`Index::update_tables`] derives them.
type TermTableValues = (
    Arc<crate::idf::PartialStats>,
    Arc<crate::idf::Postings>,
    Arc<crate::db::DeclWords>,
    Arc<crate::db::FilesByKey>,
);

/// Whether two shared values are equal, by identity first (a derivation that backdated
/// hands back the very value the input holds).
fn same<T: PartialEq>(a: &Arc<T>, b: &Arc<T>) -> bool {
    Arc::ptr_eq(a, b) || a == b
}

/// [`ChunkTotals`] of one chunk: the report sums one of these per chunk after a refresh
/// instead of fetching every file's facts, and only the edited chunk's is recounted.
#[salsa::tracked]
fn chunk_totals<'db>(db: &'db dyn crate::Db, ws: Workspace, block: FileBlock<'db>) -> ChunkTotals {
    let files = crate::db::file_block_files(db, ws, block);
    let mut t = ChunkTotals::default();
    for f in files.iter() {
        match f.role(db) {
            crate::walk::FileRole::Source(_) => t.source_files += 1,
            crate::walk::FileRole::Manifest => t.manifest_files += 1,
        }
        let facts = &file_index(db, *f).facts;
        t.parse_errors += facts.parse_errors;
        t.files_with_parse_errors += u32::from(facts.parse_errors > 0);
        t.files_with_elided_names += u32::from(facts.elided_qualified_names > 0);
    }
    t
}

fn record_skips(report: &mut IndexReport, walked: &WalkOutcome) {
    let name = |r: &SkipReason| r.as_str().to_owned();
    report.skipped = walked.skipped.iter().map(|(r, n)| (name(r), *n)).collect();
    report.skipped_examples = walked
        .skipped_examples
        .iter()
        .map(|(r, v)| (name(r), v.clone()))
        .collect();
    report.not_indexed = walked.not_indexed;
    report.not_indexed_languages = walked.not_indexed_types.clone();
}

/// Keys every file ([`facts_key`]) and takes its `FileIndex` from the cache or builds it,
/// in parallel.
fn index_files(
    languages: sightline_lang::Languages,
    files: &[LoadedFile],
    cache: &FactsCache,
    progress: Option<&(dyn Fn(Progress) + Sync)>,
) -> (Vec<(FactsKey, Arc<FileIndex>)>, u32) {
    let done = AtomicUsize::new(0);
    let hits = AtomicUsize::new(0);
    let total = files.len();
    // Largest files first, one file per task: no large file is left to parse alone at the end.
    let mut order: Vec<usize> = (0..files.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(files[i].text.len()));
    let mut built: Vec<(usize, (FactsKey, Arc<FileIndex>))> = order
        .into_par_iter()
        .with_max_len(1)
        .map(|i| {
            let f = &files[i];
            let hash = facts_key(languages, f.role, &f.text);
            let idx = match cache.entries.get(&hash) {
                Some(idx) => {
                    hits.fetch_add(1, Ordering::Relaxed);
                    idx.clone()
                }
                None => Arc::new(FileIndex::build(languages, f.role, &f.text)),
            };
            // The workspace graph needs every source file's shape next; computed here, in
            // parallel, rather than one by one inside the graph query.
            if matches!(f.role, crate::walk::FileRole::Source(_)) {
                let _ = idx.shape_memo.get_or_compute(&idx.facts);
            }
            let n = done.fetch_add(1, Ordering::Relaxed) + 1;
            if let Some(p) = progress
                && (n.is_multiple_of(64) || n == total)
            {
                p(Progress::Parsed { done: n, total });
            }
            (i, (hash, idx))
        })
        .collect();
    // Back to walk order (files were parsed largest first).
    built.sort_unstable_by_key(|(i, _)| *i);
    let out = built.into_iter().map(|(_, item)| item).collect();
    (out, hits.load(Ordering::Relaxed) as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn open(root: &Path) -> Index {
        let options = IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        };
        Index::open(root, &options).unwrap()
    }

    #[test]
    fn refresh_paths_sees_edits_removals_and_new_files() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("src/a.ts"), "export const a = 1;\n").unwrap();
        std::fs::write(root.join("src/b.ts"), "export const b = 1;\n").unwrap();
        let mut index = open(root);

        std::fs::write(root.join("src/a.ts"), "export const a = 2;\n").unwrap();
        let r = index.refresh_paths(&["src/a.ts", "src/b.ts"]);
        assert_eq!(r.changed, ["src/a.ts"]);
        assert!(r.added.is_empty() && r.removed.is_empty());
        assert!(index.refresh_paths(&["src/a.ts"]).is_empty());

        std::fs::remove_file(root.join("src/b.ts")).unwrap();
        std::fs::write(root.join("src/c.ts"), "export const c = 1;\n").unwrap();
        let r = index.refresh_paths(&["src/b.ts", "src/c.ts"]);
        assert_eq!(r.removed, ["src/b.ts"]);
        assert_eq!(r.added, ["src/c.ts"]);
        assert!(index.file("src/b.ts").is_none());
        assert!(index.file("src/c.ts").is_some());

        // The same state as a full refresh and as a fresh index.
        assert!(index.refresh().is_empty());
        let fresh = open(root);
        let graph = workspace_graph(index.db(), index.workspace());
        let fresh_graph = workspace_graph(fresh.db(), fresh.workspace());
        assert_eq!(*graph, *fresh_graph);
        assert_eq!(
            *term_stats(index.db(), index.workspace()),
            *term_stats(fresh.db(), fresh.workspace())
        );
    }

    #[test]
    fn a_refresh_recounts_the_report_like_a_fresh_index() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("src")).unwrap();
        std::fs::write(root.join("package.json"), "{}").unwrap();
        for i in 0..(2 * crate::db::FILE_BLOCK_FILES + 3) {
            let text = format!("export function f{i}() {{ return {i}; }}\n");
            std::fs::write(root.join(format!("src/m{i:03}.ts")), text).unwrap();
        }
        let mut index = open(root);
        std::fs::write(root.join("src/m070.ts"), "export function broken( {\n").unwrap();
        std::fs::write(root.join("src/new.ts"), "export const n = 1;\n").unwrap();
        let r = index.refresh();
        assert_eq!((r.changed.len(), r.added.len()), (1, 1));
        let fresh = open(root);
        let (a, b) = (index.report(), fresh.report());
        assert!(a.parse_errors > 0);
        assert_eq!(
            (
                a.source_files,
                a.manifest_files,
                a.parse_errors,
                a.files_with_parse_errors
            ),
            (
                b.source_files,
                b.manifest_files,
                b.parse_errors,
                b.files_with_parse_errors
            )
        );
        assert_eq!((a.declarations, a.edges), (b.declarations, b.edges));
    }

    #[test]
    fn configuration_problems_are_reported_by_reason() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::write(root.join("tsconfig.json"), "{ not json").unwrap();
        std::fs::write(
            root.join("a/tsconfig.json"),
            r#"{"extends": "./tsconfig.base.json"}"#,
        )
        .unwrap();
        std::fs::write(
            root.join("a/tsconfig.base.json"),
            r#"{"extends": "./tsconfig.json"}"#,
        )
        .unwrap();
        std::fs::write(root.join("a/x.ts"), "export const x = 1;\n").unwrap();
        let index = open(root);
        let problems = &index.report().config_problems;
        assert!(problems.contains_key("malformed json"), "{problems:?}");
        assert!(problems.contains_key("extends cycle"), "{problems:?}");
        assert!(!index.report().config_problem_examples.is_empty());
    }

    #[test]
    fn a_same_size_edit_with_its_mtime_restored_is_still_seen() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let file = root.join("a.ts");
        std::fs::write(&file, "export const a = 1;\n").unwrap();
        let mut index = open(root);
        let mtime = std::fs::metadata(&file).unwrap().modified().unwrap();
        std::fs::write(&file, "export const b = 2;\n").unwrap();
        std::fs::File::options()
            .write(true)
            .open(&file)
            .unwrap()
            .set_modified(mtime)
            .unwrap();
        assert_eq!(std::fs::metadata(&file).unwrap().modified().unwrap(), mtime);
        let report = index.refresh();
        assert_eq!(report.changed, ["a.ts"]);
        let input = index.file("a.ts").unwrap();
        assert_eq!(&**input.text(index.db()), "export const b = 2;\n");
    }

    /// Files read racily (just after a write) are read again by the next refresh, which
    /// reports them changed only if their text is different.
    #[test]
    fn racily_read_files_are_reread_but_unchanged_text_is_not_a_change() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("a.ts"), "export const a = 1;\n").unwrap();
        std::fs::write(root.join("b.ts"), "export const b = 1;\n").unwrap();
        let mut index = open(root);
        assert!(index.refresh().is_empty());
        std::fs::write(root.join("b.ts"), "export const b = 2;\n").unwrap();
        assert_eq!(index.refresh().changed, ["b.ts"]);
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_names_and_symlinked_files_are_counted_not_silently_dropped() {
        use std::os::unix::ffi::OsStrExt;
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        std::fs::write(root.join("real.ts"), "export const a = 1;\n").unwrap();
        let odd = std::ffi::OsStr::from_bytes(b"odd\xff.ts");
        std::fs::write(root.join(odd), "export const b = 1;\n").unwrap();
        std::os::unix::fs::symlink(root.join("real.ts"), root.join("link.ts")).unwrap();
        let index = open(root);
        let skipped = &index.report().skipped;
        assert_eq!(skipped.get("non-utf-8 name"), Some(&1), "{skipped:?}");
        assert_eq!(skipped.get("symlink"), Some(&1), "{skipped:?}");
        assert_eq!(index.report().source_files, 1);
    }
}
