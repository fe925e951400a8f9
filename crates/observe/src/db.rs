//! The salsa database of the observe stage: one input per file, one for the workspace, and
//! the tracked per-file and workspace-wide queries every later stage builds on.

use std::sync::Arc;

use serde::{Deserialize, Serialize};

use sightline_lang::{LangId, Languages};

use crate::facts::FileFacts;
use crate::terms::TermCounts;
use crate::walk::FileRole;

pub use crate::graph::queries::{
    FileGraphPart, FileLink, assembly_parts, file_edges, file_exports, file_id, file_link,
    file_positions, graph_chunk, graph_parts, workspace_graph,
};

/// The observe stage's database. Later stages declare `trait Db: sightline_observe::Db`.
#[salsa::db]
pub trait Db: salsa::Database {
    /// The graph [`workspace_graph`] last assembled, which its next run starts from.
    fn last_assembly(&self) -> &LastAssembly;

    /// The languages this database reads: what a [`LangId`] of its files is a position in.
    /// Fixed for the database's life (every query reads it untracked).
    fn languages(&self) -> Languages {
        crate::LANGUAGES
    }
}

/// The last graph [`workspace_graph`] assembled, with the parts it read: the next
/// assembly copies the edges of the files whose parts are unchanged
/// ([`crate::graph::Graph::reassemble`]) instead of computing them again. Kept beside
/// salsa's storage, not in it (a query cannot read its own previous value); the graph it
/// gives is the one a whole assembly gives, so the query stays a function of its inputs.
/// Handles of one database share it.
#[derive(Clone, Default)]
pub struct LastAssembly(Arc<std::sync::Mutex<Option<WorkspaceAssembly>>>);

/// A workspace and its last assembly.
type WorkspaceAssembly = (Workspace, crate::graph::Assembled<SourceFile>);

impl LastAssembly {
    /// The graph of `parts` (the assembly parts of `ws`), from the last assembly of `ws`
    /// when there is one, which it then replaces.
    pub fn assemble(
        &self,
        ws: Workspace,
        parts: &[crate::graph::GraphPart<'_, SourceFile>],
    ) -> Arc<crate::graph::Graph> {
        use crate::graph::{Assembled, Graph};
        // A panic while the lock was held (a cancelled query) leaves a whole value: the
        // previous assembly or the new one.
        let mut last = self.0.lock().unwrap_or_else(|e| e.into_inner());
        let graph = match last.as_ref() {
            Some((w, prev)) if *w == ws => Graph::reassemble(prev, parts).0,
            _ => Graph::assemble(parts),
        };
        let graph = Arc::new(graph);
        *last = Some((ws, Assembled::new(parts, graph.clone())));
        graph
    }
}

pub use inputs::{BlockGraph, SourceFile, TermTables, Workspace};

/// The tree's salsa inputs, in a module of their own: salsa generates their constructors
/// and builders without docs, and only they are exempt from `missing_docs`.
#[allow(missing_docs)]
mod inputs {
    use std::path::PathBuf;
    use std::sync::Arc;

    use super::FileIndex;
    use crate::walk::FileRole;

    /// One indexed file. `known` carries derived data already computed for exactly this text
    /// (from the persistent cache or a parallel cold parse); it must be cleared whenever the
    /// text changes, which [`crate::Index`] does.
    #[salsa::input(debug)]
    pub struct SourceFile {
        /// The file's stable id ([`crate::db::file_id`]): unique among the files an index
        /// ever created, never reused, so no file added or removed changes another's.
        #[returns(copy)]
        pub id: u32,
        /// Repository-relative, `/`-separated.
        #[returns(ref)]
        pub path: String,
        /// The file's text as last read.
        #[returns(ref)]
        pub text: Arc<str>,
        /// Source in a language, or a manifest read for resolution.
        #[returns(copy)]
        pub role: FileRole,
        /// Derived data already computed for exactly this text, if any.
        #[returns(clone)]
        pub known: Option<Arc<FileIndex>>,
    }

    /// The indexed tree: its root and its files, sorted by path.
    #[salsa::input(debug)]
    pub struct Workspace {
        /// The indexed root directory.
        #[returns(ref)]
        pub root: PathBuf,
        /// Every indexed file, sorted by path.
        #[returns(ref)]
        pub files: Vec<SourceFile>,
        /// The files of the tree no registered language reads, by type.
        #[returns(ref)]
        pub not_indexed: crate::NotIndexed,
        /// Each term chunk's tables, as the index last derived them ([`TermTables`]).
        #[returns(ref)]
        pub term_tables: Vec<TermTables>,
        /// Each file block's graph parts, as the index last derived them
        /// ([`BlockGraph`]).
        #[returns(ref)]
        pub block_graphs: Vec<BlockGraph>,
    }

