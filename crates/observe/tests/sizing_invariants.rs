//! Invariants of adaptive sizing over the sizing fixtures and the shared app fixture:
//! every window is real source, every signature line is a declaration's signature line,
//! output stays within its budget, and the rules keep what they promise to keep.

use std::path::{Path, PathBuf};

use sightline_observe::db::file_index;
use sightline_observe::sizing::{budget_chars, signature_line};
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

/// Each fixture with queries that exercise it.
const CASES: [(&str, &[&str]); 4] = [
    (
        "sizing_chain",
        &[
            "how does responseWithChain run each Step through Chain proceed, and enqueueCall",
            "Call execute responseWithChain",
            "Chain proceed LogStep RetryStep",
            "enqueueCall Scheduler promote",
        ],
    ),
    (
        "sizing_family",
        &[
            "how RowSet toArray uses fetchAll and executeQuery to build asSql",
            "InsertCompiler asSql quoteName",
            "Query getCompiler executeQuery",
        ],
    ),
    (
        "sizing_steps",
        &[
            "how runPipeline calls parseInput validateRecord transformRecord and writeOutput",
            "Sink write FileSink MemorySink",
        ],
    ),
    (
        "app",
        &[
            "save record store",
            "Shape area describeShape",
            "postRecord",
        ],
    ),
];

fn run(index: &Index, query: &str, adapt: impl Fn(&mut ExploreArgs)) -> ExploreResult {
    let mut args = ExploreArgs::new(query);
    args.max_files = 8;
    adapt(&mut args);
    explore_code::run(index.db(), index.workspace(), &args).expect("explore runs")
}

fn file_lines(fixture: &str, path: &str) -> Vec<String> {
    std::fs::read_to_string(root(fixture).join(path))
        .expect("shown file exists")
        .lines()
        .map(str::to_owned)
        .collect()
}

fn shown_chars(result: &ExploreResult) -> usize {
    result
        .files
        .iter()
        .flat_map(|f| &f.windows)
        .map(|w| w.text.len())
        .sum()
}

#[test]
fn every_window_is_real_source_and_every_skeleton_line_a_signature() {
    for (fixture, queries) in CASES {
        let index = index(fixture);
        let files = index.workspace().files(index.db());
        for query in queries {
            let result = run(&index, query, |_| {});
            for f in &result.files {
                let lines = file_lines(fixture, &f.path);
                let source = files
                    .iter()
                    .find(|s| s.path(index.db()) == &f.path)
                    .expect("shown file is indexed");
                let facts = &file_index(index.db(), *source).facts;
                let refs: Vec<&str> = lines.iter().map(String::as_str).collect();
                let signatures: Vec<u32> = facts
                    .decls
                    .iter()
                    .map(|d| signature_line(d, &refs))
                    .collect();
                for w in &f.windows {
                    let expected =
                        lines[(w.lines.start - 1) as usize..w.lines.end as usize].join("\n") + "\n";
                    assert_eq!(
                        w.text, expected,
                        "{fixture} {query}: {}:{:?}",
                        f.path, w.lines
                    );
                    if w.view == WindowView::Signatures {
                        for n in w.lines.start..=w.lines.end {
                            assert!(
                                signatures.contains(&n),
                                "{fixture} {query}: {}:{n} is not a signature line",
                                f.path
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn output_never_exceeds_its_budget() {
    for (fixture, queries) in CASES {
        let index = index(fixture);
        for query in queries {
            for adaptive in [true, false] {
                for budget in [None, Some(1), Some(120), Some(600), Some(1500), Some(4000)] {
                    let result = run(&index, query, |a| {
                        a.adaptive = adaptive;
                        a.budget_chars = budget;
                    });
                    let limit = budget_chars(12_000, budget);
                    let used = shown_chars(&result);
                    assert!(
                        used <= limit,
                        "{fixture} {query} adaptive={adaptive} budget={budget:?}: {used} > {limit}"
                    );
                }
            }
        }
    }
}

#[test]
fn flow_symbols_stay_full() {
    let index = index("sizing_family");
    // Even under a tight budget, the traced flow through the family file survives.
    for budget in [None, Some(900)] {
        let result = run(
            &index,
            "how RowSet toArray uses fetchAll and executeQuery to build asSql",
            |a| a.budget_chars = budget,
        );
        let compiler = result
            .files
            .iter()
            .find(|f| f.path == "src/sql/compiler.ts")
            .expect("compiler shown");
        assert!(
            compiler.windows.iter().any(|w| w.view == WindowView::Full
                && w.symbols
                    .iter()
                    .any(|s| s.qualified == "Compiler.executeQuery")),
            "budget {budget:?}: executeQuery not shown in full"
        );
    }
}

#[test]
fn named_unique_callable_spares_its_sibling_file() {
    let index = index("sizing_chain");
    let result = run(
        &index,
        "responseWithChain Chain proceed and enqueueCall",
        |_| {},
    );
    let scheduler = result
        .files
        .iter()
        .find(|f| f.path == "src/client/Scheduler.ts")
        .expect("scheduler shown");
    assert!(scheduler.windows.iter().all(|w| w.view == WindowView::Full));
    let skeletons = result
        .files
        .iter()
        .filter(|f| f.windows.iter().all(|w| w.view == WindowView::Signatures))
        .count();
    assert!(skeletons >= 3, "{skeletons} skeleton files");
}

#[test]
fn tests_are_left_out_unless_asked_for() {
    let index = index("sizing_chain");
    let test_file = "src/chain/Chain.test.ts";
    let shows = |r: &ExploreResult| {
        r.files.iter().any(|f| f.path == test_file)
            || r.more_files.iter().any(|f| f.path == test_file)
    };
    assert!(!shows(&run(&index, "Chain proceed steps in order", |_| {})));
    assert!(shows(&run(&index, "Chain proceed steps in order", |a| {
        a.include_tests = true
    })));
    assert!(shows(&run(&index, "Chain proceed steps in order", |a| {
        a.adaptive = false
    })));
}

#[test]
fn odd_queries_do_not_panic() {
    let index = index("sizing_chain");
    for query in [
        "Chain Chain Chain",
        "$",
        "a.b.c().d",
        "run run run run",
        "Step Step.run",
    ] {
        for adaptive in [true, false] {
            let _ = run(&index, query, |a| a.adaptive = adaptive);
        }
    }
}
