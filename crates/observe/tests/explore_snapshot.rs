//! Snapshot of the raw exploration of a fixture query, and invariants every exploration
//! must hold.

mod common;

use sightline_observe::tools::explore_code::{self, ExploreArgs};

#[test]
fn raw_exploration_of_a_fixture_query() {
    let index = common::fixture_index();
    let result = explore_code::run(
        index.db(),
        index.workspace(),
        &ExploreArgs::new("save record store"),
    )
    .unwrap();
    insta::assert_snapshot!(result.render_text(&|_, _| None));
}

#[test]
fn windows_are_real_lines_of_their_files_and_respect_caps() {
    let index = common::fixture_index();
    for query in [
        "save record store",
        "Shape area",
        "postRecord",
        "render row list",
        "format id",
    ] {
        let mut args = ExploreArgs::new(query);
        args.max_files = 3;
        args.max_lines_per_file = 20;
        args.max_chars = 1500;
        let result = explore_code::run(index.db(), index.workspace(), &args).unwrap();
        assert!(result.files.len() <= 3);
        let mut chars = 0;
        for f in &result.files {
            let text = std::fs::read_to_string(common::fixture_root().join(&f.path)).unwrap();
            let lines: Vec<&str> = text.lines().collect();
            let mut file_lines = 0;
            for w in &f.windows {
                let expected =
                    lines[(w.lines.start - 1) as usize..w.lines.end as usize].join("\n") + "\n";
                assert_eq!(w.text, expected, "{query}: {}:{:?}", f.path, w.lines);
                file_lines += w.lines.len();
                chars += w.text.len();
            }
            assert!(
                file_lines <= 20,
                "{query}: {} has {file_lines} lines",
                f.path
            );
        }
        assert!(chars <= 1500, "{query}: {chars} chars");
    }
}

#[test]
fn bad_arguments_are_refused_precisely() {
    let index = common::fixture_index();
    let mut args = ExploreArgs::new("x");
    args.max_files = 9;
    let err = explore_code::run(index.db(), index.workspace(), &args).unwrap_err();
    assert!(err.to_string().contains("max_files"), "{err}");
    let err =
        explore_code::run(index.db(), index.workspace(), &ExploreArgs::new("  ")).unwrap_err();
    assert!(err.to_string().contains("query"), "{err}");
}
