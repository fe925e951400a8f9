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

/// `grep` and `list_files` select exactly `expected` for each `(path, glob, expected)`.
fn select_alike(root: &RepoRoot, cases: &[(Option<&str>, &str, &[&str])]) {
    for &(path, glob, expected) in cases {
        assert_eq!(files(root, path, glob), expected, "grep {path:?} {glob}");
        assert_eq!(
            listed(root, path, glob),
            expected,
            "list_files {path:?} {glob}"
        );
    }
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
    select_alike(&root, &cases);
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

#[test]
fn several_globs_and_exclusions_apply_to_grep_and_list_files_alike() {
    let (_dir, root) = repo();
    let cases: [(Option<&str>, &str, &[&str]); 5] = [
        (
            None,
            "*.tsx  *.js",
            &["packages/foo-core/src/deep/c.js", "src/h.tsx"],
        ),
        (Some("packages/foo"), "!test/", &["packages/foo/src/d.ts"]),
        (
            Some("packages"),
            "*.ts !foo-core !**/test/**",
            &["packages/bar/src/f.ts", "packages/foo/src/d.ts"],
        ),
        // An exclusion prunes a directory by name at any depth below `path`.
        (None, "!src", &["packages/foo/test/e.ts"]),
        (Some("src"), "*.ts* !h.*", &["src/g.ts"]),
    ];
    select_alike(&root, &cases);
}

#[test]
fn a_bare_bang_is_a_precise_error() {
    let (_dir, root) = repo();
    let err = grep::run(
        &root,
        &GrepArgs {
            glob: Some("*.ts !".into()),
            ..GrepArgs::new("needle")
        },
    )
    .unwrap_err()
    .to_string();
    assert!(
        err.contains("`*.ts !`") && err.contains("`!` must be followed"),
        "{err}"
    );
}

#[test]
fn a_scope_without_files_is_told_apart_from_a_search_without_matches() {
    let (_dir, root) = repo();
    let grep_in = |path: &str, glob: &str, pattern: &str| {
        grep::run(
            &root,
            &GrepArgs {
                path: Some(path.to_owned()),
                glob: Some(glob.to_owned()),
                ..GrepArgs::new(pattern)
            },
        )
        .unwrap()
    };
    let no_file = grep_in("packages", "**/*.zsh", "needle");
    let scope = no_file.empty_scope.as_ref().expect("no file selected");
    assert_eq!((scope.files, no_file.files_searched), (6, 0));
    // Files were searched and none matched: the usual answer, no scope line.
    let no_line = grep_in("packages", "*.ts", "haystack");
    assert!(no_line.empty_scope.is_none() && no_line.files_searched > 0);
    assert_eq!(no_line.render_text(), "no matches\n");
    let listing = list_files::run(
        &root,
        &ListFilesArgs {
            path: Some("packages".into()),
            glob: Some("**/*.zsh !x".into()),
            depth: Some(2),
            ..ListFilesArgs::default()
        },
    )
    .unwrap();
    let whole_repo = grep::run(
        &root,
        &GrepArgs {
            glob: Some("*.zsh".into()),
            files_only: true,
            ..GrepArgs::new("needle")
        },
    )
    .unwrap();
    insta::assert_snapshot!(
        "empty_scope",
        [
            no_file.render_text(),
            whole_repo.render_text(),
            listing.render_text()
        ]
        .concat()
    );
}