    /// One term chunk's tables as the index last derived them from the chunk's files
    /// ([`super::term_chunk_stats`], [`super::term_chunk_postings`],
    /// [`super::decl_word_chunk`], [`super::import_key_chunk`]), set only when one came
    /// out different. The workspace-wide queries read these instead of the derivations,
    /// so after a file's first edit (a medium-durability write) salsa re-verifies a few
    /// hundred inputs, not every file's memos ([`crate::Index`] says which chunks an
    /// edit touched).
    #[salsa::input(debug)]
    pub struct TermTables {
        #[returns(clone)]
        pub stats: Arc<crate::idf::PartialStats>,
        #[returns(clone)]
        pub postings: Arc<crate::idf::Postings>,
        #[returns(clone)]
        pub decl_words: Arc<crate::db::DeclWords>,
        #[returns(clone)]
        pub import_keys: Arc<crate::db::FilesByKey>,
    }

    /// One file block's graph parts ([`super::graph_chunk`]) as the index last derived
    /// them, set only when they came out different: what the assembly reads, for the
    /// reason [`TermTables`] gives.
    #[salsa::input(debug)]
    pub struct BlockGraph {
        #[returns(clone)]
        pub parts: Arc<Vec<crate::graph::queries::FileGraphPart>>,
    }
}

/// One term chunk's declarations by the lowercase words (and compound key) of their
/// names ([`decl_word_chunk`]), each with its name: the search scores a query's
/// declarations from this table alone, each distinct name once, without reading any
/// file's facts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DeclWords {
    /// The declarations filed under each word.
    pub by_word: crate::postings::Keyed<DeclRef>,
    /// The chunk's distinct declaration names, each with whether it names a member
    /// (a property or variable, which the search weighs apart), in first-seen order.
    pub names: Vec<(Box<str>, bool)>,
}

/// A declaration as [`DeclWords`] files it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DeclRef {
    /// Its file.
    pub file: SourceFile,
    /// Its position among the file's declarations.
    pub decl: u32,
    /// Its name and kind: a position in [`DeclWords::names`].
    pub name: u32,
}

impl DeclWords {
    /// The declarations filed under `word`.
    pub fn get(&self, word: &str) -> &[DeclRef] {
        self.by_word.get(word).unwrap_or(&[])
    }

    /// [`DeclWords::get`] of a word hashed beforehand.
    pub fn get_key(&self, word: crate::postings::Key<'_>) -> &[DeclRef] {
        self.by_word.get_key(word).unwrap_or(&[])
    }
}

impl crate::memory::HeapSize for DeclWords {
    fn heap_bytes(&self) -> usize {
        self.by_word.heap_bytes() + self.names.heap_bytes()
    }
}

/// Files by a key of theirs.
pub type FilesByKey = crate::postings::Keyed<SourceFile>;

/// The tables of term chunk `chunk` as the index last set them; `None` past the end
/// (a workspace whose index has not derived them).
pub fn indexed_term_tables(db: &dyn Db, ws: Workspace, chunk: TermChunk<'_>) -> Option<TermTables> {
    ws.term_tables(db).get(chunk.index(db) as usize).copied()
}

/// A term chunk's postings as the index last set them ([`term_chunk_postings`]).
pub fn indexed_postings(
    db: &dyn Db,
    ws: Workspace,
    chunk: TermChunk<'_>,
) -> Arc<crate::idf::Postings> {
    indexed_term_tables(db, ws, chunk)
        .map(|t| t.postings(db))
        .unwrap_or_default()
}

/// A term chunk's declaration words as the index last set them ([`decl_word_chunk`]).
pub fn indexed_decl_words(db: &dyn Db, ws: Workspace, chunk: TermChunk<'_>) -> Arc<DeclWords> {
    indexed_term_tables(db, ws, chunk)
        .map(|t| t.decl_words(db))
        .unwrap_or_default()
}

/// A term chunk's import keys as the index last set them ([`import_key_chunk`]).
pub fn indexed_import_keys(db: &dyn Db, ws: Workspace, chunk: TermChunk<'_>) -> Arc<FilesByKey> {
    indexed_term_tables(db, ws, chunk)
        .map(|t| t.import_keys(db))
        .unwrap_or_default()
}

