//! The workspace graph: one node per module and per declaration, edges resolved through
//! imports, local scope and (for member calls) a bounded global name lookup.

use std::collections::HashMap;
use std::sync::Arc;

use rayon::prelude::*;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};

use crate::db::FileShape;
use crate::facts::{DeclKind, HeritageKind, Lang, UsageKind};
use crate::resolve::{ModuleResolver, Resolution};

pub type NodeId = u32;

/// A member call resolves through the global name table only when the name has at most
/// this many definitions; more means the name is too common to guess a target from.
pub const MAX_NAME_CANDIDATES: usize = 3;
/// How many re-export hops are followed to find where an imported name is declared.
const MAX_REEXPORT_HOPS: u32 = 4;
/// How many files one re-export lookup may look at, across all its branches.
const MAX_REEXPORT_VISITS: u32 = 64;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum EdgeKind {
    Contains,
    Imports,
    Calls,
    References,
    Extends,
    Implements,
    Renders,
    Instantiates,
}

impl EdgeKind {
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct Edge {
    pub from: NodeId,
    pub to: NodeId,
    pub kind: EdgeKind,
    /// False when the target was guessed from a name shared by several declarations.
    pub certain: bool,
}

/// One file handed to [`Graph::build`]; manifests have no shape.
pub struct GraphFile {
    pub path: String,
    pub shape: Option<Arc<FileShape>>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Graph {
    pub paths: Vec<String>,
    /// The module node of each file; its declarations follow it: decl `i` is `module + 1 + i`.
    pub module_node: Vec<NodeId>,
    pub node_file: Vec<u32>,
    /// `None` for module nodes.
    pub node_decl: Vec<Option<u32>>,
    /// Sorted by (from, to, kind).
    pub edges: Vec<Edge>,
    out_start: Vec<u32>,
    /// Edge indices sorted by target.
    in_order: Vec<u32>,
    in_start: Vec<u32>,
    /// Declaration nodes by exact name.
    pub names: HashMap<String, Vec<NodeId>>,
    pub stats: GraphStats,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct GraphStats {
    pub declarations: u32,
    pub edges_by_kind: Vec<(EdgeKind, u32)>,
    pub imports_resolved: u32,
    pub imports_external: u32,
    pub imports_unresolved: u32,
    /// A few `(file, specifier)` pairs that did not resolve, for diagnostics.
    pub unresolved_examples: Vec<(String, String)>,
}

/// What a local name refers to inside one file.
#[derive(Clone, Debug)]
enum Binding<'a> {
    Decl(NodeId),
    Imported { file: u32, name: &'a str },
    Namespace { file: u32 },
}

/// Per-file lookup tables, built once so resolution does not scan declaration lists.
#[derive(Default)]
struct FileTables<'a> {
    /// The first top-level exported declaration of each name.
    exports: FxHashMap<&'a str, u32>,
    /// The first top-level default-exported declaration.
    default_export: Option<u32>,
    /// The first declaration of each name under each parent.
    members: FxHashMap<(u32, &'a str), u32>,
    /// Every declared name.
    names: FxHashSet<&'a str>,
}

impl<'a> FileTables<'a> {
    fn of(shape: &'a FileShape) -> FileTables<'a> {
        let mut t = FileTables::default();
        for (i, d) in shape.decls.iter().enumerate() {
            let i = i as u32;
            t.names.insert(d.name.as_str());
            match d.parent {
                None => {
                    if d.default_export && t.default_export.is_none() {
                        t.default_export = Some(i);
                    }
                    if d.exported {
                        t.exports.entry(d.name.as_str()).or_insert(i);
                    }
                }
                Some(p) => {
                    t.members.entry((p, d.name.as_str())).or_insert(i);
                }
            }
        }
        t
    }
}

impl Graph {
    pub fn build(files: &[GraphFile], resolver: &ModuleResolver) -> Graph {
        // Resolve every import once: (file, import index) -> target file.
        let resolutions: Vec<Vec<Resolution>> = files
            .par_iter()
            .map(|f| match &f.shape {
                Some(shape) => shape
                    .imports
                    .iter()
                    .map(|imp| resolver.resolve(&f.path, &imp.specifier))
                    .collect(),
                None => Vec::new(),
            })
            .collect();
        Graph::build_resolved(files, &resolutions)
    }

    /// [`Graph::build`] with every file's imports already resolved: `resolutions[i][j]` is
    /// how import `j` of file `i` resolves (empty for files without a shape).
    pub fn build_resolved<R: std::borrow::Borrow<Vec<Resolution>>>(
        files: &[GraphFile],
        resolutions: &[R],
    ) -> Graph {
        let mut g = Graph {
            paths: files.iter().map(|f| f.path.clone()).collect(),
            ..Graph::default()
        };
        let file_ids: FxHashMap<&str, u32> = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.path.as_str(), i as u32))
            .collect();
        for (fi, f) in files.iter().enumerate() {
            let module = g.node_file.len() as NodeId;
            g.module_node.push(module);
            g.node_file.push(fi as u32);
            g.node_decl.push(None);
            if let Some(shape) = &f.shape {
                for (di, d) in shape.decls.iter().enumerate() {
                    let node = g.node_file.len() as NodeId;
                    g.node_file.push(fi as u32);
                    g.node_decl.push(Some(di as u32));
                    g.names.entry(d.name.clone()).or_default().push(node);
                }
                g.stats.declarations += shape.decls.len() as u32;
            }
        }
        let mut import_targets: Vec<Vec<Option<u32>>> = Vec::with_capacity(files.len());
        for (f, resolved) in files.iter().zip(resolutions) {
            let Some(shape) = &f.shape else {
                import_targets.push(Vec::new());
                continue;
            };
            let targets = shape
                .imports
                .iter()
                .zip(resolved.borrow().iter())
                .map(|(imp, resolution)| match resolution {
                    Resolution::File(p) => {
                        g.stats.imports_resolved += 1;
                        file_ids.get(p.as_str()).copied()
                    }
                    Resolution::Directory(_) => {
                        g.stats.imports_resolved += 1;
                        None
                    }
                    // A guessed submodule that does not exist: the name is not a module.
                    Resolution::External | Resolution::Unresolved if imp.optional => None,
                    Resolution::External => {
                        g.stats.imports_external += 1;
                        None
                    }
                    Resolution::Unresolved => {
                        g.stats.imports_unresolved += 1;
                        if g.stats.unresolved_examples.len() < 8 {
                            g.stats
                                .unresolved_examples
                                .push((f.path.clone(), imp.specifier.clone()));
                        }
                        None
                    }
                })
                .collect();
            import_targets.push(targets);
        }

        let edges = {
            let tables: Vec<FileTables> = files
                .par_iter()
                .map(|f| f.shape.as_deref().map(FileTables::of).unwrap_or_default())
                .collect();
            let global: FxHashMap<&str, &[NodeId]> = g
                .names
                .iter()
                .map(|(k, v)| (k.as_str(), v.as_slice()))
                .collect();
            let languages: Vec<Option<usize>> = files
                .iter()
                .map(|f| Lang::from_path(&f.path).map(crate::lang::language_index))
                .collect();
            let ctx = ResolveCtx {
                graph: &g,
                files,
                import_targets: &import_targets,
                tables: &tables,
                global: &global,
                languages: &languages,
            };
            let per_file: Vec<Vec<Edge>> = (0..files.len())
                .into_par_iter()
                .map(|fi| ctx.file_edges(fi))
                .collect();
            let mut edges = Vec::with_capacity(per_file.iter().map(Vec::len).sum());
            for e in per_file {
                edges.extend(e);
            }
            edges
        };
        g.index_edges(edges);
        g
    }

    fn index_edges(&mut self, edges: Vec<Edge>) {
        let n = self.node_file.len();
        self.out_start = vec![0; n + 1];
        for e in &edges {
            self.out_start[e.from as usize + 1] += 1;
        }
        for i in 0..n {
            self.out_start[i + 1] += self.out_start[i];
        }
        self.in_start = vec![0; n + 1];
        for e in &edges {
            self.in_start[e.to as usize + 1] += 1;
        }
        for i in 0..n {
            self.in_start[i + 1] += self.in_start[i];
        }
        // Edge indices bucketed by target in edge order: a stable sort by target.
        let mut next = self.in_start.clone();
        let mut in_order = vec![0u32; edges.len()];
        for (i, e) in edges.iter().enumerate() {
            let slot = &mut next[e.to as usize];
            in_order[*slot as usize] = i as u32;
            *slot += 1;
        }
        let mut by_kind: FxHashMap<EdgeKind, u32> = FxHashMap::default();
        for e in &edges {
            *by_kind.entry(e.kind).or_default() += 1;
        }
        let mut by_kind: Vec<(EdgeKind, u32)> = by_kind.into_iter().collect();
        by_kind.sort();
        self.stats.edges_by_kind = by_kind;
        self.in_order = in_order;
        self.edges = edges;
    }

    pub fn node_count(&self) -> usize {
        self.node_file.len()
    }

    pub fn outgoing(&self, node: NodeId) -> &[Edge] {
        let (s, e) = (
            self.out_start[node as usize],
            self.out_start[node as usize + 1],
        );
        &self.edges[s as usize..e as usize]
    }

    pub fn incoming(&self, node: NodeId) -> impl Iterator<Item = &Edge> {
        let (s, e) = (
            self.in_start[node as usize],
            self.in_start[node as usize + 1],
        );
        self.in_order[s as usize..e as usize]
            .iter()
            .map(|&i| &self.edges[i as usize])
    }

    /// The node of declaration `decl` in file `file`.
    pub fn decl_node(&self, file: u32, decl: u32) -> NodeId {
        self.module_node[file as usize] + 1 + decl
    }

    pub fn file_of(&self, node: NodeId) -> u32 {
        self.node_file[node as usize]
    }

    pub fn decl_of(&self, node: NodeId) -> Option<u32> {
        self.node_decl[node as usize]
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
        let mut parent = self.module_node[file as usize];
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

struct ResolveCtx<'a> {
    graph: &'a Graph,
    files: &'a [GraphFile],
    import_targets: &'a [Vec<Option<u32>>],
    tables: &'a [FileTables<'a>],
    global: &'a FxHashMap<&'a str, &'a [NodeId]>,
    /// Each file's position in `lang::LANGUAGES` (`None` for manifests): names link only
    /// within one language.
    languages: &'a [Option<usize>],
}

impl<'a> ResolveCtx<'a> {
    fn shape(&self, file: u32) -> Option<&'a FileShape> {
        self.files[file as usize].shape.as_deref()
    }

