//! `list_files`: a bounded, `.gitignore`-aware listing of a directory tree.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::empty_scope::EmptyScope;
use super::error::ToolError;
use super::path_glob::PathGlob;
use super::walk::{self, SkipCounts};
use crate::paths::{RepoRoot, to_rel};

/// Default for [`ListFilesArgs::depth`].
pub(crate) const DEFAULT_DEPTH: u32 = 2;
/// Largest accepted [`ListFilesArgs::depth`]; larger values are lowered to it.
pub const MAX_DEPTH: u32 = 6;
/// Default for [`ListFilesArgs::max_entries`].
pub(crate) const DEFAULT_MAX_ENTRIES: usize = 200;
/// Largest accepted [`ListFilesArgs::max_entries`]; larger values are lowered to it.
pub const MAX_ENTRIES_CAP: usize = 2000;

/// Arguments of [`run`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, schemars::JsonSchema)]
// The doc is for Rust callers; a model reads the tool's own description, not this one.
#[schemars(description = "")]
pub struct ListFilesArgs {
    /// Repository-relative directory to list; the repository root when absent.
    #[serde(default)]
    pub path: Option<String>,
    /// How many levels below `path` to descend; 1 lists direct children only (default 2,
    /// or 6 with `glob`; at most 6).
    #[serde(default)]
    pub depth: Option<u32>,
    /// Most entries to return (default 200, at most 2000). When cut, shallower entries
    /// are kept first so the top of the tree stays complete.
    #[serde(default = "default_max_entries")]
    pub max_entries: usize,
    /// List only files matching these globs, separated by whitespace, with the directories
    /// that lead to them (globset syntax, case-sensitive): a file is listed when it matches
    /// one glob (or only `!` globs are given) and no glob starting with `!`, which excludes
    /// it and everything under a directory it matches (`*.json !**/fixtures/**`). `*` and
    /// `?` stay within one path segment, `**` spans segments, `{json,toml}` lists
    /// alternatives, `[0-9]` is a class. Without `/` (`*.json`, `tsconfig*.json`) a glob
    /// matches file names at any depth. With `/` it matches the repository-relative path;
    /// under `path`, a glob that starts with that path is used as written, otherwise it is
    /// read relative to `path`.
    #[serde(default)]
    pub glob: Option<String>,
}

fn default_max_entries() -> usize {
    DEFAULT_MAX_ENTRIES
}

impl Default for ListFilesArgs {
    fn default() -> ListFilesArgs {
        ListFilesArgs {
            path: None,
            depth: None,
            max_entries: DEFAULT_MAX_ENTRIES,
            glob: None,
        }
    }
}

/// What a listed entry is. Symlinks are reported, never followed.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Dir,
    /// A symbolic link (to anything), reported without following it.
    Symlink,
}

/// One listed file, directory or symlink.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ListEntry {
    /// Repository-relative path with `/` separators.
    pub path: String,
    /// File, directory or symlink.
    pub kind: EntryKind,
    /// Size in bytes, for files only.
    pub size: Option<u64>,
}

/// Result of [`run`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ListFilesResult {
    /// The listed directory, repository-relative (`.` for the repository root).
    pub root: String,
    /// Entries below `root` in tree order (a directory's contents follow it).
    pub entries: Vec<ListEntry>,
    /// More entries exist within `depth` than `max_entries` allowed.
    pub truncated: bool,
    /// Directories not descended into, by reason (`.gitignore`d entries are simply
    /// absent and not counted).
    pub skipped: SkipCounts,
    /// Problems that did not stop the listing (unreadable directories, non-UTF-8 names).
    pub diagnostics: Vec<String>,
    /// `glob` selected no file under `path` within the depth listed.
    #[serde(default)]
    pub empty_scope: Option<EmptyScope>,
}

impl ListFilesResult {
    /// An indented tree (`name/` for directories, `name -> (symlink)` for links) for
    /// humans.
    pub fn render_text(&self) -> String {
        self.render_tagged(&|_| None)
    }

    /// [`Self::render_text`] with `tag`'s label, if any, after each file's size.
    pub fn render_tagged(&self, tag: &dyn Fn(&ListEntry) -> Option<String>) -> String {
        let mut out = format!("{}/\n", self.root);
        if let Some(scope) = &self.empty_scope {
            let _ = writeln!(out, "{}", scope.describe());
        }
        let base = depth_of(&self.root);
        for entry in &self.entries {
            let indent = "  ".repeat(depth_of(&entry.path).saturating_sub(base + 1));
            let name = crate::escape::inline(entry.path.rsplit('/').next().unwrap_or(&entry.path));
            let label = tag(entry).map(|t| format!(" {t}")).unwrap_or_default();
            let _ = match (entry.kind, entry.size) {
                (EntryKind::Dir, _) => writeln!(out, "{indent}{name}/"),
                (EntryKind::Symlink, _) => writeln!(out, "{indent}{name} -> (symlink)"),
                (EntryKind::File, Some(size)) => writeln!(out, "{indent}{name} ({size} B){label}"),
                (EntryKind::File, None) => writeln!(out, "{indent}{name}{label}"),
            };
        }
        if self.truncated {
            let _ = writeln!(out, "(truncated at {} entries)", self.entries.len());
        }
        for d in &self.diagnostics {
            let _ = writeln!(out, "note: {d}");
        }
        out
    }
}

