//! `outline`: what a file or a directory declares, with ranges. A file lists its
//! declarations nested by indentation (fields and properties only counted on their
//! parent's line); a directory lists each source file under it with its top-level
//! declarations on one line, or, when they do not fit in `max_entries`, its tree
//! ([`super::outline_tree`]): its own files by name and its subdirectories by file count.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::outline_tree::{OutlineTree, TREE_LINES, tree};
use super::{Spot, Tag, in_scope, normalize_path, range_text};
use crate::db::{Db, SourceFile, Workspace, file_index};
use crate::facts::{DeclKind, LineRange};
use crate::path_traits::file_traits;
use crate::tools::ToolError;
use crate::walk::FileRole;

/// Default for [`OutlineArgs::max_entries`].
pub const DEFAULT_MAX_ENTRIES: usize = 120;
/// Largest accepted [`OutlineArgs::max_entries`]; larger values are lowered to it.
pub const MAX_ENTRIES_CAP: usize = 1000;
/// Most paths suggested for one that is not indexed.
const SUGGESTED_PATHS: usize = 5;

/// Arguments of [`run`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
// The doc is for Rust callers; a model reads the tool's own description, not this one.
#[schemars(description = "")]
pub struct OutlineArgs {
    /// A file or directory; the repository when absent.
    #[serde(default)]
    pub path: Option<String>,
    /// Most declarations listed (default 120, at most 1000).
    #[serde(default = "default_max_entries")]
    pub max_entries: usize,
}

fn default_max_entries() -> usize {
    DEFAULT_MAX_ENTRIES
}

impl OutlineArgs {
    /// The outline of `path`.
    pub fn new(path: impl Into<String>) -> OutlineArgs {
        OutlineArgs {
            path: Some(path.into()),
            max_entries: DEFAULT_MAX_ENTRIES,
        }
    }
}

/// One declaration listed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutlineDecl {
    /// Its whole range.
    pub lines: LineRange,
    /// `function`, `class`, `method`, …
    pub kind: String,
    /// The declared name.
    pub name: String,
    /// The name through its enclosing declarations.
    pub qualified: String,
    /// 0 at the top level, 1 for a member, …
    pub depth: u32,
    /// Its signature line.
    pub signature_line: u32,
    /// Fields and properties declared directly in it (not listed).
    pub properties: u32,
}

/// One file's outline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutlineFile {
    /// Repository-relative path.
    pub path: String,
    /// Its line count.
    pub line_count: u32,
    /// Declarations listed, in source order.
    pub decls: Vec<OutlineDecl>,
    /// Declarations of the file left out (nested ones in a directory outline, or past
    /// the entry limit).
    pub more: u32,
}

/// Most non-source files of a directory's own that its outline names
/// ([`OutlineResult::other_here`]).
pub const OWN_OTHER_NAMES: usize = 8;

/// A project name a manifest gives ([`sightline_lang::Languages::project_name`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProjectName {
    /// The name as the manifest writes it.
    pub name: String,
    /// The manifest's file name (`package.json`), in the outlined directory.
    pub manifest: String,
}

/// Project names an outline prints at most.
const MAX_PROJECT_NAMES: usize = 4;

/// Result of [`run`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutlineResult {
    /// The file or directory outlined (`.` for the repository).
    pub path: String,
    /// Whether `path` is a directory.
    pub directory: bool,
    /// The files, in path order.
    pub files: Vec<OutlineFile>,
    /// Source files under a directory left out past the entry limit.
    pub more_files: usize,
    /// Indexed files under it that are not source (manifests).
    pub other_files: usize,
    /// The names of those directly in it, as `ls` shows them, when there are at most
    /// [`OWN_OTHER_NAMES`] (else none): a build script or manifest at a project's root is
    /// often what a change touches, and a count does not say which.
    #[serde(default)]
    pub other_here: Vec<String>,
    /// What the directory's own manifests name it (`my-app` from `package.json`), with the
    /// manifest's file name: an agent new to a repository learns what it is.
    #[serde(default)]
    pub projects: Vec<ProjectName>,
    /// A directory whose files' declarations do not fit in `max_entries`: its tree
    /// instead (`files` is then empty).
    #[serde(default)]
    pub tree: Option<OutlineTree>,
}

