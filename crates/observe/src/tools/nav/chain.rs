//! `references` with `to`: how one declaration reaches another, as the shortest chain of
//! uses the graph resolved (`save` calls `push`, which calls `flush`), one line per step
//! with the line that makes it. The question an agent otherwise answers with a grep and a
//! read per hop.
//!
//! The search is Dijkstra's over the calls the graph resolved: a call, a JSX render, an
//! instantiation, and a function passed on as a value (a callback, called from where it
//! goes); a type named, a value read or a base class runs nothing and is not a step. A
//! method may run as an override of it (the call's receiver may be an instance of a
//! subclass): a method of the same name in a class that extends or implements the
//! method's class, directly or through classes that do not declare it, is a step
//! ([`OVERRIDE`]) printed at the subclass's heritage clause. A
//! declaration's code is its own and that of the declarations nested in it (a function's
//! closures), so going from one into one nested in it costs nothing. A type reached by a
//! call does not run whole: its members are reached by their own calls, except that an
//! instantiation runs the constructor its language names
//! ([`sightline_lang::Language::is_constructor`]: `__init__`, `constructor`); where the
//! chain starts, all of a type is its code. A step costs [`CALL`], [`OTHER_USE`] for a
//! callback, plus [`INTO_SECONDARY`] when it goes into a
//! test, example or vendored file: of two chains the one of fewer calls through primary
//! code wins. Only uses the graph resolved are followed, unless no chain of them leads
//! either way; then uses it guessed by name (a member call on a receiver it cannot type,
//! even where the repository declares that name once: `logger.info()` is not its one
//! `info` method) count too, at [`GUESSED`] more each, and the answer says so. Reaching `to` or a
//! declaration nested in it ends the chain. When no chain leads from the declaration to
//! `to`, the other direction is searched, since a question names its two ends in either
//! order. Each step is printed as the first line of its user that uses the next
//! declaration.

use std::cmp::Reverse;
use std::collections::BinaryHeap;
use std::sync::Arc;

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use super::definition::DefinitionHit;
use super::nearest::NearName;
use super::references::UseKind;
use super::{DeclAt, Target, find};
use crate::db::{Db, FileIndex, Workspace, file_index};
use crate::graph::{EdgeKind, Graph, NodeId};
use crate::path_traits::path_traits;
use crate::tools::ToolError;

/// The cost of a call, render or instantiation step.
pub const CALL: u32 = 2;
/// The cost of a function passed on as a value (a callback, called from where it goes).
pub const OTHER_USE: u32 = 3;
/// The cost of going from a method to an override of it: more than a call, so a chain
/// through the code as written wins over one that assumes a subclass.
pub const OVERRIDE: u32 = 3;
/// Most overrides of one method a search steps into.
const MAX_OVERRIDES: usize = 16;
/// Added when the graph guessed the step by name among a few declarations (searched only
/// when no chain of resolved uses leads either way).
pub const GUESSED: u32 = 2;
/// Added when the step goes into a test, example, generated or vendored file.
pub const INTO_SECONDARY: u32 = 4;
/// Most declarations one search settles before it gives up: a chain is short or it says
/// little, and a search that has reached this many has searched a large part of a graph.
pub const MAX_SETTLED: usize = 50_000;
/// Most declarations `to` may name that the chain may end at.
const MAX_ENDS: usize = 32;

/// One step of a chain: the line of the declaration `from` that uses the next one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainStep {
    /// Repository-relative path of the line.
    pub path: String,
    /// 1-based line of the use.
    pub line: u32,
    /// The line, trimmed, at most [`super::references::MAX_LINE_CHARS`] characters.
    pub text: String,
    /// Whether `text` is the whole trimmed line (so it is verbatim evidence).
    pub text_whole: bool,
    /// The qualified name of the declaration the line is in.
    pub from: String,
    /// What kind of use the line is.
    pub kind: UseKind,
    /// Whether the graph resolved the use (not guessed by name).
    pub certain: bool,
    /// The declaration used.
    pub to: DefinitionHit,
}

