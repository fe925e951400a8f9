//! A bare name inside a method is not a member of the enclosing type in a language whose
//! members are reached through a receiver (`self.line()`, `this.flush()`): a local
//! variable named like a method is no use of it. In Java, whose methods call their class's
//! methods by bare name, it still is.

mod common;

use sightline_observe::db::workspace_graph;
use sightline_observe::graph::{EdgeKind, NodeId};

/// The declarations `path::qualified` has a use edge to, as `path::qualified` strings.
fn uses_of(dir: &std::path::Path, path: &str, qualified: &str) -> Vec<String> {
    let index = common::open_uncached(dir);
    let graph = workspace_graph(index.db(), index.workspace());
    let from = graph
        .node_by_name(path, qualified)
        .unwrap_or_else(|| panic!("no node {path}::{qualified}"));
    let name = |n: NodeId| {
        let decls = graph.names.iter().find(|(_, nodes)| nodes.contains(&n));
        decls.map_or_else(|| format!("{n:?}"), |(name, _)| name.to_string())
    };
    graph
        .outgoing(from)
        .iter()
        .filter(|e| !matches!(e.kind, EdgeKind::Contains | EdgeKind::Imports))
        .map(|e| name(e.to))
        .collect()
}

#[test]
fn a_local_named_like_a_method_is_no_use_of_it() {
    // (file, text, the method holding the local, the member the local is named like)
    let cases = [
        (
            "console.py",
            "class Console:\n    def line(self):\n        return 1\n\n    def flush(self, lines):\n        for line in lines:\n            print(line)\n        self.line()\n",
            "Console.flush",
            "line",
        ),
        (
            "queue.ts",
            "export class Queue {\n  size() { return 0; }\n  drain(items: number[]) {\n    const size = items.length;\n    return size + this.size();\n  }\n}\n",
            "Queue.drain",
            "size",
        ),
    ];
    for (path, text, holder, member) in cases {
        let (dir, _root) = common::temp_repo(&[(path, text)]);
        let uses = uses_of(dir.path(), path, holder);
        assert_eq!(
            uses.iter().filter(|u| *u == member).count(),
            1,
            "only the call through the receiver uses `{member}`, not the local: {uses:?}"
        );
    }
}

#[test]
fn a_java_method_calls_its_class_methods_by_bare_name() {
    let (dir, _root) = common::temp_repo(&[(
        "src/main/java/app/Queue.java",
        "package app;\n\npublic class Queue {\n  int size() { return 0; }\n  int drain() {\n    return size();\n  }\n}\n",
    )]);
    let uses = uses_of(dir.path(), "src/main/java/app/Queue.java", "Queue.drain");
    assert!(uses.iter().any(|u| u == "size"), "{uses:?}");
}
