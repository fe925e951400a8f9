//! `references`: who uses a declaration (callers, renders, instantiations, type uses,
//! subclasses), or what it uses (`callees`), one line per use with the enclosing
//! declaration and the line itself, from the graph's resolved edges.
//!
//! Uses come in three kinds of certainty. A use the graph resolved to the declaration is
//! listed plainly; one it guessed by name (a member call on a receiver it cannot type) is
//! marked `?`; a use of the same name the graph resolved to nothing (a dynamic receiver,
//! a name too common to guess) is listed after them as unresolved, since it may be this
//! declaration. Uses resolved to another declaration of the same name are only counted.
//!
//! A function or method is used by calling it; its name mentioned otherwise (`parser.x`,
//! `let parser = …`, `import parser`) is nearly always a variable, field or module named
//! alike. So for a callable
//! target, a mention that is not a call is listed only when the graph ties that user to
//! the target and the user does not also call it; the others are counted
//! (`not_called`), not listed. On a common name they were most of an answer.
//!
//! With `to`, the answer is instead the chain of uses that leads from the declaration to
//! another ([`super::chain`]).

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::path_traits::path_traits;
use rustc_hash::{FxHashMap, FxHashSet};
use serde::{Deserialize, Serialize};

use super::callee_tree::DEFAULT_CALLEE_DEPTH;
use super::chain::Chain;
use super::definition::DefinitionHit;
use super::member_reads::member_reads;
use super::nearest::{self, NearName};
use super::{DeclAt, Spot, Tag, Target, decl_line, find};
use crate::db::{Db, FileIndex, Workspace, file_index, workspace_graph};
use crate::facts::{HeritageKind, UsageKind};
use crate::graph::{EdgeKind, Graph, NodeId};
use crate::tools::ToolError;

/// Default for [`ReferencesArgs::max_results`].
pub const DEFAULT_MAX_RESULTS: usize = 40;
/// Largest accepted [`ReferencesArgs::max_results`]; larger values are lowered to it.
pub const MAX_RESULTS_CAP: usize = 300;
/// Most declarations whose uses one answer gathers (a name declared more often is too
/// common to list uses of without a qualified name or a path).
pub const MAX_TARGETS: usize = 8;
/// Longest line text shown, in characters; a longer line is cut and marked `…`.
pub const MAX_LINE_CHARS: usize = 160;
/// Most unresolved names a callee answer lists.
const MAX_UNRESOLVED_NAMES: usize = 12;
/// Uses listed per test, example or vendored file: what such a file does with a name is
/// usually the same call again and again; the rest are counted on the file.
pub const SECONDARY_USES_PER_FILE: usize = 2;

/// Arguments of [`run`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
// The doc is for Rust callers; a model reads the tool's own description, not this one.
#[schemars(description = "")]
pub struct ReferencesArgs {
    /// The declaration whose uses (or callees) are wanted.
    #[serde(flatten)]
    #[schemars(description = "")]
    pub target: Target,
    /// true: what it calls and uses, instead of what uses it.
    #[serde(default)]
    pub callees: bool,
    /// Most lines listed (default 40, at most 300).
    #[serde(default = "default_max_results")]
    pub max_results: usize,
    /// With `callees`: levels of calls listed, the target's own uses being the first
    /// (default [`DEFAULT_CALLEE_DEPTH`]; 1 lists only what the target uses).
    #[serde(default = "default_callee_depth")]
    #[schemars(skip)]
    pub depth: u32,
    /// A name or qualified name: instead of the uses, the shortest chain of uses from the
    /// declaration to this one ([`super::chain`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
}

fn default_max_results() -> usize {
    DEFAULT_MAX_RESULTS
}

fn default_callee_depth() -> u32 {
    DEFAULT_CALLEE_DEPTH
}

impl ReferencesArgs {
    /// The uses of `name`.
    pub fn new(name: impl Into<String>) -> ReferencesArgs {
        ReferencesArgs {
            target: Target {
                name: name.into(),
                ..Target::default()
            },
            callees: false,
            max_results: DEFAULT_MAX_RESULTS,
            depth: DEFAULT_CALLEE_DEPTH,
            to: None,
        }
    }
}

/// How sure the graph is that a use is of the target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Certainty {
    /// Resolved through imports and scope.
    Certain,
    /// Guessed by name among a few declarations.
    Guessed,
    /// The name is used, but the graph resolved it to nothing.
    Unresolved,
}

/// What kind of use a line is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum UseKind {
    /// A call.
    Call,
    /// Any other use of the name (a type, a value passed on).
    Reference,
    /// A JSX render.
    Render,
    /// `new`.
    Instantiate,
    /// An `extends` clause.
    Extends,
    /// An `implements` clause.
    Implements,
}

impl UseKind {
    fn of_usage(kind: UsageKind) -> UseKind {
        match kind {
            UsageKind::Call => UseKind::Call,
            UsageKind::Render => UseKind::Render,
            UsageKind::Instantiate => UseKind::Instantiate,
            UsageKind::Reference => UseKind::Reference,
        }
    }