/// A file block's graph parts as the index last set them ([`graph_chunk`]).
pub fn indexed_graph_chunk(
    db: &dyn Db,
    ws: Workspace,
    block: FileBlock<'_>,
) -> Arc<Vec<crate::graph::queries::FileGraphPart>> {
    ws.block_graphs(db)
        .get(block.index(db) as usize)
        .map(|b| b.parts(db))
        .unwrap_or_default()
}

/// Everything derived from one file's text alone; the unit the persistent cache stores.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FileIndex {
    /// Declarations, imports, usages and heritage, with their lines.
    pub facts: FileFacts,
    /// The file's term counts (the search's vocabulary), shared with the file's
    /// [`FileParts`] (encoded as the counts themselves).
    pub terms: Arc<TermCounts>,
    /// What [`FileShape`] needs of these facts beside them (their distinct usages), when
    /// already computed (in parallel, while opening an index). A memo of a pure function
    /// of `facts`: not persisted, compared or hashed.
    #[serde(skip)]
    pub shape_memo: ShapeMemo,
}

/// See [`FileIndex::shape_memo`]: the positions of the facts' distinct usages
/// ([`distinct_usages`]), the part of a [`FileShape`] that takes a sort to build. (Not
/// the shape itself, which holds the index this memo is part of.)
#[derive(Clone, Debug, Default)]
pub struct ShapeMemo(std::sync::OnceLock<Arc<[u32]>>);

impl ShapeMemo {
    /// The memoized distinct usages of `facts`, computing them on first use.
    pub fn get_or_compute(&self, facts: &FileFacts) -> Arc<[u32]> {
        self.0.get_or_init(|| distinct_usages(facts)).clone()
    }
}

impl PartialEq for ShapeMemo {
    fn eq(&self, _: &ShapeMemo) -> bool {
        true
    }
}

impl Eq for ShapeMemo {}

impl std::hash::Hash for ShapeMemo {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl FileIndex {
    /// Parses and scans one file with its language among `languages`. Manifests (and a
    /// source of a language `languages` does not hold) get term counts but no syntax facts.
    pub fn build(languages: Languages, role: FileRole, text: &str) -> FileIndex {
        let language = match role {
            FileRole::Source(id) => languages.of(id).map(|l| (l, id.dialect)),
            FileRole::Manifest => None,
        };
        let facts = match language {
            Some((language, dialect)) => compact_facts(language.extract(dialect, text)),
            None => FileFacts {
                line_count: crate::facts::count_lines(text),
                ..FileFacts::default()
            },
        };
        FileIndex {
            facts,
            terms: Arc::new(TermCounts::from_text(text)),
            shape_memo: ShapeMemo::default(),
        }
    }
}

/// `facts` without the spare capacity extraction leaves (a list grown by `push` has up to
/// twice the room it needs): facts live as long as the index, and a cache hit decodes
/// them exactly sized, so a cold index now holds what a warm one does.
fn compact_facts(mut facts: FileFacts) -> FileFacts {
    facts.decls.shrink_to_fit();
    facts.imports.shrink_to_fit();
    facts.usages.shrink_to_fit();
    facts.heritage.shrink_to_fit();
    facts.error_lines.shrink_to_fit();
    facts
}

pub use parts::FileParts;

/// [`FileParts`] in a module of its own, like the inputs: salsa generates its constructor
/// without docs.
#[allow(missing_docs)]
mod parts {
    use std::sync::Arc;

    use super::{FileIndex, FileItems, FileShape};
    use crate::terms::TermCounts;

    /// Everything derived from one file's text, created by [`file_parts`]: its facts, its
    /// shape, its term counts and its import keys, each a separately tracked field. A query
    /// that reads one field depends on that field alone, so an edit that keeps a file's shape
    /// (only lines move) changes `index` but not `shape`, and what reads the shape is not
    /// recomputed. One memo per file instead of one per projection: after a write above
    /// low durability (a file's first edit is medium, a new file high) salsa re-verifies
    /// this one memo where it is reached, and a field read verifies by comparing a
    /// revision, without a memo to walk.
    #[salsa::tracked]
    pub struct FileParts<'db> {
        /// Syntax facts and term counts ([`file_index`]).
        #[tracked]
        #[returns(clone)]
        pub index: Arc<FileIndex>,
        /// The line-free projection of the facts ([`file_shape`]).
        #[tracked]
        #[returns(clone)]
        pub shape: Arc<FileShape>,
        /// The shape's declarations and imports alone ([`file_items`]).
        #[tracked]
        #[returns(clone)]
        pub items: Arc<FileItems>,
        /// The term counts alone ([`file_terms`]).
        #[tracked]
        #[returns(clone)]
        pub terms: Arc<TermCounts>,
        /// The compound keys of the names it imports ([`file_import_keys`]).
        #[tracked]
        #[returns(clone)]
        pub import_keys: Arc<Vec<(String, bool)>>,
    }
}

