//! Shared helpers for observe's integration tests.
#![allow(dead_code)] // each test binary uses a different subset of the helpers

pub mod call_project;

use std::path::{Path, PathBuf};

/// The fixture TypeScript project.
pub fn fixture_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/app")
}

/// An index over `root` with the persistent cache off, so a test sees only what it parsed.
pub fn open_uncached(root: &Path) -> sightline_observe::Index {
    let options = sightline_observe::IndexOptions {
        cache: sightline_observe::CacheMode::Disabled,
        progress: None,
    };
    sightline_observe::Index::open(root, &options).expect("index the fixture")
}

/// An uncached index over the fixture project.
pub fn fixture_index() -> sightline_observe::Index {
    open_uncached(&fixture_root())
}

/// A writable copy of the fixture in a temp dir.
pub fn fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(&fixture_root(), dir.path());
    dir
}

/// A writable copy of the Python fixture in a temp dir.
pub fn python_fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python_app"),
        dir.path(),
    );
    dir
}

/// A writable copy of the Rust fixture in a temp dir.
pub fn rust_fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/rust_app"),
        dir.path(),
    );
    dir
}

/// A writable copy of the Java fixture in a temp dir.
pub fn java_fixture_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("temp dir");
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/java_app"),
        dir.path(),
    );
    dir
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).expect("mkdir");
    for entry in std::fs::read_dir(from).expect("read fixture dir") {
        let entry = entry.expect("dir entry");
        let target = to.join(entry.file_name());
        if entry.file_type().expect("file type").is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).expect("copy");
        }
    }
}

/// Creates `rel` under `root`, with its directories, holding `contents`.
pub fn create_file(root: &Path, rel: &str, contents: impl AsRef<[u8]>) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().expect("a file's directory")).expect("mkdir");
    std::fs::write(path, contents).expect("write");
}

/// A temporary repository holding `files` (path, contents), and its root.
pub fn temp_repo<C: AsRef<[u8]>>(
    files: &[(&str, C)],
) -> (tempfile::TempDir, sightline_observe::paths::RepoRoot) {
    let dir = tempfile::tempdir().expect("tempdir");
    for (path, contents) in files {
        create_file(dir.path(), path, contents);
    }
    let root = sightline_observe::paths::RepoRoot::new(dir.path()).expect("root");
    (dir, root)
}

/// Rewrites a file so its stamp changes even on coarse-mtime filesystems.
pub fn write_file(root: &Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::write(&path, text).expect("write");
    let later = std::time::SystemTime::now() + std::time::Duration::from_secs(2);
    let f = std::fs::File::options()
        .write(true)
        .open(&path)
        .expect("open");
    f.set_modified(later).expect("set mtime");
}

/// A workspace of `files` modules `src/mNNN.ts`, each importing and calling the next: enough
/// files for several chunks.
pub fn ring_workspace(files: usize) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    for i in 0..files {
        let next = (i + 1) % files;
        write_file(
            dir.path(),
            &format!("src/m{i:03}.ts"),
            &format!(
                "import {{ f{next} }} from './m{next:03}';\nexport function f{i}() {{ f{next}(); }}\n"
            ),
        );
    }
    dir
}

/// The call edges leaving `path::qualified`, as `path:name` of their target with whether
/// each is certain, sorted.
pub fn call_edges(
    graph: &sightline_observe::graph::Graph,
    path: &str,
    qualified: &str,
) -> Vec<(String, bool)> {
    let from = graph
        .node_by_name(path, qualified)
        .unwrap_or_else(|| panic!("no node {path}::{qualified}"));
    let name = |n| {
        let decls = graph.names.iter().find(|(_, nodes)| nodes.contains(&n));
        decls.map_or_else(|| format!("{n:?}"), |(name, _)| name.to_string())
    };
    let mut calls: Vec<(String, bool)> = graph
        .outgoing(from)
        .iter()
        .filter(|e| e.kind == sightline_observe::graph::EdgeKind::Calls)
        .map(|e| {
            let to = &graph.paths[graph.file_of(e.to) as usize];
            (format!("{to}:{}", name(e.to)), e.certain)
        })
        .collect();
    calls.sort();
    calls
}

/// `references` of `from` with `to`: the chain of uses between the two declarations.
pub fn chain(
    index: &sightline_observe::Index,
    from: &str,
    to: &str,
) -> sightline_observe::tools::nav::references::ReferencesResult {
    use sightline_observe::tools::nav::references::{self, ReferencesArgs};
    let mut args = ReferencesArgs::new(from);
    args.to = Some(to.to_owned());
    references::run(index.db(), index.workspace(), &args).unwrap()
}
