//! The graph's tracked queries: per file, the tables other files see ([`file_exports`])
//! and the outgoing edges ([`file_edges`]); per chunk of files, their declarations and
//! edges ([`graph_chunk`]); once per workspace, the file positions and the assembly
//! ([`workspace_graph`]), which reads the per-file lists through one cached group per
//! chunk of files ([`graph_chunk`]).
//!
//! An edit inside one file re-executes that file's queries; the files importing it
//! re-execute [`file_edges`] only when its [`file_exports`] changed (a new or renamed
//! export, member or import), and the assembly is a pass over the cached lists: it
//! fetches one group per chunk, and only the edited chunk's group gathers its files' lists
//! again.

use std::cell::RefCell;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::db::{
    Db, FileBlock, SourceFile, Workspace, file_block_files, file_blocks, file_shape,
    resolve_imports,
};
use crate::graph::{
    Edge, EdgeSource, ExportRules, ExportsLookup, FileDecls, FileEdges, FileExports, Graph,
    GraphPart, file_edges as edges, resolve_edges,
};
use crate::walk::FileRole;

pub use link::FileLink;

/// [`FileLink`] in a module of its own: salsa generates its constructor without docs.
#[allow(missing_docs)]
mod link {
    use std::sync::Arc;

    use crate::db::{ImportResolutions, SourceFile};
    use crate::graph::FileExports;

    /// How one file links to the others, created by [`super::file_link`]: how its
    /// imports resolve, and what other files' edges can see of it. Two separately
    /// tracked fields of one memo: the file's own edges read both, its importers only the
    /// exports, and salsa re-verifies one memo per file, not two.
    #[salsa::tracked]
    pub struct FileLink<'db> {
        /// [`crate::db::file_resolutions`].
        #[tracked]
        #[returns(clone)]
        pub resolutions: Arc<ImportResolutions>,
        /// [`super::file_exports`].
        #[tracked]
        #[returns(clone)]
        pub exports: Option<Arc<FileExports<SourceFile>>>,
    }
}

/// Resolves `file`'s imports and derives what other files can see of it ([`FileLink`]);
/// a manifest links to nothing. Reads the file's items (declarations and imports, not
/// usages: [`crate::db::file_items`]), so an edit that keeps them (a body edit, moved
/// lines) does not re-run it.
#[salsa::tracked(returns(copy))]
pub fn file_link<'db>(db: &'db dyn Db, ws: Workspace, file: SourceFile) -> FileLink<'db> {
    if file.role(db) == FileRole::Manifest {
        return FileLink::new(db, Arc::default(), None);
    }
    let items = crate::db::file_items(db, file);
    let resolved = Arc::new(resolve_imports(db, ws, file, &items));
    let language = language_of(db, file);
    let rules = ExportRules {
        default_name: language.and_then(|l| l.default_export_name()),
        package_visible: language.is_some_and(|l| l.package_scope(file.path(db)).is_some()),
    };
    let exports = Arc::new(FileExports::of(&items, &resolved.targets, rules));
    FileLink::new(db, resolved, Some(exports))
}

/// The files of `file`'s package, itself included ([`crate::db::package_files`]); none
/// for a file whose language has no packages.
pub(crate) fn package_of(db: &dyn Db, ws: Workspace, file: SourceFile) -> Arc<[SourceFile]> {
    let FileRole::Source(id) = file.role(db) else {
        return Arc::from(Vec::new());
    };
    let key = db
        .languages()
        .of(id)
        .and_then(|l| l.package_scope(file.path(db)));
    match key {
        Some(key) => {
            let package = crate::db::PackageKey::new(db, id.language, key);
            crate::db::package_files(db, ws, package)
        }
        None => Arc::from(Vec::new()),
    }
}

/// The registered language of a source file; `None` for a manifest.
pub(crate) fn language_of(
    db: &dyn Db,
    file: SourceFile,
) -> Option<&'static dyn sightline_lang::Language> {
    match file.role(db) {
        FileRole::Source(id) => db.languages().of(id),
        FileRole::Manifest => None,
    }
}

/// What other files' edges can see of `file`: its exports, members and resolved imports
/// ([`FileExports`]); `None` for a manifest. A firewall (a tracked field of
/// [`file_link`]): an edit that adds a call or a private function, or moves code, keeps
/// this equal, so importers are not recomputed.
pub fn file_exports(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
) -> Option<Arc<FileExports<SourceFile>>> {
    file_link(db, ws, file).exports(db)
}

