//! What one file-system event means for the index, decided on the watcher's own thread
//! with the walk's rules ([`crate::walk`]), so that a path the walk would skip never
//! causes work: no refresh, no stat, no scoped walk.
//!
//! Only what can be decided from the event and the path is decided here; whether an
//! ignore file admits a new path is left to the refresh, whose scoped walk is the full
//! walk's own code ([`crate::Index::refresh_paths`]).

use std::path::{Component, Path};

use notify::EventKind;
use notify::event::{AccessKind, AccessMode, CreateKind, ModifyKind, RemoveKind};

use crate::walk::{FileRole, Pruned, VCS_DIRS, changes_admission, is_ignore_file, pruned_dir};

/// The meaning of one path of one event.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Classified {
    /// Nothing the walk admits changed.
    Nothing,
    /// This repo-relative path may have changed: refresh it.
    Path(String),
    /// What the walk admits may have changed beyond the path (an ignore file, git's
    /// `info/exclude`, a file the walk's pruning reads): only a full walk settles it.
    Full,
}

/// What the event says about the kind of thing at its path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    File,
    Directory,
    /// A rename, or an event that does not say (the path may be gone).
    Unknown,
}

/// Whether an event kind can mean that a path's contents or existence changed. Opening
/// or reading a file (the index's own reads included) cannot.
fn may_change(kind: &EventKind) -> Option<Kind> {
    match kind {
        EventKind::Access(AccessKind::Close(AccessMode::Write)) => Some(Kind::File),
        EventKind::Access(_) => None,
        EventKind::Create(CreateKind::File) | EventKind::Remove(RemoveKind::File) => {
            Some(Kind::File)
        }
        EventKind::Create(CreateKind::Folder) | EventKind::Remove(RemoveKind::Folder) => {
            Some(Kind::Directory)
        }
        EventKind::Modify(ModifyKind::Data(_)) => Some(Kind::File),
        _ => Some(Kind::Unknown),
    }
}

/// Classifies the event `kind` at `path` (absolute) for the index of `root` (canonical).
pub(crate) fn classify(
    root: &Path,
    languages: sightline_lang::Languages,
    kind: &EventKind,
    path: &Path,
) -> Classified {
    let Some(event_kind) = may_change(kind) else {
        return Classified::Nothing;
    };
    let Ok(rel) = path.strip_prefix(root) else {
        return outside_root(path);
    };
    let mut parts = Vec::new();
    for component in rel.components() {
        match component {
            Component::Normal(part) => match part.to_str() {
                Some(part) => parts.push(part),
                // A name that is not UTF-8 is never indexed, nor anything below it.
                None => return Classified::Nothing,
            },
            _ => return Classified::Nothing,
        }
    }
    let Some(name) = parts.last().copied() else {
        // The root itself (removed, renamed): only a full walk says what is left.
        return Classified::Full;
    };
    if let Some(vcs) = parts.iter().position(|p| VCS_DIRS.contains(p)) {
        // Version-control internals are never walked, but the walk reads git's exclude
        // file as an ignore file.
        return if parts[vcs..] == [".git", "info", "exclude"] {
            Classified::Full
        } else {
            Classified::Nothing
        };
    }
    if changes_admission(languages, name) {
        return Classified::Full;
    }
    let rel = parts.join("/");
    let indexable = FileRole::of(languages, &rel).is_some();
    match event_kind {
        Kind::File if indexable => return Classified::Path(rel),
        Kind::File => return Classified::Nothing,
        Kind::Unknown if indexable => return Classified::Path(rel),
        // A rename or an attribute change of something the index does not read: a file
        // that is still there holds nothing; a directory, or a path that is gone (it may
        // have been a directory), is refreshed.
        Kind::Unknown if std::fs::symlink_metadata(path).is_ok_and(|m| !m.file_type().is_dir()) => {
            return Classified::Nothing;
        }
        Kind::Unknown | Kind::Directory => {}
    }
    // A directory, or a path that may have been one. The walk never enters a pruned
    // directory, so nothing it holds was indexed and nothing under it can be.
    let depth = parts.len();
    match pruned_dir(languages, path, name, depth) {
        Some(Pruned::VersionControl | Pruned::Skipped(_)) => Classified::Nothing,
        None => Classified::Path(rel),
    }
}

