//! Where a watcher writes its fences: a private directory in the system's temporary
//! directory, named for the process (`sightline-watch-<pid>-<random>`), so nothing is left
//! behind however a process ends:
//!
//! - removed when its watcher is dropped;
//! - removed by [`remove_fence_dirs`], which a program calls on its way out (a server
//!   stopped by a signal or a closed stdin need not drop its engine first), after which
//!   the process makes no new one (a watcher restarted by a background refresh during
//!   the shutdown would leave its directory behind);
//! - and when a process ended without either (killed), removed by the next process that
//!   creates one: a directory whose process is gone is stale ([`sweep_stale`]).

use std::path::{Path, PathBuf};
use std::sync::{Mutex, Once};

/// What every fence directory's name starts with.
const PREFIX: &str = "sightline-watch-";

/// The fence directories of this process that are still alive, and whether the process
/// is on its way out ([`remove_fence_dirs`] ran): then no new one is made, since nothing
/// would remove it (a watcher restarted by a background refresh during shutdown would
/// otherwise leave its directory behind).
struct Registry {
    live: Vec<PathBuf>,
    closed: bool,
}

static REGISTRY: Mutex<Registry> = Mutex::new(Registry {
    live: Vec::new(),
    closed: false,
});

impl Registry {
    /// Makes and registers a new fence directory in `parent`, unless closed.
    fn register(&mut self, parent: &Path) -> std::io::Result<PathBuf> {
        if self.closed {
            return Err(std::io::Error::other(
                "the process is stopping: no new fence directory",
            ));
        }
        let path = tempfile::Builder::new()
            .prefix(&format!("{PREFIX}{}-", std::process::id()))
            .tempdir_in(parent)?
            .keep();
        self.live.push(path.clone());
        Ok(path)
    }

    /// Closes the registry and hands over every directory still registered.
    fn close(&mut self) -> Vec<PathBuf> {
        self.closed = true;
        std::mem::take(&mut self.live)
    }
}

/// A fence directory; removed when dropped.
pub(crate) struct FenceDir {
    path: PathBuf,
}

impl FenceDir {
    /// A new fence directory in the system's temporary directory. The first one a process
    /// creates first removes the stale ones of processes that are gone. Fails once the
    /// process is on its way out.
    pub(crate) fn create() -> std::io::Result<FenceDir> {
        static SWEPT: Once = Once::new();
        let parent = std::env::temp_dir();
        SWEPT.call_once(|| sweep_stale(&parent));
        // Made and registered under the lock, so a removal on the way out either sees it
        // or has closed the registry first.
        let path = lock_registry().register(&parent)?;
        Ok(FenceDir { path })
    }

    /// The directory's path.
    pub(crate) fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for FenceDir {
    fn drop(&mut self) {
        // Gone from disk before it leaves the registry: a watcher may be dropped on another
        // thread while the program goes (its engine's last reference released there), and
        // the removal on the way out must still find every directory not yet removed, or
        // the process can exit between the two steps and leave it behind.
        remove_racing_writers(&self.path);
        lock_registry().live.retain(|p| p != &self.path);
    }
}

fn lock_registry() -> std::sync::MutexGuard<'static, Registry> {
    REGISTRY.lock().unwrap_or_else(|e| e.into_inner())
}

/// Removes every fence directory this process still has, and makes no new one after:
/// for a program on its way out, whose watchers may never be dropped. A watcher still
/// running afterwards fails its next fence and falls back to walking the tree.
pub fn remove_fence_dirs() {
    let dirs = lock_registry().close();
    for dir in dirs {
        remove_racing_writers(&dir);
    }
}

/// Most attempts [`remove_racing_writers`] makes.
const REMOVE_ATTEMPTS: usize = 50;

/// Removes `dir` and its fences. A watcher may still write a fence while it goes (a
/// background refresh on another thread): the directory emptied, the fence written, the
/// final removal then fails as not empty and left the directory behind. So it tries
/// again, a bounded number of times, until the directory is gone (whatever an attempt
/// reported), letting the writer run between attempts; once it is gone, a fence write
/// fails instead.
fn remove_racing_writers(dir: &Path) {
    for _ in 0..REMOVE_ATTEMPTS {
        let _ = std::fs::remove_dir_all(dir);
        if std::fs::symlink_metadata(dir).is_err_and(|e| e.kind() == std::io::ErrorKind::NotFound) {
            return;
        }
        std::thread::yield_now();
    }
}

/// Removes the fence directories in `parent` whose process is gone. Only a directory
/// named for a process and holding nothing but fences (files named by a number) is
/// removed: a name this code did not write, or a process still running (or one whose
/// state cannot be known), keeps its directory.
pub(crate) fn sweep_stale(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    let own = std::process::id();
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name.to_str().and_then(owner) else {
            continue;
        };
        if pid == own || process_may_run(pid) {
            continue;
        }
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) && holds_only_fences(&path) {
            let _ = std::fs::remove_dir_all(&path);
        }
    }
}

/// The process a fence directory's name says created it.
fn owner(name: &str) -> Option<u32> {
    let (pid, random) = name.strip_prefix(PREFIX)?.split_once('-')?;
    (!random.is_empty()).then_some(())?;
    pid.parse().ok()
}