/// Outlines `args.path`: a source file, or every source file under a directory.
pub fn run(db: &dyn Db, ws: Workspace, args: &OutlineArgs) -> Result<OutlineResult, ToolError> {
    if args.max_entries == 0 {
        return Err(ToolError::invalid_argument(
            "max_entries",
            0,
            "must be at least 1",
        ));
    }
    let max = args.max_entries.min(MAX_ENTRIES_CAP);
    let path = normalize_path(args.path.as_deref().unwrap_or(""));
    let files = ws.files(db);
    let exact = files
        .binary_search_by(|f| f.path(db).as_str().cmp(&path))
        .ok();
    if let Some(i) = exact {
        let file = files[i];
        if file.role(db) == FileRole::Manifest {
            return Err(ToolError::invalid_argument(
                "path",
                &path,
                "is a manifest, not source; read it with read_file",
            ));
        }
        return Ok(OutlineResult {
            path,
            directory: false,
            files: vec![outline_file(db, file, None, max)],
            more_files: 0,
            other_files: 0,
            other_here: Vec::new(),
            projects: Vec::new(),
            tree: None,
        });
    }
    let under: Vec<_> = files
        .iter()
        .filter(|f| in_scope(f.path(db), &path) && f.path(db) != &path)
        .collect();
    if under.is_empty() {
        return Err(unknown_path(db, ws, &path));
    }
    let sources: Vec<SourceFile> = under
        .iter()
        .map(|&&f| f)
        .filter(|f| f.role(db) != FileRole::Manifest)
        .collect();
    let mut result = OutlineResult {
        path: if path.is_empty() {
            ".".to_owned()
        } else {
            path.clone()
        },
        directory: true,
        files: Vec::new(),
        more_files: 0,
        other_files: under.len() - sources.len(),
        other_here: Vec::new(),
        projects: Vec::new(),
        tree: None,
    };
    let base = match path.is_empty() {
        true => String::new(),
        false => format!("{path}/"),
    };
    let own_manifests: Vec<(&str, SourceFile)> = under
        .iter()
        .filter(|f| f.role(db) == FileRole::Manifest)
        .filter_map(|&&f| Some((f.path(db).strip_prefix(&base)?, f)))
        .filter(|(name, _)| !name.contains('/'))
        .collect();
    result.projects = own_manifests
        .iter()
        .filter_map(|&(manifest, f)| {
            let name = db.languages().project_name(manifest, f.text(db))?;
            Some(ProjectName {
                name,
                manifest: manifest.to_owned(),
            })
        })
        .take(MAX_PROJECT_NAMES)
        .collect();
    let here: Vec<String> = own_manifests
        .iter()
        .map(|(name, _)| (*name).to_owned())
        .collect();
    if here.len() <= OWN_OTHER_NAMES {
        result.other_here = here;
    }
    // Too many declarations: the directory is shown as a tree of file counts with its own
    // files' names, what `ls` would give, not the declarations of the files it holds
    // directly (at a repository's root, configuration scripts; in the A/B runs no later
    // call used an ID a root outline gave one of them).
    let listed: Vec<SourceFile> = match fits(db, &sources, max) {
        true => sources,
        false => {
            let traits: Vec<(&str, bool)> = sources
                .iter()
                .map(|&f| (f.path(db).as_str(), file_traits(db, f).is_secondary()))
                .collect();
            result.tree = Some(tree(&traits, &base, max.min(TREE_LINES)));
            Vec::new()
        }
    };
    let mut left = max;
    for file in listed {
        if left == 0 {
            result.more_files += 1;
            continue;
        }
        let out = outline_file(db, file, Some(0), left);
        left = left.saturating_sub(out.decls.len().max(1));
        result.files.push(out);
    }
    Ok(result)
}

/// Whether every file of `sources` fits in a directory outline of `max` entries (each
/// file takes its top-level declarations, at least one).
fn fits(db: &dyn Db, sources: &[SourceFile], max: usize) -> bool {
    let mut needed = 0usize;
    for &file in sources {
        let facts = &file_index(db, file).facts;
        let top = facts.decls.iter().filter(|d| d.parent.is_none()).count();
        needed += top.max(1);
        if needed > max {
            return false;
        }
    }
    true
}