/// How the declaration asked about reaches `to`, or that it does not.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Chain {
    /// The name `to` as given.
    pub to_name: String,
    /// The declarations `to` names (at most 32); empty when it names none.
    pub ends: Vec<DefinitionHit>,
    /// When `to` names no declaration: the repository's nearest names.
    pub to_nearest: Vec<NearName>,
    /// The steps, first to last; empty when no chain was found either way.
    pub steps: Vec<ChainStep>,
    /// The declaration the chain ends at: `to` (or, reversed, the declaration asked
    /// about), or one nested in it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub end: Option<DefinitionHit>,
    /// The chain runs from `to` to the declaration asked about: none ran the other way.
    pub reversed: bool,
    /// The chain takes a use the graph guessed by name: no chain of resolved uses led
    /// either way.
    #[serde(default)]
    pub guessed: bool,
    /// Declarations the searches reached from either end (counted once per end), in the
    /// last tier searched.
    pub searched: usize,
    /// A search stopped at [`MAX_SETTLED`] declarations without a chain.
    pub cut: bool,
}

/// The chain from `starts` to the declarations `to` names: see the module's documentation.
pub(crate) fn run(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    starts: &[DeclAt],
    to: &Target,
) -> Result<Chain, ToolError> {
    let found = find(db, ws, graph, to)?;
    let ends: Vec<DeclAt> = found.decls.into_iter().take(MAX_ENDS).collect();
    let mut chain = Chain {
        to_name: to.name.clone(),
        ends: ends.iter().map(DefinitionHit::of).collect(),
        to_nearest: found.nearest,
        steps: Vec::new(),
        end: None,
        reversed: false,
        guessed: false,
        searched: 0,
        cut: false,
    };
    if ends.is_empty() || starts.is_empty() {
        return Ok(chain);
    }
    let mut files = Files::new(db, ws);
    // Resolved uses first, both ways; a guess by name (a member call on a receiver the
    // graph cannot type) only when they find nothing: a guessed step on a common method
    // name (`split`, `get`) can lead a chain anywhere.
    let directions = [(starts, &ends[..], false), (&ends[..], starts, true)];
    for guessed in [false, true] {
        // What the last tier searched: the guessed tier's searches cover the resolved one's.
        chain.searched = 0;
        for (from, goal, reversed) in directions {
            let search = shortest(&mut files, graph, from, goal, guessed);
            chain.searched += search.settled;
            chain.cut |= search.cut;
            if let Some(hops) = search.hops {
                chain.steps = hops
                    .iter()
                    .filter(|hop| hop.kind != EdgeKind::Contains)
                    .filter_map(|hop| files.step(hop))
                    .collect();
                chain.end = hops.last().and_then(|hop| files.declaration(hop.to));
                chain.reversed = reversed;
                chain.guessed = guessed;
                return Ok(chain);
            }
        }
    }
    Ok(chain)
}

/// One edge of the search: the declaration `left` uses `to` (or, for
/// [`EdgeKind::Contains`], holds it, which no printed step shows).
#[derive(Clone, Copy, Debug)]
struct Hop {
    left: NodeId,
    to: NodeId,
    kind: EdgeKind,
    certain: bool,
}

/// What one direction's search found.
struct Search {
    hops: Option<Vec<Hop>>,
    settled: usize,
    cut: bool,
}