/// [`ExportsLookup`] through the tracked queries, so each file's edges depend on exactly
/// the tables they read. Each table is fetched once per file's edges: a file looks up the
/// same few modules for every usage they explain, and a fetch through salsa costs far
/// more than a map lookup.
struct TrackedLookup<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    fetched: RefCell<FxHashMap<SourceFile, Option<Arc<FileExports<SourceFile>>>>>,
}

impl ExportsLookup<SourceFile> for TrackedLookup<'_> {
    fn exports(&self, file: SourceFile) -> Option<Arc<FileExports<SourceFile>>> {
        if let Some(tables) = self.fetched.borrow().get(&file) {
            return tables.clone();
        }
        let tables = file_exports(self.db, self.ws, file);
        self.fetched.borrow_mut().insert(file, tables.clone());
        tables
    }

    fn file_order(&self, a: SourceFile, b: SourceFile) -> std::cmp::Ordering {
        a.path(self.db).cmp(b.path(self.db))
    }

    fn package_files(&self, file: SourceFile) -> Arc<[SourceFile]> {
        package_of(self.db, self.ws, file)
    }
}

/// Every edge leaving `file`'s nodes, to stable identities ([`FileEdges`]); `None` for a
/// manifest. Reads the file's shape, how its imports resolve, and the [`file_exports`] of
/// the files its imports and re-export chains reach — no workspace-wide table: names
/// guessed workspace-wide stay symbolic until [`workspace_graph`] assembles.
#[salsa::tracked(returns(clone))]
pub fn file_edges(
    db: &dyn Db,
    ws: Workspace,
    file: SourceFile,
) -> Option<Arc<FileEdges<SourceFile>>> {
    let link = file_link(db, ws, file);
    let own = link.exports(db)?;
    let shape = file_shape(db, file);
    let resolved = link.resolutions(db);
    let peers = package_of(db, ws, file);
    let source = EdgeSource {
        file,
        shape: &shape,
        tables: &own,
        resolutions: &resolved.resolutions,
        targets: &resolved.targets,
        language: language_of(db, file),
        peers: &peers,
    };
    let lookup = TrackedLookup {
        db,
        ws,
        fetched: RefCell::default(),
    };
    Some(Arc::new(edges::file_edges(&lookup, &source)))
}

/// One file's cached parts of the graph, as [`graph_chunk`] groups them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileGraphPart {
    /// The file.
    pub file: SourceFile,
    /// Its stable id ([`file_id`]), kept here so that the assembly reads no input of
    /// every file (each read would be one more dependency of the graph for salsa to
    /// record and verify).
    pub id: u32,
    /// Its repo-relative path.
    pub path: String,
    /// Its language's position in the database's languages; `None` for manifests.
    pub language: Option<u8>,
    /// Its declarations' names and kinds ([`FileDecls`]); `None` for manifests.
    pub decls: Option<Arc<FileDecls>>,
    /// Its [`file_edges`]; `None` for manifests.
    pub edges: Option<Arc<FileEdges<SourceFile>>>,
    /// Those edges' resolved part as edges naming files by stable id ([`file_id`]), so
    /// these change only with the file's own edges; the assembly renumbers them by
    /// position and drops any to a file no longer in the workspace.
    pub resolved: Vec<Edge>,
}

/// A file's stable id in the graph's cached parts ([`crate::graph::NodeId::file`]): the
/// id the index gave its input ([`SourceFile::id`]), which no added or removed file
/// changes.
pub fn file_id(db: &dyn Db, file: SourceFile) -> u32 {
    file.id(db)
}

/// Each file's position in the workspace's file list.
///
/// Workspace-wide hazard: re-runs when a file is added or removed (positions shift then).
#[salsa::tracked(returns(clone))]
pub fn file_positions(db: &dyn Db, ws: Workspace) -> Arc<FxHashMap<SourceFile, u32>> {
    Arc::new(
        ws.files(db)
            .iter()
            .enumerate()
            .map(|(i, f)| (*f, i as u32))
            .collect(),
    )
}

