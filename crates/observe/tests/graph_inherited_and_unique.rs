//! Two things a call chain must tell apart:
//! - a self call of a method the enclosing class inherits from a base it names
//!   (`self._build()` in a subclass of the class declaring `_build`) is resolved, through
//!   the base, like a call of the class's own method;
//! - a member call the graph could only guess by name is never resolved, even when the
//!   repository declares that name once (`logger.info()` is not the repository's one
//!   `info` method): the edge may be certain of its target, but a chain through it is a
//!   guessed chain, and says so.

mod common;

use sightline_observe::db::workspace_graph;

/// Whether `from` of `path` calls `to_name` by an edge the graph resolved (not guessed).
fn resolved_call(
    index: &sightline_observe::Index,
    path: &str,
    from: &str,
    to_name: &str,
) -> Option<bool> {
    let graph = workspace_graph(index.db(), index.workspace());
    let node = graph.node_by_name(path, from)?;
    let target = graph.names.get(to_name)?;
    graph
        .outgoing(node)
        .iter()
        .find(|e| target.contains(&e.to))
        .map(|e| e.resolved())
}

use common::chain;

const PY_CLIENT: &str = "\
class BaseClient:
    def _build(self, request):
        return request


class Client(BaseClient):
    def send(self, request):
        return self._build(request)
";

#[test]
fn a_python_self_call_of_an_inherited_method_is_resolved_through_the_base() {
    let (dir, _root) = common::temp_repo(&[("pkg/client.py", PY_CLIENT)]);
    let index = common::open_uncached(dir.path());
    assert_eq!(
        resolved_call(&index, "pkg/client.py", "Client.send", "_build"),
        Some(true)
    );
    let c = chain(&index, "Client.send", "BaseClient._build")
        .chain
        .unwrap();
    assert!(!c.guessed, "{c:?}");
    assert_eq!(c.steps.len(), 1, "{c:?}");
}

#[test]
fn an_imported_base_resolves_a_self_call_in_typescript_and_java() {
    let (dir, _root) = common::temp_repo(&[
        (
            "src/base.ts",
            "export class Base {\n  build(x: number) {\n    return x;\n  }\n}\n",
        ),
        (
            "src/client.ts",
            "import { Base } from './base';\n\nexport class Client extends Base {\n  send(x: number) {\n    return this.build(x);\n  }\n}\n",
        ),
        (
            "src/main/java/app/Base.java",
            "package app;\n\npublic class Base {\n    int build(int x) {\n        return x;\n    }\n}\n",
        ),
        (
            "src/main/java/app/Client.java",
            "package app;\n\npublic class Client extends Base {\n    int send(int x) {\n        return this.build(x);\n    }\n}\n",
        ),
    ]);
    let index = common::open_uncached(dir.path());
    assert_eq!(
        resolved_call(&index, "src/client.ts", "Client.send", "build"),
        Some(true)
    );
    assert_eq!(
        resolved_call(
            &index,
            "src/main/java/app/Client.java",
            "Client.send",
            "build"
        ),
        Some(true)
    );
}

#[test]
fn a_call_on_a_subclass_named_in_the_file_reaches_the_inherited_method() {
    let source =
        format!("{PY_CLIENT}\n\ndef make(request):\n    return Client._build(None, request)\n");
    let (dir, _root) = common::temp_repo(&[("pkg/client.py", source.as_str())]);
    let index = common::open_uncached(dir.path());
    assert_eq!(
        resolved_call(&index, "pkg/client.py", "make", "_build"),
        Some(true)
    );
}

#[test]
fn the_own_method_wins_over_the_inherited_one() {
    let source = format!(
        "{PY_CLIENT}\n\nclass Special(BaseClient):\n    def _build(self, request):\n        return None\n\n    def send(self, request):\n        return self._build(request)\n"
    );
    let (dir, _root) = common::temp_repo(&[("pkg/client.py", source.as_str())]);
    let index = common::open_uncached(dir.path());
    let c = chain(&index, "Special.send", "Special._build")
        .chain
        .unwrap();
    assert_eq!(c.steps.len(), 1, "{c:?}");
    assert!(!c.guessed, "{c:?}");
    let to_base = chain(&index, "Special.send", "BaseClient._build")
        .chain
        .unwrap();
    assert!(to_base.steps.is_empty() || to_base.guessed, "{to_base:?}");
}

#[test]
fn a_call_guessed_onto_the_only_declaration_of_its_name_is_not_resolved() {
    let (dir, _root) = common::temp_repo(&[
        (
            "pkg/models.py",
            "class Cookies:\n    def info(self):\n        return {}\n",
        ),
        (
            "pkg/client.py",
            "import logging\n\nlogger = logging.getLogger('x')\n\n\ndef send(request):\n    logger.info('sending')\n    return request\n",
        ),
    ]);
    let index = common::open_uncached(dir.path());
    // Certain of its target by the name alone, but a guess all the same.
    let graph = workspace_graph(index.db(), index.workspace());
    let calls = common::call_edges(&graph, "pkg/client.py", "send");
    assert_eq!(calls, [("pkg/models.py:info".to_owned(), true)]);
    assert_eq!(
        resolved_call(&index, "pkg/client.py", "send", "info"),
        Some(false)
    );
    let c = chain(&index, "send", "Cookies.info").chain.unwrap();
    assert!(c.guessed, "a chain through a guess says so: {c:?}");
    assert!(c.steps.iter().all(|s| !s.certain), "{c:?}");
}
