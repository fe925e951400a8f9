//! Edge-level checks of the workspace graph over the fixture app (`tests/fixtures/app`,
//! flows described in its README): each test names both endpoints of one edge by path and
//! qualified declaration name, so a resolution regression points at the exact edge.

mod common;

use std::sync::Arc;

use sightline_observe::db::{file_shape, workspace_graph};
use sightline_observe::graph::{EdgeKind, Graph, NodeId};
use sightline_observe::{CacheMode, Index, IndexOptions};

struct Fixture {
    index: Index,
    graph: Arc<Graph>,
}

fn fixture() -> Fixture {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open(&common::fixture_root(), &options).expect("index fixture");
    let graph = workspace_graph(index.db(), index.workspace());
    Fixture { index, graph }
}

impl Fixture {
    fn node(&self, path: &str, qualified: &str) -> NodeId {
        self.graph
            .node_by_name(path, qualified)
            .unwrap_or_else(|| panic!("no node {path}::{qualified}"))
    }

    /// `path::Outer.inner` for a node, to make failures readable.
    fn label(&self, node: NodeId) -> String {
        let g = &self.graph;
        let file = g.file_of(node);
        let path = &g.paths[file as usize];
        let Some(decl) = g.decl_of(node) else {
            return format!("{path}::<module>");
        };
        let db = self.index.db();
        let source = self.index.file(path).expect("indexed file");
        let shape = file_shape(db, source);
        let mut names = Vec::new();
        let mut at = Some(decl);
        while let Some(d) = at {
            let item = &shape.decls()[d as usize];
            names.push(item.name.clone());
            at = item.parent;
        }
        names.reverse();
        format!("{path}::{}", names.join("."))
    }

    fn outgoing(&self, from: NodeId) -> Vec<String> {
        self.graph
            .outgoing(from)
            .iter()
            .map(|e| format!("{} -> {}", e.kind.as_str(), self.label(e.to)))
            .collect()
    }

    /// Asserts one edge `kind` from `(from_path, from_name)` to `(to_path, to_name)`;
    /// returns whether the graph marks it certain.
    fn assert_edge(
        &self,
        (from_path, from_name): (&str, &str),
        kind: EdgeKind,
        (to_path, to_name): (&str, &str),
    ) -> bool {
        let from = self.node(from_path, from_name);
        let to = self.node(to_path, to_name);
        let edge = self
            .graph
            .outgoing(from)
            .iter()
            .find(|e| e.to == to && e.kind == kind);
        match edge {
            Some(e) => e.certain,
            None => panic!(
                "missing {} edge {from_path}::{from_name} -> {to_path}::{to_name}; it has {:#?}",
                kind.as_str(),
                self.outgoing(from)
            ),
        }
    }

    fn assert_certain_edge(&self, from: (&str, &str), kind: EdgeKind, to: (&str, &str)) {
        assert!(
            self.assert_edge(from, kind, to),
            "{} edge {from:?} -> {to:?} should be certain",
            kind.as_str()
        );
    }

    fn targets(&self, from: NodeId, kind: EdgeKind) -> Vec<String> {
        self.graph
            .outgoing(from)
            .iter()
            .filter(|e| e.kind == kind)
            .map(|e| self.label(e.to))
            .collect()
    }
}

#[test]
fn node_lookup_follows_the_contains_tree() {
    let f = fixture();
    let module = f.node("src/state/recordStore.ts", "");
    assert_eq!(f.graph.decl_of(module), None, "empty name is the module");
    let class = f.node("src/state/recordStore.ts", "RecordStore");
    let save = f.node("src/state/recordStore.ts", "RecordStore.save");
    assert_eq!(f.label(save), "src/state/recordStore.ts::RecordStore.save");
    f.assert_certain_edge(
        ("src/state/recordStore.ts", "RecordStore"),
        EdgeKind::Contains,
        ("src/state/recordStore.ts", "RecordStore.save"),
    );
    assert_ne!(class, save);
    assert_eq!(
        f.graph.node_by_name("src/state/recordStore.ts", "save"),
        None
    );
    assert_eq!(f.graph.node_by_name("src/absent.ts", ""), None);
}

#[test]
fn relative_import_links_the_two_modules() {
    let f = fixture();
    f.assert_certain_edge(
        ("src/main.tsx", ""),
        EdgeKind::Imports,
        ("src/components/App.tsx", ""),
    );
}

#[test]
fn tsconfig_paths_import_links_the_two_modules() {
    let f = fixture();
    f.assert_certain_edge(
        ("src/handlers/save.ts", ""),
        EdgeKind::Imports,
        ("src/state/recordStore.ts", ""),
    );
}

#[test]
fn external_imports_add_no_edge() {
    let f = fixture();
    let main = f.node("src/main.tsx", "");
    let mut imported = f.targets(main, EdgeKind::Imports);
    imported.sort();
    assert_eq!(
        imported,
        [
            "src/components/App.tsx::<module>",
            "src/state/recordStore.ts::<module>"
        ],
        "`react` and `react-dom/client` are outside the workspace"
    );
}

#[test]
fn local_call_links_caller_to_callee_in_the_same_file() {
    let f = fixture();
    f.assert_certain_edge(
        ("src/handlers/save.ts", "handleSave"),
        EdgeKind::Calls,
        ("src/handlers/save.ts", "validateDraft"),
    );
}

