//! Glob semantics of `grep` and `list_files`: globset rules, relative to the repository
//! root, combined with `path` the same way whichever spelling is used.

use std::fs;
use std::path::Path;

use sightline_observe::paths::RepoRoot;
use sightline_observe::tools::grep::{self, GrepArgs};
use sightline_observe::tools::list_files::{self, EntryKind, ListFilesArgs};
use tempfile::TempDir;

fn write(root: &Path, rel: &str, contents: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap();
}

fn repo() -> (TempDir, RepoRoot) {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, "packages/foo-core/src/a.ts", "needle\n");
    write(r, "packages/foo-core/src/deep/b.ts", "needle\n");
    write(r, "packages/foo-core/src/deep/c.js", "needle\n");
    write(r, "packages/foo/src/d.ts", "needle\n");
    write(r, "packages/foo/test/e.ts", "needle\n");
    write(r, "packages/bar/src/f.ts", "needle\n");
    write(r, "src/g.ts", "needle\n");
    write(r, "src/h.tsx", "needle\n");
    let root = RepoRoot::new(r).unwrap();
    (dir, root)
}

fn files(root: &RepoRoot, path: Option<&str>, glob: &str) -> Vec<String> {
    let result = grep::run(
        root,
        &GrepArgs {
            path: path.map(str::to_owned),
            glob: Some(glob.to_owned()),
            ..GrepArgs::new("needle")
        },
    )
    .unwrap();
    let mut paths: Vec<String> = result.matches.iter().map(|m| m.path.clone()).collect();
    paths.dedup();
    paths
}

#[test]
fn a_glob_with_the_path_prefix_matches_as_without_path() {
    let (_dir, root) = repo();
    let glob = "packages/foo*/src/**/*.ts";
    let expected = [
        "packages/foo/src/d.ts",
        "packages/foo-core/src/a.ts",
        "packages/foo-core/src/deep/b.ts",
    ];
    assert_eq!(files(&root, None, glob), expected);
    assert_eq!(files(&root, Some("packages"), glob), expected);
    assert_eq!(files(&root, Some("packages/"), glob), expected);
    // Relative to `path` when it does not start with it.
    assert_eq!(files(&root, Some("packages"), "foo*/src/**/*.ts"), expected);
}

fn listed(root: &RepoRoot, path: Option<&str>, glob: &str) -> Vec<String> {
    let result = list_files::run(
        root,
        &ListFilesArgs {
            path: path.map(str::to_owned),
            glob: Some(glob.to_owned()),
            ..ListFilesArgs::default()
        },
    )
    .unwrap();
    result
        .entries
        .iter()
        .filter(|e| e.kind == EntryKind::File)
        .map(|e| e.path.clone())
        .collect()
}

#[test]
fn globset_rules_apply_to_grep_and_list_files_alike() {
    let (_dir, root) = repo();
    let cases: [(Option<&str>, &str, &[&str]); 7] = [
        (None, "*.tsx", &["src/h.tsx"]),
        (None, "src/*.{ts,tsx}", &["src/g.ts", "src/h.tsx"]),
        (
            None,
            "packages/*/src/*.ts",
            &[
                "packages/bar/src/f.ts",
                "packages/foo/src/d.ts",
                "packages/foo-core/src/a.ts",
            ],
        ),
        (
            None,
            "**/deep/*.[jt]s",
            &[
                "packages/foo-core/src/deep/b.ts",
                "packages/foo-core/src/deep/c.js",
            ],
        ),
        (Some("packages/foo"), "src/", &["packages/foo/src/d.ts"]),
        (
            Some("packages/foo"),
            "packages/foo/test/*.ts",
            &["packages/foo/test/e.ts"],
        ),
        (Some("packages"), "*/test/*.ts", &["packages/foo/test/e.ts"]),
    ];
    for (path, glob, expected) in cases {
        assert_eq!(files(&root, path, glob), expected, "grep {path:?} {glob}");
        assert_eq!(
            listed(&root, path, glob),
            expected,
            "list_files {path:?} {glob}"
        );
    }
}

#[test]
fn a_glob_listing_keeps_the_tree_that_leads_to_its_matches() {
    let (_dir, root) = repo();
    let result = list_files::run(
        &root,
        &ListFilesArgs {
            glob: Some("**/deep/*.js".into()),
            ..ListFilesArgs::default()
        },
    )
    .unwrap();
    let paths: Vec<&str> = result.entries.iter().map(|e| e.path.as_str()).collect();
    assert_eq!(
        paths,
        [
            "packages",
            "packages/foo-core",
            "packages/foo-core/src",
            "packages/foo-core/src/deep",
            "packages/foo-core/src/deep/c.js"
        ]
    );
}