    /// The kind of use a graph edge of `kind` is.
    pub(crate) fn of_edge(kind: EdgeKind) -> UseKind {
        match kind {
            EdgeKind::Calls => UseKind::Call,
            EdgeKind::Renders => UseKind::Render,
            EdgeKind::Instantiates => UseKind::Instantiate,
            EdgeKind::Extends => UseKind::Extends,
            EdgeKind::Implements => UseKind::Implements,
            _ => UseKind::Reference,
        }
    }

    fn of_heritage(kind: HeritageKind) -> UseKind {
        match kind {
            HeritageKind::Extends => UseKind::Extends,
            HeritageKind::Implements => UseKind::Implements,
        }
    }

    /// A short tag for uses other than calls (`ref`, `new`, …); calls carry none.
    fn tag(self) -> &'static str {
        match self {
            UseKind::Call => "",
            UseKind::Reference => " (ref)",
            UseKind::Render => " (renders)",
            UseKind::Instantiate => " (new)",
            UseKind::Extends => " (extends)",
            UseKind::Implements => " (implements)",
        }
    }
}

/// One use of the target.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct UseHit {
    /// Repository-relative path.
    pub path: String,
    /// 1-based line of the use.
    pub line: u32,
    /// The line, trimmed, at most [`MAX_LINE_CHARS`] characters.
    pub text: String,
    /// Whether `text` is the whole trimmed line (so it is verbatim evidence).
    pub text_whole: bool,
    /// The qualified name of the declaration the use is in; `None` at module level.
    pub enclosing: Option<String>,
    /// What kind of use it is.
    pub kind: UseKind,
    /// How sure the graph is that it uses the target.
    pub certainty: Certainty,
}

/// One declaration the target uses.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CalleeHit {
    /// The first line of the target where it is used.
    pub line: u32,
    /// What kind of use that is.
    pub kind: UseKind,
    /// Whether the graph resolved it (not guessed by name).
    pub certain: bool,
    /// 0 for a use by the target itself; `d + 1` for a call made by the function a hit
    /// of depth `d` calls (the hit just before it of depth `d`, in the listed order).
    #[serde(default)]
    pub depth: u32,
    /// The declaration used.
    pub callee: DefinitionHit,
}

/// Result of [`run`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReferencesResult {
    /// What was asked for, as given.
    pub name: String,
    /// Whether this lists what the target uses (`true`) or its uses.
    pub callees: bool,
    /// The declarations whose uses are listed (callees: the one whose calls are).
    pub targets: Vec<DefinitionHit>,
    /// Declarations of the name beyond [`MAX_TARGETS`], not gathered.
    pub more_targets: usize,
    /// The uses, certain and guessed first, then unresolved; each group primary files
    /// first, then path and line order.
    pub uses: Vec<UseHit>,
    /// What the target uses, by line, each followed by what it calls when that was
    /// followed (a depth-first listing of the call tree, [`CalleeHit::depth`]).
    pub calls: Vec<CalleeHit>,
    /// Functions reached in the call tree whose own calls were not listed (the line budget
    /// or the depth ran out).
    #[serde(default)]
    pub unfollowed: usize,
    /// Names the target calls that resolve to nothing (`this.log`), with their counts.
    pub unresolved_calls: Vec<(String, u32)>,
    /// Uses of test, example and vendored files beyond [`SECONDARY_USES_PER_FILE`] each,
    /// counted by file.
    #[serde(default)]
    pub more_in_file: Vec<(String, usize)>,
    /// Uses found but not listed, and the files they are in.
    pub more: usize,
    /// Files of the uses not listed.
    pub more_files: usize,
    /// Uses of the same name that the graph resolved to other declarations.
    pub elsewhere: usize,
    /// Mentions of a callable target's name that are not calls and are not listed (see
    /// the module's documentation).
    #[serde(default)]
    pub not_called: usize,
    /// Member reads (`obj.name`) of a name other declarations share, in files that never
    /// mention the target's type: counted, not listed (see [`uses`]).
    #[serde(default)]
    pub unrelated_reads: usize,
    /// When nothing matched: the nearest declared names.
    pub nearest: Vec<NearName>,
    /// The targets are the name in another case: no declaration has it as spelled
    /// (`nearest` then holds the names a typo away from it).
    #[serde(default)]
    pub case_folded: bool,
    /// With `to`: the chain from the targets to it (and no uses or callees).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<Chain>,
}

