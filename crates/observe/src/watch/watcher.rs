//! One `notify` watcher over the directories the walk admits: a watch per directory
//! (never recursive, so a dependency or ignored directory is never watched at all), kept
//! in step with the walks through [`DirectoryObserver`], plus the directories above the
//! root (for the ignore files the walk reads there) and a private fence directory.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use notify::{RecommendedWatcher, RecursiveMode, Watcher as _};

use super::classify::{Classified, classify};
use super::fence_dir::FenceDir;
use super::signal::{Pending, Signal};
use super::{WatchError, filesystem};
use crate::walk::DirectoryObserver;

/// A running watcher of one root. Dropping it stops the watching.
pub struct Watcher {
    watches: Arc<Watches>,
    signal: Arc<Signal>,
    /// Events for files written here mark fences (see [`Watcher::take`]). Outside the
    /// repository, which is never written to.
    fence_dir: FenceDir,
}

/// The `notify` watcher and the directories it watches, shared with the index's walks
/// (as their [`DirectoryObserver`]).
struct Watches {
    root: PathBuf,
    notify: Mutex<RecommendedWatcher>,
    dirs: Mutex<WatchedDirs>,
    signal: Arc<Signal>,
}

/// The watched directories of the tree, by repo-relative path, with the walk that last
/// entered each.
#[derive(Default)]
struct WatchedDirs {
    by_path: HashMap<String, u64>,
    /// The walk in progress (or the last one) and its scope.
    walk: u64,
    scope: Option<Vec<String>>,
    /// `.git/info` directories watched for git's exclude file.
    git_info: Vec<PathBuf>,
}

/// How long a call waits for its fence before it stops trusting the watcher for that
/// call (the watcher's thread is starved or gone) and walks the tree instead. Generous:
/// a loaded two-core machine can delay a thread for a while, and waiting costs nothing
/// when the fence arrives, which is normally within a fraction of a millisecond.
const FENCE_TIMEOUT: Duration = Duration::from_secs(5);

impl Watcher {
    /// Starts watching `root` (canonical): the directories above it and the fence
    /// directory at once; the tree's own directories as the index's walks enter them
    /// (give [`Watcher::observer`] to the index). Records into `signal`.
    pub(crate) fn start(
        root: &Path,
        languages: sightline_lang::Languages,
        signal: Arc<Signal>,
    ) -> Result<Watcher, WatchError> {
        if let Some(kind) = filesystem::unwatchable(root) {
            return Err(WatchError::Unsupported(format!(
                "{} is on a {kind} file system, whose changes by other machines no watcher sees",
                root.display()
            )));
        }
        let fence_dir = FenceDir::create()
            .map_err(|e| WatchError::Unsupported(format!("no fence directory: {e}")))?;
        let handler = Handler {
            root: root.to_owned(),
            languages,
            fence_dir: fence_dir.path().to_owned(),
            signal: signal.clone(),
        };
        let mut notify = notify::recommended_watcher(move |event| handler.handle(event))
            .map_err(|e| WatchError::Unsupported(e.to_string()))?;
        notify
            .watch(fence_dir.path(), RecursiveMode::NonRecursive)
            .map_err(|e| WatchError::Unsupported(e.to_string()))?;
        // The walk reads ignore files in every directory above the root: watch them all
        // (events there count only for those names; see `classify`). One that cannot be
        // watched (no permission) is left out.
        for ancestor in root.ancestors().skip(1) {
            let _ = notify.watch(ancestor, RecursiveMode::NonRecursive);
            let info = ancestor.join(".git").join("info");
            if info.is_dir() {
                let _ = notify.watch(&info, RecursiveMode::NonRecursive);
            }
        }
        Ok(Watcher {
            watches: Arc::new(Watches {
                root: root.to_owned(),
                notify: Mutex::new(notify),
                dirs: Mutex::new(WatchedDirs::default()),
                signal: signal.clone(),
            }),
            signal,
            fence_dir,
        })
    }

    /// The observer to give the index, so every walk keeps the watches in step with
    /// the directories it admits.
    pub(crate) fn observer(&self) -> Arc<dyn DirectoryObserver> {
        self.watches.clone()
    }

    /// Everything that changed up to now: writes a fence file and waits until the event
    /// thread has seen it, so every change completed before this call has been recorded
    /// (the kernel queues a watcher's events in order). `None` when the fence did not
    /// come back in time: the watcher cannot vouch for this call.
    pub(crate) fn take(&self) -> Option<Pending> {
        let n = self.signal.next_fence();
        let fence = self.fence_dir.path().join(n.to_string());
        if std::fs::write(&fence, b"").is_err() {
            return None;
        }
        let seen = self.signal.wait_fence(n, FENCE_TIMEOUT);
        let _ = std::fs::remove_file(&fence);
        seen.then(|| self.signal.take())
    }

