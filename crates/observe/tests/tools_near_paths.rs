//! A path that does not exist is answered with the indexed paths nearest it: those that
//! end with it, or with its last segments, the most kept winning, shortest first; else
//! those named like its last segment in another case; never the path itself.

mod common;

use sightline_observe::tools::near_paths::near_paths;

#[test]
fn a_missing_path_names_the_paths_it_was_meant_for() {
    let index = common::fixture_index();
    let near = |missing: &str| near_paths(index.db(), index.workspace(), missing, 3);
    // A leading directory left out, or one too many.
    assert_eq!(near("api/client.ts"), ["src/api/client.ts"]);
    assert_eq!(near("lib/src/state"), ["src/state"]);
    assert_eq!(near("app/src/shapes/Circle.ts"), ["src/shapes/Circle.ts"]);
    // A file name in another case, anywhere.
    assert_eq!(near("store/RECORDSTORE.TS"), ["src/state/recordStore.ts"]);
    // Several: shortest first, at most the limit.
    let index_files = near("lib/index.ts");
    assert_eq!(
        index_files,
        ["src/shapes/index.ts", "packages/shared/src/index.ts"]
    );
    // Nothing near, and nothing for an empty path.
    assert!(near("zzz/nothing-here.rs").is_empty());
    assert!(near("").is_empty());
}