/// Dijkstra's from `starts` to any of `goals` or a declaration nested in one.
fn shortest(
    files: &mut Files<'_>,
    graph: &Graph,
    starts: &[DeclAt],
    goals: &[DeclAt],
    guessed: bool,
) -> Search {
    let mut goal: rustc_hash::FxHashSet<NodeId> = rustc_hash::FxHashSet::default();
    for g in goals {
        goal.insert(g.node());
        goal.extend(files.nested(g.node()));
    }
    let mut cost: FxHashMap<NodeId, u32> = FxHashMap::default();
    let mut came: FxHashMap<NodeId, Hop> = FxHashMap::default();
    let mut heap: BinaryHeap<Reverse<(u32, NodeId)>> = BinaryHeap::new();
    for s in starts {
        cost.insert(s.node(), 0);
        heap.push(Reverse((0, s.node())));
    }
    let start_nodes: rustc_hash::FxHashSet<NodeId> = starts.iter().map(DeclAt::node).collect();
    let mut settled = 0;
    while let Some(Reverse((c, node))) = heap.pop() {
        if cost.get(&node).is_some_and(|&best| best < c) {
            continue;
        }
        if goal.contains(&node) && !start_nodes.contains(&node) {
            return Search {
                hops: Some(path_to(node, &came)),
                settled,
                cut: false,
            };
        }
        settled += 1;
        if settled > MAX_SETTLED {
            return Search {
                hops: None,
                settled,
                cut: true,
            };
        }
        // Its own code: what is nested in it (a function's closures; all of a type where
        // the chain starts), at no cost. A type reached by a use does not run whole: its
        // members are reached by their own calls.
        let instantiated = came
            .get(&node)
            .is_some_and(|h| h.kind == EdgeKind::Instantiates);
        let children = if start_nodes.contains(&node) || !files.holds_members(node) {
            files.children(node)
        } else if instantiated {
            // An instantiation runs the type's constructor, as the language names it.
            files.constructors(node)
        } else {
            Vec::new()
        };
        let mut steps: Vec<(NodeId, EdgeKind, bool, u32)> = children
            .into_iter()
            .map(|child| (child, EdgeKind::Contains, true, 0))
            .collect();
        for e in graph.outgoing(node) {
            if !(e.resolved() || guessed) || e.to.decl_index().is_none() || e.to == node {
                continue;
            }
            let step = match e.kind {
                EdgeKind::Calls | EdgeKind::Renders | EdgeKind::Instantiates => CALL,
                // A function passed on as a value is called from where it goes (a
                // callback); a type named, a value read or a base class runs nothing.
                EdgeKind::References if files.callable(e.to) => OTHER_USE,
                _ => continue,
            };
            let step = step + if e.resolved() { 0 } else { GUESSED };
            steps.push((e.to, e.kind, e.resolved(), step));
        }
        for (to, kind, certain) in files.overrides(graph, node, guessed) {
            let step = OVERRIDE + if certain { 0 } else { GUESSED };
            steps.push((to, kind, certain, step));
        }
        for (to, kind, certain, step) in steps {
            let into_secondary = if kind != EdgeKind::Contains && files.secondary(to) {
                INTO_SECONDARY
            } else {
                0
            };
            let next = c + step + into_secondary;
            if cost.get(&to).is_none_or(|&best| next < best) {
                cost.insert(to, next);
                came.insert(
                    to,
                    Hop {
                        left: node,
                        to,
                        kind,
                        certain,
                    },
                );
                heap.push(Reverse((next, to)));
            }
        }
    }
    Search {
        hops: None,
        settled,
        cut: false,
    }
}

/// The hops that led to `end`, first to last.
fn path_to(end: NodeId, came: &FxHashMap<NodeId, Hop>) -> Vec<Hop> {
    let mut hops = Vec::new();
    let mut at = end;
    while let Some(hop) = came.get(&at) {
        hops.push(*hop);
        at = hop.left;
        // Each hop's node settled before the one it reached, at a lower cost: the walk
        // back ends at a start. The bound only guards against a bug looping forever.
        if hops.len() > came.len() {
            break;
        }
    }
    hops.reverse();
    hops
}

/// The files a search touches, each read once.
struct Files<'a> {
    db: &'a dyn Db,
    ws: Workspace,
    by_position: FxHashMap<u32, SearchedFile>,
    /// Each class's heritage edges in (extends or implements it), looked up once: a
    /// class's incoming edges are all its uses, walked for every method of it settled.
    heirs: FxHashMap<NodeId, Heirs>,
}