/// Parses and scans one file (or takes what is already [`SourceFile::known`] for its text)
/// and splits the result into its separately tracked [`FileParts`].
#[salsa::tracked(returns(copy))]
pub fn file_parts(db: &dyn Db, file: SourceFile) -> FileParts<'_> {
    let index = match file.known(db) {
        Some(known) => known,
        None => Arc::new(FileIndex::build(
            db.languages(),
            file.role(db),
            file.text(db),
        )),
    };
    let order = index.shape_memo.get_or_compute(&index.facts);
    let shape = Arc::new(FileShape::over(index.clone(), order));
    let items = shape.items.clone();
    let terms = index.terms.clone();
    let import_keys = Arc::new(import_keys(&shape));
    FileParts::new(db, index, shape, items, terms, import_keys)
}

/// Syntax facts and term counts of one file.
pub fn file_index(db: &dyn Db, file: SourceFile) -> Arc<FileIndex> {
    file_parts(db, file).index(db)
}

/// Term counts alone: edits that keep a file's vocabulary (whitespace, moved lines) do
/// not recompute the repository's term statistics.
pub fn file_terms(db: &dyn Db, file: SourceFile) -> Arc<TermCounts> {
    file_parts(db, file).terms(db)
}

/// The line-free projection of a file's facts that the workspace graph is built from: an
/// edit that keeps names, nesting and references (only lines move) leaves it equal, so
/// the graph is not recomputed.
pub fn file_shape(db: &dyn Db, file: SourceFile) -> Arc<FileShape> {
    file_parts(db, file).shape(db)
}

/// A file's declarations and imports without lines or usages ([`FileItems`]): what its
/// link to other files reads, so an edit inside a body (a call added, a reference
/// removed) leaves it equal and re-resolves none of the file's imports.
pub fn file_items(db: &dyn Db, file: SourceFile) -> Arc<FileItems> {
    file_parts(db, file).items(db)
}

use crate::shape::distinct_usages;
pub use crate::shape::{FileItems, FileShape};

/// Module resolution for the whole workspace at once: every path and every language's
/// configuration. For callers outside the graph's queries (which resolve through
/// [`file_resolutions`]); tests and [`crate::graph::Graph::build`] use it.
///
/// Workspace-wide hazard: `no_eq` and built from every path, so it re-runs whenever a file
/// is added or removed.
#[salsa::tracked(returns(clone), no_eq)]
pub fn module_resolver(db: &dyn Db, ws: Workspace) -> Arc<crate::resolve::ModuleResolver> {
    let files = ws.files(db);
    let paths: Vec<String> = files.iter().map(|f| f.path(db).clone()).collect();
    let manifests: std::collections::HashMap<&str, SourceFile> = files
        .iter()
        .filter(|f| f.role(db) == FileRole::Manifest)
        .map(|f| (f.path(db).as_str(), *f))
        .collect();
    let read = |p: &str| manifests.get(p).map(|f| f.text(db).to_string());
    Arc::new(crate::resolve::ModuleResolver::with_languages(
        db.languages(),
        &paths,
        &read,
    ))
}

pub use crate::resolution::{
    ConfiguredLanguage, Directory, DirectoryChunk, DirectoryFiles, DirectoryPart, ImportKey,
    LanguageConfigHandle, PackageKey, directory_files, directory_part, directory_table,
    import_resolution, language_config, language_sources, manifest_files, package_files,
    package_table,
};

/// How each import of one source file resolves, in import order.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ImportResolutions {
    /// The resolution of each import.
    pub resolutions: Vec<crate::resolve::Resolution>,
    /// The indexed files each import reaches: one for a module, every listed file of a
    /// package, none for an import outside the repository or one that resolved nowhere.
    pub targets: crate::graph::ImportTargets<SourceFile>,
}

/// How each import of a source file resolves, and to which file, in import order
/// (a field of the file's [`crate::graph::queries::FileLink`]). Depends on the file's
/// imports and, for each, its [`import_resolution`] (shared by the files of one import
/// scope; it reads the language's [`language_config`] and the files of the directories
/// it probed, [`directory_files`]): editing another file does not re-resolve these, and
/// adding or removing one re-resolves only the imports that probed its directory.
pub fn file_resolutions(db: &dyn Db, ws: Workspace, file: SourceFile) -> Arc<ImportResolutions> {
    crate::graph::queries::file_link(db, ws, file).resolutions(db)
}

