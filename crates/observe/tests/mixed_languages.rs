//! A repository mixing TypeScript and Python is one index: one walk, one term index, one
//! search over both languages, and one graph in which names link only within a language.

use sightline_observe::db::{file_index, workspace_graph};
use sightline_observe::tools::explore_code::{self, ExploreArgs};
use sightline_observe::{CacheMode, Index, IndexOptions};

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn mixed_repo() -> (tempfile::TempDir, Index) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "package.json", "{\"name\": \"web\"}\n");
    write(
        root,
        "web/src/ledger.ts",
        "export function settleLedger(total: number) {\n  return reconcileEntries(total);\n}\n",
    );
    write(
        root,
        "web/src/entries.ts",
        "export function reconcileEntries(total: number) {\n  return total;\n}\n",
    );
    write(root, "pyproject.toml", "[project]\nname = \"svc\"\n");
    write(root, "svc/__init__.py", "");
    write(
        root,
        "svc/ledger.py",
        "from .entries import reconcile_entries\n\n\nclass LedgerSettler:\n    \"\"\"Settles a ledger.\"\"\"\n\n    def settle_ledger(self, total):\n        return reconcile_entries(total)\n\n    def again(self, total):\n        return self.web.settleLedger(total)\n",
    );
    write(
        root,
        "svc/entries.py",
        "def reconcile_entries(total):\n    return total\n",
    );
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open(root, &options).unwrap();
    (dir, index)
}

#[test]
fn one_search_ranks_files_of_both_languages() {
    let (_dir, index) = mixed_repo();
    assert_eq!(index.report().source_files, 5);
    assert_eq!(index.report().imports_unresolved, 0);
    let result = explore_code::run(
        index.db(),
        index.workspace(),
        &ExploreArgs::new("settle ledger"),
    )
    .unwrap();
    let paths: Vec<&str> = result.files.iter().map(|f| f.path.as_str()).collect();
    assert!(paths.contains(&"web/src/ledger.ts"), "{paths:?}");
    assert!(paths.contains(&"svc/ledger.py"), "{paths:?}");
}

#[test]
fn names_link_within_a_language_never_across() {
    let (_dir, index) = mixed_repo();
    let db = index.db();
    let ws = index.workspace();
    let graph = workspace_graph(db, ws);
    let files = ws.files(db);
    let lang_of = |node: sightline_observe::graph::NodeId| {
        let path = &graph.paths[graph.file_of(node) as usize];
        path.rsplit('.').next().unwrap().to_string()
    };
    let mut cross = Vec::new();
    let mut python_calls = 0;
    for e in graph.edges() {
        if lang_of(e.from) != lang_of(e.to) {
            cross.push(*e);
        }
        if lang_of(e.from) == "py" && e.kind == sightline_observe::graph::EdgeKind::Calls {
            python_calls += 1;
        }
    }
    assert!(cross.is_empty(), "{cross:?}");
    assert!(
        python_calls >= 1,
        "the Python call through its import links"
    );
    // Both languages' declarations are in the one graph.
    let names: Vec<String> = files
        .iter()
        .flat_map(|f| file_index(db, *f).facts.decls.clone())
        .map(|d| d.qualified)
        .collect();
    assert!(names.contains(&"settleLedger".to_string()));
    assert!(names.contains(&"LedgerSettler.settle_ledger".to_string()));
}