/// Finds the uses (or the callees) of the declaration `args.target` names.
pub fn run(
    db: &dyn Db,
    ws: Workspace,
    args: &ReferencesArgs,
) -> Result<ReferencesResult, ToolError> {
    if args.max_results == 0 {
        return Err(ToolError::invalid_argument(
            "max_results",
            0,
            "must be at least 1",
        ));
    }
    let max = args.max_results.min(MAX_RESULTS_CAP);
    let graph = workspace_graph(db, ws);
    let found = find(db, ws, &graph, &args.target)?;
    let mut result = ReferencesResult {
        name: args.target.name.clone(),
        callees: args.callees,
        targets: Vec::new(),
        more_targets: 0,
        uses: Vec::new(),
        calls: Vec::new(),
        unfollowed: 0,
        unresolved_calls: Vec::new(),
        more_in_file: Vec::new(),
        more: 0,
        more_files: 0,
        elsewhere: 0,
        not_called: 0,
        unrelated_reads: 0,
        nearest: found.nearest,
        case_folded: found.case_folded,
        chain: None,
    };
    if found.decls.is_empty() {
        return Ok(result);
    }
    // Callees are of one declaration; uses and a chain gather every declaration named.
    let keep = if args.callees && args.to.is_none() {
        1
    } else {
        MAX_TARGETS
    };
    result.more_targets = found.decls.len().saturating_sub(keep);
    let targets: Vec<DeclAt> = found.decls.into_iter().take(keep).collect();
    result.targets = targets.iter().map(DefinitionHit::of).collect();
    if let Some(to) = &args.to {
        let to = Target {
            name: to.clone(),
            ..Target::default()
        };
        result.chain = Some(super::chain::run(db, ws, &graph, &targets, &to)?);
    } else if args.callees {
        // What the target uses and, below each call, what the functions it calls call in
        // turn ([`super::callee_tree`]), and the names it calls that resolve to nothing.
        let tree = super::callee_tree::build(db, ws, &graph, &targets[0], max, args.depth);
        result.calls = tree.calls;
        result.more = tree.more;
        result.unfollowed = tree.unfollowed;
        result.unresolved_calls = unresolved_calls(&graph, &targets[0]);
    } else {
        uses(db, ws, &graph, &targets, max, &mut result);
    }
    Ok(result)
}

/// The line `line` of `text`, trimmed and cut to [`MAX_LINE_CHARS`]; whether it is whole.
pub(crate) fn line_text(text: &str, line: u32) -> (String, bool) {
    let raw = text
        .lines()
        .nth(line.saturating_sub(1) as usize)
        .unwrap_or("");
    let trimmed = raw.trim();
    if trimmed.chars().count() <= MAX_LINE_CHARS {
        return (trimmed.to_owned(), true);
    }
    let cut: String = trimmed.chars().take(MAX_LINE_CHARS).collect();
    (cut + "…", false)
}

/// Whether an edge is a use (not nesting or a module import).
fn is_use(kind: EdgeKind) -> bool {
    !matches!(kind, EdgeKind::Contains | EdgeKind::Imports)
}

/// The node a use inside `enclosing` of the file at `position` starts from.
fn user(position: u32, enclosing: Option<u32>) -> NodeId {
    enclosing.map_or(NodeId::module(position), |d| NodeId::decl(position, d))
}

/// A use found in one file, before it is ordered and cut.
struct Found {
    position: u32,
    line: u32,
    enclosing: Option<u32>,
    kind: UseKind,
    certainty: Certainty,
}