/// The classes that extend or implement one class, each with the heritage edge's kind and
/// certainty; shared so a walk over them need not copy them out of the cache.
type Heirs = std::rc::Rc<[(NodeId, EdgeKind, bool)]>;

/// What a search reads of one file.
struct SearchedFile {
    index: Arc<FileIndex>,
    /// Each declaration's directly nested declarations.
    children: Vec<Vec<u32>>,
    /// A test, example, generated or vendored file.
    secondary: bool,
    /// Its language, which names its constructors.
    language: Option<&'static dyn sightline_lang::Language>,
}

impl<'a> Files<'a> {
    fn new(db: &'a dyn Db, ws: Workspace) -> Files<'a> {
        Files {
            db,
            ws,
            by_position: FxHashMap::default(),
            heirs: FxHashMap::default(),
        }
    }

    /// The file at `position`.
    fn file(&mut self, position: u32) -> Option<&SearchedFile> {
        if !self.by_position.contains_key(&position) {
            let file = *self.ws.files(self.db).get(position as usize)?;
            let index = file_index(self.db, file);
            let mut children = vec![Vec::new(); index.facts.decls.len()];
            for (i, d) in index.facts.decls.iter().enumerate() {
                if let Some(p) = d.parent
                    && let Some(list) = children.get_mut(p as usize)
                {
                    list.push(i as u32);
                }
            }
            let (languages, path) = (self.db.languages(), file.path(self.db));
            let secondary = path_traits(languages, path).is_secondary();
            let language = languages.of_path(path).and_then(|id| languages.of(id));
            self.by_position.insert(
                position,
                SearchedFile {
                    index,
                    children,
                    secondary,
                    language,
                },
            );
        }
        self.by_position.get(&position)
    }

    /// The declarations nested in `node`, at any depth.
    fn nested(&mut self, node: NodeId) -> Vec<NodeId> {
        let Some(decl) = node.decl_index() else {
            return Vec::new();
        };
        let Some(file) = self.file(node.file) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        let mut stack: Vec<u32> = file
            .children
            .get(decl as usize)
            .cloned()
            .unwrap_or_default();
        while let Some(d) = stack.pop() {
            out.push(NodeId::decl(node.file, d));
            if let Some(more) = file.children.get(d as usize) {
                stack.extend(more);
            }
        }
        out
    }

    /// The declarations nested directly in `node`.
    fn children(&mut self, node: NodeId) -> Vec<NodeId> {
        self.children_where(node, |_| true)
    }

    /// The declarations nested directly in `node` that `keep` accepts.
    fn children_where(
        &mut self,
        node: NodeId,
        keep: impl Fn(&crate::facts::Declaration) -> bool,
    ) -> Vec<NodeId> {
        let Some(decl) = node.decl_index() else {
            return Vec::new();
        };
        let Some(file) = self.file(node.file) else {
            return Vec::new();
        };
        let decls = &file.index.facts.decls;
        file.children
            .get(decl as usize)
            .into_iter()
            .flatten()
            .filter(|&&d| decls.get(d as usize).is_some_and(&keep))
            .map(|&d| NodeId::decl(node.file, d))
            .collect()
    }

    /// The members of the type `node` that its language runs when it is instantiated.
    fn constructors(&mut self, node: NodeId) -> Vec<NodeId> {
        let Some(language) = self.file(node.file).and_then(|f| f.language) else {
            return Vec::new();
        };
        self.children_where(node, |d| language.is_constructor(&d.name))
    }

    /// The overrides of the method `node`: a declaration of its name in each class that
    /// extends or implements its class, or, where such a class declares none, in the
    /// classes below it. Each comes with the heritage edge's kind and certainty (the
    /// first one walked); heritage the graph only guessed counts when `guessed`.
    fn overrides(
        &mut self,
        graph: &Graph,
        node: NodeId,
        guessed: bool,
    ) -> Vec<(NodeId, EdgeKind, bool)> {
        let Some(decl) = node.decl_index() else {
            return Vec::new();
        };
        let Some((name, parent)) = self.file(node.file).and_then(|f| {
            let d = f.index.facts.decls.get(decl as usize)?;
            Some((d.name.clone(), d.parent?)).filter(|_| d.kind.is_callable())
        }) else {
            return Vec::new();
        };
        let class = NodeId::decl(node.file, parent);
        if !self.holds_members(class) {
            return Vec::new();
        }
        let mut out = Vec::new();
        let mut seen: rustc_hash::FxHashSet<NodeId> = rustc_hash::FxHashSet::default();
        let mut below = vec![class];
        while let Some(base) = below.pop() {
            let heirs = Heirs::clone(self.heirs.entry(base).or_insert_with(|| {
                graph
                    .incoming(base)
                    .filter(|e| matches!(e.kind, EdgeKind::Extends | EdgeKind::Implements))
                    .map(|e| (e.from, e.kind, e.resolved()))
                    .collect()
            }));
            for &(heir, kind, certain) in heirs.iter() {
                if !(certain || guessed) || !seen.insert(heir) {
                    continue;
                }
                let declared = self
                    .children_where(heir, |d| d.name == name && d.kind.is_callable())
                    .first()
                    .copied();
                match declared {
                    Some(o) => out.push((o, kind, certain)),
                    None => below.push(heir),
                }
                if out.len() >= MAX_OVERRIDES || seen.len() > MAX_SETTLED {
                    return out;
                }
            }
        }
        out
    }

    /// The kind of declaration `node` is.
    fn kind(&mut self, node: NodeId) -> Option<crate::facts::DeclKind> {
        let decl = node.decl_index()?;
        self.file(node.file)
            .and_then(|f| f.index.facts.decls.get(decl as usize))
            .map(|d| d.kind)
    }

    /// Whether `node` is a function or method.
    fn callable(&mut self, node: NodeId) -> bool {
        self.kind(node).is_some_and(|k| k.is_callable())
    }

    /// Whether `node` is a declaration whose members are reached by their own uses.
    fn holds_members(&mut self, node: NodeId) -> bool {
        self.kind(node).is_some_and(|k| k.holds_members())
    }

    /// Whether `node` is in a test, example, generated or vendored file.
    fn secondary(&mut self, node: NodeId) -> bool {
        self.file(node.file).is_some_and(|f| f.secondary)
    }

    /// The declaration of `node`, as definitions print it.
    fn declaration(&self, node: NodeId) -> Option<DefinitionHit> {
        DeclAt::at(self.db, self.ws, node.file, node.decl_index()?).map(|d| DefinitionHit::of(&d))
    }

    /// The printed step of `hop`: the first line of its user that uses its target; for an
    /// override, the heritage clause of the override's class that names the class of the
    /// method it overrides.
    fn step(&mut self, hop: &Hop) -> Option<ChainStep> {
        let to = DeclAt::at(self.db, self.ws, hop.to.file, hop.to.decl_index()?)?;
        let left = DeclAt::at(self.db, self.ws, hop.left.file, hop.left.decl_index()?)?;
        let (user, name) = match hop.kind {
            EdgeKind::Extends | EdgeKind::Implements => {
                let subclass = to.declaration().parent?;
                let base = left.declaration().parent?;
                let base = left.index.facts.decls.get(base as usize)?.name.clone();
                (DeclAt::at(self.db, self.ws, hop.to.file, subclass)?, base)
            }
            _ => (left, to.declaration().name.clone()),
        };
        let facts = &user.index.facts;
        let line = super::references::first_line(facts, user.decl, &name, hop.kind)
            .unwrap_or(user.declaration().signature_line);
        let (text, text_whole) = super::references::line_text(user.file.text(self.db), line);
        Some(ChainStep {
            path: user.path.clone(),
            line,
            text,
            text_whole,
            from: user.declaration().qualified.clone(),
            kind: UseKind::of_edge(hop.kind),
            certain: hop.certain,
            to: DefinitionHit::of(&to),
        })
    }
}