/// Resolves the imports of `shape` (the items of `file`); see [`file_resolutions`].
pub(crate) fn resolve_imports(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
    shape: &FileItems,
) -> ImportResolutions {
    let language = match file.role(db) {
        FileRole::Source(id) => db.languages().of(id).map(|l| (id.language, l)),
        FileRole::Manifest => None,
    };
    let Some((index, language)) = language.filter(|_| !shape.imports().is_empty()) else {
        return ImportResolutions::default();
    };
    let scope = language.import_scope(file.path(db));
    let resolutions: Vec<crate::resolve::Resolution> = shape
        .imports()
        .iter()
        .map(|imp| {
            let key = ImportKey::new(db, ws, index, scope, imp.specifier.as_str());
            import_resolution(db, key)
        })
        .collect();
    let files = crate::resolution::TrackedFiles::new(db, ws);
    let targets = crate::graph::ImportTargets::from_lists(
        resolutions
            .iter()
            .map(|r| r.files().iter().filter_map(|p| files.get(p))),
    );
    ImportResolutions {
        resolutions,
        targets,
    }
}

/// Source files per term chunk, at most on average: an edit recomputes one chunk's
/// tables and a merge of the chunks' handles, not every file's terms.
pub const TERM_CHUNK_FILES: usize = 64;

/// How many term chunks a workspace of `sources` source files has: a power of two, so it
/// changes (and every chunk is regrouped) only when the count crosses a power-of-two
/// multiple of [`TERM_CHUNK_FILES`], not with each added or removed file.
pub fn term_chunk_count(sources: usize) -> u32 {
    group_count(sources, TERM_CHUNK_FILES)
}

/// How many groups of about `per_group` files `files` files make: a power of two, so it
/// changes only when the file count crosses a power-of-two multiple of `per_group`.
fn group_count(files: usize, per_group: usize) -> u32 {
    let count = files.div_ceil(per_group).max(1).next_power_of_two();
    u32::try_from(count).unwrap_or(1 << 31)
}

/// `files` in `count` groups by a hash of each path ([`term_chunk_of`]), in their order
/// within a group: a file stays in its group whatever other files come or go.
fn group_by_path_hash(
    db: &dyn Db,
    files: impl Iterator<Item = SourceFile>,
    count: u32,
) -> Arc<Vec<Arc<[SourceFile]>>> {
    let mut groups: Vec<Vec<SourceFile>> = vec![Vec::new(); count as usize];
    for f in files {
        groups[term_chunk_of(f.path(db), count) as usize].push(f);
    }
    Arc::new(groups.into_iter().map(Arc::from).collect())
}

/// Part `index` of a table split in parts (a chunk's or block's files, a part of the
/// directory table), or an empty one past the end.
pub(crate) fn nth_part<T: Clone + Default>(parts: &[T], index: u32) -> T {
    parts.get(index as usize).cloned().unwrap_or_default()
}

/// The chunk of `path` among `count` (a power of two): a hash of the path alone, so a file
/// stays in its chunk whatever other files appear or disappear.
pub fn term_chunk_of(path: &str, count: u32) -> u32 {
    // Fx is unseeded: the same path hashes the same in every run.
    let mut hasher = rustc_hash::FxHasher::default();
    std::hash::Hasher::write(&mut hasher, path.as_bytes());
    (std::hash::Hasher::finish(&hasher) % u64::from(count.max(1))) as u32
}

/// The source files of each term chunk, in path order.
///
/// Workspace-wide hazard: reads the whole file list, so it re-executes whenever a file is
/// added or removed (a pass hashing every path); each chunk reads its own part through
/// [`term_chunk_files`], which backdates unless that chunk's files changed.
#[salsa::tracked(returns(clone))]
pub fn term_chunk_layout(db: &dyn Db, ws: Workspace) -> Arc<Vec<Arc<[SourceFile]>>> {
    let sources = ws
        .files(db)
        .iter()
        .filter(|f| matches!(f.role(db), FileRole::Source(_)));
    let count = term_chunk_count(sources.clone().count());
    group_by_path_hash(db, sources.copied(), count)
}

/// Every term chunk of the workspace, in order.
pub fn term_chunks<'db>(db: &'db dyn Db, ws: Workspace) -> Vec<TermChunk<'db>> {
    (0..term_chunk_layout(db, ws).len() as u32)
        .map(|c| TermChunk::new(db, c))
        .collect()
}

