//! Navigation over the index, cheaper than grep and read: where a name is defined
//! ([`definition`]), who uses it and what it uses ([`references`]), what a file or a
//! directory declares ([`outline`]). Every answer comes from the facts and the graph in
//! memory (no file is read from disk), one line per hit, bounded, with counts of what was
//! cut; a name that matches nothing answers the repository's nearest names ([`nearest`]).
//!
//! A declaration is named by its name (`save`), a dotted qualified name (`Store.save`,
//! which may start with module path segments: `store.Store.save`), optionally scoped to a
//! path, or by a path and a line inside it (what a candidate ID resolves to).

pub mod callee_tree;
pub mod chain;
pub mod definition;
mod member_reads;
pub mod nearest;
pub mod outline;
pub mod outline_tree;
pub mod references;

use std::sync::Arc;

use sightline_lang::Languages;

use super::error::ToolError;
use crate::db::{Db, FileIndex, SourceFile, Workspace, file_index};
use crate::facts::{Declaration, LineRange};
use crate::graph::{Graph, NodeId};
use crate::path_traits::path_traits;

/// Where a tool's hit is, for the caller's labels: a declaration's lines, or one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spot {
    /// A declaration (its whole range).
    Lines(LineRange),
    /// One line (a use of a name).
    Line(u32),
}

/// A labeller: the label (a candidate ID) for a spot of a path, if any.
pub type Tag<'a> = &'a dyn Fn(&str, Spot) -> Option<String>;

/// The declaration a name, a qualified name or a position names.
#[derive(
    Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
// The doc is for Rust callers; a model reads the field docs and the tool's description.
#[schemars(description = "")]
pub struct Target {
    /// A name (save), a qualified name (Store.save), or a candidate ID (c7).
    pub name: String,
    /// Only declarations in this file or directory.
    #[serde(default)]
    pub path: Option<String>,
    /// Only the declaration holding this line of `path` (the innermost, when `name` is
    /// empty): what a candidate ID resolves to. Not offered to models.
    #[serde(default)]
    #[schemars(skip)]
    pub line: Option<u32>,
}

/// One declaration of the index, by its file and its index among the file's declarations.
#[derive(Clone)]
pub struct DeclAt {
    /// The file.
    pub file: SourceFile,
    /// Its repository-relative path.
    pub path: String,
    /// The file's position in the workspace (and the graph).
    pub position: u32,
    /// The declaration's index in the file's facts.
    pub decl: u32,
    /// The file's facts.
    pub index: Arc<FileIndex>,
}

impl DeclAt {
    /// The declaration itself.
    pub fn declaration(&self) -> &Declaration {
        &self.index.facts.decls[self.decl as usize]
    }

    /// Its graph node.
    pub fn node(&self) -> NodeId {
        NodeId::decl(self.position, self.decl)
    }

    fn at(db: &dyn Db, ws: Workspace, position: u32, decl: u32) -> Option<DeclAt> {
        let file = *ws.files(db).get(position as usize)?;
        let index = file_index(db, file);
        if decl as usize >= index.facts.decls.len() {
            return None;
        }
        Some(DeclAt {
            file,
            path: file.path(db).clone(),
            position,
            decl,
            index,
        })
    }
}

/// What a [`Target`] found: its declarations, or, when none, the nearest names.
pub struct Found {
    /// Matching declarations, primary files first, then exported ones, then path order.
    pub decls: Vec<DeclAt>,
    /// When nothing matched: the repository's names nearest to the one asked for. When
    /// only the name in another case matched ([`Found::case_folded`]): the names a typo
    /// away from it, as spelled (`saveRecords` beside `SaveRecord` for `saveRecord`).
    pub nearest: Vec<nearest::NearName>,
    /// The declarations found are the name in another case: none has it as spelled.
    pub case_folded: bool,
}

/// Whether `path` is `scope` or lies under it (`scope` without a trailing `/`).
pub(crate) fn in_scope(path: &str, scope: &str) -> bool {
    scope.is_empty()
        || path == scope
        || path
            .strip_prefix(scope)
            .is_some_and(|rest| rest.starts_with('/'))
}

/// A path argument as the index spells paths: `/`-separated, without `./`, a leading or
/// a trailing `/`.
pub(crate) fn normalize_path(path: &str) -> String {
    let p = path.trim().replace('\\', "/");
    let p = p.trim_start_matches("./").trim_matches('/');
    if p == "." {
        String::new()
    } else {
        p.to_owned()
    }
}

