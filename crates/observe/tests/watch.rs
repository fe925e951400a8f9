//! The file watcher and the walk agree: after any sequence of creations, edits, removals
//! and renames (of files and directories, in ignored and pruned places too, and of ignore
//! files), an index kept fresh by the watcher equals a fresh index of the same tree; and
//! when the watcher fails or loses events, the fallback loses no change.
//!
//! No test waits on a clock: a refresh returns only once the watcher's thread has seen a
//! fence written after the changes (see `observe::watch`), however loaded the machine.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;

use proptest::prelude::*;
use sightline_observe::db::{term_stats, workspace_graph};
use sightline_observe::watch::{Freshness, SimulatedFault};
use sightline_observe::{CacheMode, Index, IndexOptions};

/// Every indexed file with its text.
fn indexed(index: &Index) -> BTreeMap<String, String> {
    let db = index.db();
    index
        .workspace()
        .files(db)
        .iter()
        .map(|f| (f.path(db).clone(), f.text(db).to_string()))
        .collect()
}

/// An uncached index of `root` kept fresh by a watcher, or `None` where this machine
/// cannot watch (the fallback is tested on its own below).
fn watched(root: &Path) -> Option<(Index, Freshness)> {
    let (freshness, observer) = match Freshness::watch(root, sightline_observe::LANGUAGES) {
        Ok(watching) => watching,
        Err(e) => {
            eprintln!("skipped: this machine cannot watch {}: {e}", root.display());
            return None;
        }
    };
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open_observed(
        sightline_observe::ObserveDatabase::default(),
        root,
        &options,
        Some(observer),
    )
    .unwrap();
    Some((index, freshness))
}

/// The refreshed index holds what a fresh index of the tree holds, file for file, and
/// derives the same graph and term statistics.
fn assert_fresh(index: &Index, root: &Path) {
    let fresh = common::open_uncached(root);
    assert_eq!(indexed(index), indexed(&fresh));
    assert_eq!(
        *workspace_graph(index.db(), index.workspace()),
        *workspace_graph(fresh.db(), fresh.workspace())
    );
    assert_eq!(
        *term_stats(index.db(), index.workspace()),
        *term_stats(fresh.db(), fresh.workspace())
    );
}

