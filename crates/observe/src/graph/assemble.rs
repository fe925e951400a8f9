//! Assembling the workspace graph from its per-file parts ([`Graph::assemble`]), and
//! assembling it again after an edit from the previous assembly ([`Graph::reassemble`]).
//!
//! The assembly maps every cached edge to a node position, resolves the guesses by name
//! against the name table and indexes the edges: a pass over every node and edge. After
//! an edit most files' parts are the ones the previous assembly read, and their edges
//! come out the same unless a guess of theirs is by a name whose declarations changed, so
//! the reassembly copies those files' edges from the previous graph and recomputes only
//! the rest; the edge index is rebuilt only in the segments of files whose edges or node
//! counts changed, and in those the changed edges reach ([`super::segments`]), and shared
//! with the previous graph everywhere else. The result is the graph a whole assembly
//! gives, which the tests check after random edit sequences.

use std::hash::Hash;
use std::sync::Arc;

use rustc_hash::FxHashMap;

use super::segments::EdgeIndex;
use super::{
    Edge, FileDecls, FileEdges, Graph, GraphPart, ImportCounts, MAX_NAME_CANDIDATES, NameGuess,
    NameTable, NodeId, resolve_edges,
};
use crate::facts::DeclKind;
use sightline_base::PathTraits;

