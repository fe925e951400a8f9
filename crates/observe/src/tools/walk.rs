//! The file walk shared by `grep` and `list_files`: the index's walk rules
//! ([`crate::walk::builder`], [`crate::walk::pruned_dir`]), so the tools see exactly the
//! tree the index and the file watcher see, counting the directories it skipped.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use ignore::Walk;
use serde::{Deserialize, Serialize};

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

/// A sequential walk from `start` (a canonical path inside `root`, itself canonical)
/// down to `max_depth` levels below it (`None` = unlimited), pruning what `languages`
/// prune.
pub(crate) fn walk(
    root: &Path,
    start: &Path,
    languages: sightline_lang::Languages,
    max_depth: Option<usize>,
) -> (Walk, Arc<SkipCounters>) {
    let counters = Arc::new(SkipCounters::default());
    let filter_counters = Arc::clone(&counters);
    // Directories are pruned by their depth below the root, as the index's walk does,
    // wherever this walk starts.
    let start_depth = start
        .strip_prefix(root)
        .map_or(0, |rel| rel.components().count());
    let mut builder = crate::walk::builder(start);
    builder
        .max_depth(max_depth)
        .sort_by_file_name(|a, b| a.cmp(b))
        .filter_entry(move |entry| {
            let is_dir = entry.file_type().is_some_and(|t| t.is_dir());
            // The walk's own start is always kept: the caller asked for it explicitly.
            if !is_dir || entry.depth() == 0 {
                return true;
            }
            let name = entry.file_name().to_string_lossy();
            let depth = start_depth + entry.depth();
            match crate::walk::pruned_dir(languages, entry.path(), &name, depth) {
                Some(crate::walk::Pruned::VersionControl) => {
                    filter_counters.vcs_dirs.fetch_add(1, Ordering::Relaxed);
                    false
                }
                Some(crate::walk::Pruned::Skipped(_)) => {
                    filter_counters
                        .dependency_dirs
                        .fetch_add(1, Ordering::Relaxed);
                    false
                }
                None => true,
            }
        });
    (builder.build(), counters)
}

/// Orders repository-relative paths as a tree: component by component, so a directory's
/// contents directly follow it (`a`, `a/b`, `a.ts` rather than `a`, `a.ts`, `a/b`).
pub(crate) fn tree_order(a: &str, b: &str) -> std::cmp::Ordering {
    a.split('/').cmp(b.split('/'))
}