/// The segments of a qualified name: `Store.save`, `Store::save`, `Store#save`.
fn segments(name: &str) -> Vec<&str> {
    name.split(['.', ':', '#'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Whether `wanted` (segments) names `decl` of the file at `path`: its last segments are
/// the declaration's qualified name's, and any before them the file's path segments (its
/// extension dropped), so `store.Store.save` names `Store.save` of `src/store.ts`.
fn names_decl(wanted: &[&str], decl: &Declaration, path: &str, fold: bool) -> bool {
    let stem = path.rsplit_once('.').map_or(path, |(s, _)| s);
    let full: Vec<&str> = stem.split('/').chain(decl.qualified.split('.')).collect();
    if wanted.len() > full.len() {
        return false;
    }
    let tail = &full[full.len() - wanted.len()..];
    let same = |a: &str, b: &str| {
        if fold {
            a.eq_ignore_ascii_case(b)
        } else {
            a == b
        }
    };
    // The qualified part must cover at least the declaration's own name.
    tail.iter().zip(wanted).all(|(a, b)| same(a, b))
}

/// The declarations `target` names, in the order [`Found::decls`] documents.
pub fn find(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    target: &Target,
) -> Result<Found, ToolError> {
    let scope = target.path.as_deref().map(normalize_path);
    let wanted = segments(&target.name);
    if wanted.is_empty() {
        return at_line(db, ws, scope.as_deref(), target.line);
    }
    let last = wanted[wanted.len() - 1];
    let mut decls = matching(
        db,
        ws,
        graph,
        &wanted,
        last,
        scope.as_deref(),
        target.line,
        false,
    );
    let none_as_spelled = decls.is_empty();
    if none_as_spelled {
        // The same name in another case (`basemodel` for `BaseModel`) before a guess.
        let folded: Vec<NodeId> = graph
            .names
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(last))
            .flat_map(|(_, nodes)| nodes.iter().copied())
            .collect();
        decls = filter_nodes(
            db,
            ws,
            &folded,
            &wanted,
            scope.as_deref(),
            target.line,
            true,
        );
    }
    sort(db.languages(), &mut decls);
    // Found only in another case: what was found is not the name as asked.
    let case_folded = none_as_spelled && !decls.is_empty();
    let nearest = if !decls.is_empty() && !case_folded {
        Vec::new()
    } else {
        // Twice the names shown: a case-folded answer drops the names in another case,
        // which come first and are its hits.
        let elsewhere = nearest::scored_nearest(
            db,
            ws,
            graph,
            last,
            scope.as_deref(),
            2 * nearest::NEAREST_NAMES,
        );
        if case_folded {
            // The name as spelled may be a typo of another: an agent asking for
            // `saveRecord` may mean `saveRecords` more than the `SaveRecord` found.
            elsewhere
                .into_iter()
                .filter(|(d, n)| *d < nearest::SUB_WORDS && !n.name.eq_ignore_ascii_case(last))
                .map(|(_, n)| n)
                .take(nearest::NEAREST_NAMES)
                .collect()
        } else {
            // `Owner.member` where the owner exists and the member does not: an agent
            // guessed a method of a type it knows, and the type's own members are a next
            // step beside the repository's nearest names.
            let members = match wanted.len() {
                n @ 2.. => {
                    let owner = &wanted[..n - 1];
                    let owners = matching(
                        db,
                        ws,
                        graph,
                        owner,
                        owner[owner.len() - 1],
                        scope.as_deref(),
                        None,
                        false,
                    );
                    nearest::nearest_members(&owners, last, nearest::NEAREST_NAMES)
                }
                _ => Vec::new(),
            };
            nearest::merge(members, elsewhere, nearest::NEAREST_NAMES)
        }
    };
    Ok(Found {
        decls,
        nearest,
        case_folded,
    })
}

#[allow(clippy::too_many_arguments)]
fn matching(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    wanted: &[&str],
    last: &str,
    scope: Option<&str>,
    line: Option<u32>,
    fold: bool,
) -> Vec<DeclAt> {
    let nodes = graph.names.get(last).unwrap_or(&[]);
    filter_nodes(db, ws, nodes, wanted, scope, line, fold)
}

fn filter_nodes(
    db: &dyn Db,
    ws: Workspace,
    nodes: &[NodeId],
    wanted: &[&str],
    scope: Option<&str>,
    line: Option<u32>,
    fold: bool,
) -> Vec<DeclAt> {
    nodes
        .iter()
        .filter_map(|n| DeclAt::at(db, ws, n.file, n.decl_index()?))
        .filter(|d| scope.is_none_or(|s| in_scope(&d.path, s)))
        .filter(|d| names_decl(wanted, d.declaration(), &d.path, fold))
        .filter(|d| line.is_none_or(|l| d.declaration().lines.contains_line(l)))
        .collect()
}

/// The innermost declaration at `line` of the file `path`.
fn at_line(
    db: &dyn Db,
    ws: Workspace,
    path: Option<&str>,
    line: Option<u32>,
) -> Result<Found, ToolError> {
    let (Some(path), Some(line)) = (path, line) else {
        return Err(ToolError::invalid_argument(
            "name",
            "\"\"",
            "give a name (`save`, `Store.save`) or a candidate ID",
        ));
    };
    let files = ws.files(db);
    let position = files
        .binary_search_by(|f| f.path(db).as_str().cmp(path))
        .map_err(|_| ToolError::invalid_argument("path", path, "no indexed source file has it"))?;
    let index = file_index(db, files[position]);
    let decls = index
        .facts
        .innermost_decl_at(line)
        .and_then(|d| DeclAt::at(db, ws, position as u32, d))
        .into_iter()
        .collect();
    Ok(Found {
        decls,
        nearest: Vec::new(),
        case_folded: false,
    })
}

/// Primary files before tests, examples and vendored code (each language's conventions,
/// as `grep` folds them), exported declarations first, then path and source order.
fn sort(languages: Languages, decls: &mut [DeclAt]) {
    decls.sort_by_cached_key(|d| {
        (
            path_traits(languages, &d.path).is_secondary(),
            !d.declaration().exported,
            d.position,
            d.decl,
        )
    });
}

/// The text of lines `range` of `text` (1-based, inclusive), each with its terminator.
pub(crate) fn lines_of(text: &str, range: LineRange) -> String {
    text.split_inclusive('\n')
        .skip(range.start.saturating_sub(1) as usize)
        .take(range.len() as usize)
        .collect()
}

/// How a declaration reads in one line: `path:start-end [label] kind Qualified.name` (the
/// name left out when `qualified` is empty).
pub(crate) fn decl_line(
    out: &mut String,
    path: &str,
    lines: LineRange,
    kind: &str,
    qualified: &str,
    tag: Tag<'_>,
) {
    decl_line_shown(out, path, path, lines, kind, qualified, tag);
}

/// [`decl_line`] with `shown` printed for the path (empty where the reader knows it: a
/// callee in its caller's file is `:12-20`), `path` labelled.
pub(crate) fn decl_line_shown(
    out: &mut String,
    shown: &str,
    path: &str,
    lines: LineRange,
    kind: &str,
    qualified: &str,
    tag: Tag<'_>,
) {
    use std::fmt::Write as _;
    let label = tag(path, Spot::Lines(lines))
        .map(|t| format!(" {t}"))
        .unwrap_or_default();
    let _ = write!(
        out,
        "{}:{}{label} {kind}",
        crate::escape::inline(shown),
        range_text(lines),
    );
    if !qualified.is_empty() {
        let _ = write!(out, " {}", crate::escape::inline(qualified));
    }
}

/// `12-40`, or `12` for one line.
pub(crate) fn range_text(r: LineRange) -> String {
    if r.start == r.end {
        r.start.to_string()
    } else {
        format!("{}-{}", r.start, r.end)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_and_paths() {
        assert!(in_scope("src/a.ts", "src"));
        assert!(in_scope("src/a.ts", "src/a.ts"));
        assert!(!in_scope("srcx/a.ts", "src"));
        assert!(in_scope("src/a.ts", ""));
        assert_eq!(normalize_path("./src/"), "src");
        assert_eq!(normalize_path("."), "");
        assert_eq!(segments("Store::save"), ["Store", "save"]);
    }

    #[test]
    fn lines_are_one_based_and_inclusive() {
        assert_eq!(lines_of("a\nb\nc\n", LineRange::new(2, 3)), "b\nc\n");
        assert_eq!(lines_of("a\nb", LineRange::new(2, 9)), "b");
    }
}
