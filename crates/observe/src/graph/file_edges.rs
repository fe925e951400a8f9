//! One file's outgoing edges, resolved to stable node identities.
//!
//! A target is a [`NodeRef`]: a file (whatever identifies one to the caller: a salsa
//! [`crate::SourceFile`], or a position for [`super::Graph::build`]) and a declaration index
//! within that file, or the file's module. Never a workspace position, so the result of
//! one file does not change when another file gains a declaration or the file list
//! grows. What a file can see of other files goes through [`ExportsLookup`], one
//! [`FileExports`] per file; names guessed workspace-wide are left symbolic
//! ([`NameEdge`]) and resolved when the graph is assembled.
//!
//! A name used in a file binds, in order, to: the file's own declarations; its imports
//! (a named import, or a namespace bound to the file or files an import reaches, so
//! `ns.f` is looked up among every file of a package); the top-level declarations of its
//! package peers (files its language puts in the same package,
//! `Language::package_scope`); the exports of its glob imports. A receiver (`T` in
//! `T.m()`) binds the same way. A named import may import a member of an exported type
//! by a dotted name (`T.m`, a static import): the member path below the export `T`. A
//! declaration attached to
//! a type declared apart from it (`Declaration::attached_to`) is contained by a type of
//! that name in its own file or a package peer, and is a member of it for lookups.

use std::cmp::Ordering;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use sightline_lang::Language;

use super::EdgeKind;
use super::exports::{FileExports, ImportTargets};
use crate::db::FileShape;
use crate::facts::Usage;
use crate::facts::{DeclKind, HeritageKind, UsageKind};
use crate::resolve::Resolution;

/// How many re-export hops are followed to find where an imported name is declared.
pub(crate) const MAX_REEXPORT_HOPS: u32 = 4;
/// How many files one re-export lookup may look at, across all its branches.
const MAX_REEXPORT_VISITS: u32 = 64;
/// How many unresolved specifiers a file keeps as examples for diagnostics.
const MAX_UNRESOLVED_EXAMPLES: usize = 8;

/// A node by identity: the module of `file` (`decl: None`) or its declaration `decl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct NodeRef<F> {
    /// The file holding the node.
    pub file: F,
    /// The declaration's index in the file's shape; `None` for the module.
    pub decl: Option<u32>,
}

/// A node of the file whose edges these are: `0` is its module, `d + 1` its declaration
/// `d`, so adding the file's first node position gives the graph's node id.
pub type LocalNode = u32;

/// An edge leaving one of the file's own nodes towards a resolved node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FileEdge<F> {
    /// The file's own node the edge leaves.
    pub from: LocalNode,
    /// The node it reaches, in this file or another.
    pub to: NodeRef<F>,
    /// What the edge means.
    pub kind: EdgeKind,
    /// False when the target was guessed from a name shared by several declarations.
    pub certain: bool,
}

/// Which declarations a guess by name may reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NameGuess {
    /// A call or instantiation: functions, methods, classes, structs, macros and
    /// properties.
    Callable,
    /// A heritage clause: classes, interfaces, traits, structs and type aliases.
    TypeLike,
}

impl NameGuess {
    /// Whether a declaration of `kind` may be the target of this guess.
    pub fn accepts(self, kind: DeclKind) -> bool {
        match self {
            NameGuess::Callable => {
                kind.is_callable()
                    || matches!(
                        kind,
                        DeclKind::Class | DeclKind::Struct | DeclKind::Macro | DeclKind::Property
                    )
            }
            NameGuess::TypeLike => matches!(
                kind,
                DeclKind::Class
                    | DeclKind::Interface
                    | DeclKind::Trait
                    | DeclKind::Struct
                    | DeclKind::TypeAlias
            ),
        }
    }
}