/// An event outside the root: the directories above it are watched for the ignore files
/// the walk reads there (and git's exclude file of a repository holding the root).
fn outside_root(path: &Path) -> Classified {
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
    let in_git_info = path.parent().is_some_and(|p| {
        p.file_name().is_some_and(|n| n == "info")
            && p.parent()
                .and_then(Path::file_name)
                .is_some_and(|n| n == ".git")
    });
    if is_ignore_file(name) || (in_git_info && name == "exclude") {
        Classified::Full
    } else {
        Classified::Nothing
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use notify::event::{DataChange, RenameMode};

    fn at(kind: EventKind, rel: &str) -> Classified {
        classify(
            Path::new("/r"),
            crate::LANGUAGES,
            &kind,
            &Path::new("/r").join(rel),
        )
    }

    const WRITE: EventKind = EventKind::Access(AccessKind::Close(AccessMode::Write));
    const CREATE_DIR: EventKind = EventKind::Create(CreateKind::Folder);

    #[test]
    fn reads_never_count_and_writes_of_indexed_files_do() {
        let open = EventKind::Access(AccessKind::Open(AccessMode::Any));
        assert_eq!(at(open, "src/a.ts"), Classified::Nothing);
        assert_eq!(at(WRITE, "src/a.ts"), Classified::Path("src/a.ts".into()));
        let data = EventKind::Modify(ModifyKind::Data(DataChange::Any));
        assert_eq!(at(data, "a.py"), Classified::Path("a.py".into()));
    }

    #[test]
    fn files_the_index_does_not_read_cause_no_work() {
        assert_eq!(at(WRITE, "README.md"), Classified::Nothing);
        assert_eq!(at(WRITE, "src/a.ts.swp"), Classified::Nothing);
        let created = EventKind::Create(CreateKind::File);
        assert_eq!(at(created, "src/style.css"), Classified::Nothing);
    }

    #[test]
    fn pruned_and_version_control_directories_cause_no_work() {
        assert_eq!(at(CREATE_DIR, "node_modules"), Classified::Nothing);
        assert_eq!(at(CREATE_DIR, "pkg/site-packages"), Classified::Nothing);
        assert_eq!(at(WRITE, ".git/index"), Classified::Nothing);
        assert_eq!(at(WRITE, "sub/.hg/x.ts"), Classified::Nothing);
        assert_eq!(
            at(CREATE_DIR, "src/lib"),
            Classified::Path("src/lib".into())
        );
    }

    #[test]
    fn ignore_files_and_git_exclude_need_a_full_walk() {
        assert_eq!(at(WRITE, "src/.gitignore"), Classified::Full);
        assert_eq!(at(WRITE, ".ignore"), Classified::Full);
        assert_eq!(at(WRITE, ".git/info/exclude"), Classified::Full);
        assert_eq!(at(WRITE, "pyproject.toml"), Classified::Full);
        let above = classify(
            Path::new("/w/r"),
            crate::LANGUAGES,
            &WRITE,
            Path::new("/w/.gitignore"),
        );
        assert_eq!(above, Classified::Full);
        let exclude = classify(
            Path::new("/w/r"),
            crate::LANGUAGES,
            &WRITE,
            Path::new("/w/.git/info/exclude"),
        );
        assert_eq!(exclude, Classified::Full);
        let other = classify(
            Path::new("/w/r"),
            crate::LANGUAGES,
            &WRITE,
            Path::new("/w/notes.txt"),
        );
        assert_eq!(other, Classified::Nothing);
    }

    #[test]
    fn renames_of_unknown_kind_are_refreshed_unless_pruned() {
        let from = EventKind::Modify(ModifyKind::Name(RenameMode::From));
        assert_eq!(at(from, "old"), Classified::Path("old".into()));
        assert_eq!(at(from, "a.tmp"), Classified::Path("a.tmp".into()));
        assert_eq!(at(from, "x/node_modules"), Classified::Nothing);
    }
}