/// The source files of one chunk: a firewall between the workspace's file list and the
/// chunk's tables, equal (and so not propagated) unless a file of this chunk came or went.
#[salsa::tracked(returns(clone))]
pub fn term_chunk_files<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: TermChunk<'db>,
) -> Arc<[SourceFile]> {
    nth_part(&term_chunk_layout(db, ws), chunk.index(db))
}

/// Document frequencies of the repository's own vocabulary, over source files.
///
/// Reads each chunk's statistics as the index last set them ([`TermTables`]), not their
/// derivation, so it reaches no file's memos.
///
/// Workspace-wide hazard: re-runs when any chunk's frequencies change, or a file is added
/// or removed, at the cost of collecting the chunks' handles ([`crate::idf::TermStats`]
/// sums them per term on lookup, rather than merging the vocabulary here).
#[salsa::tracked(returns(clone))]
pub fn term_stats(db: &dyn Db, ws: Workspace) -> Arc<crate::idf::TermStats> {
    let parts: Vec<Arc<crate::idf::PartialStats>> = ws
        .term_tables(db)
        .iter()
        .map(|tables| tables.stats(db))
        .collect();
    Arc::new(crate::idf::TermStats::from_partials(parts))
}

pub use chunk::TermChunk;

/// See [`inputs`]: the same exemption for an interned struct.
#[allow(missing_docs)]
mod chunk {
    /// A group of source files by a hash of their paths ([`super::term_chunk_of`]), about
    /// [`super::TERM_CHUNK_FILES`] of them.
    #[salsa::interned(debug)]
    pub struct TermChunk<'db> {
        /// The group's number, below [`super::term_chunk_count`].
        #[returns(copy)]
        pub index: u32,
    }
}

/// Files per [`FileBlock`].
pub const FILE_BLOCK_FILES: usize = 64;

pub use block::FileBlock;

/// See [`inputs`]: the same exemption for an interned struct.
#[allow(missing_docs)]
mod block {
    /// A group of about [`super::FILE_BLOCK_FILES`] files of the workspace (manifests
    /// included) by a hash of their paths, like a [`super::TermChunk`]: the unit the
    /// graph's parts and the report's counts are gathered in. A new file lands in one
    /// block and moves no other file to another.
    #[salsa::interned(debug)]
    pub struct FileBlock<'db> {
        /// The block's number: the files whose paths hash to it ([`super::file_block_layout`]).
        #[returns(copy)]
        pub index: u32,
    }
}

/// The files of each [`FileBlock`], in path order within a block: each file by a hash of
/// its path ([`term_chunk_of`]).
///
/// Workspace-wide hazard: reads the whole file list, so it re-executes whenever a file is
/// added or removed (a pass hashing every path); each block reads its own part through
/// [`file_block_files`], which backdates unless that block's files changed.
#[salsa::tracked(returns(clone))]
pub fn file_block_layout(db: &dyn Db, ws: Workspace) -> Arc<Vec<Arc<[SourceFile]>>> {
    let files = ws.files(db);
    let count = group_count(files.len(), FILE_BLOCK_FILES);
    group_by_path_hash(db, files.iter().copied(), count)
}

/// Every [`FileBlock`] of the workspace, in order.
pub fn file_blocks<'db>(db: &'db dyn Db, ws: Workspace) -> Vec<FileBlock<'db>> {
    (0..file_block_layout(db, ws).len() as u32)
        .map(|b| FileBlock::new(db, b))
        .collect()
}

/// The files of one block: a firewall between the workspace's file list and the block's
/// parts, equal (and so not propagated) unless a file of this block came or went.
#[salsa::tracked(returns(clone))]
pub fn file_block_files<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    block: FileBlock<'db>,
) -> Arc<[SourceFile]> {
    nth_part(&file_block_layout(db, ws), block.index(db))
}

/// Document frequencies of the source files in one chunk: the chunk's postings, which
/// hold them (a term's list has one entry per file), and the chunk's length. Equal, and
/// so backdated, when an edit leaves every term in as many files
/// ([`crate::idf::PartialStats`]'s equality).
#[salsa::tracked(returns(clone))]
pub fn term_chunk_stats<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: TermChunk<'db>,
) -> Arc<crate::idf::PartialStats> {
    let mut stats = crate::idf::PartialStats {
        postings: term_chunk_postings(db, ws, chunk),
        ..Default::default()
    };
    for f in term_chunk_files(db, ws, chunk).iter() {
        stats.documents += 1;
        stats.total_terms += u64::from(file_terms(db, *f).total);
    }
    Arc::new(stats)
}

