//! `grep` folds secondary files' hits (tests, examples, generated, vendored) to one count
//! per file when primary files match too, and cuts a long matching line around its match.

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

fn secondary(root: &RepoRoot, path: &str) -> bool {
    path_traits(root.languages(), path).is_secondary()
}

#[test]
fn secondary_hits_come_after_primary_ones_as_counts() {
    let (_dir, root) = repo(&[
        ("src/a.ts", "needle\nx\nneedle\n".into()),
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
    let exts = prop::sample::select(vec!["ts", "py"]);
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

    /// Nothing is dropped by folding: with a primary hit, every matching secondary file
    /// is counted in `folded` (no line of it printed) with its exact count; without one,
    /// secondary files print as with `secondary: true`; totals never change; files-only
    /// lists primary files before secondary ones.
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
        let primary_hits: usize = files
            .iter()
            .filter(|(p, _)| !secondary(&root, p))
            .map(|(_, n)| n)
            .sum();
        let secondary_files: Vec<(String, usize)> = {
            let mut v: Vec<(String, usize)> = files
                .iter()
                .filter(|(p, n)| secondary(&root, p) && *n > 0)
                .cloned()
                .collect();
            v.sort();
            v
        };
        if primary_hits > 0 {
            prop_assert!(folded.matches.iter().all(|m| !secondary(&root, &m.path)));
            prop_assert_eq!(folded.folded_files, secondary_files.len());
            let total: usize = secondary_files.iter().map(|(_, n)| n).sum();
            prop_assert_eq!(folded.folded_matches, total);
            let mut listed: Vec<(String, usize)> =
                folded.folded.iter().map(|f| (f.path.clone(), f.matches)).collect();
            listed.sort();
            prop_assert_eq!(&listed, &secondary_files);
            if !secondary_files.is_empty() {
                prop_assert!(folded.render_text().contains("`secondary: true`"));
            }
        } else {
            prop_assert_eq!(&folded.matches, &all.matches);
            prop_assert_eq!(folded.folded_files, 0);
        }
        // A search under a secondary directory prints its lines.
        let under = search(&root, GrepArgs { path: Some("tests".into()), ..args.clone() });
        prop_assert_eq!(under.folded_files, 0);
        let only = search(&root, GrepArgs { files_only: true, max_matches: 500, ..args });
        let kinds: Vec<bool> = only.file_counts.iter().map(|f| secondary(&root, &f.path)).collect();
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
