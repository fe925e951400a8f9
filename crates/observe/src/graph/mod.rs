//! The workspace graph: one node per module and per declaration, edges resolved through
//! imports, local scope and (for member calls) a bounded global name lookup.
//!
//! Built in two steps so that an edit costs in proportion to what it changed: each file's
//! outgoing edges are resolved on their own, to stable node identities
//! ([`file_edges`], a tracked query per file in [`crate::db`]); then [`Graph::assemble`]
//! concatenates those lists, resolving only the guesses by name. A node is a file and a
//! declaration in it ([`NodeId`]), never a global node position; cached edges name their
//! files by stable id, so one file's edges stay valid when another file changes or a file
//! comes or goes, and the assembly renumbers them by file position.

pub mod assemble;
pub mod exports;
pub mod file_edges;
pub mod names;
pub mod queries;
mod segments;

use std::hash::Hash;
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

pub use assemble::{Assembled, Reassembly};
pub use names::NameTable;

pub use exports::{ExportRules, FileExports, ImportTargets, TargetedImport};
pub use file_edges::{
    EdgeSource, ExportsLookup, FileEdge, FileEdges, ImportCounts, LocalNode, NameEdge, NameGuess,
    NodeRef,
};

use crate::db::FileShape;
use crate::facts::DeclKind;
use crate::resolve::{ModuleResolver, Resolution};

/// A node: a file and, within it, the module (`local` 0) or declaration `d` (`local`
/// `d + 1`), so a declaration added to one file changes no other file's node ids.
///
/// The file is named two ways. The edges a graph part caches ([`GraphPart::resolved`])
/// name it by its stable id ([`GraphPart::id`]), so a file added or removed elsewhere
/// leaves every cached part as it is. An assembled [`Graph`] names it by its position in
/// the graph's files (path order), into which the assembly renumbers the cached edges: the
/// same tree gives the same graph, node for node and in the same order, whatever files
/// came and went before (ties broken by node order never depend on the index's history).
/// Ordered by file, then module before declarations in source order.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
pub struct NodeId {
    /// The file's position in an assembled graph; its stable id in cached parts.
    pub file: u32,
    /// `0` for the module, `d + 1` for declaration `d` (a [`LocalNode`]).
    pub local: LocalNode,
}

impl NodeId {
    /// The module node of `file`.
    pub fn module(file: u32) -> NodeId {
        NodeId { file, local: 0 }
    }

    /// The node of declaration `decl` of `file`.
    pub fn decl(file: u32, decl: u32) -> NodeId {
        NodeId {
            file,
            local: decl + 1,
        }
    }

    /// The declaration index; `None` for a module node.
    pub fn decl_index(self) -> Option<u32> {
        self.local.checked_sub(1)
    }
}

/// A member call resolves through the global name table only when the name has at most
/// this many definitions; more means the name is too common to guess a target from.
pub const MAX_NAME_CANDIDATES: usize = 3;

/// What an edge says about its source and target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EdgeKind {
    /// A module or declaration encloses a declaration.
    Contains,
    /// A module imports another module.
    Imports,
    /// A call of a function or method.
    Calls,
    /// A use of a name that is not a call (a type, a value passed on).
    References,
    /// A class or interface extends another.
    Extends,
    /// A class implements an interface.
    Implements,
    /// A JSX element renders a component.
    Renders,
    /// `new` of a class.
    Instantiates,
}

impl EdgeKind {
    /// Every kind, in order (each one's position is its discriminant).
    pub const ALL: [EdgeKind; 8] = [
        EdgeKind::Contains,
        EdgeKind::Imports,
        EdgeKind::Calls,
        EdgeKind::References,
        EdgeKind::Extends,
        EdgeKind::Implements,
        EdgeKind::Renders,
        EdgeKind::Instantiates,
    ];

    /// The kind's lowercase name, as reports and diagnostics print it.
    pub fn as_str(self) -> &'static str {
        match self {
            EdgeKind::Contains => "contains",
            EdgeKind::Imports => "imports",
            EdgeKind::Calls => "calls",
            EdgeKind::References => "references",
            EdgeKind::Extends => "extends",
            EdgeKind::Implements => "implements",
            EdgeKind::Renders => "renders",
            EdgeKind::Instantiates => "instantiates",
        }
    }
}

/// One directed edge between two nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Edge {
    /// The node the edge leaves (the user, the container, the importer).
    pub from: NodeId,
    /// The node it reaches (the used, the contained, the imported).
    pub to: NodeId,
    /// What the edge says.
    pub kind: EdgeKind,
    /// False when the target was guessed from a name shared by several declarations.
    pub certain: bool,
    /// The target was guessed by name (among several declarations, or the only one of the
    /// name, which is then `certain` too), not resolved through imports and scope.
    pub guessed: bool,
}