#[test]
fn imported_call_links_a_method_to_the_declaration_in_another_file() {
    let f = fixture();
    f.assert_certain_edge(
        ("src/state/recordStore.ts", "RecordStore.save"),
        EdgeKind::Calls,
        ("src/api/client.ts", "postRecord"),
    );
}

#[test]
fn member_call_on_an_imported_instance_reaches_the_method() {
    let f = fixture();
    // `recordStore.save(valid)`: the receiver is an imported variable, the target a method.
    f.assert_edge(
        ("src/handlers/save.ts", "handleSave"),
        EdgeKind::Calls,
        ("src/state/recordStore.ts", "RecordStore.save"),
    );
}

#[test]
fn this_call_resolves_to_a_method_of_the_enclosing_class() {
    let f = fixture();
    f.assert_certain_edge(
        ("src/state/recordStore.ts", "RecordStore.save"),
        EdgeKind::Calls,
        ("src/state/recordStore.ts", "RecordStore.emit"),
    );
}

#[test]
fn interface_extends_interface() {
    let f = fixture();
    f.assert_certain_edge(
        ("src/types.ts", "RecordItem"),
        EdgeKind::Extends,
        ("src/types.ts", "RecordDraft"),
    );
}

#[test]
fn extending_a_global_outside_the_workspace_adds_no_edge() {
    let f = fixture();
    let error = f.node("src/types.ts", "ValidationError");
    assert_eq!(f.targets(error, EdgeKind::Extends), Vec::<String>::new());
}

#[test]
fn classes_implement_the_imported_interface() {
    let f = fixture();
    for class in ["Circle", "Square", "Triangle"] {
        let path = format!("src/shapes/{class}.ts");
        f.assert_certain_edge(
            (&path, class),
            EdgeKind::Implements,
            ("src/shapes/Shape.ts", "Shape"),
        );
    }
}

#[test]
fn jsx_renders_link_components_down_the_chain() {
    let f = fixture();
    f.assert_certain_edge(
        ("src/main.tsx", "entry"),
        EdgeKind::Renders,
        ("src/components/App.tsx", "App"),
    );
    f.assert_certain_edge(
        ("src/components/App.tsx", "App"),
        EdgeKind::Renders,
        ("src/components/RecordPanel.tsx", "RecordPanel"),
    );
    f.assert_certain_edge(
        ("src/components/RecordPanel.tsx", "RecordPanel"),
        EdgeKind::Renders,
        ("src/components/RecordList.tsx", "RecordList"),
    );
    f.assert_certain_edge(
        ("src/components/RecordList.tsx", "RecordList"),
        EdgeKind::Renders,
        ("src/components/RecordRow.tsx", "RecordRow"),
    );
}

#[test]
fn new_expressions_instantiate_the_imported_classes() {
    let f = fixture();
    for class in ["Circle", "Square", "Triangle"] {
        let path = format!("src/shapes/{class}.ts");
        f.assert_certain_edge(
            ("src/shapes/describe.ts", "makeShape"),
            EdgeKind::Instantiates,
            (&path, class),
        );
    }
}

#[test]
fn call_through_a_directory_barrel_lands_on_the_declaration() {
    let f = fixture();
    // `import { describeShape } from '../shapes'` → `shapes/index.ts` re-exports it from
    // `./describe.js`: the edge skips the barrel and names the declaration itself.
    f.assert_certain_edge(
        ("src/export/Exporter.ts", "Exporter.exportShapes"),
        EdgeKind::Calls,
        ("src/shapes/describe.ts", "describeShape"),
    );
    f.assert_certain_edge(
        ("src/export/Exporter.ts", "Exporter.exportShapes"),
        EdgeKind::Calls,
        ("src/shapes/describe.ts", "totalArea"),
    );
}

#[test]
fn call_through_a_workspace_package_barrel_lands_on_the_declaration() {
    let f = fixture();
    // `@fixture/shared` → `packages/shared/src/index.ts` → `./format.js` / `./ids.js`.
    f.assert_certain_edge(
        ("src/components/RecordRow.tsx", "RecordRow"),
        EdgeKind::Calls,
        ("packages/shared/src/format.ts", "formatLabel"),
    );
    f.assert_certain_edge(
        ("src/api/client.ts", "postRecord"),
        EdgeKind::Calls,
        ("packages/shared/src/ids.ts", "createId"),
    );
}

#[test]
fn package_subpath_import_resolves_without_the_barrel() {
    let f = fixture();
    f.assert_certain_edge(
        ("src/export/Exporter.ts", ""),
        EdgeKind::Imports,
        ("packages/shared/src/format.ts", ""),
    );
    f.assert_certain_edge(
        ("src/export/Exporter.ts", "Exporter.exportRecords"),
        EdgeKind::Calls,
        ("packages/shared/src/format.ts", "formatLabel"),
    );
}

#[test]
fn a_node_the_graph_does_not_hold_has_no_edges() {
    let graph = common::fixture_index();
    let graph = sightline_observe::db::workspace_graph(graph.db(), graph.workspace());
    let beyond = NodeId {
        file: graph.paths.len() as u32,
        local: 0,
    };
    let past_last_decl = NodeId {
        file: 0,
        local: u32::MAX,
    };
    for node in [beyond, past_last_decl] {
        assert!(!graph.contains(node));
        assert!(graph.outgoing(node).is_empty());
        assert_eq!(graph.incoming(node).count(), 0);
    }
}