/// An edge whose target is guessed from a name no binding of the file explains: any
/// declaration of that name in the file's language, when at most
/// [`super::MAX_NAME_CANDIDATES`] of the right kind exist (certain when exactly one).
///
/// Left symbolic on purpose: resolving it needs every file's declarations, and a file's
/// edges must not depend on a workspace-wide table, or an edit adding one declaration
/// anywhere would recompute every file's edges. The assembly of the graph, which reads
/// every file anyway, resolves these against its name table.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NameEdge {
    /// The file's own node the edge leaves.
    pub from: LocalNode,
    /// The name the target must be declared under, as a range of
    /// [`FileEdges::guessed_names`] (see [`FileEdges::name`]).
    pub name: (u32, u32),
    /// What the edge means.
    pub kind: EdgeKind,
    /// Which declaration kinds qualify.
    pub guess: NameGuess,
    /// The type the call's receiver names when the file neither declares nor imports it
    /// (`Vec::new()`, `JSON.parse(text)`, `Math.max(a, b)`), as a range of
    /// [`FileEdges::guessed_names`]; empty otherwise. The guess stands only where the
    /// repository declares a type of that name: otherwise the receiver is the language's
    /// or a dependency's, and so is its member.
    pub owner: (u32, u32),
}

/// How a file's imports resolved, for the graph's statistics.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct ImportCounts {
    /// Imports resolved to a file or directory of the index.
    pub resolved: u32,
    /// Imports of packages outside the workspace.
    pub external: u32,
    /// Imports that should be in the workspace but match no file.
    pub unresolved: u32,
    /// The first few unresolved specifiers.
    pub unresolved_examples: Vec<String>,
}

/// Every edge leaving one file's nodes; see the module doc.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileEdges<F> {
    /// Edges to resolved nodes, sorted by (from, target file in path order, target
    /// declaration, kind, certain) and deduplicated by (from, to, kind): in the order of
    /// the assembled graph, whose files are sorted by path.
    pub edges: Vec<FileEdge<F>>,
    /// Edges to declarations guessed by name, resolved at assembly.
    pub by_name: Vec<NameEdge>,
    /// The distinct names of `by_name`, packed in one string (the assembly reads them
    /// all, and one allocation per file keeps that pass in cache).
    pub guessed_names: String,
    /// How the file's imports resolved.
    pub imports: ImportCounts,
}

impl<F> Default for FileEdges<F> {
    fn default() -> Self {
        FileEdges {
            edges: Vec::new(),
            by_name: Vec::new(),
            guessed_names: String::new(),
            imports: ImportCounts::default(),
        }
    }
}

impl<F> FileEdges<F> {
    /// The name edge `e` guesses by.
    pub fn name(&self, e: &NameEdge) -> &str {
        &self.guessed_names[e.name.0 as usize..e.name.1 as usize]
    }

    /// The unbound type `e`'s receiver names (see [`NameEdge::owner`]), if any.
    pub fn owner(&self, e: &NameEdge) -> Option<&str> {
        let (start, end) = e.owner;
        (start < end).then(|| &self.guessed_names[start as usize..end as usize])
    }
}

/// Packs the names of a file's guesses, each distinct name once.
#[derive(Default)]
struct NamePacker<'a> {
    text: String,
    seen: FxHashMap<&'a str, (u32, u32)>,
}

impl<'a> NamePacker<'a> {
    fn range(&mut self, name: &'a str) -> (u32, u32) {
        if let Some(r) = self.seen.get(name) {
            return *r;
        }
        let start = self.text.len() as u32;
        self.text.push_str(name);
        let r = (start, self.text.len() as u32);
        self.seen.insert(name, r);
        r
    }
}

/// What resolving one file's edges may read of other files.
pub trait ExportsLookup<F> {
    /// The tables of `file`; `None` when it has no shape (a manifest).
    fn exports(&self, file: F) -> Option<Arc<FileExports<F>>>;
    /// How two files order in the workspace (by path): the graph's node order.
    fn file_order(&self, a: F, b: F) -> Ordering;
    /// The files of `file`'s package (itself included), for a language with packages
    /// (`Language::package_scope`); none otherwise.
    fn package_files(&self, _file: F) -> Arc<[F]> {
        Arc::from(Vec::new())
    }
}

/// One file to compute the edges of.
pub struct EdgeSource<'a, F> {
    /// The file's identity.
    pub file: F,
    /// Its shape.
    pub shape: &'a FileShape,
    /// Its own tables (what [`ExportsLookup::exports`] gives for `file`).
    pub tables: &'a FileExports<F>,
    /// How each import resolved, in import order.
    pub resolutions: &'a [Resolution],
    /// The files each import reaches, in import order.
    pub targets: &'a ImportTargets<F>,
    /// The file's language, whose binding rules apply (`None`: a file of no registered
    /// language, bound by its declarations and imports alone).
    pub language: Option<&'a dyn Language>,
    /// The files of its package other than itself (see [`ExportsLookup::package_files`]).
    pub peers: &'a [F],
}