    /// Every edge leaving file `fi`'s nodes, sorted by (from, to, kind) and deduplicated.
    /// Every such edge starts at one of the file's own nodes, so concatenating the files'
    /// lists in file order gives the whole graph's sorted edge list.
    fn file_edges(&self, fi: usize) -> Vec<Edge> {
        let files = self.files;
        let Some(shape) = files[fi].shape.as_deref() else {
            return Vec::new();
        };
        let g = self.graph;
        let mut edges: Vec<Edge> = Vec::new();
        let module = g.module_node[fi];
        let decl_node = |i: u32| module + 1 + i;
        for (di, d) in shape.decls.iter().enumerate() {
            let from = d.parent.map_or(module, decl_node);
            edges.push(Edge {
                from,
                to: decl_node(di as u32),
                kind: EdgeKind::Contains,
                certain: true,
            });
        }
        let mut bindings: FxHashMap<&str, Binding> = FxHashMap::default();
        for (ii, imp) in shape.imports.iter().enumerate() {
            let Some(target) = self.import_targets[fi][ii] else {
                continue;
            };
            edges.push(Edge {
                from: module,
                to: g.module_node[target as usize],
                kind: EdgeKind::Imports,
                certain: true,
            });
            if imp.reexport {
                continue;
            }
            for n in &imp.names {
                bindings.insert(
                    n.local.as_str(),
                    Binding::Imported {
                        file: target,
                        name: n.imported.as_str(),
                    },
                );
            }
            if let Some(ns) = &imp.namespace {
                bindings.insert(ns.as_str(), Binding::Namespace { file: target });
            }
        }
        // Local declarations shadow imports of the same name; top-level ones win over nested.
        for (di, d) in shape.decls.iter().enumerate().rev() {
            if d.parent.is_none() || !bindings.contains_key(d.name.as_str()) {
                bindings.insert(d.name.as_str(), Binding::Decl(decl_node(di as u32)));
            }
        }
        for u in &shape.usages {
            let from = u.enclosing.map_or(module, decl_node);
            let kind = match u.kind {
                UsageKind::Call => EdgeKind::Calls,
                UsageKind::Render => EdgeKind::Renders,
                UsageKind::Instantiate => EdgeKind::Instantiates,
                UsageKind::Reference => EdgeKind::References,
            };
            self.resolve_usage(fi as u32, shape, &bindings, u, &mut |to, certain| {
                if to != from {
                    edges.push(Edge {
                        from,
                        to,
                        kind,
                        certain,
                    });
                }
            });
        }
        for (decl, hkind, name) in &shape.heritage {
            let from = decl_node(*decl);
            let kind = match hkind {
                HeritageKind::Extends => EdgeKind::Extends,
                HeritageKind::Implements => EdgeKind::Implements,
            };
            let mut push = |to: NodeId, certain: bool| {
                if to != from {
                    edges.push(Edge {
                        from,
                        to,
                        kind,
                        certain,
                    });
                }
            };
            match bindings.get(name.as_str()) {
                Some(b) => {
                    if let Some(t) = self.resolve_binding(b) {
                        push(t, true);
                    }
                }
                None => self.by_global_name(
                    fi as u32,
                    name,
                    |k| {
                        matches!(
                            k,
                            DeclKind::Class | DeclKind::Interface | DeclKind::TypeAlias
                        )
                    },
                    &mut push,
                ),
            }
        }
        edges.sort_unstable();
        edges.dedup_by(|a, b| a.from == b.from && a.to == b.to && a.kind == b.kind);
        edges
    }