/// The uses of `targets`: every use of their names whose enclosing node has an edge to one
/// of them (certain or guessed), or to no declaration of that name (unresolved); uses
/// through an import alias are found through the edges.
fn uses(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    targets: &[DeclAt],
    max: usize,
    result: &mut ReferencesResult,
) {
    let target_nodes: FxHashSet<NodeId> = targets.iter().map(DeclAt::node).collect();
    let callable = targets.iter().all(|t| t.declaration().kind.is_callable());
    let mut names: Vec<String> = targets
        .iter()
        .map(|t| t.declaration().name.clone())
        .collect();
    names.sort();
    names.dedup();
    // Every node named like a target: a use resolved to one of them but not to a target
    // is a use of another declaration.
    let same_named: FxHashSet<NodeId> = names
        .iter()
        .flat_map(|n| graph.names.get(n).unwrap_or(&[]).iter().copied())
        .collect();
    // The users the graph links to a target, with how sure it is.
    let mut linked: FxHashMap<NodeId, bool> = FxHashMap::default();
    for t in &target_nodes {
        for e in graph.incoming(*t).filter(|e| is_use(e.kind)) {
            let sure = linked.entry(e.from).or_insert(false);
            *sure |= e.certain;
        }
    }
    let files = ws.files(db);
    let finders: Vec<memchr::memmem::Finder<'_>> = names
        .iter()
        .map(|n| memchr::memmem::Finder::new(n.as_bytes()))
        .collect();
    // Files a use can be in: those naming a target, and those of linked users (an alias).
    let mut positions: Vec<u32> = linked.keys().map(|n| n.file).collect();
    for (i, f) in files.iter().enumerate() {
        let text = f.text(db);
        if finders.iter().any(|fd| fd.find(text.as_bytes()).is_some()) {
            positions.push(i as u32);
        }
    }
    positions.sort_unstable();
    positions.dedup();
    let mut found: Vec<Found> = Vec::new();
    for &position in &positions {
        let index = file_index(db, files[position as usize]);
        let aliases = aliases(&index, &names);
        let named = |n: &str| names.iter().any(|x| x == n) || aliases.iter().any(|a| a == n);
        // A user the graph links to a target uses it (any use of the name or an alias
        // there is taken as that use); otherwise a use resolved to another declaration
        // of the name is that one's, and a use resolved to none may be the target's.
        let classify = |from: NodeId, name: &str| -> Option<Certainty> {
            // A target using its own name is recursion (the graph keeps no self-edges).
            if target_nodes.contains(&from) && names.iter().any(|n| n == name) {
                return Some(Certainty::Certain);
            }
            if let Some(&sure) = linked.get(&from) {
                return Some(if sure {
                    Certainty::Certain
                } else {
                    Certainty::Guessed
                });
            }
            let elsewhere = graph
                .outgoing(from)
                .iter()
                .any(|e| is_use(e.kind) && same_named.contains(&e.to));
            (!elsewhere && names.iter().any(|n| n == name)).then_some(Certainty::Unresolved)
        };
        // The users in this file that call the name: a mention of it there that is not a
        // call is something else named alike.
        let callers: FxHashSet<Option<u32>> = index
            .facts
            .usages
            .iter()
            .filter(|u| u.kind == UsageKind::Call && named(&u.name))
            .map(|u| u.enclosing)
            .collect();
        for u in index.facts.usages.iter().filter(|u| named(&u.name)) {
            let from = user(position, u.enclosing);
            let certainty = classify(from, &u.name);
            let not_a_call = callable
                && u.kind == UsageKind::Reference
                && certainty.is_some()
                && (certainty == Some(Certainty::Unresolved) || callers.contains(&u.enclosing));
            if not_a_call {
                result.not_called += 1;
                continue;
            }
            match certainty {
                Some(certainty) => found.push(Found {
                    position,
                    line: u.line,
                    enclosing: u.enclosing,
                    kind: UseKind::of_usage(u.kind),
                    certainty,
                }),
                None => result.elsewhere += usize::from(names.iter().any(|n| **n == *u.name)),
            }
        }
        for h in index.facts.heritage.iter().filter(|h| named(&h.name)) {
            let from = NodeId::decl(position, h.decl);
            match classify(from, &h.name) {
                Some(certainty) => found.push(Found {
                    position,
                    line: h.line,
                    enclosing: Some(h.decl),
                    kind: UseKind::of_heritage(h.kind),
                    certainty,
                }),
                None => result.elsewhere += usize::from(names.contains(&h.name)),
            }
        }
    }
    // A member's reads are its uses: a field's, a getter's (a property or accessor is
    // read, never called), and a method's read without a call, which hands the method on
    // (`handler = self.flush`, `onClick={this.save}`); the member calls of a method are in
    // the facts already.
    let members = targets.iter().all(|t| {
        let d = t.declaration();
        d.parent.is_some() || d.attached_to.is_some()
    });
    if members {
        let called = found.iter().any(|f| f.kind == UseKind::Call);
        let reads = MemberReads {
            targets,
            names: &names,
            own_receivers_only: callable && called,
            // Guessed when no other declaration has the name.
            certainty: if same_named.iter().all(|n| target_nodes.contains(n)) {
                Certainty::Guessed
            } else {
                Certainty::Unresolved
            },
            calls: !callable,
        };
        for &position in &positions {
            reads.gather(db, files[position as usize], position, &mut found, result);
        }
    }
    // A target's own declaration line is not a use of it.
    found.retain(|f| {
        !targets.iter().any(|t| {
            t.position == f.position
                && t.declaration().signature_line == f.line
                && f.kind == UseKind::Reference
        })
    });
    let languages = db.languages();
    let primary =
        |position: u32| !path_traits(languages, files[position as usize].path(db)).is_secondary();
    // On one line, the most telling use wins: a clause or a call over a plain reference.
    found.sort_by_key(|f| {
        (
            f.certainty == Certainty::Unresolved,
            !primary(f.position),
            f.position,
            f.line,
            f.kind == UseKind::Reference,
        )
    });
    // The same line may be found twice, with different certainty (a usage the graph
    // resolved and a member read of it): the first, the surest, is kept.
    let mut lines_seen: FxHashSet<(u32, u32)> = FxHashSet::default();
    found.retain(|f| lines_seen.insert((f.position, f.line)));
    let mut shown_files = FxHashSet::default();
    let mut cut_files = FxHashSet::default();
    let mut per_file: FxHashMap<u32, usize> = FxHashMap::default();
    for f in found {
        let listed = per_file.entry(f.position).or_default();
        if !primary(f.position) && *listed >= SECONDARY_USES_PER_FILE {
            let path = files[f.position as usize].path(db);
            match result.more_in_file.iter_mut().find(|(p, _)| p == path) {
                Some((_, n)) => *n += 1,
                None => result.more_in_file.push((path.clone(), 1)),
            }
            continue;
        }
        *listed += 1;
        if result.uses.len() >= max {
            result.more += 1;
            if !shown_files.contains(&f.position) {
                cut_files.insert(f.position);
            }
            continue;
        }
        shown_files.insert(f.position);
        let file = files[f.position as usize];
        let index = file_index(db, file);
        let (text, text_whole) = line_text(file.text(db), f.line);
        result.uses.push(UseHit {
            path: file.path(db).clone(),
            line: f.line,
            text,
            text_whole,
            enclosing: f
                .enclosing
                .and_then(|d| index.facts.decls.get(d as usize))
                .map(|d| d.qualified.clone()),
            kind: f.kind,
            certainty: f.certainty,
        });
    }
    result.more_files = cut_files.len();
}