/// What a local name refers to inside one file.
#[derive(Clone, Debug)]
enum Binding<'a, F> {
    Decl(u32),
    /// A name imported from the file, or the first of the files (a package), exporting it.
    Imported {
        files: &'a [F],
        name: &'a str,
    },
    /// A namespace bound to the file or files an import reaches.
    Namespace {
        files: &'a [F],
    },
    /// A name an import binds to a module outside the repository (`import json`,
    /// `import "strings"`, `use std::collections::HashMap`): none of the repository's
    /// declarations is its member.
    External,
}

/// Computes every edge leaving `source`'s nodes; see [`FileEdges`].
pub fn file_edges<F, L>(lookup: &L, source: &EdgeSource<'_, F>) -> FileEdges<F>
where
    F: Copy + Eq + std::hash::Hash,
    L: ExportsLookup<F> + ?Sized,
{
    let peers = source
        .peers
        .iter()
        .filter(|p| **p != source.file)
        .filter_map(|p| Some((*p, lookup.exports(*p)?)))
        .collect();
    let ctx = Resolver {
        lookup,
        source,
        peers,
    };
    ctx.edges()
}

struct Resolver<'a, 'b, F, L: ?Sized> {
    lookup: &'a L,
    source: &'a EdgeSource<'b, F>,
    /// The package peers' tables, in package order.
    peers: Vec<(F, Arc<FileExports<F>>)>,
}

impl<'a, 'b, F, L> Resolver<'a, 'b, F, L>
where
    F: Copy + Eq + std::hash::Hash,
    L: ExportsLookup<F> + ?Sized,
{
    fn here(&self, decl: u32) -> NodeRef<F> {
        NodeRef {
            file: self.source.file,
            decl: Some(decl),
        }
    }

    /// Whether `to` is the local node `from` (no edge from a node to itself).
    fn is_self(&self, from: LocalNode, to: &NodeRef<F>) -> bool {
        to.file == self.source.file && to.decl.map_or(0, |d| d + 1) == from
    }

    fn edges(&self) -> FileEdges<F> {
        let source = self.source;
        let shape = source.shape;
        let mut out = FileEdges {
            imports: import_counts(shape, source.resolutions),
            ..FileEdges::default()
        };
        let edges = &mut out.edges;
        let by_name = &mut out.by_name;
        let mut names = NamePacker::default();
        let local = |decl: Option<u32>| decl.map_or(0, |d| d + 1);
        for (di, d) in shape.decls().iter().enumerate() {
            edges.push(FileEdge {
                from: local(d.parent),
                to: self.here(di as u32),
                kind: EdgeKind::Contains,
                certain: true,
            });
        }
        self.attachment_edges(edges);
        let mut bindings: FxHashMap<&'b str, Binding<'b, F>> = FxHashMap::default();
        let mut globs: Vec<&'b [F]> = Vec::new();
        for (i, imp) in shape.imports().iter().enumerate() {
            let targets = source.targets.of(i);
            if targets.is_empty() {
                let external = matches!(source.resolutions.get(i), Some(Resolution::External));
                if external && !imp.reexport && !imp.optional {
                    for n in &imp.names {
                        bindings.insert(n.local.as_str(), Binding::External);
                    }
                    if let Some(ns) = &imp.namespace {
                        bindings.insert(ns.as_str(), Binding::External);
                    }
                }
                continue;
            }
            for &target in targets {
                edges.push(FileEdge {
                    from: 0,
                    to: NodeRef {
                        file: target,
                        decl: None,
                    },
                    kind: EdgeKind::Imports,
                    certain: true,
                });
            }
            if imp.reexport {
                continue;
            }
            for n in &imp.names {
                bindings.insert(
                    n.local.as_str(),
                    Binding::Imported {
                        files: targets,
                        name: n.imported.as_str(),
                    },
                );
            }
            if let Some(ns) = &imp.namespace {
                bindings.insert(ns.as_str(), Binding::Namespace { files: targets });
            }
            if imp.glob {
                globs.push(targets);
            }
        }
        // Local declarations shadow imports of the same name; top-level ones win over nested.
        // An attached declaration is reached through its type, never by its own name, and
        // so is a member of a type or object unless the language's bare names reach
        // members (a bare `line` in a Python method is a local, never the method `line`).
        let members_by_bare_name = self
            .source
            .language
            .is_some_and(|l| l.bare_names_reach_members());
        let decls = shape.decls();
        for (di, d) in decls.iter().enumerate().rev() {
            if d.attached_to.is_some() {
                continue;
            }
            let member = d
                .parent
                .and_then(|p| decls.get(p as usize))
                .is_some_and(|p| p.kind.holds_members());
            if member && !members_by_bare_name {
                continue;
            }
            if d.parent.is_none() || !bindings.contains_key(d.name.as_str()) {
                bindings.insert(d.name.as_str(), Binding::Decl(di as u32));
            }
        }
        let scope = Scope {
            bindings,
            peers: self.peer_names(),
            globs,
        };
        for u in shape.usages() {
            let from = local(u.enclosing);
            let kind = match u.kind {
                UsageKind::Call => EdgeKind::Calls,
                UsageKind::Render => EdgeKind::Renders,
                UsageKind::Instantiate => EdgeKind::Instantiates,
                UsageKind::Reference => EdgeKind::References,
            };
            match self.resolve_usage(&scope, u) {
                Some(Ok((to, certain))) if !self.is_self(from, &to) => edges.push(FileEdge {
                    from,
                    to,
                    kind,
                    certain,
                }),
                Some(Ok(_)) => {}
                Some(Err(guess)) => by_name.push(NameEdge {
                    from,
                    name: names.range(&u.name),
                    kind,
                    guess,
                    owner: match self.unbound_type(&scope, &u.receiver) {
                        Some(owner) => names.range(owner),
                        None => (0, 0),
                    },
                }),
                None => {}
            }
        }
        for h in shape.heritage() {
            let (decl, hkind, name) = (&h.decl, &h.kind, &h.name);
            let from = local(Some(*decl));
            let kind = match hkind {
                HeritageKind::Extends => EdgeKind::Extends,
                HeritageKind::Implements => EdgeKind::Implements,
            };
            // `ns.Base`: a name of the namespace `ns` binds, or of another package (no edge
            // and no guess: a name qualified by an unknown namespace is never this one's).
            if let Some((qualifier, last)) = name.rsplit_once('.') {
                if let Some(Binding::Namespace { files }) = scope.bindings.get(qualifier)
                    && let Some(to) = self.export_in(files, last)
                    && !self.is_self(from, &to)
                {
                    edges.push(FileEdge {
                        from,
                        to,
                        kind,
                        certain: true,
                    });
                }
                continue;
            }
            match self.resolve_name(&scope, name) {
                Some(to) => {
                    if !self.is_self(from, &to) {
                        edges.push(FileEdge {
                            from,
                            to,
                            kind,
                            certain: true,
                        });
                    }
                }
                None if scope.bindings.contains_key(name.as_str()) => {}
                None => by_name.push(NameEdge {
                    from,
                    name: names.range(name.as_str()),
                    kind,
                    guess: NameGuess::TypeLike,
                    owner: (0, 0),
                }),
            }
        }
        // Each distinct target file's rank in workspace order, so that sorting the edges
        // compares integers: ordering two files reads both paths (through the database).
        let mut targets: Vec<F> = Vec::new();
        let mut rank: FxHashMap<F, u32> = FxHashMap::default();
        for e in edges.iter() {
            if rank.insert(e.to.file, 0).is_none() {
                targets.push(e.to.file);
            }
        }
        let lookup = self.lookup;
        targets.sort_unstable_by(|a, b| lookup.file_order(*a, *b));
        for (i, f) in targets.iter().enumerate() {
            rank.insert(*f, i as u32);
        }
        edges.sort_unstable_by_key(|e| (e.from, rank[&e.to.file], e.to.decl, e.kind, e.certain));
        edges.dedup_by(|a, b| a.from == b.from && a.to == b.to && a.kind == b.kind);
        out.guessed_names = names.text;
        out
    }

    /// The first top-level declaration of each name among the package peers, in package
    /// order.
    fn peer_names(&self) -> FxHashMap<&str, NodeRef<F>> {
        let mut names = FxHashMap::default();
        for (file, tables) in &self.peers {
            for (name, decl) in tables.top_level() {
                names.entry(name.as_str()).or_insert(NodeRef {
                    file: *file,
                    decl: Some(*decl),
                });
            }
        }
        names
    }

    /// `contains` edges from this file's top-level declarations to the declarations
    /// attached to them by name, in this file or a package peer.
    fn attachment_edges(&self, edges: &mut Vec<FileEdge<F>>) {
        let own = self.source.tables;
        if !own.has_attached() && self.peers.iter().all(|(_, t)| !t.has_attached()) {
            return;
        }
        for (di, d) in self.source.shape.decls().iter().enumerate() {
            if d.parent.is_some() || d.attached_to.is_some() {
                continue;
            }
            let from = di as u32 + 1;
            let attached = own.attached_to(&d.name).map(|(_, a)| self.here(a)).chain(
                self.peers.iter().flat_map(|(file, tables)| {
                    tables.attached_to(&d.name).map(|(_, a)| NodeRef {
                        file: *file,
                        decl: Some(a),
                    })
                }),
            );
            for to in attached {
                edges.push(FileEdge {
                    from,
                    to,
                    kind: EdgeKind::Contains,
                    certain: true,
                });
            }
        }
    }

    /// What a bare name (no receiver) refers to: a binding, else a package peer's
    /// top-level declaration, else an export of a glob import.
    fn resolve_name(&self, scope: &Scope<'_, 'b, F>, name: &str) -> Option<NodeRef<F>> {
        if let Some(b) = scope.bindings.get(name) {
            return self.resolve_binding(b);
        }
        if let Some(to) = scope.peers.get(name) {
            return Some(*to);
        }
        self.glob_export(scope, name)
    }

    /// What usage `u` resolves to: a node (with whether it is certain), a guess by name
    /// left for the assembly, or nothing.
    fn resolve_usage(
        &self,
        scope: &Scope<'_, 'b, F>,
        u: &Usage,
    ) -> Option<Result<(NodeRef<F>, bool), NameGuess>> {
        let receiver: &str = &u.receiver;
        if receiver.is_empty() {
            return self.resolve_name(scope, &u.name).map(|t| Ok((t, true)));
        }
        let language = self.source.language;
        if language.is_some_and(|l| l.is_literal_receiver(receiver)) {
            // `"".join(parts)`: a method of the language's own type, not a guess.
            return None;
        }
        if names_external(scope, receiver) {
            // `json.loads(text)`, `errors.New(msg)`: a member of a module outside the
            // repository, not a guess.
            return None;
        }
        let receiver_binding = scope.bindings.get(receiver);
        if language.is_some_and(|l| l.is_self_receiver(receiver)) {
            // A method of the enclosing class, or one it inherits from a base it names.
            if let Some(owner) = self.self_owner(scope, u.enclosing)
                && let Some(member) = self.member_or_inherited(scope, owner, &u.name)
            {
                return Some(Ok((member, true)));
            }
        } else if let Some(Binding::Namespace { files }) = receiver_binding {
            return self.export_in(files, &u.name).map(|t| Ok((t, true)));
        } else if let Some(class) = instantiated(receiver)
            && let Some(owner) = self.resolve_name(scope, class)
            && let Some(member) = self.member_or_inherited(scope, owner, &u.name)
        {
            // `Http().flush()`, `new Store().save()`: a member of the type just built.
            return Some(Ok((member, true)));
        } else if let Some(owner) = match receiver_binding {
            Some(b @ Binding::Decl(_)) | Some(b @ Binding::Imported { .. }) => {
                self.resolve_binding(b)
            }
            // `Type.method()` of a type a package peer declares or a glob import brings.
            _ => scope
                .peers
                .get(receiver)
                .copied()
                .or_else(|| self.glob_export(scope, receiver)),
        } {
            // `Store.create()` / `handlers.onSave()`: a member of a known declaration.
            if let Some(member) = self.member_or_inherited(scope, owner, &u.name) {
                return Some(Ok((member, true)));
            }
        }
        if u.kind == UsageKind::Reference {
            return None;
        }
        Some(Err(NameGuess::Callable))
    }

    /// `receiver` when it is one capitalised name (a type, by the convention every
    /// language here follows) that nothing in the file binds, no package peer declares and
    /// no glob import may bring: `Vec`, `JSON`, `Math`, `Objects`. A one-letter name is
    /// left out: it is a type parameter (`T::default()`, `item.save()` of an `item: T`),
    /// whose members are the repository's own as often as not.
    fn unbound_type<'r>(&self, scope: &Scope<'_, 'b, F>, receiver: &'r str) -> Option<&'r str> {
        let mut chars = receiver.chars();
        let capital = chars.next().is_some_and(|c| c.is_uppercase()) && receiver.len() > 1;
        let plain = chars.all(|c| c.is_alphanumeric() || c == '_');
        let unbound = capital
            && plain
            && !scope.bindings.contains_key(receiver)
            && !scope.peers.contains_key(receiver)
            && scope.globs.is_empty()
            && !self
                .source
                .language
                .is_some_and(|l| l.is_self_receiver(receiver));
        unbound.then_some(receiver)
    }

    /// The member `name` of `owner` ([`Self::member_of`]), else of a base it names
    /// ([`Self::inherited_member`]): what a member call on a known type runs.
    fn member_or_inherited(
        &self,
        scope: &Scope<'_, 'b, F>,
        owner: NodeRef<F>,
        name: &str,
    ) -> Option<NodeRef<F>> {
        self.member_of(owner, name)
            .or_else(|| self.inherited_member(scope, owner, name))
    }

    /// The member `name` of a base that `owner` (a type of this file) extends or
    /// implements, one level up, the bases in the order the type names them: what a self
    /// call of an inherited method runs (`self._build()` in a subclass of
    /// the class declaring it). A base's own bases are another file's business.
    fn inherited_member(
        &self,
        scope: &Scope<'_, 'b, F>,
        owner: NodeRef<F>,
        name: &str,
    ) -> Option<NodeRef<F>> {
        if owner.file != self.source.file {
            return None;
        }
        let decl = owner.decl?;
        self.source
            .shape
            .heritage()
            .iter()
            .filter(|h| h.decl == decl)
            .find_map(|h| {
                let base = match h.name.rsplit_once('.') {
                    Some((qualifier, last)) => match scope.bindings.get(qualifier) {
                        Some(Binding::Namespace { files }) => self.export_in(files, last),
                        _ => None,
                    },
                    None => self.resolve_name(scope, &h.name),
                }?;
                self.member_of(base, name)
            })
    }

    /// What a self receiver names inside declaration `enclosing`: the innermost enclosing
    /// declaration that holds members, or the type an enclosing declaration is attached to.
    fn self_owner(&self, scope: &Scope<'_, 'b, F>, enclosing: Option<u32>) -> Option<NodeRef<F>> {
        let shape = self.source.shape;
        let mut decl = enclosing;
        while let Some(d) = decl {
            let item = shape.decls().get(d as usize)?;
            if item.kind.holds_members() {
                return Some(self.here(d));
            }
            if let Some(owner) = &item.attached_to {
                return self.resolve_name(scope, owner);
            }
            decl = item.parent;
        }
        None
    }

    /// The member `name` of the declaration `owner`: one declared in its body, else one
    /// attached to it by its name (or declared in a block attached to it), in its file or
    /// a package peer of this file.
    fn member_of(&self, owner: NodeRef<F>, name: &str) -> Option<NodeRef<F>> {
        let decl = owner.decl?;
        let tables = match owner.file == self.source.file {
            true => None,
            false => Some(self.lookup.exports(owner.file)?),
        };
        let owner_tables = tables.as_deref().unwrap_or(self.source.tables);
        if let Some(i) = owner_tables.member(decl, name) {
            return Some(NodeRef {
                file: owner.file,
                decl: Some(i),
            });
        }
        let type_name = match owner.file == self.source.file {
            true => self.source.shape.decls().get(decl as usize)?.name.as_str(),
            false => owner_tables.top_level_name(decl)?,
        };
        let in_package = owner.file == self.source.file
            || self.peers.iter().any(|(file, _)| *file == owner.file);
        let own = std::iter::once((self.source.file, self.source.tables));
        let peers = self.peers.iter().map(|(f, t)| (*f, &**t));
        let scope: Vec<(F, &FileExports<F>)> = match in_package {
            true => own.chain(peers).collect(),
            false => vec![(owner.file, owner_tables)],
        };
        for (file, tables) in scope {
            for (attached, a) in tables.attached_to(type_name) {
                let found = match attached == name {
                    true => Some(a),
                    false => tables.member(a, name),
                };
                if let Some(d) = found {
                    return Some(NodeRef {
                        file,
                        decl: Some(d),
                    });
                }
            }
        }
        None
    }

    fn resolve_binding(&self, b: &Binding<'_, F>) -> Option<NodeRef<F>> {
        match b {
            Binding::Decl(d) => Some(self.here(*d)),
            Binding::Imported { files, name } => self.export_in(files, name),
            Binding::Namespace { files } => files.first().map(|file| NodeRef {
                file: *file,
                decl: None,
            }),
            Binding::External => None,
        }
    }

    /// Where `name` is declared as exported by the first of `files` that exports it.
    /// A dotted name (`Type.member`, as an import may name a member of an exported type)
    /// is the member path below the export named by its first segment.
    fn export_in(&self, files: &[F], name: &str) -> Option<NodeRef<F>> {
        let Some((head, members)) = name.split_once('.') else {
            return files.iter().find_map(|file| self.export_of(*file, name));
        };
        let mut node = files.iter().find_map(|file| self.export_of(*file, head))?;
        for member in members.split('.') {
            node = self.member_of(node, member)?;
        }
        Some(node)
    }

    /// The first export named `name` among the files of the glob imports.
    fn glob_export(&self, scope: &Scope<'_, 'b, F>, name: &str) -> Option<NodeRef<F>> {
        scope
            .globs
            .iter()
            .find_map(|files| self.export_in(files, name))
    }

    /// Where `name`, as exported by `file`, is declared, following re-exports.
    fn export_of(&self, file: F, name: &str) -> Option<NodeRef<F>> {
        let mut visits = 0;
        self.export_of_within(file, name, 0, &mut visits)
    }

    /// One step of [`Self::export_of`]. Both the chain length (`hops`) and the files looked
    /// at in all (`visits`) are bounded: `export *` fans out, so hops alone would allow
    /// (stars per file)^hops lookups for one import of a hostile barrel tree.
    fn export_of_within(
        &self,
        file: F,
        name: &str,
        hops: u32,
        visits: &mut u32,
    ) -> Option<NodeRef<F>> {
        *visits += 1;
        if *visits > MAX_REEXPORT_VISITS {
            return None;
        }
        let tables = self.lookup.exports(file)?;
        if let Some(i) = tables.export(name) {
            return Some(NodeRef {
                file,
                decl: Some(i),
            });
        }
        if hops >= MAX_REEXPORT_HOPS {
            return None;
        }
        // `import { a } from './x'; export { a }` re-exports a local import.
        for imp in tables.imports.iter().filter(|i| i.reexport) {
            if let Some(n) = imp.names.iter().find(|n| n.local == name) {
                return self.export_of_within(imp.target, &n.imported, hops + 1, visits);
            }
            if imp.names.is_empty() && imp.namespace.is_none() {
                let found = self.export_of_within(imp.target, name, hops + 1, visits);
                if found.is_some() {
                    return found;
                }
            }
            if imp.namespace.as_deref() == Some(name) {
                return Some(NodeRef {
                    file: imp.target,
                    decl: None,
                });
            }
        }
        // A local declaration exported under its own name via `export { name }` is already
        // flagged `exported` by the syntax stage; an imported name re-exported that way
        // (plain imports keep only names the file does not declare):
        for imp in tables.imports.iter().filter(|i| !i.reexport) {
            if let Some(n) = imp.names.iter().find(|n| n.local == name) {
                return self.export_of_within(imp.target, &n.imported, hops + 1, visits);
            }
        }
        None
    }
}