/// The declarations of `file` up to `max_depth` (all when `None`), at most `max`.
fn outline_file(
    db: &dyn Db,
    file: crate::db::SourceFile,
    max_depth: Option<u32>,
    max: usize,
) -> OutlineFile {
    let facts = &file_index(db, file).facts;
    let mut depth = vec![0u32; facts.decls.len()];
    let mut properties = vec![0u32; facts.decls.len()];
    for (i, d) in facts.decls.iter().enumerate() {
        if let Some(p) = d.parent {
            depth[i] = depth[p as usize] + 1;
            if d.kind == DeclKind::Property {
                properties[p as usize] += 1;
            }
        }
    }
    let mut out = OutlineFile {
        path: file.path(db).clone(),
        line_count: facts.line_count,
        decls: Vec::new(),
        more: 0,
    };
    for (i, d) in facts.decls.iter().enumerate() {
        // A property inside a declaration is counted on it; a top-level one is listed.
        if d.kind == DeclKind::Property && d.parent.is_some() {
            continue;
        }
        if max_depth.is_some_and(|m| depth[i] > m) || out.decls.len() >= max {
            out.more += 1;
            continue;
        }
        out.decls.push(OutlineDecl {
            lines: d.lines,
            kind: d.kind.as_str().to_owned(),
            name: d.name.clone(),
            qualified: d.qualified.clone(),
            depth: depth[i],
            signature_line: d.signature_line,
            properties: properties[i],
        });
    }
    out
}

/// An error naming indexed files or directories whose name contains the one asked for.
fn unknown_path(db: &dyn Db, ws: Workspace, path: &str) -> ToolError {
    let base = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
    let mut near: Vec<String> = Vec::new();
    for f in ws.files(db) {
        let p = f.path(db);
        // The file itself, or the directory of the segment that matches.
        let mut at = 0;
        for seg in p.split('/') {
            let end = at + seg.len();
            if !base.is_empty() && seg.to_ascii_lowercase().contains(&base) {
                let hit = p[..end].to_owned();
                if !near.contains(&hit) {
                    near.push(hit);
                }
                break;
            }
            at = end + 1;
        }
        if near.len() >= SUGGESTED_PATHS {
            break;
        }
    }
    let reason = if near.is_empty() {
        "no indexed source file or directory has this path".to_owned()
    } else {
        format!(
            "no indexed file or directory has this path; nearest: {}",
            near.join(", ")
        )
    };
    ToolError::invalid_argument("path", path, reason)
}

impl OutlineResult {
    /// A file: `path (N lines)`, then `12-40 [c5] method save` per declaration, indented
    /// by nesting. A directory: `path: Store 10-80 [c4], createStore 82-90 [c7] +3` per
    /// file, or its tree: `files: a.ts, b.ts +3` for its own files, `sub/ 40 files, 3
    /// secondary` per closed directory, indented under an opened one with its own files'
    /// line. Then what was cut (a closed directory: `outline a directory to open it`).
    pub fn render_tagged(&self, tag: Tag<'_>) -> String {
        let mut out = String::new();
        if self.directory {
            let path = crate::escape::inline(&self.path);
            let listed = self.files.len() + self.more_files;
            match &self.tree {
                None => {
                    let _ = writeln!(out, "{path}/ ({listed} source files)");
                }
                Some(tree) => {
                    let legend = match tree.dirs.iter().any(|d| d.secondary > 0) {
                        true => "; secondary: tests, examples, generated, vendored",
                        false => "",
                    };
                    let _ = writeln!(
                        out,
                        "{path}/ {} source files{legend}",
                        listed + tree.files()
                    );
                }
            }
            if !self.projects.is_empty() {
                let named: Vec<String> = self
                    .projects
                    .iter()
                    .map(|p| {
                        format!(
                            "{} ({})",
                            crate::escape::inline(&p.name),
                            crate::escape::inline(&p.manifest)
                        )
                    })
                    .collect();
                let _ = writeln!(out, "project: {}", named.join(", "));
            }
        }
        for f in &self.files {
            if self.directory {
                render_file_line(&mut out, f, &self.path, tag);
            } else {
                render_file(&mut out, f, tag);
            }
        }
        if let Some(tree) = &self.tree {
            render_tree(&mut out, tree, &self.path);
        }
        let mut notes = Vec::new();
        if self.tree.as_ref().is_some_and(OutlineTree::folded) {
            notes.push("outline a directory to open it".to_owned());
        }
        if self.more_files > 0 {
            notes.push(format!(
                "{} more source files not shown; outline one",
                self.more_files
            ));
        }
        let nested: u32 = self.files.iter().map(|f| f.more).sum();
        if nested > 0 && self.directory {
            notes.push(format!(
                "{nested} nested declarations; outline a file to see them"
            ));
        } else if nested > 0 {
            notes.push(format!(
                "{nested} more declarations past the entry limit; raise max_entries"
            ));
        }
        if self.other_files > 0 {
            let noun = match self.other_files {
                1 => "file",
                _ => "files",
            };
            let named = match self.other_here.len() {
                0 => String::new(),
                n if n == self.other_files => format!(": {}", self.other_here.join(", ")),
                _ => format!(", here: {}", self.other_here.join(", ")),
            };
            notes.push(format!("{} non-source {noun}{named}", self.other_files));
        }
        if !notes.is_empty() {
            let _ = writeln!(out, "({})", notes.join("; "));
        }
        out
    }
}