impl Edge {
    /// Resolved through imports and scope: neither a guess among several declarations nor
    /// the only declaration of a name a call used (`logger.info()` is not the repository's
    /// one `info` method, however certain its name makes the guess).
    pub fn resolved(&self) -> bool {
        self.certain && !self.guessed
    }
}

/// One file handed to [`Graph::build`]; manifests have no shape.
pub struct GraphFile {
    /// The file's repository-relative path.
    pub path: String,
    /// Its shape; `None` for manifests.
    pub shape: Option<Arc<FileShape>>,
}

/// The assembled workspace graph: nodes by identity ([`NodeId`]: a file's module, then
/// its declarations), edges indexed both ways in segments of files (shared with the graph
/// it was reassembled from where no edge of theirs changed), and a name table.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    /// Each file's path, by file position (shared with the graph it was reassembled
    /// from when the file list is the same).
    pub paths: Arc<[String]>,
    /// Every edge, in edge order (by (from, to, kind)), indexed both ways.
    index: segments::EdgeIndex,
    /// Declaration nodes by exact name (shared with the graph it was reassembled from when
    /// no declaration changed).
    pub names: Arc<NameTable>,
    /// Counts for the index report.
    pub stats: GraphStats,
}

/// What the graph holds and how its imports resolved.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphStats {
    /// Declaration nodes.
    pub declarations: u32,
    /// Edges per kind, sorted by kind.
    pub edges_by_kind: Vec<(EdgeKind, u32)>,
    /// Imports resolved to a repository file or directory.
    pub imports_resolved: u32,
    /// Imports of packages outside the repository.
    pub imports_external: u32,
    /// Imports that resolve nowhere.
    pub imports_unresolved: u32,
    /// A few `(file, specifier)` pairs that did not resolve, for diagnostics.
    pub unresolved_examples: Vec<(String, String)>,
}

impl Graph {
    /// Heap bytes of the edges and their index, and of the paths.
    pub(crate) fn heap_bytes(&self) -> (usize, usize) {
        let edges = self.index.heap_bytes();
        let paths = self.paths.iter().map(|p| 24 + p.capacity()).sum();
        (edges, paths)
    }
}

