//! Graph building over hostile module structure: a barrel tree where every file re-exports
//! every file of the next level with `export *`. Looking up a name no file exports must
//! not visit (stars per file)^hops files; a name that is exported must still be found.

use sightline_observe::db::{file_index, workspace_graph};
use sightline_observe::{CacheMode, Index, IndexOptions};

const FAN_OUT: usize = 32;
const LEVELS: usize = 4;
const MISSING_IMPORTS: usize = 8;

fn write_barrel_tree(root: &std::path::Path) {
    let file = |name: String, text: String| std::fs::write(root.join(name), text).unwrap();
    file("leaf.ts".into(), "export function target() {}\n".into());
    for level in 0..LEVELS {
        for i in 0..FAN_OUT {
            let text: String = if level + 1 == LEVELS {
                "export * from './leaf';\n".into()
            } else {
                (0..FAN_OUT)
                    .map(|j| format!("export * from './b{}_{j}';\n", level + 1))
                    .collect()
            };
            file(format!("b{level}_{i}.ts"), text);
        }
    }
    file(
        "use_found.ts".into(),
        "import { target } from './b0_0';\nexport function run() { target(); }\n".into(),
    );
    for n in 0..MISSING_IMPORTS {
        file(
            format!("use_missing{n}.ts"),
            format!(
                "import {{ absent{n} }} from './b0_0';\nexport function go{n}() {{ absent{n}(); }}\n"
            ),
        );
    }
}

#[test]
fn star_export_fan_out_is_bounded_and_real_exports_still_resolve() {
    let dir = tempfile::tempdir().unwrap();
    write_barrel_tree(dir.path());
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open(dir.path(), &options).unwrap();
    let db = index.db();
    let ws = index.workspace();
    let graph = workspace_graph(db, ws);
    let files = ws.files(db);
    let position = |path: &str| files.iter().position(|f| f.path(db) == path).unwrap() as u32;
    let leaf = position("leaf.ts");
    let target = file_index(db, files[leaf as usize])
        .facts
        .decls
        .iter()
        .position(|d| d.name == "target")
        .unwrap() as u32;
    let target_node = graph.decl_node(leaf, target);
    let user = position("use_found.ts");
    assert!(
        graph
            .incoming(target_node)
            .any(|e| graph.file_of(e.from) == user && e.certain),
        "the call through four levels of `export *` resolves to the declaration"
    );
}