fn write(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn source(version: u8) -> String {
    format!("export function f{version}() {{ return {version}; }}\n")
}

/// Directory names: plain, hidden, pruned (installed code, version control) and one an
/// ignore file may name.
const DIRS: &[&str] = &["src", "lib", ".hid", "node_modules", "gen", ".git"];
/// File names: sources of two languages, unindexed text, a hidden source, a manifest.
const FILES: &[&str] = &["a.ts", "b.py", "c.md", ".e.ts", "package.json"];
/// Lines of ignore files.
const PATTERNS: &[&str] = &["gen/", "*.py", "!b.py", "/a.ts", "lib/a.ts", ".hid", "src"];

fn dir_path() -> impl Strategy<Value = String> {
    proptest::collection::vec(proptest::sample::select(DIRS), 1..3).prop_map(|d| d.join("/"))
}

fn file_path() -> impl Strategy<Value = String> {
    (
        proptest::collection::vec(proptest::sample::select(DIRS), 0..3),
        proptest::sample::select(FILES),
    )
        .prop_map(|(mut parts, file)| {
            parts.push(file);
            parts.join("/")
        })
}

/// One change to the tree, or a refresh in the middle of the changes.
#[derive(Clone, Debug)]
enum Op {
    Write(String, u8),
    Remove(String),
    RenameFile(String, String),
    RenameDir(String, String),
    RemoveDir(String),
    WriteIgnore(String, Vec<&'static str>),
    RemoveIgnore(String),
    Refresh,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        4 => (file_path(), 0u8..4).prop_map(|(p, v)| Op::Write(p, v)),
        2 => file_path().prop_map(Op::Remove),
        2 => (file_path(), file_path()).prop_map(|(a, b)| Op::RenameFile(a, b)),
        1 => (dir_path(), dir_path()).prop_map(|(a, b)| Op::RenameDir(a, b)),
        1 => dir_path().prop_map(Op::RemoveDir),
        1 => (
            proptest::collection::vec(proptest::sample::select(DIRS), 0..2),
            proptest::collection::vec(proptest::sample::select(PATTERNS), 1..3),
        )
            .prop_map(|(d, lines)| Op::WriteIgnore(d.join("/"), lines)),
        1 => proptest::collection::vec(proptest::sample::select(DIRS), 0..2)
            .prop_map(|d| Op::RemoveIgnore(d.join("/"))),
        2 => Just(Op::Refresh),
    ]
}

fn ignore_file(dir: &str) -> String {
    if dir.is_empty() {
        ".gitignore".to_owned()
    } else {
        format!("{dir}/.gitignore")
    }
}

/// Applies `op` to the tree; an operation that makes no sense for the tree as it is (a
/// missing source, a taken target) does nothing, as it would for a user.
fn apply(root: &Path, op: &Op, index: &mut Index, freshness: &mut Freshness) {
    match op {
        Op::Write(rel, v) => {
            if !root.join(rel).is_dir() {
                let path = root.join(rel);
                if std::fs::create_dir_all(path.parent().unwrap()).is_ok() {
                    let _ = std::fs::write(path, source(*v));
                }
            }
        }
        Op::Remove(rel) => {
            let _ = std::fs::remove_file(root.join(rel));
        }
        Op::RenameFile(from, to) | Op::RenameDir(from, to) => {
            let (from, to) = (root.join(from), root.join(to));
            let file_op = matches!(op, Op::RenameFile(..));
            let fits = from.exists()
                && !to.exists()
                && from.is_file() == file_op
                && !to.starts_with(&from);
            if fits && std::fs::create_dir_all(to.parent().unwrap()).is_ok() {
                let _ = std::fs::rename(from, to);
            }
        }
        Op::RemoveDir(rel) => {
            let _ = std::fs::remove_dir_all(root.join(rel));
        }
        Op::WriteIgnore(dir, lines) => {
            if !root.join(dir).is_file() {
                let path = root.join(ignore_file(dir));
                if std::fs::create_dir_all(path.parent().unwrap()).is_ok() {
                    let _ = std::fs::write(path, lines.join("\n") + "\n");
                }
            }
        }
        Op::RemoveIgnore(dir) => {
            let _ = std::fs::remove_file(root.join(ignore_file(dir)));
        }
        Op::Refresh => {
            freshness.refresh(index);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_watched_index_equals_a_fresh_one_after_any_changes(
        base in proptest::collection::btree_set(file_path(), 0..8),
        ops in proptest::collection::vec(op(), 1..14),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        for (i, rel) in base.iter().enumerate() {
            write(&root, rel, &source(i as u8));
        }
        let Some((mut index, mut freshness)) = watched(&root) else {
            return Ok(());
        };
        for op in &ops {
            apply(&root, op, &mut index, &mut freshness);
        }
        freshness.refresh(&mut index);
        assert_fresh(&index, &root);
        prop_assert!(freshness.is_watching(), "{:?}", freshness.take_notice());
        // Nothing changed since: nothing to do.
        prop_assert!(freshness.refresh(&mut index).is_empty());
    }
}

#[test]
fn only_directories_the_walk_admits_are_watched() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, ".gitignore", "out/\n");
    write(&root, "src/a.ts", &source(0));
    write(&root, "src/deep/b.ts", &source(1));
    write(&root, "node_modules/dep/lib/i.js", &source(2));
    write(&root, "out/gen/x.ts", &source(3));
    write(&root, ".git/objects/aa/bb", "x");
    let Some((mut index, mut freshness)) = watched(&root) else {
        return;
    };
    // The root, src and src/deep.
    assert_eq!(freshness.watched_directories(), 3);
    // A new directory is watched once a refresh admits it; an ignored one never is.
    write(&root, "lib/c.ts", &source(4));
    write(&root, "out/more/y.ts", &source(5));
    let report = freshness.refresh(&mut index);
    assert_eq!(report.added, ["lib/c.ts"]);
    assert_eq!(freshness.watched_directories(), 4);
    // Changes inside what the walk skips are never seen, so they are never work.
    write(&root, "node_modules/dep/lib/j.js", &source(6));
    write(&root, "out/gen/z.ts", &source(7));
    assert!(freshness.refresh(&mut index).is_empty());
    // A removed directory is no longer watched.
    std::fs::remove_dir_all(root.join("src/deep")).unwrap();
    let report = freshness.refresh(&mut index);
    assert_eq!(report.removed, ["src/deep/b.ts"]);
    assert_eq!(freshness.watched_directories(), 3);
    assert_fresh(&index, &root);
}

#[test]
fn a_directory_removed_and_created_again_stays_watched() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "src/a.ts", &source(0));
    let Some((mut index, mut freshness)) = watched(&root) else {
        return;
    };
    // A branch switch removes a directory and creates it again.
    std::fs::remove_dir_all(root.join("src")).unwrap();
    write(&root, "src/a.ts", &source(1));
    freshness.refresh(&mut index);
    assert_fresh(&index, &root);
    // Its new incarnation is watched: a later edit is seen.
    write(&root, "src/b.ts", &source(2));
    assert_eq!(freshness.refresh(&mut index).added, ["src/b.ts"]);
    assert_fresh(&index, &root);
}