    /// How many directories of the tree are watched.
    pub fn watched_directories(&self) -> usize {
        self.watches.lock_dirs().by_path.len()
    }
}

impl Watches {
    fn lock_dirs(&self) -> std::sync::MutexGuard<'_, WatchedDirs> {
        self.dirs.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn lock_notify(&self) -> std::sync::MutexGuard<'_, RecommendedWatcher> {
        self.notify.lock().unwrap_or_else(|e| e.into_inner())
    }

    fn watch(&self, abs: &Path) -> Result<(), notify::Error> {
        self.lock_notify().watch(abs, RecursiveMode::NonRecursive)
    }

    fn fail(&self, why: String) {
        self.signal.record(|p| {
            p.failure.get_or_insert(why);
        });
    }
}

impl DirectoryObserver for Watches {
    fn walk_started(&self, scope: Option<&[&str]>) {
        let mut dirs = self.lock_dirs();
        dirs.walk += 1;
        dirs.scope = scope.map(|s| s.iter().map(|p| (*p).to_owned()).collect());
    }

    fn entered(&self, rel: &str, abs: &Path) {
        {
            let mut dirs = self.lock_dirs();
            let walk = dirs.walk;
            dirs.by_path.insert(rel.to_owned(), walk);
        }
        // Watched again even when already watched: a directory removed and created again
        // under the same name (a branch switch) lost its watch with the old directory.
        // Watching a watched directory changes nothing.
        match self.watch(abs) {
            Ok(()) => {}
            // Gone between the listing and the watch: its removal is an event of its
            // parent's watch.
            Err(e) if matches!(e.kind, notify::ErrorKind::PathNotFound) => {
                self.lock_dirs().by_path.remove(rel);
            }
            Err(e) if matches!(e.kind, notify::ErrorKind::MaxFilesWatch) => self.fail(format!(
                "the system's limit on watched directories was reached at {} directories \
                 (on Linux: fs.inotify.max_user_watches)",
                self.lock_dirs().by_path.len()
            )),
            Err(e) => self.fail(format!("cannot watch {}: {e}", abs.display())),
        }
        // Git reads `.git/info/exclude` as an ignore file of the directory holding `.git`.
        let info = abs.join(".git").join("info");
        if info.is_dir() {
            let known = self.lock_dirs().git_info.contains(&info);
            if !known && self.watch(&info).is_ok() {
                self.lock_dirs().git_info.push(info);
            }
        }
    }

    fn walk_finished(&self) {
        let stale: Vec<String> = {
            let mut dirs = self.lock_dirs();
            let walk = dirs.walk;
            let scope = dirs.scope.take();
            let inside = |rel: &str| match &scope {
                None => true,
                Some(scope) => scope.iter().any(|s| {
                    rel == s
                        || rel
                            .strip_prefix(s.as_str())
                            .is_some_and(|r| r.starts_with('/'))
                }),
            };
            let stale: Vec<String> = dirs
                .by_path
                .iter()
                .filter(|(rel, seen)| **seen < walk && inside(rel))
                .map(|(rel, _)| rel.clone())
                .collect();
            for rel in &stale {
                dirs.by_path.remove(rel);
            }
            stale
        };
        let mut notify = self.lock_notify();
        for rel in stale {
            // Already gone when the directory was removed or renamed away.
            let _ = notify.unwatch(&self.root.join(rel));
        }
    }
}

/// Runs on `notify`'s thread for every event.
struct Handler {
    root: PathBuf,
    /// Whose rules say what the walk admits.
    languages: sightline_lang::Languages,
    fence_dir: PathBuf,
    signal: Arc<Signal>,
}

impl Handler {
    fn handle(&self, event: notify::Result<notify::Event>) {
        let event = match event {
            Ok(event) => event,
            Err(e) => {
                let why = match e.kind {
                    notify::ErrorKind::MaxFilesWatch => {
                        "the system's limit on watched directories was reached".to_owned()
                    }
                    _ => format!("the watcher reported an error: {e}"),
                };
                self.signal.record(|p| {
                    p.failure.get_or_insert(why);
                });
                return;
            }
        };
        if event.need_rescan() {
            self.signal.record(|p| p.lost = true);
            return;
        }
        let mut changed: Vec<Classified> = Vec::new();
        for path in &event.paths {
            if let Ok(name) = path.strip_prefix(&self.fence_dir) {
                if let Some(n) = name.to_str().and_then(|n| n.parse().ok()) {
                    self.signal.fence(n);
                }
                continue;
            }
            match classify(&self.root, self.languages, &event.kind, path) {
                Classified::Nothing => {}
                other => changed.push(other),
            }
        }
        if changed.is_empty() {
            return;
        }
        self.signal.record(|p| {
            for c in changed {
                match c {
                    Classified::Path(rel) => {
                        p.paths.insert(rel);
                    }
                    Classified::Full => p.full = true,
                    Classified::Nothing => {}
                }
            }
        });
    }
}