/// The cached graph parts of one chunk of the workspace's files ([`FileBlock`]), in path
/// order.
/// The assembly fetches one of these per chunk instead of two queries per file: after an
/// edit, only the edited file's chunk gathers its files' parts again, and the others are
/// handed over as they are (each part is shared, not copied).
///
/// Also the firewall for declarations: the [`FileDecls`] of the chunk's files are taken
/// from their shapes here (a per-file query for them would be one more memo per file for
/// salsa to verify after every edit), and a chunk whose declarations and edges come out
/// equal — an edit that only adds calls, or a usage that resolves to nothing —
/// backdates, so the graph is not assembled again.
#[salsa::tracked(returns(clone))]
pub fn graph_chunk<'db>(
    db: &'db dyn Db,
    ws: Workspace,
    chunk: FileBlock<'db>,
) -> Arc<Vec<FileGraphPart>> {
    let files = file_block_files(db, ws, chunk);
    Arc::new(
        files
            .iter()
            .map(|f| {
                let source = f.role(db) != FileRole::Manifest;
                let edges = file_edges(db, ws, *f);
                let mut resolved = Vec::new();
                if let Some(edges) = &edges {
                    let id = |t: SourceFile| Some(file_id(db, t));
                    resolve_edges(file_id(db, *f), *f, &edges.edges, id, &mut resolved);
                }
                FileGraphPart {
                    file: *f,
                    id: file_id(db, *f),
                    path: f.path(db).clone(),
                    language: match f.role(db) {
                        FileRole::Source(id) => Some(id.language),
                        FileRole::Manifest => None,
                    },
                    decls: source.then(|| Arc::new(FileDecls::of(&file_shape(db, *f)))),
                    edges,
                    resolved,
                }
            })
            .collect(),
    )
}

/// Every file's cached graph parts, one [`graph_chunk`] after another (files grouped by
/// chunk, not in workspace order), as the index last set them
/// ([`crate::db::BlockGraph`]): reading them reaches no file's memos, so a file's first
/// edit does not make the assembly re-verify every file's edges.
pub fn graph_parts(db: &dyn Db, ws: Workspace) -> Vec<Arc<Vec<FileGraphPart>>> {
    file_blocks(db, ws)
        .into_iter()
        .map(|block| crate::db::indexed_graph_chunk(db, ws, block))
        .collect()
}

/// The workspace graph: declarations, resolved edges and the name table, assembled from
/// every file's cached [`file_edges`] ([`Graph::assemble`]: numbering nodes, concatenating
/// edge lists, resolving guesses by name; no import is resolved here). Over the same file
/// list it starts from the last assembly ([`crate::db::LastAssembly`],
/// [`Graph::reassemble`]) and recomputes only the files whose parts changed.
///
/// Workspace-wide hazard: reads every file's declarations and edges (through
/// [`graph_chunk`]), so it re-executes after any edit that changes a file's declarations
/// or outgoing edges (its cost is a pass over nodes and edges); a later edit that only
/// moves lines backdates at [`file_shape`], and one that changes usages without changing
/// edges backdates at [`file_edges`], and both leave it alone (so does a file's first
/// edit: salsa would not backdate what its lowered durability reaches, but the index
/// compares a block's parts by value before it sets them).
#[salsa::tracked(returns(clone))]
pub fn workspace_graph(db: &dyn Db, ws: Workspace) -> Arc<Graph> {
    let chunks = graph_parts(db, ws);
    db.last_assembly()
        .assemble(ws, &assembly_parts(db, ws, &chunks))
}

/// The parts of `chunks` (the [`graph_parts`] of `ws`) as [`Graph::assemble`] takes them:
/// in the workspace's file order, which numbers the graph's files.
pub fn assembly_parts<'a>(
    db: &dyn Db,
    ws: Workspace,
    chunks: &'a [Arc<Vec<FileGraphPart>>],
) -> Vec<GraphPart<'a, SourceFile>> {
    let positions = file_positions(db, ws);
    let mut ordered: Vec<Option<&FileGraphPart>> = vec![None; positions.len()];
    for part in chunks.iter().flat_map(|c| c.iter()) {
        if let Some(&at) = positions.get(&part.file) {
            ordered[at as usize] = Some(part);
        }
    }
    ordered
        .into_iter()
        .flatten()
        .map(|p| GraphPart {
            file: p.file,
            id: p.id,
            path: p.path.as_str(),
            language: p.language,
            decls: p.decls.clone(),
            edges: p.edges.clone(),
            resolved: Some(&p.resolved),
        })
        .collect()
}