/// How the member reads of targets that are members of a type become uses
/// ([`member_reads`]): the facts record member calls but not member reads.
struct MemberReads<'a> {
    targets: &'a [DeclAt],
    names: &'a [String],
    /// The certainty of every read: by name, so guessed at best.
    certainty: Certainty,
    /// Whether a read that calls the name is a use (a field holding a function); for a
    /// getter only plain reads are, its calls being in the facts.
    calls: bool,
    /// A method that is called: a read of it hands it on (`this.save` as a callback) only
    /// from its own object or type (`this`, `self`, the type's name); other objects'
    /// `.save` without a call were nearly always fields or keys named alike
    /// (`state.totals.count`, `opts.limit`).
    own_receivers_only: bool,
}

impl MemberReads<'_> {
    /// Adds the reads of `file` (at `position`) to `found`. A read of a name other
    /// declarations share (`.config`) is the target's only in its own file or one that
    /// mentions the type it belongs to; elsewhere such reads were nearly all other
    /// objects' and crowded out the rest of the answer, so they are only counted.
    fn gather(
        &self,
        db: &dyn Db,
        file: crate::db::SourceFile,
        position: u32,
        found: &mut Vec<Found>,
        result: &mut ReferencesResult,
    ) {
        let text = file.text(db);
        let related = self.certainty == Certainty::Guessed
            || self
                .targets
                .iter()
                .any(|t| t.position == position || owner_name(t).is_some_and(|o| text.contains(o)));
        let index = file_index(db, file);
        let language = crate::graph::queries::language_of(db, file);
        let own_receiver = |receiver: &str| {
            language.is_some_and(|l| l.is_self_receiver(receiver))
                || self.targets.iter().any(|t| owner_name(t) == Some(receiver))
        };
        for r in member_reads(text, &index.facts, self.names) {
            if r.called && !self.calls {
                continue;
            }
            if self.own_receivers_only && !own_receiver(&r.receiver) {
                continue;
            }
            if !related {
                result.unrelated_reads += 1;
                continue;
            }
            found.push(Found {
                position,
                line: r.line,
                enclosing: r.enclosing,
                kind: if r.called {
                    UseKind::Call
                } else {
                    UseKind::Reference
                },
                certainty: self.certainty,
            });
        }
    }
}

/// The name of the type a member target belongs to: its enclosing declaration's, or the
/// type it is attached to (a receiver type, an implementation block's).
fn owner_name(t: &DeclAt) -> Option<&str> {
    let d = t.declaration();
    d.parent
        .and_then(|p| t.index.facts.decls.get(p as usize))
        .map(|p| p.name.as_str())
        .or(d.attached_to.as_deref())
}

/// Local names a file imports any of `names` under (`import { save as persist }`).
fn aliases(index: &FileIndex, names: &[String]) -> Vec<String> {
    index
        .facts
        .imports
        .iter()
        .flat_map(|i| i.names.iter())
        .filter(|n| n.local != n.imported && names.contains(&n.imported))
        .map(|n| n.local.clone())
        .collect()
}

/// Which of `target`'s file's declarations are `target` or nested in it (a parent
/// precedes its children in the facts).
fn inside(target: &DeclAt) -> Vec<bool> {
    let facts = &target.index.facts;
    let mut inside = vec![false; facts.decls.len()];
    inside[target.decl as usize] = true;
    for (i, d) in facts.decls.iter().enumerate() {
        if d.parent.is_some_and(|p| inside[p as usize]) {
            inside[i] = true;
        }
    }
    inside
}