impl Graph {
    /// The graph of `files` from their already computed edges: maps every edge's
    /// [`super::NodeRef`] to a [`NodeId`] (or copies [`GraphPart::resolved`]), resolves
    /// the guesses by name against the name table, and indexes the edges. No import is
    /// resolved here: the work is a pass over nodes and edges.
    pub fn assemble<F: Copy + Eq + Hash>(files: &[GraphPart<'_, F>]) -> Graph {
        let (mut g, node_counts) = Graph::skeleton(files);
        let languages = languages(files);
        let mut builder = EdgeBuilder::new(&g, files, &languages);
        // One scratch list for every segment, each copied out at its final size.
        let mut edges: Vec<Edge> = Vec::new();
        let out: Vec<Vec<Edge>> = (0..EdgeIndex::segment_count(files.len()))
            .map(|s| {
                edges.clear();
                for fi in EdgeIndex::segment_files(s, files.len()) {
                    builder.file(fi, &mut edges);
                }
                edges.to_vec()
            })
            .collect();
        g.finish(files, EdgeIndex::build(&node_counts, out));
        g
    }

    /// The graph of `files`, the same as [`Graph::assemble`] gives, starting from `prev`,
    /// the assembly of an earlier version of the parts. When the file list is the same,
    /// only the files whose parts changed, and those guessing by a name whose declarations
    /// changed, have their edges computed again; the others' are copied from `prev`. A
    /// different file list (a file added or removed shifts positions) assembles whole.
    pub fn reassemble<F: Copy + Eq + Hash>(
        prev: &Assembled<F>,
        files: &[GraphPart<'_, F>],
    ) -> (Graph, Reassembly) {
        if !prev.lists_the_same_files(files) {
            return (Graph::assemble(files), Reassembly::Whole);
        }
        // The files whose declarations changed, and those whose parts changed at all.
        let decls_changed: Vec<bool> = files
            .iter()
            .zip(&prev.decls)
            .map(|(f, old)| !same_arc(old, &f.decls))
            .collect();
        let changed: Vec<bool> = files
            .iter()
            .zip(&prev.edges)
            .zip(&decls_changed)
            .map(|((f, old), &decls)| decls || !same_arc(old, &f.edges))
            .collect();
        // The names whose declaration nodes may differ: a changed file's declarations from
        // the first one that differs (those after it may have moved).
        let mut renamed: Vec<&str> = Vec::new();
        for (fi, f) in files
            .iter()
            .enumerate()
            .filter(|(fi, _)| decls_changed[*fi])
        {
            let (old, new) = (prev.decls[fi].as_deref(), f.decls.as_deref());
            let first = first_difference(old, new);
            renamed.extend(old.into_iter().flat_map(|d| names_from(d, first)));
            renamed.extend(new.into_iter().flat_map(|d| names_from(d, first)));
        }
        let mut g = Graph {
            paths: prev.graph.paths.clone(),
            names: prev.graph.names.clone(),
            ..Graph::default()
        };
        let (node_counts, declarations) = node_counts(files);
        g.stats.declarations = declarations;
        if decls_changed.iter().any(|&c| c) {
            let added = files
                .iter()
                .enumerate()
                .filter(|(fi, _)| decls_changed[*fi])
                .flat_map(|(fi, f)| decl_names(fi, f));
            g.names = Arc::new(prev.graph.names.rebuilt(&decls_changed, added));
        }
        let languages = languages(files);
        let mut builder = EdgeBuilder::new(&g, files, &languages);
        // Whether a file may guess by a renamed name: a substring test over its packed
        // names (which may answer yes wrongly, never no wrongly), each name's searcher
        // built once for every file.
        let finders: Vec<memchr::memmem::Finder> = renamed
            .iter()
            .map(|n| memchr::memmem::Finder::new(n.as_bytes()))
            .collect();
        let recompute: Vec<bool> = files
            .iter()
            .zip(&changed)
            .map(|(f, &changed)| {
                changed
                    || (!finders.is_empty()
                        && f.edges.as_deref().is_some_and(|e| {
                            let packed = e.guessed_names.as_bytes();
                            finders.iter().any(|n| n.find(packed).is_some())
                        }))
            })
            .collect();
        let segments = EdgeIndex::segment_count(files.len());
        let mut rebuilt: Vec<(usize, Vec<Edge>)> = Vec::new();
        let recounted: Vec<bool> = (0..segments)
            .map(|s| EdgeIndex::segment_files(s, files.len()).any(|fi| decls_changed[fi]))
            .collect();
        let mut recomputed = 0;
        // One scratch list for every rebuilt segment, each copied out at its final size.
        let mut edges: Vec<Edge> = Vec::new();
        for s in 0..segments {
            let range = EdgeIndex::segment_files(s, files.len());
            if !range.clone().any(|fi| recompute[fi]) {
                continue;
            }
            edges.clear();
            for fi in range {
                if recompute[fi] {
                    builder.file(fi, &mut edges);
                    recomputed += 1;
                } else {
                    edges.extend_from_slice(prev.graph.index.file_out(fi as u32));
                }
            }
            rebuilt.push((s, edges.to_vec()));
        }
        let index = EdgeIndex::update(
            &prev.graph.index,
            &node_counts,
            rebuilt,
            &recompute,
            &recounted,
        );
        g.finish(files, index);
        (g, Reassembly::Files(recomputed))
    }

    /// The graph's files and name table, before any edge, and each file's node count.
    fn skeleton<F>(files: &[GraphPart<'_, F>]) -> (Graph, Vec<u32>) {
        let (node_counts, declarations) = node_counts(files);
        let named = files
            .iter()
            .enumerate()
            .flat_map(|(fi, f)| decl_names(fi, f));
        let mut g = Graph {
            paths: files.iter().map(|f| f.path.to_owned()).collect(),
            names: Arc::new(NameTable::build(named, declarations as usize)),
            ..Graph::default()
        };
        g.stats.declarations = declarations;
        (g, node_counts)
    }

    /// Sums the files' import counts and sets the edge index.
    fn finish<F>(&mut self, files: &[GraphPart<'_, F>], index: EdgeIndex) {
        let mut stats = ImportStats::default();
        for f in files {
            if let Some(e) = &f.edges {
                stats.add(f.path, &e.imports);
            }
        }
        self.stats.imports_resolved = stats.resolved;
        self.stats.imports_external = stats.external;
        self.stats.imports_unresolved = stats.unresolved;
        self.stats.unresolved_examples = stats.examples;
        self.set_index(index);
    }
}

/// What [`Graph::reassemble`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reassembly {
    /// The file list changed: assembled whole.
    Whole,
    /// The file list was the same: this many files' edges were computed again.
    Files(usize),
}

/// An assembled graph with the parts it was assembled from, for [`Graph::reassemble`].
pub struct Assembled<F> {
    /// Each file's identity and stable id, in graph order.
    files: Vec<(F, u32)>,
    edges: Vec<Option<Arc<FileEdges<F>>>>,
    decls: Vec<Option<Arc<FileDecls>>>,
    graph: Arc<Graph>,
}

impl<F: Copy + Eq> Assembled<F> {
    /// `graph`, assembled from `files`.
    pub fn new(files: &[GraphPart<'_, F>], graph: Arc<Graph>) -> Assembled<F> {
        Assembled {
            files: files.iter().map(|f| (f.file, f.id)).collect(),
            edges: files.iter().map(|f| f.edges.clone()).collect(),
            decls: files.iter().map(|f| f.decls.clone()).collect(),
            graph,
        }
    }

    /// The assembled graph.
    pub fn graph(&self) -> &Arc<Graph> {
        &self.graph
    }

    fn lists_the_same_files(&self, files: &[GraphPart<'_, F>]) -> bool {
        self.files.len() == files.len()
            && self
                .files
                .iter()
                .zip(files)
                .all(|(&(file, id), f)| file == f.file && id == f.id)
    }
}

/// Whether two parts are equal: the same allocation, or equal values (a part computed
/// again and found equal).
fn same_arc<T: PartialEq>(a: &Option<Arc<T>>, b: &Option<Arc<T>>) -> bool {
    match (a, b) {
        (Some(a), Some(b)) => Arc::ptr_eq(a, b) || a == b,
        (None, None) => true,
        _ => false,
    }
}

/// Each file's node count (its module and its declarations), and how many declarations
/// there are in all.
fn node_counts<F>(files: &[GraphPart<'_, F>]) -> (Vec<u32>, u32) {
    let mut declarations = 0u32;
    let counts = files
        .iter()
        .map(|f| {
            let decls = f.decls.as_ref().map_or(0, |d| d.len()) as u32;
            declarations += decls;
            1 + decls
        })
        .collect();
    (counts, declarations)
}

/// The declaration nodes of the file at position `fi`, with their names, in node order.
fn decl_names<'a, F>(
    fi: usize,
    f: &'a GraphPart<'_, F>,
) -> impl Iterator<Item = (&'a str, NodeId)> {
    f.decls.iter().flat_map(move |d| {
        (0..d.len()).map(move |di| (d.name(di), NodeId::decl(fi as u32, di as u32)))
    })
}

/// The first declaration index at which two declaration lists differ in name or kind.
fn first_difference(old: Option<&FileDecls>, new: Option<&FileDecls>) -> usize {
    let (Some(old), Some(new)) = (old, new) else {
        return 0;
    };
    (0..old.len().min(new.len()))
        .find(|&i| old.name(i) != new.name(i) || old.kinds[i] != new.kinds[i])
        .unwrap_or(old.len().min(new.len()))
}

/// The names of `decls` from index `first` on.
fn names_from(decls: &FileDecls, first: usize) -> impl Iterator<Item = &str> {
    (first..decls.len()).map(|i| decls.name(i))
}

/// Each file's language position (`None` for a manifest).
fn languages<F>(files: &[GraphPart<'_, F>]) -> Vec<Option<usize>> {
    files.iter().map(|f| f.language.map(usize::from)).collect()
}

/// Computes files' edges for an assembly: cached edges renumbered by position, the
/// others resolved, and the guesses by name made against the graph's name table.
struct EdgeBuilder<'a, 'p, F> {
    files: &'a [GraphPart<'p, F>],
    /// Each file's position by its stable id (for cached edges).
    by_id: FilePositions,
    /// Each file's position by its identity (for edges resolved here), built when a
    /// file without cached edges first needs it.
    positions: Option<FxHashMap<F, u32>>,
    guesser: Guesser<'a, 'p, F>,
    /// Scratch lists reused from file to file.
    resolved: Vec<Edge>,
    guessed: Vec<Edge>,
}

impl<'a, 'p, F: Copy + Eq + Hash> EdgeBuilder<'a, 'p, F> {
    fn new(
        graph: &'a Graph,
        files: &'a [GraphPart<'p, F>],
        languages: &'a [Option<usize>],
    ) -> Self {
        EdgeBuilder {
            files,
            by_id: FilePositions::of(files.iter().map(|f| f.id)),
            positions: None,
            guesser: Guesser {
                graph,
                files,
                languages,
                memo: FxHashMap::default(),
                aside: vec![0; files.len()],
            },
            resolved: Vec::new(),
            guessed: Vec::new(),
        }
    }

    /// Appends the edges of the file at position `fi` to `edges`, sorted and deduplicated.
    fn file(&mut self, fi: usize, edges: &mut Vec<Edge>) {
        let files = self.files;
        let f = &files[fi];
        let Some(file_edges) = &f.edges else {
            return;
        };
        let here = fi as u32;
        // The file's resolved edges go straight to the end of `edges`.
        let start = edges.len();
        match f.resolved {
            // Cached edges name files by stable id, renumbered here by position; those to
            // a file no longer in the workspace are dropped. Edges come grouped by target
            // file, so each file is looked up once.
            Some(resolved) => {
                let by_id = &self.by_id;
                let mut last = (u32::MAX, None);
                edges.extend(resolved.iter().filter_map(|e| {
                    if e.to.file != last.0 {
                        last = (e.to.file, by_id.get(e.to.file));
                    }
                    Some(Edge {
                        from: NodeId {
                            file: here,
                            local: e.from.local,
                        },
                        to: NodeId {
                            file: last.1?,
                            local: e.to.local,
                        },
                        ..*e
                    })
                }))
            }
            None => {
                let positions = self.positions.get_or_insert_with(|| {
                    files
                        .iter()
                        .enumerate()
                        .map(|(i, f)| (f.file, i as u32))
                        .collect()
                });
                resolve_edges(
                    here,
                    f.file,
                    &file_edges.edges,
                    |t| positions.get(&t).copied(),
                    edges,
                )
            }
        }
        // Resolved edges arrive sorted and deduplicated in graph order when the files are
        // in path order, as a workspace's are.
        if !edges[start..].is_sorted() {
            self.resolved.clear();
            self.resolved.extend(edges.drain(start..));
            self.resolved.sort_unstable();
            dedup_edges(&mut self.resolved);
            edges.extend_from_slice(&self.resolved);
        }
        self.guessed.clear();
        let guessed = &mut self.guessed;
        for e in &file_edges.by_name {
            let from = NodeId {
                file: here,
                local: e.from,
            };
            let owner = file_edges.owner(e);
            self.guesser.guess(
                fi,
                file_edges.name(e),
                e.guess,
                owner,
                &mut |to, certain| {
                    if to != from {
                        guessed.push(Edge {
                            from,
                            to,
                            kind: e.kind,
                            certain,
                            guessed: true,
                        });
                    }
                },
            );
        }
        if !self.guessed.is_empty() {
            self.resolved.clear();
            self.resolved.extend(edges.drain(start..));
            self.guessed.sort_unstable();
            merge_edges(&self.resolved, &self.guessed, edges);
        }
    }
}

/// Keeps the first edge of each (from, to, kind) run of a sorted list: the uncertain one
/// when a guess and a resolution reach the same node.
fn same_key(a: &Edge, b: &Edge) -> bool {
    a.from == b.from && a.to == b.to && a.kind == b.kind
}

fn dedup_edges(edges: &mut Vec<Edge>) {
    edges.dedup_by(|later, kept| same_key(later, kept));
}

/// Appends the merge of two sorted lists to `out`, deduplicated like [`dedup_edges`]: the
/// same list as sorting and deduplicating their concatenation.
fn merge_edges(a: &[Edge], b: &[Edge], out: &mut Vec<Edge>) {
    let start = out.len();
    let (mut i, mut j) = (0, 0);
    while i < a.len() || j < b.len() {
        let next = if j == b.len() || (i < a.len() && a[i] <= b[j]) {
            i += 1;
            a[i - 1]
        } else {
            j += 1;
            b[j - 1]
        };
        if out.len() == start || !same_key(&out[out.len() - 1], &next) {
            out.push(next);
        }
    }
}

/// The workspace's import counts, summed over files.
#[derive(Default)]
struct ImportStats {
    resolved: u32,
    external: u32,
    unresolved: u32,
    examples: Vec<(String, String)>,
}

impl ImportStats {
    /// How many `(file, specifier)` examples of unresolved imports the graph keeps.
    const EXAMPLES: usize = 8;

    fn add(&mut self, path: &str, counts: &ImportCounts) {
        self.resolved += counts.resolved;
        self.external += counts.external;
        self.unresolved += counts.unresolved;
        for specifier in &counts.unresolved_examples {
            if self.examples.len() < Self::EXAMPLES {
                self.examples.push((path.to_owned(), specifier.clone()));
            }
        }
    }
}

/// The declarations a guess by name reaches: up to [`MAX_NAME_CANDIDATES`] nodes, the
/// first `.1` of the array.
type Guessed = ([NodeId; MAX_NAME_CANDIDATES], usize);

/// Resolves [`NameEdge`]s against the assembled name table.
struct Guesser<'a, 'p, F> {
    graph: &'a Graph,
    files: &'a [GraphPart<'p, F>],
    /// Each file's language position (`None` for manifests): names link only
    /// within one language.
    languages: &'a [Option<usize>],
    /// Guesses already made: the same member name is guessed from many files.
    memo: FxHashMap<(&'a str, NameGuess, Option<usize>), Guessed>,
    /// Per file, whether its path marks it a test, an example or documentation, asked
    /// only of files that guess or are guessed: 0 not yet asked, 1 no, 2 yes.
    aside: Vec<u8>,
}

impl<'a, F> Guesser<'a, '_, F> {
    /// Declarations named `name` in the language of file `from` that `guess` accepts, when
    /// the name is rare enough to be a fair guess: calls `found(target, certain)` for each.
    /// A member of `owner`, a type the calling file neither declares nor imports, is
    /// guessed only when the repository declares something of that name in the language:
    /// otherwise `Vec::new()` or `JSON.parse(text)` is the language's own.
    fn guess(
        &mut self,
        from: usize,
        name: &'a str,
        guess: NameGuess,
        owner: Option<&str>,
        found: &mut dyn FnMut(NodeId, bool),
    ) {
        let language = self.languages[from];
        if let Some(owner) = owner
            && !self.declares(owner, language)
        {
            return;
        }
        let key = (name, guess, language);
        let (matching, count) = match self.memo.get(&key) {
            Some(guessed) => *guessed,
            None => {
                let guessed = self.candidates(name, guess, language);
                self.memo.insert(key, guessed);
                guessed
            }
        };
        let certain = count == 1;
        // A test or an example counts towards how common a name is, but code that is
        // neither does not call into one: a method name unique to a tutorial was a
        // certain edge from the library to it.
        let from_aside = self.aside(from);
        for &n in &matching[..count] {
            if from_aside || !self.aside(self.graph.file_of(n) as usize) {
                found(n, certain);
            }
        }
    }

    /// Whether a declaration named `name` exists in a file of `language`.
    fn declares(&self, name: &str, language: Option<usize>) -> bool {
        self.graph.names.get(name).is_some_and(|nodes| {
            nodes
                .iter()
                .any(|&n| self.languages[self.graph.file_of(n) as usize] == language)
        })
    }

    /// Whether file `file` is a test, an example or documentation by its path.
    fn aside(&mut self, file: usize) -> bool {
        if self.aside[file] == 0 {
            let traits = PathTraits::of(self.files[file].path);
            self.aside[file] = 1 + u8::from(traits.test || traits.docs_or_example);
        }
        self.aside[file] == 2
    }

    /// The guess itself: nothing when more than [`MAX_NAME_CANDIDATES`] qualify.
    fn candidates(&self, name: &str, guess: NameGuess, language: Option<usize>) -> Guessed {
        let mut matching = [NodeId::default(); MAX_NAME_CANDIDATES];
        let Some(nodes) = self.graph.names.get(name) else {
            return (matching, 0);
        };
        let mut count = 0;
        for &n in nodes {
            let file = self.graph.file_of(n) as usize;
            let same_language = self.languages[file] == language;
            if same_language && self.decl_kind(n).is_some_and(|k| guess.accepts(k)) {
                if count == MAX_NAME_CANDIDATES {
                    return (matching, 0);
                }
                matching[count] = n;
                count += 1;
            }
        }
        (matching, count)
    }

    fn decl_kind(&self, node: NodeId) -> Option<DeclKind> {
        let file = self.graph.file_of(node) as usize;
        let decl = self.graph.decl_of(node)?;
        self.files[file]
            .decls
            .as_ref()?
            .kinds
            .get(decl as usize)
            .copied()
    }
}

/// From a file's stable id to its position in the graph: a table over the ids' range
/// (stable ids are allocated close together, so it stays a few times the file count).
#[derive(Default)]
struct FilePositions {
    /// The smallest id.
    base: u32,
    /// Position by `id - base`; `u32::MAX` for an id no file has.
    table: Vec<u32>,
}

impl FilePositions {
    fn of(ids: impl Iterator<Item = u32> + Clone) -> FilePositions {
        let (Some(base), Some(last)) = (ids.clone().min(), ids.clone().max()) else {
            return FilePositions::default();
        };
        let mut table = vec![u32::MAX; (last - base) as usize + 1];
        for (i, id) in ids.enumerate() {
            table[(id - base) as usize] = i as u32;
        }
        FilePositions { base, table }
    }

    fn get(&self, id: u32) -> Option<u32> {
        let at = id.checked_sub(self.base)? as usize;
        self.table.get(at).copied().filter(|&p| p != u32::MAX)
    }
}
