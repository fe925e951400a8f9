//! Adaptive sizing on fixture repositories of three shapes: a chain of interchangeable
//! implementations dispatched by one mechanism, a base class co-located with its
//! subclasses, and a flow of distinct steps with no shared supertype.

use std::path::{Path, PathBuf};

use sightline_observe::tools::explore_code::{self, ExploreArgs, ExploreResult, WindowView};
use sightline_observe::{CacheMode, Index, IndexOptions};

fn root(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

fn index(name: &str) -> Index {
    Index::open(
        &root(name),
        &IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        },
    )
    .expect("fixture indexes")
}

fn explore(index: &Index, query: &str, adaptive: bool) -> ExploreResult {
    let mut args = ExploreArgs::new(query);
    args.max_files = 8;
    args.adaptive = adaptive;
    explore_code::run(index.db(), index.workspace(), &args).expect("explore runs")
}

const CHAIN_QUERY: &str =
    "how does responseWithChain run each Step through Chain proceed, and enqueueCall";
const FAMILY_QUERY: &str = "how RowSet toArray uses fetchAll and executeQuery to build asSql";
const STEPS_QUERY: &str =
    "how runPipeline calls parseInput validateRecord transformRecord and writeOutput";

fn view_of(result: &ExploreResult, path: &str) -> Option<Vec<WindowView>> {
    result
        .files
        .iter()
        .find(|f| f.path == path)
        .map(|f| f.windows.iter().map(|w| w.view).collect())
}

#[test]
fn chain_siblings_render_as_skeletons() {
    let index = index("sizing_chain");
    let result = explore(&index, CHAIN_QUERY, true);
    let full = |path: &str| {
        view_of(&result, path).is_some_and(|v| v.iter().all(|v| *v == WindowView::Full))
    };
    // The mechanism and the orchestrator show their bodies; the spared file too.
    assert!(full("src/chain/Chain.ts"));
    assert!(full("src/client/Call.ts"));
    assert!(full("src/client/Scheduler.ts"));
    let retry = view_of(&result, "src/chain/steps/RetryStep.ts").expect("a sibling is shown");
    assert!(retry.iter().all(|v| *v == WindowView::Signatures));
    insta::assert_snapshot!(result.render_text(&|_, _| None));
}

#[test]
fn chain_without_sizing_shows_every_body() {
    let index = index("sizing_chain");
    let result = explore(&index, CHAIN_QUERY, false);
    insta::assert_snapshot!(result.render_text(&|_, _| None));
}

#[test]
fn family_file_gets_a_focused_view() {
    let index = index("sizing_family");
    let result = explore(&index, FAMILY_QUERY, true);
    insta::assert_snapshot!(result.render_text(&|_, _| None));
}

#[test]
fn distinct_steps_the_query_names_are_all_shown_in_full() {
    let index = index("sizing_steps");
    let result = explore(&index, STEPS_QUERY, true);
    // Each step is on the traced flow between the names the query wrote: no family to
    // collapse, nothing a signature line would say as well.
    for step in ["run", "parse", "validate", "transform", "write"] {
        let path = format!("src/pipeline/{step}.ts");
        let views = view_of(&result, &path).expect("every step is shown");
        assert!(views.iter().all(|v| *v == WindowView::Full), "{path}");
    }
    insta::assert_snapshot!(result.render_text(&|_, _| None));
}