/// What `target` (and the declarations nested in it) uses: one hit per declaration used,
/// at its first use, with its graph node, in line order.
pub(crate) fn direct_callees(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    target: &DeclAt,
) -> Vec<(NodeId, CalleeHit)> {
    let facts = &target.index.facts;
    let inside = inside(target);
    let within = |n: &NodeId| {
        n.file == target.position && n.decl_index().is_some_and(|d| inside[d as usize])
    };
    // Each declaration used, with its first use: (line, kind, certain).
    let mut used: BTreeMap<NodeId, (u32, UseKind, bool)> = BTreeMap::new();
    for (i, _) in facts.decls.iter().enumerate().filter(|(i, _)| inside[*i]) {
        let from = NodeId::decl(target.position, i as u32);
        for e in graph
            .outgoing(from)
            .iter()
            .filter(|e| is_use(e.kind) && !within(&e.to))
        {
            let Some(callee) =
                super::DeclAt::at(db, ws, e.to.file, e.to.decl_index().unwrap_or(u32::MAX))
            else {
                continue;
            };
            let name = &callee.declaration().name;
            let line =
                first_line(facts, i as u32, name, e.kind).unwrap_or(facts.decls[i].signature_line);
            let kind = UseKind::of_edge(e.kind);
            let entry = used.entry(e.to).or_insert((line, kind, e.certain));
            if line < entry.0 {
                *entry = (line, kind, entry.2 || e.certain);
            }
            entry.2 |= e.certain;
        }
    }
    let mut calls: Vec<(NodeId, CalleeHit)> = used
        .into_iter()
        .filter_map(|(node, (line, kind, certain))| {
            let callee = super::DeclAt::at(db, ws, node.file, node.decl_index()?)?;
            Some((
                node,
                CalleeHit {
                    line,
                    kind,
                    certain,
                    depth: 0,
                    callee: DefinitionHit::of(&callee),
                },
            ))
        })
        .collect();
    calls.sort_by(|(_, a), (_, b)| {
        (a.line, &a.callee.path, a.callee.lines).cmp(&(b.line, &b.callee.path, b.callee.lines))
    });
    calls
}

/// Calls in `target` (not plain references: locals, parameters) that resolve to nothing,
/// with their counts, most frequent first; a call of a function declared inside the
/// target is its own business.
fn unresolved_calls(graph: &Graph, target: &DeclAt) -> Vec<(String, u32)> {
    let facts = &target.index.facts;
    let inside = inside(target);
    let mut resolved_names: FxHashSet<(u32, &str)> = FxHashSet::default();
    for u in &facts.usages {
        if u.enclosing.is_some_and(|d| inside[d as usize]) {
            let from = user(target.position, u.enclosing);
            let resolved = graph.outgoing(from).iter().any(|e| {
                is_use(e.kind)
                    && graph
                        .names
                        .get(&u.name)
                        .is_some_and(|nodes| nodes.contains(&e.to))
            });
            if resolved {
                resolved_names.insert((u.line, &*u.name));
            }
        }
    }
    let local: FxHashSet<&str> = facts
        .decls
        .iter()
        .enumerate()
        .filter(|(i, _)| inside[*i])
        .map(|(_, d)| d.name.as_str())
        .collect();
    let mut unresolved: BTreeMap<String, u32> = BTreeMap::new();
    for u in &facts.usages {
        let in_target = u.enclosing.is_some_and(|d| inside[d as usize]);
        if !in_target
            || u.kind == UsageKind::Reference
            || local.contains(&*u.name)
            || resolved_names.contains(&(u.line, &*u.name))
        {
            continue;
        }
        let shown = if u.receiver.is_empty() {
            u.name.to_string()
        } else {
            format!("{}.{}", u.receiver, u.name)
        };
        *unresolved.entry(shown).or_default() += 1;
    }
    let mut unresolved: Vec<(String, u32)> = unresolved.into_iter().collect();
    unresolved.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    unresolved.truncate(MAX_UNRESOLVED_NAMES);
    unresolved
}

/// The first line in declaration `decl` of `facts` using `name` as an edge of `kind` says.
pub(crate) fn first_line(
    facts: &crate::facts::FileFacts,
    decl: u32,
    name: &str,
    kind: EdgeKind,
) -> Option<u32> {
    if matches!(kind, EdgeKind::Extends | EdgeKind::Implements) {
        return facts
            .heritage
            .iter()
            .find(|h| h.decl == decl && h.name == name)
            .map(|h| h.line);
    }
    facts
        .usages
        .iter()
        .find(|u| u.enclosing == Some(decl) && &*u.name == name)
        .map(|u| u.line)
}

/// Most declarations of each end a missing chain lists: which ones were searched, not a
/// second `definition` answer.
const LISTED_ENDS: usize = 3;

/// The first [`LISTED_ENDS`] of `lines`, and how many more there are.
fn listed(lines: &[String]) -> String {
    let mut out = lines[..lines.len().min(LISTED_ENDS)].join("; ");
    if lines.len() > LISTED_ENDS {
        let _ = write!(out, " (+{} more)", lines.len() - LISTED_ENDS);
    }
    out
}

/// Each declaration as [`decl_line`] prints it.
fn decl_lines(hits: &[DefinitionHit], tag: Tag<'_>) -> Vec<String> {
    hits.iter()
        .map(|t| {
            let mut s = String::new();
            decl_line(&mut s, &t.path, t.lines, &t.kind, &t.qualified, tag);
            s
        })
        .collect()
}