    /// Calls `found(target, certain)` for each declaration usage `u` resolves to.
    fn resolve_usage(
        &self,
        file: u32,
        shape: &FileShape,
        bindings: &FxHashMap<&str, Binding>,
        u: &crate::db::ShapeUsage,
        found: &mut dyn FnMut(NodeId, bool),
    ) {
        let receiver = u.receiver.as_str();
        if receiver.is_empty() {
            if let Some(t) = bindings
                .get(u.name.as_str())
                .and_then(|b| self.resolve_binding(b))
            {
                found(t, true);
            }
            return;
        }
        let self_receiver = self.languages[file as usize]
            .is_some_and(|l| crate::lang::LANGUAGES[l].is_self_receiver(receiver));
        if self_receiver {
            // A method of the enclosing class.
            let class = enclosing_class(shape, u.enclosing);
            if let Some(class) = class
                && let Some(&i) = self.tables[file as usize]
                    .members
                    .get(&(class, u.name.as_str()))
            {
                found(self.graph.decl_node(file, i), true);
                return;
            }
        } else if let Some(Binding::Namespace { file: target }) = bindings.get(receiver) {
            if let Some(t) = self.export_of(*target, &u.name) {
                found(t, true);
            }
            return;
        } else if let Some(b @ Binding::Decl(_)) | Some(b @ Binding::Imported { .. }) =
            bindings.get(receiver)
        {
            // `Store.create()` / `handlers.onSave()`: a member of a known declaration.
            if let Some(owner) = self.resolve_binding(b)
                && let Some(member) = self.member_of(owner, &u.name)
            {
                found(member, true);
                return;
            }
        }
        if u.kind == UsageKind::Reference {
            return;
        }
        self.by_global_name(
            file,
            &u.name,
            |k| k.is_callable() || matches!(k, DeclKind::Class | DeclKind::Property),
            found,
        );
    }

