//! Keeping the index fresh without walking the tree on every call: a file watcher
//! (`notify`) feeding [`crate::Index::refresh_paths`], with the walk's own rules.
//!
//! - **What is watched is what the walk admits.** One watch per directory the walk
//!   enters (never recursive): the index's walks tell the watcher of every directory
//!   they enter, before listing it ([`crate::walk::DirectoryObserver`]), and of the end
//!   of each walk, after which directories the walk no longer admits are unwatched. A
//!   dependency, ignored or version-control directory is never watched, so nothing in
//!   it causes work. The directories above the root are watched for the ignore files the
//!   walk reads there.
//! - **What an event means is decided by the walk's rules** (`classify.rs`): reads,
//!   files no language reads and pruned directories are dropped on the watcher's thread;
//!   an ignore file, git's `info/exclude` or a file the walk's pruning reads asks for a
//!   full walk; any other path is refreshed by path, and a path the index does not hold
//!   goes through a walk scoped to it, which admits it exactly when the full walk would.
//! - **A call sees every change made before it.** [`Freshness::refresh`] writes a fence
//!   file in a private directory outside the repository and waits until the watcher's
//!   thread has seen its event: the kernel queues one watcher's events in order, so
//!   every change completed before the call has been recorded by then.
//! - **Nothing is left behind.** The fence directory is named for its process: dropped
//!   with its watcher, removed by [`remove_fence_dirs`] on a program's way out, and, when
//!   a process was killed before either, removed by the next process that watches.
//! - **Any doubt falls back to a walk, which loses nothing.** Lost events (a queue
//!   overflow) start a new watcher and walk the whole tree; a failure (a watch limit, an
//!   error from the event stream, a fence that does not come back three calls in a row)
//!   stops watching for good, with one notice; a network or user-space file system is
//!   never watched ([`WatchError`]).

mod classify;
mod fence_dir;
mod filesystem;
mod freshness;
mod signal;
mod watcher;

pub use fence_dir::remove_fence_dirs;
pub use freshness::Freshness;
pub use signal::{Signal, SimulatedFault};
pub use watcher::Watcher;

/// Why a tree cannot be watched; the index then walks the tree on each refresh.
#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    /// The platform, the file system or the process's limits do not allow watching.
    #[error("{0}")]
    Unsupported(String),
}