/// The names a file's usages can bind to, besides its own tables.
struct Scope<'s, 'b, F> {
    /// Own declarations and imports.
    bindings: FxHashMap<&'b str, Binding<'b, F>>,
    /// Package peers' top-level declarations.
    peers: FxHashMap<&'s str, NodeRef<F>>,
    /// The files of each glob import.
    globs: Vec<&'b [F]>,
}

/// Whether `receiver` is a path of plain names (`json`, `os.path`, `http::header`)
/// one of whose leading paths an import binds outside the repository (`os` or, as
/// `import os.path` binds it, `os.path`). A receiver that calls or indexes on the way
/// (`_.find(items).save()`) may hold a value of the repository and is left to the guess.
fn names_external<F>(scope: &Scope<'_, '_, F>, receiver: &str) -> bool {
    let plain = |s: &str| {
        s.chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '$')
    };
    if receiver.is_empty() || !receiver.split(['.', ':']).all(plain) {
        return false;
    }
    // Each leading path ends where a separator starts, or at the receiver's end.
    let ends = receiver
        .match_indices(['.', ':'])
        .map(|(at, _)| at)
        .chain([receiver.len()]);
    ends.filter(|&end| end > 0).any(|end| {
        matches!(
            scope.bindings.get(&receiver[..end]),
            Some(Binding::External)
        )
    })
}