    /// Declarations named `name` anywhere in the language of file `from`, when the name is
    /// rare enough to be a fair guess: calls `found(target, certain)` for each.
    fn by_global_name(
        &self,
        from: u32,
        name: &str,
        kind_ok: impl Fn(DeclKind) -> bool,
        found: &mut dyn FnMut(NodeId, bool),
    ) {
        let Some(nodes) = self.global.get(name) else {
            return;
        };
        let language = self.languages[from as usize];
        let mut matching = [0 as NodeId; MAX_NAME_CANDIDATES];
        let mut count = 0;
        for &n in nodes.iter() {
            let same_language = self.languages[self.graph.file_of(n) as usize] == language;
            if same_language && self.decl_kind(n).is_some_and(&kind_ok) {
                if count == MAX_NAME_CANDIDATES {
                    return;
                }
                matching[count] = n;
                count += 1;
            }
        }
        let certain = count == 1;
        for &n in &matching[..count] {
            found(n, certain);
        }
    }

    fn decl_kind(&self, node: NodeId) -> Option<DeclKind> {
        let file = self.graph.file_of(node);
        let decl = self.graph.decl_of(node)?;
        Some(self.shape(file)?.decls.get(decl as usize)?.kind)
    }

    fn member_of(&self, owner: NodeId, name: &str) -> Option<NodeId> {
        let file = self.graph.file_of(owner);
        let decl = self.graph.decl_of(owner)?;
        let i = *self.tables[file as usize].members.get(&(decl, name))?;
        Some(self.graph.decl_node(file, i))
    }

