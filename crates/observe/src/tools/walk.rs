//! The file walk shared by `grep` and `list_files`: `.gitignore`-aware, never follows
//! symlinks (so it cannot leave the root), and skips the directories the languages prune
//! (installed code, build output) and VCS directories while counting what it skipped.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ignore::{Walk, WalkBuilder};
use serde::{Deserialize, Serialize};

/// Directory names of version-control metadata; never source, often huge.
pub(crate) const VCS_DIRS: &[&str] = &[".git", ".hg", ".svn", ".jj", ".bzr", "_darcs"];

/// Directories left out of a walk, by reason. Entries excluded by `.gitignore` and
/// similar ignore files are not counted.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SkipCounts {
    /// Directories of installed code, build output or data a language's tools skip (by
    /// the languages' rules) that were not descended into.
    pub dependency_dirs: usize,
    /// Version-control directories (`.git`, `.hg`, …) that were not descended into.
    pub vcs_dirs: usize,
}

/// Live counters filled in by the walk's entry filter.
#[derive(Debug, Default)]
pub(crate) struct SkipCounters {
    dependency_dirs: AtomicUsize,
    vcs_dirs: AtomicUsize,
}

impl SkipCounters {
    pub(crate) fn snapshot(&self) -> SkipCounts {
        SkipCounts {
            dependency_dirs: self.dependency_dirs.load(Ordering::Relaxed),
            vcs_dirs: self.vcs_dirs.load(Ordering::Relaxed),
        }
    }
}

/// A sequential walk from `start` (a canonical path inside the root) down to `max_depth`
/// levels below it (`None` = unlimited), pruning what `languages` prune.
pub(crate) fn walk(
    start: &Path,
    languages: sightline_lang::Languages,
    max_depth: Option<usize>,
) -> (Walk, Arc<SkipCounters>) {
    let counters = Arc::new(SkipCounters::default());
    let filter_counters = Arc::clone(&counters);
    let mut builder = WalkBuilder::new(start);
    builder
        // Hidden files such as `.eslintrc` are configuration worth finding; only VCS
        // directories are excluded, explicitly, below.
        .hidden(false)
        // Respect `.gitignore` even when the checkout has no `.git` directory.
        .require_git(false)
        .follow_links(false)
        .max_depth(max_depth)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            // The walk's own start is always kept: the caller asked for it explicitly.
            if !is_dir || entry.depth() == 0 {
                return true;
            }
            let name = entry.file_name();
            // Installed dependencies, build output and directories a language's tools skip:
            // the same rule the index walk applies.
            let pruned = crate::walk::pruned_dir_reason(
                languages,
                entry.path(),
                &name.to_string_lossy(),
                entry.depth(),
            );
            if pruned.is_some() {
                filter_counters
                    .dependency_dirs
                    .fetch_add(1, Ordering::Relaxed);
                return false;
            }
            if VCS_DIRS.iter().any(|vcs| name == *vcs) {
                filter_counters.vcs_dirs.fetch_add(1, Ordering::Relaxed);
                return false;
            }
            true
        });
    (builder.build(), counters)
}

/// Orders repository-relative paths as a tree: component by component, so a directory's
/// contents directly follow it (`a`, `a/b`, `a.ts` rather than `a`, `a.ts`, `a/b`).
pub(crate) fn tree_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.split('/').cmp(b.split('/'))
}