/// Counts how a file's imports resolved; an optional import that resolved to nothing is
/// a guess that named no module and counts nowhere.
fn import_counts(shape: &FileShape, resolutions: &[Resolution]) -> ImportCounts {
    let mut counts = ImportCounts::default();
    for (imp, resolution) in shape.imports().iter().zip(resolutions) {
        match resolution {
            Resolution::File(_) | Resolution::Package { .. } => counts.resolved += 1,
            Resolution::External | Resolution::Unresolved if imp.optional => {}
            Resolution::External => counts.external += 1,
            Resolution::Unresolved => {
                counts.unresolved += 1;
                if counts.unresolved_examples.len() < MAX_UNRESOLVED_EXAMPLES {
                    counts.unresolved_examples.push(imp.specifier.clone());
                }
            }
        }
    }
    counts
}

/// The declaration a receiver builds and uses at once (`Http` of `Http().flush()`, `Store`
/// of `new Store(db).save()`; `Box::new(x)` or `make(a)(b)` is no such receiver): its
/// name, when the receiver is one plain name, optionally after `new `, applied once to
/// arguments whose parentheses close at the receiver's end.
fn instantiated(receiver: &str) -> Option<&str> {
    let call = receiver
        .strip_prefix("new ")
        .unwrap_or(receiver)
        .trim_start();
    let open = call.find('(')?;
    let name = &call[..open];
    if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
        return None;
    }
    let mut depth = 0usize;
    for (i, c) in call[open..].char_indices() {
        match c {
            '(' => depth += 1,
            ')' => {
                depth = depth.checked_sub(1)?;
                if depth == 0 {
                    // The arguments close here: only at the receiver's end is it one call.
                    return (open + i + 1 == call.len()).then_some(name);
                }
            }
            _ => {}
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_receiver_built_in_place_names_its_type() {
        assert_eq!(instantiated("Http()"), Some("Http"));
        assert_eq!(instantiated("new Store(db, { a: f(1) })"), Some("Store"));
        assert_eq!(instantiated("Cls(a)(b)"), None);
        assert_eq!(instantiated("Box::new(x)"), None);
        assert_eq!(instantiated("self.make()"), None);
        assert_eq!(instantiated("Http"), None);
        assert_eq!(instantiated("f(a))"), None);
        assert_eq!(instantiated("()"), None);
    }

    #[test]
    fn guesses_reach_the_kinds_that_can_answer_them() {
        // A call may construct a struct or expand a macro; a heritage clause may name a
        // trait or a struct (an embedded one); neither reaches a module or a constant.
        for kind in [DeclKind::Function, DeclKind::Struct, DeclKind::Macro] {
            assert!(NameGuess::Callable.accepts(kind), "{kind:?}");
        }
        for kind in [DeclKind::Interface, DeclKind::Trait, DeclKind::Struct] {
            assert!(NameGuess::TypeLike.accepts(kind), "{kind:?}");
        }
        for kind in [DeclKind::Module, DeclKind::Constant, DeclKind::Impl] {
            assert!(!NameGuess::Callable.accepts(kind), "{kind:?}");
            assert!(!NameGuess::TypeLike.accepts(kind), "{kind:?}");
        }
    }
}