impl Graph {
    /// Builds the graph of `files` outside salsa, resolving imports with `resolver`: the
    /// same per-file resolution and assembly as [`crate::db::workspace_graph`], for
    /// programs and tests without a database. Node order follows `files`' order.
    pub fn build(files: &[GraphFile], resolver: &ModuleResolver) -> Graph {
        let positions: FxHashMap<&str, u32> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.as_str(), i as u32))
            .collect();
        let resolutions: Vec<Vec<Resolution>> = files
            .par_iter()
            .map(|f| match &f.shape {
                Some(shape) => shape
                    .imports()
                    .iter()
                    .map(|imp| resolver.resolve(&f.path, &imp.specifier))
                    .collect(),
                None => Vec::new(),
            })
            .collect();
        let targets: Vec<ImportTargets<u32>> = resolutions
            .iter()
            .map(|r| {
                ImportTargets::from_lists(r.iter().map(|r| {
                    r.files()
                        .iter()
                        .filter_map(|p| positions.get(p.as_str()).copied())
                }))
            })
            .collect();
        let languages = resolver.languages();
        let lang_id = |path: &str| languages.of_path(path);
        let language_of = |path: &str| lang_id(path).and_then(|id| languages.of(id));
        // Each source file's package (its language's position and package key), and the
        // files of each package, in file order.
        let package_of: Vec<Option<(u8, String)>> = files
            .iter()
            .map(|f| {
                let id = lang_id(&f.path)?;
                let key = languages.of(id)?.package_scope(&f.path)?;
                Some((id.language, key))
            })
            .collect();
        let mut packages: FxHashMap<&(u8, String), Vec<u32>> = FxHashMap::default();
        for (i, p) in package_of.iter().enumerate() {
            if let Some(p) = p {
                packages.entry(p).or_default().push(i as u32);
            }
        }
        let packages: FxHashMap<&(u8, String), Arc<[u32]>> = packages
            .into_iter()
            .map(|(k, v)| (k, Arc::from(v)))
            .collect();
        let tables = PositionalTables {
            tables: files
                .iter()
                .zip(&targets)
                .zip(&package_of)
                .map(|((f, t), package)| {
                    let rules = ExportRules {
                        default_name: language_of(&f.path).and_then(|l| l.default_export_name()),
                        package_visible: package.is_some(),
                    };
                    let shape = f.shape.as_deref()?;
                    Some(Arc::new(FileExports::of(&shape.items, t, rules)))
                })
                .collect(),
            packages: package_of
                .iter()
                .map(|p| match p {
                    Some(p) => packages[p].clone(),
                    None => Arc::from(Vec::new()),
                })
                .collect(),
        };
        let edges: Vec<Option<Arc<FileEdges<u32>>>> = (0..files.len())
            .into_par_iter()
            .map(|fi| {
                let shape = files[fi].shape.as_deref()?;
                let own = tables.tables[fi].as_deref()?;
                let peers = tables.package_files(fi as u32);
                let source = EdgeSource {
                    file: fi as u32,
                    shape,
                    tables: own,
                    resolutions: &resolutions[fi],
                    targets: &targets[fi],
                    language: language_of(&files[fi].path),
                    peers: &peers,
                };
                Some(Arc::new(file_edges::file_edges(&tables, &source)))
            })
            .collect();
        let parts: Vec<GraphPart<u32>> = files
            .iter()
            .zip(edges)
            .enumerate()
            .map(|(i, (f, edges))| GraphPart {
                file: i as u32,
                id: i as u32,
                path: &f.path,
                language: languages.of_path(&f.path).map(|id| id.language),
                decls: f.shape.as_deref().map(|s| Arc::new(FileDecls::of(s))),
                edges,
                resolved: None,
            })
            .collect();
        Graph::assemble(&parts)
    }

    /// Sets the edge index and the counts per kind.
    fn set_index(&mut self, index: segments::EdgeIndex) {
        self.stats.edges_by_kind = EdgeKind::ALL
            .iter()
            .zip(index.by_kind())
            .filter(|(_, n)| *n > 0)
            .map(|(k, n)| (*k, n))
            .collect();
        self.index = index;
    }

    /// Every edge, sorted by (from, to, kind).
    pub fn edges(&self) -> impl Iterator<Item = &Edge> {
        self.index.edges()
    }

    /// How many edges there are.
    pub fn edge_count(&self) -> usize {
        self.index.edge_count()
    }

    /// Module and declaration nodes in all.
    pub fn node_count(&self) -> usize {
        self.index.node_count()
    }

    /// Whether `node` is a node of this graph: its file is indexed and holds that many
    /// declarations.
    pub fn contains(&self, node: NodeId) -> bool {
        self.index.contains(node)
    }

    /// The edges leaving `node`, sorted by (to, kind); none for a node this graph does not
    /// hold (an id kept from before an edit that removed its declaration).
    pub fn outgoing(&self, node: NodeId) -> &[Edge] {
        self.index.outgoing(node)
    }

    /// The edges reaching `node`, in edge order; none for a node this graph does not hold.
    pub fn incoming(&self, node: NodeId) -> impl Iterator<Item = &Edge> {
        self.index.incoming(node)
    }

    /// The node of declaration `decl` in the file at position `file`.
    pub fn decl_node(&self, file: u32, decl: u32) -> NodeId {
        NodeId::decl(file, decl)
    }

    /// The position of the file `node` belongs to.
    pub fn file_of(&self, node: NodeId) -> u32 {
        node.file
    }

    /// The declaration index of `node` in its file; `None` for a module node.
    pub fn decl_of(&self, node: NodeId) -> Option<u32> {
        node.decl_index()
    }

    /// The file id of the indexed file at `path`. Linear in the number of files: for tests
    /// and diagnostics, not for hot paths.
    pub fn file_id(&self, path: &str) -> Option<u32> {
        self.paths.iter().position(|p| p == path).map(|i| i as u32)
    }

    /// The node named by `qualified` in the file at `path`: the module node when
    /// `qualified` is empty, else the declaration reached by following `.`-separated
    /// names down the `contains` tree from the module (`RecordStore.save` is the member
    /// `save` of the top-level `RecordStore`). The first match in source order wins.
    /// Linear in the file count: for tests and diagnostics, not for hot paths.
    pub fn node_by_name(&self, path: &str, qualified: &str) -> Option<NodeId> {
        let file = self.file_id(path)?;
        let mut parent = NodeId::module(file);
        if qualified.is_empty() {
            return Some(parent);
        }
        for segment in qualified.split('.') {
            parent = *self.names.get(segment)?.iter().find(|&&n| {
                self.file_of(n) == file
                    && self
                        .incoming(n)
                        .any(|e| e.kind == EdgeKind::Contains && e.from == parent)
            })?;
        }
        Some(parent)
    }
}