fn label(tag: Tag<'_>, path: &str, d: &OutlineDecl) -> String {
    tag(path, Spot::Lines(d.lines))
        .map(|t| format!(" {t}"))
        .unwrap_or_default()
}

fn properties(d: &OutlineDecl) -> String {
    match d.properties {
        0 => String::new(),
        1 => " +1 property".to_owned(),
        n => format!(" +{n} properties"),
    }
}

fn render_file(out: &mut String, f: &OutlineFile, tag: Tag<'_>) {
    let _ = writeln!(
        out,
        "{} ({} lines)",
        crate::escape::inline(&f.path),
        f.line_count
    );
    if f.decls.is_empty() && f.more == 0 {
        out.push_str("no declarations\n");
    }
    for d in &f.decls {
        let _ = writeln!(
            out,
            "{}{}{} {} {}{}",
            "  ".repeat(d.depth as usize),
            range_text(d.lines),
            label(tag, &f.path, d),
            d.kind,
            crate::escape::inline(&d.name),
            properties(d)
        );
    }
}

/// A directory's tree: `name/ 40 files, 3 secondary` per directory, its path relative
/// to the directory it is shown under, indented under an opened one, whose own files'
/// names come first (`files: a.ts, b.ts +3`).
fn render_tree(out: &mut String, tree: &OutlineTree, dir: &str) {
    let base = match dir {
        "." => String::new(),
        dir => format!("{dir}/"),
    };
    own_files_line(out, "", tree.own_files, tree.own_secondary, &tree.own_names);
    // The path of the directory each depth is shown under.
    let mut under: Vec<&str> = vec![&base];
    for d in &tree.dirs {
        under.truncate(d.depth as usize + 1);
        let parent = under.last().copied().unwrap_or("");
        let indent = "  ".repeat(d.depth as usize);
        let shown = d.path.strip_prefix(parent).unwrap_or(&d.path);
        let secondary = match d.secondary {
            0 => String::new(),
            s if s == d.files => ", all secondary".to_owned(),
            s => format!(", {s} secondary"),
        };
        let _ = writeln!(
            out,
            "{indent}{} {} file{}{secondary}",
            crate::escape::inline(shown),
            d.files,
            if d.files == 1 { "" } else { "s" }
        );
        if d.opened {
            let indent = format!("{indent}  ");
            own_files_line(out, &indent, d.own_files, d.own_secondary, &d.own_names);
            under.push(&d.path);
        }
    }
}

/// `files: a.ts, b.ts +3; 4 secondary` (primary files named, secondary ones counted),
/// nothing when there are none.
fn own_files_line(
    out: &mut String,
    indent: &str,
    count: usize,
    secondary: usize,
    names: &[String],
) {
    if count == 0 {
        return;
    }
    let names: Vec<String> = names.iter().map(|n| crate::escape::inline(n)).collect();
    let mut shown = names.join(", ");
    let unnamed = count.saturating_sub(secondary + names.len());
    if unnamed > 0 {
        let _ = write!(shown, " +{unnamed}");
    }
    if secondary > 0 {
        let sep = if shown.is_empty() { "" } else { "; " };
        let _ = write!(shown, "{sep}{secondary} secondary");
    }
    let _ = writeln!(out, "{indent}files: {shown}");
}

/// One file of a directory outline, its path relative to the directory's.
fn render_file_line(out: &mut String, f: &OutlineFile, dir: &str, tag: Tag<'_>) {
    let shown = match dir {
        "." => f.path.as_str(),
        dir => f
            .path
            .strip_prefix(dir)
            .map_or(f.path.as_str(), |p| p.trim_start_matches('/')),
    };
    let decls: Vec<String> = f
        .decls
        .iter()
        .map(|d| {
            format!(
                "{} {}{}",
                crate::escape::inline(&d.name),
                range_text(d.lines),
                label(tag, &f.path, d)
            )
        })
        .collect();
    let more = if f.more > 0 {
        format!(" +{}", f.more)
    } else {
        String::new()
    };
    if decls.is_empty() && more.is_empty() {
        let _ = writeln!(out, "{}: no declarations", crate::escape::inline(shown));
        return;
    }
    let _ = writeln!(
        out,
        "{}: {}{more}",
        crate::escape::inline(shown),
        decls.join(", ")
    );
}
