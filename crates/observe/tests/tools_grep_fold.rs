//! `grep` folds the hits of files no registered language reads as source (a changelog, a
//! schema) and of secondary files (tests, examples, generated, vendored) to one count per
//! file when source files match too (a non-source file's match folds the secondary
//! files'), and cuts a long matching line around its match.

mod common;

use proptest::prelude::*;
use sightline_observe::path_traits::path_traits;
use sightline_observe::paths::RepoRoot;
use sightline_observe::tools::grep::{self, GrepArgs, GrepResult, MAX_LINE_CHARS};

fn search(root: &RepoRoot, args: GrepArgs) -> GrepResult {
    grep::run(root, &args).unwrap()
}

fn repo(files: &[(&str, String)]) -> (tempfile::TempDir, RepoRoot) {
    common::temp_repo(files)
}

/// The order `grep` searches a file in: 0 source, 1 no language's source, 2 secondary.
fn tier(root: &RepoRoot, path: &str) -> u8 {
    if path_traits(root.languages(), path).is_secondary() {
        2
    } else if root.languages().of_path(path).is_none() {
        1
    } else {
        0
    }
}

#[test]
fn secondary_hits_come_after_primary_ones_as_counts() {
    let (_dir, root) = repo(&[
        ("CHANGELOG.md", "needle\n".into()),
        ("src/a.ts", "needle\nx\nneedle\n".into()),
        ("src/schema.yaml", "needle\nneedle\n".into()),
        ("src/a.test.ts", "needle\n".into()),
        ("src/z.ts", "needle\n".into()),
        ("tests/unit/b.py", "needle\nneedle\n".into()),
        ("tests/unit/c.py", "needle\n".into()),
        ("examples/d.ts", "needle\n".into()),
    ]);
    let folded = search(&root, GrepArgs::new("needle"));
    insta::assert_snapshot!("grep_secondary_folded", folded.render_text());
    let files = search(
        &root,
        GrepArgs {
            files_only: true,
            ..GrepArgs::new("needle")
        },
    );
    insta::assert_snapshot!("grep_files_only_primary_first", files.render_text());
}

#[test]
fn a_long_line_is_cut_around_its_match() {
    let line = format!("{}needle{}", "a".repeat(400), "b".repeat(400));
    let (_dir, root) = repo(&[("src/min.js", format!("{line}\n"))]);
    let result = search(&root, GrepArgs::new("needle"));
    let text = &result.matches[0].text;
    assert!(result.matches[0].truncated);
    insta::assert_snapshot!("grep_long_line_cut", text);
}

/// A repository of primary and secondary files, each with some matching lines.
fn files() -> impl Strategy<Value = Vec<(String, usize)>> {
    let dirs = prop::sample::select(vec![
        "src/",
        "src/core/",
        "lib/",
        "",
        "tests/",
        "src/__tests__/",
        "examples/",
        "dist/",
    ]);
    let stems = prop::sample::select(vec!["a", "b", "c.test", "d_test", "e.spec", "f"]);
    let exts = prop::sample::select(vec!["ts", "py", "md", "yaml"]);
    prop::collection::btree_map((dirs, stems, exts), 0usize..4, 1..12).prop_map(|m| {
        m.into_iter()
            .map(|((d, s, e), n)| (format!("{d}{s}.{e}"), n))
            .collect()
    })
}

fn body(matches: usize) -> String {
    let mut out = String::from("start\n");
    for _ in 0..matches {
        out.push_str("x needle y\nother\n");
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Nothing is dropped by folding: only the first group (source, then non-source, then
    /// secondary files) with a hit prints lines, every matching file of a later group is
    /// counted in `folded` with its exact count (a `path` under it or `secondary: true`
    /// prints them); totals never change; files-only lists primary files (source or not)
    /// before secondary ones.
    #[test]
    fn folding_loses_no_match(files in files(), max in 1usize..40) {
        let mut written: Vec<(&str, String)> =
            files.iter().map(|(p, n)| (p.as_str(), body(*n))).collect();
        written.push(("tests/none.ts", body(0)));
        let (_dir, root) = repo(&written);
        let args = GrepArgs { max_matches: max, ..GrepArgs::new("needle") };
        let folded = search(&root, args.clone());
        let all = search(&root, GrepArgs { secondary: true, ..args.clone() });
        prop_assert_eq!(folded.total_matches, all.total_matches);
        let first = files.iter().filter(|(_, n)| *n > 0).map(|(p, _)| tier(&root, p)).min();
        let later: Vec<(String, usize)> = {
            let mut v: Vec<(String, usize)> = files
                .iter()
                .filter(|(p, n)| first.is_some_and(|t| tier(&root, p) > t) && *n > 0)
                .cloned()
                .collect();
            v.sort();
            v
        };
        prop_assert!(folded.matches.iter().all(|m| Some(tier(&root, &m.path)) == first));
        prop_assert_eq!(folded.folded_files, later.len());
        let total: usize = later.iter().map(|(_, n)| n).sum();
        prop_assert_eq!(folded.folded_matches, total);
        let mut listed: Vec<(String, usize)> =
            folded.folded.iter().map(|f| (f.path.clone(), f.matches)).collect();
        listed.sort();
        prop_assert_eq!(&listed, &later);
        if !later.is_empty() {
            prop_assert!(folded.render_text().contains("`secondary: true`"));
        }
        if first == Some(2) {
            prop_assert_eq!(&folded.matches, &all.matches);
        }
        // A search under a secondary directory prints its lines.
        let under = search(&root, GrepArgs { path: Some("tests".into()), ..args.clone() });
        prop_assert_eq!(under.folded_files, 0);
        let only = search(&root, GrepArgs { files_only: true, max_matches: 500, ..args });
        let kinds: Vec<bool> =
            only.file_counts.iter().map(|f| tier(&root, &f.path) == 2).collect();
        prop_assert!(kinds.windows(2).all(|w| w[0] <= w[1]), "primary first: {:?}", only.file_counts);
        prop_assert_eq!(only.total_matches, all.total_matches);
    }

    /// A cut line keeps its match visible, is at most the cut wide plus its `…` marks, and
    /// is marked on exactly the sides it was cut.
    #[test]
    fn a_cut_line_keeps_its_match(before in 0usize..900, after in 0usize..900) {
        let line = format!("{}needle{}", "a".repeat(before), "b".repeat(after));
        let (_dir, root) = repo(&[("src/x.js", format!("{line}\n"))]);
        let result = search(&root, GrepArgs::new("needle"));
        let m = &result.matches[0];
        prop_assert!(m.text.contains("needle"), "{}", m.text);
        let total = line.chars().count();
        prop_assert_eq!(m.truncated, total > MAX_LINE_CHARS);
        let inner = m.text.trim_start_matches('…').trim_end_matches('…');
        prop_assert!(inner.chars().count() <= MAX_LINE_CHARS);
        prop_assert!(line.contains(inner));
        prop_assert_eq!(m.text.starts_with('…'), !line.starts_with(inner));
        prop_assert_eq!(m.text.ends_with('…'), !line.ends_with(inner));
    }
}