impl ReferencesResult {
    /// The uses grouped by file (`## path`, then `  23 [c8 20-30] Enclosing: the line`,
    /// `?` after the number when guessed), or the callees (`  14 src/b.ts:3-20 [c11]
    /// function validate`), then what was cut; or the nearest names.
    pub fn render_tagged(&self, tag: Tag<'_>) -> String {
        let mut out = String::new();
        if self.targets.is_empty() {
            if self.name.is_empty() {
                // An ID of a line no declaration holds (an import, a module-level
                // statement) stands for no name: say so rather than quote an empty one.
                out.push_str("no declaration holds that line; read_file shows it\n");
                return out;
            }
            let _ = write!(
                out,
                "no declaration named `{}`; ",
                crate::escape::inline(&self.name)
            );
            nearest::render(&mut out, &self.nearest);
            return out;
        }
        if self.case_folded {
            nearest::render_case_folded(&mut out, &self.name, &self.nearest);
        }
        let targets = decl_lines(&self.targets, tag);
        if let Some(chain) = &self.chain {
            self.render_chain(&mut out, chain, &targets, tag);
        } else if self.callees {
            let _ = writeln!(out, "{} uses:", targets.join("; "));
            self.render_calls(&mut out, tag);
        } else {
            match targets.as_slice() {
                [one] => {
                    let _ = writeln!(out, "uses of {one}");
                }
                many => {
                    let name = crate::escape::inline(&self.targets[0].name);
                    let _ = writeln!(out, "uses of {} declarations named {name}:", many.len());
                    for t in many {
                        let _ = writeln!(out, "{t}");
                    }
                }
            }
            self.render_uses(&mut out, tag);
        }
        if self.more_targets > 0 {
            let _ = writeln!(
                out,
                "({} more declarations of this name not included; pass a qualified name or `path`)",
                self.more_targets
            );
        }
        out
    }

    fn render_uses(&self, out: &mut String, tag: Tag<'_>) {
        if self.uses.is_empty() {
            out.push_str("no uses found\n");
        }
        let mut last_path: Option<&str> = None;
        let mut unresolved_started = false;
        for u in &self.uses {
            if u.certainty == Certainty::Unresolved && !unresolved_started {
                unresolved_started = true;
                last_path = None;
                out.push_str("unresolved (may be another declaration of the name):\n");
            }
            if last_path != Some(u.path.as_str()) {
                if let Some(p) = last_path {
                    self.render_more_in(out, p);
                }
                let _ = writeln!(out, "## {}", crate::escape::inline(&u.path));
                last_path = Some(&u.path);
            }
            let mark = if u.certainty == Certainty::Guessed {
                "?"
            } else {
                ""
            };
            let label = tag(&u.path, Spot::Line(u.line))
                .map(|t| format!(" {t}"))
                .unwrap_or_default();
            let within = u
                .enclosing
                .as_deref()
                .map(|e| format!(" {}", crate::escape::inline(e)))
                .unwrap_or_default();
            let _ = writeln!(
                out,
                "{}{mark}{label}{within}{}: {}",
                u.line,
                u.kind.tag(),
                crate::escape::inline(&u.text)
            );
        }
        if let Some(p) = last_path {
            self.render_more_in(out, p);
        }
        if self.more > 0 {
            let _ = writeln!(
                out,
                "(+{} more uses in {} more files; pass `path` or raise max_results)",
                self.more, self.more_files
            );
        }
        if self.not_called > 0 {
            let _ = writeln!(
                out,
                "({} mentions of the name that are not calls left out: variables, fields or modules named alike)",
                self.not_called
            );
        }
        if self.unrelated_reads > 0 {
            let _ = writeln!(
                out,
                "({} reads of the name as a member in files that never name its type left out)",
                self.unrelated_reads
            );
        }
        if self.elsewhere > 0 {
            let _ = writeln!(
                out,
                "({} uses of the name resolve to other declarations)",
                self.elsewhere
            );
        }
    }

