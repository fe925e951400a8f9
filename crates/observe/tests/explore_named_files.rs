//! A query that names a configuration file by its name reaches it: such files have no
//! declarations to rank, so they come first among the listed files, as whole files.

mod common;

use sightline_observe::tools::explore_code::{self, ExploreArgs};

#[test]
fn a_query_naming_a_config_file_lists_it_as_a_whole_file() {
    let index = common::fixture_index();
    let args = ExploreArgs::new("tsconfig base paths");
    let result = explore_code::run(index.db(), index.workspace(), &args).unwrap();
    let named: Vec<&str> = result
        .more_files
        .iter()
        .filter(|m| m.path.ends_with(".json"))
        .map(|m| m.path.as_str())
        .collect();
    assert!(named.contains(&"tsconfig.json"), "{named:?}");
    assert!(named.contains(&"tsconfig.base.json"), "{named:?}");
    assert!(
        result
            .more_files
            .iter()
            .filter(|m| m.path.ends_with(".json"))
            .all(|m| m.best_range.is_none())
    );
    // Named files come before ranked source files past the cap.
    assert!(result.more_files[0].path.ends_with(".json"));
    assert!(
        result
            .render_text(&|_, _| None)
            .contains("tsconfig.base.json")
    );
}

#[test]
fn a_query_that_does_not_name_one_does_not_list_config_files() {
    let index = common::fixture_index();
    let args = ExploreArgs::new("RecordStore save");
    let result = explore_code::run(index.db(), index.workspace(), &args).unwrap();
    assert!(result.more_files.iter().all(|m| !m.path.ends_with(".json")));
}
