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

/// A decisive query (it names one function): that place is shown, the rest of the
/// evidence is one signature line per place and one line of what was left out.
#[test]
fn sized_first_exploration_of_a_decisive_query() {
    let index = common::fixture_index();
    let result = explore_code::run(
        index.db(),
        index.workspace(),
        &ExploreArgs::new("postRecord"),
    )
    .unwrap();
    let text = result.render_text(&|_, _| None);
    assert_eq!(text.matches("\n#### ").count(), 1, "{text}");
    insta::assert_snapshot!(text);
}

/// A diffuse query (common words, no name it spells): more places, each only as large as
/// its own evidence.
#[test]
fn sized_first_exploration_of_a_diffuse_query() {
    let index = common::fixture_index();
    let result = explore_code::run(
        index.db(),
        index.workspace(),
        &ExploreArgs::new("render row list"),
    )
    .unwrap();
    let text = result.render_text(&|_, _| None);
    assert!(text.matches("\n#### ").count() > 1, "{text}");
    insta::assert_snapshot!(text);
}