#[test]
fn lost_events_restart_the_watcher_and_lose_no_change() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "src/a.ts", &source(0));
    let Some((mut index, mut freshness)) = watched(&root) else {
        return;
    };
    write(&root, "src/a.ts", &source(1));
    write(&root, "lib/b.ts", &source(2));
    freshness.signal().simulate(SimulatedFault::LostEvents);
    freshness.refresh(&mut index);
    assert_fresh(&index, &root);
    assert!(freshness.is_watching());
    assert!(freshness.take_notice().is_some());
    // The new watcher sees later changes, in the directories it watches afresh.
    write(&root, "lib/c.ts", &source(3));
    assert_eq!(freshness.refresh(&mut index).added, ["lib/c.ts"]);
    assert_fresh(&index, &root);
}

#[test]
fn a_failed_watcher_falls_back_to_walking_without_losing_a_change() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "src/a.ts", &source(0));
    let Some((mut index, mut freshness)) = watched(&root) else {
        return;
    };
    let signal = freshness.signal();
    // Changes made before the failure and after it, before the next refresh.
    write(&root, "src/a.ts", &source(1));
    signal.simulate(SimulatedFault::Failure);
    write(&root, "src/b.ts", &source(2));
    freshness.refresh(&mut index);
    assert_fresh(&index, &root);
    assert!(!freshness.is_watching());
    let notice = freshness.take_notice().unwrap();
    assert!(notice.contains("walks the tree"), "{notice}");
    assert!(freshness.take_notice().is_none(), "said once");
    // A background refresh waiting on the watcher stops waiting.
    let waiter = std::thread::spawn(move || {
        signal.wait_for_changes(
            std::time::Duration::ZERO,
            std::time::Duration::from_secs(3600),
        )
    });
    assert!(!waiter.join().unwrap());
    // From now on each refresh walks the tree.
    write(&root, "src/c.ts", &source(3));
    assert_eq!(freshness.refresh(&mut index).added, ["src/c.ts"]);
    assert_fresh(&index, &root);
}

#[test]
fn walking_freshness_finds_changes_without_a_watcher() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    write(&root, "a.ts", &source(0));
    let mut index = common::open_uncached(&root);
    let mut freshness = Freshness::walk();
    assert!(!freshness.is_watching());
    write(&root, "b.ts", &source(1));
    assert_eq!(freshness.refresh(&mut index).added, ["b.ts"]);
    let _ = Arc::clone(&freshness.signal());
}