/// One source file's count of a term, with the file's term total (BM25's length).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Posting {
    /// The file (an input, so its identity never shifts when other files come or go).
    pub file: SourceFile,
    /// How often the term occurs in the file.
    pub tf: u32,
    /// The file's number of terms.
    pub total: u32,
}

/// Which source files of one chunk hold each term: the search scores a query from these
/// postings instead of probing every file's sorted term list (a cache miss per file).
/// Chunked like [`term_chunk_stats`] so an edit rebuilds one chunk's postings.
#[salsa::tracked(returns(clone))]
pub fn term_chunk_postings<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: TermChunk<'db>,
) -> Arc<crate::idf::Postings> {
    let counts: Vec<(SourceFile, Arc<TermCounts>)> = term_chunk_files(db, ws, chunk)
        .iter()
        .map(|f| (*f, file_terms(db, *f)))
        .collect();
    Arc::new(crate::idf::Postings::build(counts.iter().flat_map(
        |(file, counts)| {
            counts.iter().map(|(term, tf)| {
                let posting = Posting {
                    file: *file,
                    tf,
                    total: counts.total,
                };
                (term, posting)
            })
        },
    )))
}

/// The declarations of one chunk's source files by the lowercase words (and compound
/// key) of their names, with their names ([`DeclWords`]): what a query's terms find
/// declarations by. Per chunk and from the files' shapes, so an edit rebuilds one chunk's
/// table, never a workspace-wide one.
#[salsa::tracked(returns(clone))]
pub fn decl_word_chunk<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: TermChunk<'db>,
) -> Arc<DeclWords> {
    // Each declaration with its name's position, filed under the name's words below.
    let mut filed: Vec<DeclRef> = Vec::new();
    let mut names: Vec<(Box<str>, bool)> = Vec::new();
    // The words each distinct name is filed under, by its position in `names`: split
    // and stemmed once per name, not once per declaration bearing it.
    let mut name_keys: Vec<Vec<String>> = Vec::new();
    let mut name_ids: rustc_hash::FxHashMap<(&str, bool), u32> = Default::default();
    let shapes: Vec<(SourceFile, Arc<FileShape>)> = term_chunk_files(db, ws, chunk)
        .iter()
        .map(|f| (*f, file_shape(db, *f)))
        .collect();
    for (f, shape) in &shapes {
        for (d, decl) in shape.decls().iter().enumerate() {
            let name = decl.name.as_str();
            let member = matches!(
                decl.kind,
                crate::facts::DeclKind::Property | crate::facts::DeclKind::Variable
            );
            let id = *name_ids.entry((name, member)).or_insert_with(|| {
                names.push((name.into(), member));
                let mut keys: Vec<String> = crate::terms::term_words(name);
                if crate::terms::subword_count(name) > 1 {
                    keys.push(crate::terms::compound_key(name));
                }
                keys.sort();
                keys.dedup();
                name_keys.push(keys);
                (names.len() - 1) as u32
            });
            filed.push(DeclRef {
                file: *f,
                decl: d as u32,
                name: id,
            });
        }
    }
    let by_word = crate::postings::Keyed::build(filed.iter().flat_map(|decl| {
        name_keys[decl.name as usize]
            .iter()
            .map(move |k| (k.as_str(), *decl))
    }));
    names.shrink_to_fit();
    Arc::new(DeclWords { by_word, names })
}

/// The source files of one chunk by each word of their paths (stem and directories,
/// [`file_path_words`]): the search scores the paths of the files holding a query's
/// words instead of every file's path. Depends on paths alone, so it changes only when a
/// file of the chunk comes or goes.
#[salsa::tracked(returns(clone))]
pub fn path_word_chunk<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: TermChunk<'db>,
) -> Arc<FilesByKey> {
    files_by_key(db, ws, chunk, |f| {
        let words = file_path_words(db, f);
        words.0.iter().chain(&words.1).cloned().collect()
    })
}

/// The files of one chunk filed under each of `keys(file)`, each file once per key.
fn files_by_key<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: TermChunk<'db>,
    keys: impl Fn(SourceFile) -> Vec<String>,
) -> Arc<FilesByKey> {
    let keyed: Vec<(SourceFile, Vec<String>)> = term_chunk_files(db, ws, chunk)
        .iter()
        .map(|f| {
            let mut keys = keys(*f);
            keys.sort_unstable();
            keys.dedup();
            (*f, keys)
        })
        .collect();
    Arc::new(crate::postings::Keyed::build(keyed.iter().flat_map(
        |(f, keys)| keys.iter().map(move |k| (k.as_str(), *f)),
    )))
}