/// Number of `/`-separated components; the root (`.`) has none.
fn depth_of(rel: &str) -> usize {
    if rel == "." || rel.is_empty() {
        0
    } else {
        rel.split('/').count()
    }
}

/// Lists the tree under `args.path`.
pub fn run(root: &RepoRoot, args: &ListFilesArgs) -> Result<ListFilesResult, ToolError> {
    if args.depth == Some(0) {
        return Err(ToolError::invalid_argument(
            "depth",
            0,
            "must be at least 1",
        ));
    }
    if args.max_entries == 0 {
        return Err(ToolError::invalid_argument(
            "max_entries",
            0,
            "must be at least 1",
        ));
    }
    let max_entries = args.max_entries.min(MAX_ENTRIES_CAP);
    let dir = root.resolve(args.path.as_deref().unwrap_or(""))?;
    if !dir.abs().is_dir() {
        return Err(ToolError::NotADirectory {
            path: dir.to_string(),
        });
    }
    let glob = args
        .glob
        .as_deref()
        .map(|g| PathGlob::new(g, dir.rel()))
        .transpose()?;
    // A glob looks for files wherever they are, so it searches as deep as allowed.
    let default_depth = if glob.is_some() {
        MAX_DEPTH
    } else {
        DEFAULT_DEPTH
    };
    let depth = args.depth.unwrap_or(default_depth).min(MAX_DEPTH) as usize;

    let mut diagnostics = Vec::new();
    let mut found: Vec<(usize, ListEntry)> = Vec::new();
    // Directories already listed for glob matches below them.
    let mut parents = std::collections::HashSet::new();
    // Files (and links) the glob was tried on, and those it selected.
    let (mut walked, mut selected) = (0usize, 0usize);
    let (entries, counters) =
        walk::walk(root.canonical(), dir.abs(), root.languages(), Some(depth));
    for entry in entries {
        let entry = match entry {
            Ok(entry) if entry.depth() > 0 => entry,
            Ok(_) => continue,
            Err(err) => {
                diagnostics.push(format!("walk error: {err}"));
                continue;
            }
        };
        let Some(path) = to_rel(root, entry.path()) else {
            diagnostics.push(format!(
                "skipped `{}`: path is not valid UTF-8",
                entry.path().to_string_lossy()
            ));
            continue;
        };
        let file_type = entry.file_type();
        let kind = match file_type {
            Some(t) if t.is_symlink() => EntryKind::Symlink,
            Some(t) if t.is_dir() => EntryKind::Dir,
            _ => EntryKind::File,
        };
        let size = match kind {
            EntryKind::File => entry.metadata().ok().map(|m| m.len()),
            EntryKind::Dir | EntryKind::Symlink => None,
        };
        if let Some(glob) = &glob {
            if kind == EntryKind::Dir {
                continue;
            }
            walked += 1;
            if !glob.is_match(&path) {
                continue;
            }
            selected += 1;
            add_parents(&mut found, &mut parents, dir.rel(), &path);
        }
        found.push((entry.depth(), ListEntry { path, kind, size }));
    }

    // Keep the shallowest entries when cutting, then present them as a tree.
    found.sort_by(|(da, a), (db, b)| da.cmp(db).then_with(|| walk::tree_order(&a.path, &b.path)));
    let truncated = found.len() > max_entries;
    found.truncate(max_entries);
    let mut entries: Vec<ListEntry> = found.into_iter().map(|(_, e)| e).collect();
    entries.sort_by(|a, b| walk::tree_order(&a.path, &b.path));

    let empty_scope = (glob.is_some() && selected == 0).then(|| EmptyScope {
        path: dir.to_string(),
        glob: args.glob.clone(),
        files: walked,
        // A shallower listing may have missed deeper matches; say how deep it looked.
        depth: (depth < MAX_DEPTH as usize).then_some(depth),
        listed: None,
    });
    Ok(ListFilesResult {
        root: dir.to_string(),
        entries,
        truncated,
        skipped: counters.snapshot(),
        diagnostics,
        empty_scope,
    })
}

/// Lists the directories between `base` and the matched file `path` once each, so a
/// glob's matches still render as a tree.
fn add_parents(
    found: &mut Vec<(usize, ListEntry)>,
    parents: &mut std::collections::HashSet<String>,
    base: &str,
    path: &str,
) {
    let below = if base.is_empty() {
        path
    } else {
        path.strip_prefix(base)
            .and_then(|rest| rest.strip_prefix('/'))
            .unwrap_or(path)
    };
    let prefix_len = path.len() - below.len();
    let mut depth = 0;
    for (at, _) in below.match_indices('/') {
        depth += 1;
        let parent = &path[..prefix_len + at];
        if parents.insert(parent.to_owned()) {
            found.push((
                depth,
                ListEntry {
                    path: parent.to_owned(),
                    kind: EntryKind::Dir,
                    size: None,
                },
            ));
        }
    }
}