    fn resolve_binding(&self, b: &Binding) -> Option<NodeId> {
        match b {
            Binding::Decl(n) => Some(*n),
            Binding::Imported { file, name } => self.export_of(*file, name),
            Binding::Namespace { file } => Some(self.graph.module_node[*file as usize]),
        }
    }

    /// The declaration a module exports under `name`, following re-exports.
    /// Where `name`, as exported by `file`, is declared, following re-exports.
    fn export_of(&self, file: u32, name: &str) -> Option<NodeId> {
        let mut visits = 0;
        self.export_of_within(file, name, 0, &mut visits)
    }

    /// One step of [`Self::export_of`]. Both the chain length (`hops`) and the files looked
    /// at in all (`visits`) are bounded: `export *` fans out, so hops alone would allow
    /// (stars per file)^hops lookups for one import of a hostile barrel tree.
    fn export_of_within(
        &self,
        file: u32,
        name: &str,
        hops: u32,
        visits: &mut u32,
    ) -> Option<NodeId> {
        *visits += 1;
        if *visits > MAX_REEXPORT_VISITS {
            return None;
        }
        let shape = self.shape(file)?;
        let tables = &self.tables[file as usize];
        let direct = if name == "default" {
            tables.default_export
        } else {
            tables.exports.get(name).copied()
        };
        if let Some(i) = direct {
            return Some(self.graph.decl_node(file, i));
        }
        if hops >= MAX_REEXPORT_HOPS {
            return None;
        }
        // `import { a } from './x'; export { a }` re-exports a local import.
        for (ii, imp) in shape.imports.iter().enumerate() {
            let Some(target) = self.import_targets[file as usize]
                .get(ii)
                .copied()
                .flatten()
            else {
                continue;
            };
            if imp.reexport {
                if let Some(n) = imp.names.iter().find(|n| n.local == name) {
                    return self.export_of_within(target, &n.imported, hops + 1, visits);
                }
                if imp.names.is_empty() && imp.namespace.is_none() {
                    let found = self.export_of_within(target, name, hops + 1, visits);
                    if found.is_some() {
                        return found;
                    }
                }
                if imp.namespace.as_deref() == Some(name) {
                    return Some(self.graph.module_node[target as usize]);
                }
            }
        }
        // A local declaration exported under its own name via `export { name }` is already
        // flagged `exported` by the syntax stage; an imported name re-exported that way:
        for (ii, imp) in shape.imports.iter().enumerate() {
            if imp.reexport {
                continue;
            }
            let Some(target) = self.import_targets[file as usize]
                .get(ii)
                .copied()
                .flatten()
            else {
                continue;
            };
            if let Some(n) = imp.names.iter().find(|n| n.local == name) {
                let exported_here = !tables.names.contains(name);
                if exported_here {
                    return self.export_of_within(target, &n.imported, hops + 1, visits);
                }
            }
        }
        None
    }
}

fn enclosing_class(shape: &FileShape, mut decl: Option<u32>) -> Option<u32> {
    while let Some(d) = decl {
        let item = shape.decls.get(d as usize)?;
        if matches!(item.kind, DeclKind::Class | DeclKind::Variable) {
            return Some(d);
        }
        decl = item.parent;
    }
    None
}
