//! A guess by name (a member call on a receiver the graph cannot type) links code that is
//! neither a test nor an example only to declarations that are neither: library code does
//! not call its tests or its tutorials, and a method name unique to a tutorial had been a
//! certain edge from the library to it. Tests and examples still count towards how common
//! a name is, and a test's guesses still reach anything.

mod common;

use sightline_observe::db::workspace_graph;
use sightline_observe::graph::Graph;

/// The qualified names `path::qualified` has a call edge to, each with whether it is
/// certain.
fn calls_of(graph: &Graph, path: &str, qualified: &str) -> Vec<(String, bool)> {
    common::call_edges(graph, path, qualified)
}

#[test]
fn a_guess_from_library_code_skips_tests_and_examples() {
    let (dir, _root) = common::temp_repo(&[
        (
            "app/client.py",
            "def run(r):\n    r.gzip_body()\n    r.load()\n",
        ),
        (
            "app/store.py",
            "class Store:\n    def load(self):\n        return 1\n",
        ),
        (
            "docs_src/tutorial.py",
            "class GzipRequest:\n    def gzip_body(self):\n        return b''\n\n\nclass Other:\n    def load(self):\n        return 2\n",
        ),
        (
            "tests/test_client.py",
            "def check(r):\n    r.gzip_body()\n    r.load()\n",
        ),
    ]);
    let index = common::open_uncached(dir.path());
    let graph = workspace_graph(index.db(), index.workspace());
    // From the library: the tutorial's method is no target, and `load`, declared twice,
    // stays a guess although one declaration is left.
    assert_eq!(
        calls_of(&graph, "app/client.py", "run"),
        [("app/store.py:load".to_owned(), false)]
    );
    // From a test: both declarations of `load`, and the tutorial's unique method, as before.
    assert_eq!(
        calls_of(&graph, "tests/test_client.py", "check"),
        [
            ("app/store.py:load".to_owned(), false),
            ("docs_src/tutorial.py:gzip_body".to_owned(), true),
            ("docs_src/tutorial.py:load".to_owned(), false),
        ]
    );
}