/// What the assembly reads of a file's declarations: their names, packed in one string,
/// and kinds, in declaration order. Narrower than the shape on purpose: an edit that
/// changes only usages (a call added to a body) leaves this equal, so when the file's
/// edges are also unchanged the graph is not assembled again.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct FileDecls {
    /// Every name, concatenated.
    text: String,
    /// Where each name ends in `text`.
    ends: Vec<u32>,
    /// Each declaration's kind.
    kinds: Vec<DeclKind>,
}

impl FileDecls {
    /// The declarations of `shape`.
    pub fn of(shape: &FileShape) -> FileDecls {
        let mut d = FileDecls {
            text: String::with_capacity(shape.decls().iter().map(|d| d.name.len()).sum()),
            ends: Vec::with_capacity(shape.decls().len()),
            kinds: Vec::with_capacity(shape.decls().len()),
        };
        for decl in shape.decls() {
            d.text.push_str(&decl.name);
            d.ends.push(d.text.len() as u32);
            d.kinds.push(decl.kind);
        }
        d
    }

    /// How many declarations the file has.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the file declares nothing.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The name of declaration `i`.
    pub fn name(&self, i: usize) -> &str {
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1] as usize,
        };
        &self.text[start..self.ends[i] as usize]
    }
}

/// One file handed to [`Graph::assemble`], in workspace order.
pub struct GraphPart<'a, F> {
    /// The file's identity, as its edges' [`NodeRef`]s name it.
    pub file: F,
    /// Its stable id as a number, the [`NodeId::file`] of its nodes in
    /// [`GraphPart::resolved`]: unique among the parts and independent of the file's
    /// position, so files added or removed elsewhere change none of its cached edges.
    pub id: u32,
    /// Its repo-relative path.
    pub path: &'a str,
    /// Its language's position in the registered languages (`None` for a manifest):
    /// guesses by name link only files of one language.
    pub language: Option<u8>,
    /// Its declarations' names and kinds; `None` for manifests.
    pub decls: Option<Arc<FileDecls>>,
    /// Its outgoing edges; `None` for manifests.
    pub edges: Option<Arc<FileEdges<F>>>,
    /// `edges.edges` already resolved to node ids by stable file id ([`resolve_edges`]
    /// with [`GraphPart::id`]s), when the caller keeps them (the workspace's chunks do):
    /// the assembly renumbers them instead of resolving again.
    pub resolved: Option<&'a [Edge]>,
}

/// A file's edges to resolved nodes as the graph's edges, the file's number being `here`;
/// `position` gives another file's number (`None`: outside the workspace, and the edge is
/// dropped): positions in an assembled graph, stable ids in a cached part. Appends them to
/// `out` in the order of `edges`.
pub fn resolve_edges<F: Copy + Eq>(
    here: u32,
    file: F,
    edges: &[FileEdge<F>],
    position: impl Fn(F) -> Option<u32>,
    out: &mut Vec<Edge>,
) {
    // The last target file looked up: a file's edges come grouped by target file.
    let mut last: Option<(F, u32)> = None;
    for e in edges {
        let target = match last {
            Some((f, at)) if f == e.to.file => at,
            _ if e.to.file == file => here,
            _ => match position(e.to.file) {
                Some(t) => {
                    last = Some((e.to.file, t));
                    t
                }
                None => continue,
            },
        };
        out.push(Edge {
            from: NodeId {
                file: here,
                local: e.from,
            },
            to: NodeId {
                file: target,
                local: e.to.decl.map_or(0, |d| d + 1),
            },
            kind: e.kind,
            certain: e.certain,
            guessed: false,
        });
    }
}

/// The files' tables and packages by position, for [`Graph::build`].
struct PositionalTables {
    tables: Vec<Option<Arc<FileExports<u32>>>>,
    /// Each file's package (itself included), empty for a file in none.
    packages: Vec<Arc<[u32]>>,
}

impl ExportsLookup<u32> for PositionalTables {
    fn exports(&self, file: u32) -> Option<Arc<FileExports<u32>>> {
        self.tables.get(file as usize)?.clone()
    }

    fn file_order(&self, a: u32, b: u32) -> std::cmp::Ordering {
        a.cmp(&b)
    }

    fn package_files(&self, file: u32) -> Arc<[u32]> {
        match self.packages.get(file as usize) {
            Some(files) => files.clone(),
            None => Arc::from(Vec::new()),
        }
    }
}