    /// `from reaches to in N steps:` and a line per step (`path:line [c3] User: the line`,
    /// `?` after the number when guessed, `→ Used` when the line does not show its name);
    /// or why there is no chain.
    fn render_chain(&self, out: &mut String, chain: &Chain, targets: &[String], tag: Tag<'_>) {
        let name = crate::escape::inline(&self.name);
        let to_name = crate::escape::inline(&chain.to_name);
        if chain.ends.is_empty() {
            let _ = write!(out, "no declaration named `{to_name}`; ");
            nearest::render(out, &chain.to_nearest);
            return;
        }
        let ends = decl_lines(&chain.ends, tag);
        let (Some(first), Some(last)) = (chain.steps.first(), chain.steps.last()) else {
            let _ = writeln!(
                out,
                "no chain of calls from `{name}` to `{to_name}` or back ({} declarations reached from either end{})",
                chain.searched,
                if chain.cut { ", search cut" } else { "" }
            );
            let _ = writeln!(out, "`{name}`: {}", listed(targets));
            let _ = writeln!(out, "`{to_name}`: {}", listed(&ends));
            return;
        };
        if chain.guessed {
            out.push_str(
                "no chain of resolved calls either way; through calls guessed by name (`?`): ",
            );
        } else if chain.reversed {
            let _ = write!(out, "nothing from `{name}` reaches `{to_name}`; ");
        }
        // The chain's two ends as declared: where it starts (the user of its first step)
        // and the declaration its last step uses.
        let start = targets
            .iter()
            .zip(&self.targets)
            .chain(ends.iter().zip(&chain.ends))
            .find(|(_, t)| {
                t.path == first.path && t.lines.start <= first.line && first.line <= t.lines.end
            })
            .map(|(s, _)| s.clone())
            .unwrap_or_else(|| format!("{}:{}", crate::escape::inline(&first.path), first.line));
        let reached = chain.end.as_ref().unwrap_or(&last.to);
        let mut end = String::new();
        decl_line(
            &mut end,
            &reached.path,
            reached.lines,
            &reached.kind,
            &reached.qualified,
            tag,
        );
        let n = chain.steps.len();
        let _ = writeln!(
            out,
            "{start} reaches {end} in {n} step{}:",
            if n == 1 { "" } else { "s" }
        );
        for step in &chain.steps {
            let mark = if step.certain { "" } else { "?" };
            let label = tag(&step.path, Spot::Line(step.line))
                .map(|t| format!(" {t}"))
                .unwrap_or_default();
            let _ = write!(
                out,
                "{}:{}{mark}{label} {}{}: {}",
                crate::escape::inline(&step.path),
                step.line,
                crate::escape::inline(&step.from),
                step.kind.tag(),
                crate::escape::inline(&step.text)
            );
            if !step.text.contains(step.to.name.as_str()) {
                let _ = write!(out, " → {}", crate::escape::inline(&step.to.qualified));
            }
            out.push('\n');
        }
    }

    /// `(+21 more in this file)` after the last listed use of a test or example file.
    fn render_more_in(&self, out: &mut String, path: &str) {
        if let Some((_, n)) = self.more_in_file.iter().find(|(p, _)| p == path) {
            let _ = writeln!(out, "(+{n} more in this file)");
        }
    }

    fn render_calls(&self, out: &mut String, tag: Tag<'_>) {
        if self.calls.is_empty() && self.unresolved_calls.is_empty() {
            out.push_str("it uses no declaration of the repository\n");
        }
        // The file of the declaration each depth's hits are in: the target's, then the
        // file of the last hit listed at the depth above.
        let mut caller_files: Vec<&str> = vec![self.targets.first().map_or("", |t| &t.path)];
        for c in &self.calls {
            let depth = c.depth as usize;
            caller_files.truncate(depth + 1);
            let caller = caller_files.get(depth).copied().unwrap_or("");
            let mark = if c.certain { "" } else { "?" };
            let _ = write!(
                out,
                "{:indent$}{}{mark}{} ",
                "",
                c.line,
                c.kind.tag(),
                indent = depth * 2
            );
            // A callee in its caller's file is `:12-20`: the path said once, above.
            let shown = match c.callee.path == caller {
                true => "",
                false => c.callee.path.as_str(),
            };
            super::decl_line_shown(
                out,
                shown,
                &c.callee.path,
                c.callee.lines,
                &c.callee.kind,
                &c.callee.qualified,
                tag,
            );
            out.push('\n');
            caller_files.push(&c.callee.path);
        }
        if self.unfollowed > 0 {
            let n = self.unfollowed;
            let _ = writeln!(
                out,
                "(the calls of {n} more function{} reached are not listed: raise max_results, or ask for the callees of one)",
                if n == 1 { "" } else { "s" }
            );
        }
        if self.more > 0 {
            let _ = writeln!(out, "(+{} more; raise max_results)", self.more);
        }
        if !self.unresolved_calls.is_empty() {
            let names: Vec<String> = self
                .unresolved_calls
                .iter()
                .map(|(n, k)| match k {
                    1 => crate::escape::inline(n),
                    k => format!("{} ×{k}", crate::escape::inline(n)),
                })
                .collect();
            let _ = writeln!(out, "unresolved calls: {}", names.join(", "));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_missing_chain_lists_a_few_declarations_and_counts_the_rest() {
        let lines: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        assert_eq!(listed(&lines), "a; b; c (+2 more)");
        assert_eq!(listed(&lines[..2]), "a; b");
    }

    #[test]
    fn long_lines_are_cut_and_marked() {
        let long = format!("  {}\n", "x".repeat(MAX_LINE_CHARS + 5));
        let (text, whole) = line_text(&long, 1);
        assert!(!whole && text.ends_with('…'));
        assert_eq!(line_text("a\n  b  \n", 2), ("b".to_owned(), true));
        assert_eq!(line_text("a\n", 9), (String::new(), true));
    }
}