fn holds_only_fences(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.into_iter().all(|e| {
        e.is_ok_and(|e| {
            e.file_type().is_ok_and(|t| t.is_file())
                && e.file_name()
                    .to_str()
                    .is_some_and(|n| n.parse::<u64>().is_ok())
        })
    })
}

/// Whether process `pid` may still be running: `false` only when the system says no
/// such process exists.
#[cfg(unix)]
fn process_may_run(pid: u32) -> bool {
    let Ok(pid) = libc::pid_t::try_from(pid) else {
        return true;
    };
    // SAFETY: signal 0 sends nothing; it only checks that the process exists.
    let sent = unsafe { libc::kill(pid, 0) };
    sent == 0 || std::io::Error::last_os_error().raw_os_error() != Some(libc::ESRCH)
}

#[cfg(not(unix))]
fn process_may_run(_pid: u32) -> bool {
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A process id that no running process has: a child that has exited and been
    /// waited for.
    fn gone_pid() -> u32 {
        let mut child = std::process::Command::new("true").spawn().unwrap();
        let pid = child.id();
        child.wait().unwrap();
        pid
    }

    #[cfg(unix)]
    #[test]
    fn the_sweep_removes_only_fence_directories_of_processes_that_are_gone() {
        let parent = tempfile::tempdir().unwrap();
        let make = |name: &str, files: &[&str]| {
            let dir = parent.path().join(name);
            std::fs::create_dir(&dir).unwrap();
            for f in files {
                std::fs::write(dir.join(f), b"").unwrap();
            }
            dir
        };
        let gone = gone_pid();
        let stale = make(&format!("{PREFIX}{gone}-abc123"), &[]);
        let stale_with_fence = make(&format!("{PREFIX}{gone}-def456"), &["17"]);
        let alive = make(&format!("{PREFIX}{}-abc123", std::process::id()), &[]);
        let parent_pid = make(&format!("{PREFIX}1-abc123"), &[]);
        let not_ours = make(&format!("{PREFIX}{gone}-ghi789"), &["notes.txt"]);
        let unnamed = make(&format!("{PREFIX}Xk3d9a"), &[]);
        let other = make("something-else", &[]);
        sweep_stale(parent.path());
        assert!(!stale.exists() && !stale_with_fence.exists());
        for kept in [alive, parent_pid, not_ours, unnamed, other] {
            assert!(kept.exists(), "{}", kept.display());
        }
    }

    /// Removes a fresh fence directory `trials` times while another thread writes up to
    /// `writes` fences into it with `fence` (stopping at the first that fails, as a
    /// watcher's does once the directory is gone), and asserts that it went each time.
    fn removal_outlasts(trials: usize, writes: u64, fence: fn(&Path, u64) -> std::io::Result<()>) {
        let parent = tempfile::tempdir().unwrap();
        for trial in 0..trials {
            let dir = parent.path().join(format!("{PREFIX}1-race{trial}"));
            std::fs::create_dir(&dir).unwrap();
            let writing = dir.clone();
            let writer = std::thread::spawn(move || {
                for n in 0..writes {
                    if fence(&writing, n).is_err() {
                        return;
                    }
                }
            });
            remove_racing_writers(&dir);
            let gone = std::fs::symlink_metadata(&dir).is_err();
            writer.join().unwrap();
            assert!(gone, "trial {trial}: {} left behind", dir.display());
        }
    }

    /// However a watcher's last fences interleave with the removal, the directory goes:
    /// each failed attempt needs a fence written during it, and a write after it fails.
    #[test]
    fn a_fence_directory_goes_even_while_fences_are_written() {
        removal_outlasts(20, 3, |dir, n| std::fs::write(dir.join(n.to_string()), b""));
    }

    /// A watcher removes each fence once seen, so the removal can find a fence listed and
    /// then gone: that is not the directory gone, and the directory still goes.
    #[test]
    fn a_fence_directory_goes_while_fences_come_and_go() {
        removal_outlasts(200, 100_000, |dir, n| {
            let fence = dir.join(n.to_string());
            std::fs::write(&fence, b"")?;
            let _ = std::fs::remove_file(&fence);
            Ok(())
        });
    }

    /// Once closed (a process on its way out), a registry makes no directory, so none can
    /// be left behind by a watcher started after the removal.
    #[test]
    fn a_closed_registry_makes_no_fence_directory() {
        let parent = tempfile::tempdir().unwrap();
        let mut registry = Registry {
            live: Vec::new(),
            closed: false,
        };
        let made = registry.register(parent.path()).unwrap();
        assert_eq!(registry.close(), vec![made.clone()]);
        assert!(registry.register(parent.path()).is_err());
        remove_racing_writers(&made);
        let left: Vec<_> = std::fs::read_dir(parent.path()).unwrap().collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn a_fence_directory_is_named_for_its_process_and_removed_when_dropped() {
        let dropped = FenceDir::create().unwrap();
        let path = dropped.path().to_owned();
        assert!(path.is_dir());
        assert!(owner(path.file_name().unwrap().to_str().unwrap()) == Some(std::process::id()));
        drop(dropped);
        assert!(!path.exists());
        assert!(!lock_registry().live.contains(&path));
    }
}