/// The source files of one chunk by the keys a query's literal can name their paths by
/// ([`crate::literal::path_literal_keys`]): the search confirms a literal's path matches
/// among the files filed under its keys instead of testing every path. Depends on paths
/// alone, like [`path_word_chunk`].
#[salsa::tracked(returns(clone))]
pub fn path_literal_chunk<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: TermChunk<'db>,
) -> Arc<FilesByKey> {
    files_by_key(db, ws, chunk, |f| {
        crate::literal::path_literal_keys(f.path(db))
    })
}

/// The source files of one chunk by the compound keys of the names they import or
/// re-export ([`file_import_keys`]): the search visits the files importing an
/// identifier the query spells instead of every file's imports.
#[salsa::tracked(returns(clone))]
pub fn import_key_chunk<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: TermChunk<'db>,
) -> Arc<FilesByKey> {
    let keyed: Vec<_> = term_chunk_files(db, ws, chunk)
        .iter()
        .map(|f| (*f, file_import_keys(db, *f)))
        .collect();
    Arc::new(crate::postings::Keyed::build(keyed.iter().flat_map(
        |(f, keys)| {
            // Each key once per file, at its first place.
            keys.iter()
                .enumerate()
                .filter(|(i, (key, _))| !keys[..*i].iter().any(|(k, _)| k == key))
                .map(move |(_, (key, _))| (key.as_str(), *f))
        },
    )))
}

/// The words of a file's path: its stem's (a file its language names by its directory
/// takes the directory's name) and its directories', normalised like query words. A
/// file's path never changes, so this is computed once per file, not per query.
#[salsa::tracked(returns(clone))]
pub fn file_path_words(db: &dyn Db, file: SourceFile) -> Arc<(Vec<String>, Vec<String>)> {
    Arc::new(crate::path_traits::path_words(
        db.languages(),
        file.path(db),
    ))
}

/// The compound keys (`usematchroute`) of the multi-word names a file imports or
/// re-exports, with whether it re-exports them: what the search matches a query's exact
/// identifiers against, without splitting every import name on every query.
pub fn file_import_keys(db: &dyn Db, file: SourceFile) -> Arc<Vec<(String, bool)>> {
    file_parts(db, file).import_keys(db)
}

/// See [`file_import_keys`].
fn import_keys(shape: &FileShape) -> Vec<(String, bool)> {
    let mut keys: Vec<(String, bool)> = Vec::new();
    for imp in shape.imports() {
        for n in &imp.names {
            for name in [&n.imported, &n.local] {
                if crate::terms::subword_count(name) < 2 {
                    continue;
                }
                let key = (crate::terms::compound_key(name), imp.reexport);
                if !keys.contains(&key) {
                    keys.push(key);
                }
            }
        }
    }
    keys
}

/// Whether a file is source, and in which language and dialect.
pub fn lang_of(db: &dyn Db, file: SourceFile) -> Option<LangId> {
    match file.role(db) {
        FileRole::Source(lang) => Some(lang),
        FileRole::Manifest => None,
    }
}

/// The concrete database for programs that use the observe stage alone.
#[salsa::db]
#[derive(Clone)]
pub struct ObserveDatabase {
    storage: salsa::Storage<Self>,
    last_assembly: LastAssembly,
    languages: Languages,
}

impl Default for ObserveDatabase {
    fn default() -> Self {
        Self {
            storage: salsa::Storage::default(),
            last_assembly: LastAssembly::default(),
            languages: crate::LANGUAGES,
        }
    }
}

impl ObserveDatabase {
    /// A database whose storage reports every salsa event to `on_event` (tests count
    /// re-executions with it).
    pub fn with_event_hook(on_event: impl Fn(salsa::Event) + Send + Sync + 'static) -> Self {
        Self {
            storage: salsa::Storage::new(Some(Box::new(on_event))),
            ..Self::default()
        }
    }

    /// This database, reading `languages` instead of [`crate::LANGUAGES`] (before any
    /// input is created: a file's [`LangId`] is a position in this list).
    pub fn with_languages(mut self, languages: Languages) -> Self {
        self.languages = languages;
        self
    }
}

#[salsa::db]
impl salsa::Database for ObserveDatabase {}

#[salsa::db]
impl Db for ObserveDatabase {
    fn last_assembly(&self) -> &LastAssembly {
        &self.last_assembly
    }

    fn languages(&self) -> Languages {
        self.languages
    }
}
