//! A query's type-qualified member (`Store.load`) names the file its type is named after
//! only when that file declares the type: the literal-path evidence goes to a module that
//! defines `Store`, never to a file of helpers that merely shares the qualifier's name.

mod common;

use sightline_observe::db::workspace_graph;
use sightline_observe::search::{SearchOptions, search};

/// Literal-path evidence per file path for `query` over a project of `files`.
fn literal_paths(files: &[(&str, &str)], query: &str) -> Vec<(String, f64)> {
    let dir = tempfile::tempdir().expect("temp dir");
    for (path, text) in files {
        let full = dir.path().join(path);
        std::fs::create_dir_all(full.parent().expect("parent")).expect("dirs");
        std::fs::write(full, text).expect("write");
    }
    let index = common::open_uncached(dir.path());
    let result = search(
        index.db(),
        index.workspace(),
        query,
        &SearchOptions::default(),
    );
    let graph = workspace_graph(index.db(), index.workspace());
    let mut out: Vec<(String, f64)> = result
        .files
        .iter()
        .map(|f| {
            (
                graph.paths[f.file as usize].clone(),
                f.components.literal_path,
            )
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

fn evidence_of(found: &[(String, f64)], path: &str) -> f64 {
    found
        .iter()
        .find(|(p, _)| p == path)
        .map_or(0.0, |(_, v)| *v)
}

#[test]
fn a_type_qualifier_names_only_a_file_declaring_the_type() {
    let files = [
        (
            "pkg/store.py",
            "class Store:\n    def load(self, path):\n        return open(path).read()\n",
        ),
        (
            "pkg/loader.py",
            "from pkg.store import Store\n\ndef load_all(paths):\n    return [Store().load(p) for p in paths]\n",
        ),
        (
            "web/object.ts",
            "export function assign(target: object, extra: object) {\n  return { ...target, ...extra };\n}\n",
        ),
        (
            "web/main.ts",
            "import { assign } from './object';\nexport const merged = Object.assign({}, assign({}, {}));\n",
        ),
    ];
    let found = literal_paths(&files, "add an encoding argument to `Store.load`");
    assert!(
        evidence_of(&found, "pkg/store.py") > 0.0,
        "the file declaring Store is named: {found:?}"
    );
    assert_eq!(evidence_of(&found, "pkg/loader.py"), 0.0, "{found:?}");
    // `object.ts` declares no `Object`: a built-in's member names no file of the project.
    let found = literal_paths(&files, "merge with `Object.assign` instead");
    assert_eq!(evidence_of(&found, "web/object.ts"), 0.0, "{found:?}");
}
