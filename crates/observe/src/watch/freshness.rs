//! Keeping an index in step with the files on disk before each use: by re-statting the
//! whole tree ([`Index::refresh`]), or by a watcher's changes ([`Index::refresh_paths`]),
//! falling back to the walk whenever the watcher cannot vouch for what it saw.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::WatchError;
use super::signal::Signal;
use super::watcher::Watcher;
use crate::index::{Index, RefreshReport};
use crate::walk::DirectoryObserver;

/// How an index is brought up to date before each use. Every fallback loses nothing: it
/// is a walk of the whole tree, which finds every change however the watcher failed.
pub struct Freshness {
    mode: Mode,
    root: PathBuf,
    /// Whose walk rules the watcher applies (the index's languages).
    languages: sightline_lang::Languages,
    signal: Arc<Signal>,
    /// Consecutive calls whose fence did not come back in time.
    silent_calls: u32,
    notice: Option<String>,
}

enum Mode {
    Walk,
    Watch(Watcher),
}

/// Calls in a row the watcher may leave unanswered (each then walks the tree) before it
/// is given up for good.
const SILENT_CALLS_TOLERATED: u32 = 3;

impl Freshness {
    /// No watcher: every refresh re-stats the whole tree and re-reads what changed.
    pub fn walk() -> Freshness {
        let signal = Arc::new(Signal::default());
        signal.close();
        Freshness {
            mode: Mode::Walk,
            root: PathBuf::new(),
            languages: crate::LANGUAGES,
            signal,
            silent_calls: 0,
            notice: None,
        }
    }

    /// Watches `root` by the walk rules of `languages` (those of the index it keeps fresh:
    /// `db.languages()`). The observer must be given to the index of `root`
    /// ([`Index::open_observed`] or [`Index::set_directory_observer`]), so its walks
    /// keep the watches on exactly the directories they admit; until the first walk
    /// with it is over, only the directories that walk already entered are watched.
    pub fn watch(
        root: &Path,
        languages: sightline_lang::Languages,
    ) -> Result<(Freshness, Arc<dyn DirectoryObserver>), WatchError> {
        let root = std::fs::canonicalize(root)
            .map_err(|e| WatchError::Unsupported(format!("{}: {e}", root.display())))?;
        let signal = Arc::new(Signal::default());
        let watcher = Watcher::start(&root, languages, signal.clone())?;
        let observer = watcher.observer();
        let freshness = Freshness {
            mode: Mode::Watch(watcher),
            root,
            languages,
            signal,
            silent_calls: 0,
            notice: None,
        };
        Ok((freshness, observer))
    }

    /// Whether changes come from a watcher (rather than a walk per refresh).
    pub fn is_watching(&self) -> bool {
        matches!(self.mode, Mode::Watch(_))
    }

    /// Directories of the tree under watch (0 when not watching).
    pub fn watched_directories(&self) -> usize {
        match &self.mode {
            Mode::Watch(w) => w.watched_directories(),
            Mode::Walk => 0,
        }
    }

    /// What a background refresh waits on ([`Signal::wait_for_changes`]); closed when
    /// watching stops.
    pub fn signal(&self) -> Arc<Signal> {
        self.signal.clone()
    }

    /// A message for the user, once, when watching stopped or was restarted.
    pub fn take_notice(&mut self) -> Option<String> {
        self.notice.take()
    }

    /// Brings `index` up to date with the files on disk: every change completed before
    /// this call is in the index when it returns. With a watcher and nothing changed, no
    /// file is stat'ed.
    pub fn refresh<D: crate::Db + Clone>(&mut self, index: &mut Index<D>) -> RefreshReport {
        let Mode::Watch(watcher) = &self.mode else {
            return index.refresh();
        };
        let Some(pending) = watcher.take() else {
            self.silent_calls += 1;
            if self.silent_calls >= SILENT_CALLS_TOLERATED {
                self.stop(index, "the watcher stopped answering".to_owned());
            }
            return index.refresh();
        };
        self.silent_calls = 0;
        if let Some(why) = pending.failure {
            self.stop(index, why);
            return index.refresh();
        }
        if pending.lost {
            return self.restart(index);
        }
        if pending.full {
            return index.refresh();
        }
        if pending.paths.is_empty() {
            return RefreshReport::default();
        }
        let paths: Vec<&str> = pending.paths.iter().map(String::as_str).collect();
        index.refresh_paths(&paths)
    }

    /// Events were lost: a new watcher (the old one's picture of the tree may be wrong),
    /// registered by a full walk, which also finds every change the lost events held.
    fn restart<D: crate::Db + Clone>(&mut self, index: &mut Index<D>) -> RefreshReport {
        match Watcher::start(&self.root, self.languages, self.signal.clone()) {
            Ok(watcher) => {
                index.set_directory_observer(Some(watcher.observer()));
                let report = index.refresh();
                // The old watcher is dropped only now, so no directory went unwatched.
                self.mode = Mode::Watch(watcher);
                self.notice = Some(
                    "file watching lost events (the system's event queue overflowed); \
                     walked the tree and watched it again"
                        .to_owned(),
                );
                report
            }
            Err(e) => {
                self.stop(index, e.to_string());
                index.refresh()
            }
        }
    }

    fn stop<D: crate::Db + Clone>(&mut self, index: &mut Index<D>, why: String) {
        index.set_directory_observer(None);
        self.mode = Mode::Walk;
        self.signal.close();
        self.notice = Some(format!(
            "file watching stopped ({why}); every call walks the tree from now on"
        ));
    }
}

impl Drop for Freshness {
    fn drop(&mut self) {
        // A background refresh waiting for this index's changes stops waiting.
        self.signal.close();
    }
}
