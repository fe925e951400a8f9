//! Go over the `go_app` fixture (see fixtures/README.md): package resolution through
//! `go.mod`, `replace` and `go.work`, the walk's Go conventions, and the graph edges that
//! packages make possible: imports to every file of a package, `pkg.Name` to the
//! declaration in the package's files, same-package visibility, methods attached to their
//! receiver's type, embedding as heritage.

mod common;

use sightline_observe::db::{file_index, workspace_graph};
use sightline_observe::graph::{EdgeKind, NodeId};
use sightline_observe::path_traits::path_traits;
use sightline_observe::resolve::Resolution;
use sightline_observe::{CacheMode, Index, IndexOptions, LANGUAGES};
use std::path::{Path, PathBuf};

fn fixture_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/go_app")
}

fn open() -> Index {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    Index::open(&fixture_root(), &options).expect("the fixture indexes")
}

fn package(dir: &str, files: &[&str]) -> Resolution {
    Resolution::Package {
        dir: dir.to_owned(),
        files: files.iter().map(|f| f.to_string()).collect(),
    }
}

#[test]
fn go_fixture_resolves_import_paths_to_packages() {
    let index = open();
    let resolver = sightline_observe::db::module_resolver(index.db(), index.workspace());
    let r = |from: &str, spec: &str| resolver.resolve(from, spec);
    // The module's own packages: every source of the directory, tests and generated
    // files (never indexed) left out.
    assert_eq!(
        r("main.go", "example.com/shop/cart"),
        package("cart", &["cart/cart.go", "cart/line.go", "cart/methods.go"])
    );
    assert_eq!(
        r("tools/gen/gen.go", "example.com/shop/pricing"),
        package("pricing", &["pricing/discount.go", "pricing/pricing.go"])
    );
    // A nested module owns its subtree.
    assert_eq!(
        r("main.go", "example.com/shop/tools/gen"),
        package("tools/gen", &["tools/gen/gen.go"])
    );
    // `replace` in go.mod, and in go.work, to local directories.
    assert_eq!(
        r("main.go", "example.com/legacy"),
        package("internal/legacy", &["internal/legacy/legacy.go"])
    );
    assert_eq!(
        r("main.go", "example.com/forked"),
        package("third_party/forked", &["third_party/forked/forked.go"])
    );
    // The standard library and other modules are external (a vendored copy is never
    // indexed); a package the module should hold but does not is unresolved.
    assert_eq!(r("main.go", "fmt"), Resolution::External);
    assert_eq!(r("main.go", "example.com/dep"), Resolution::External);
    assert_eq!(
        r("tools/gen/gen.go", "example.com/shop/missing"),
        Resolution::Unresolved
    );
}

#[test]
fn go_fixture_walk_follows_the_toolchain() {
    let index = open();
    let report = index.report();
    assert_eq!(report.skipped.get("build output"), Some(&1), "{report:#?}");
    assert_eq!(report.skipped.get("generated"), Some(&1), "{report:#?}");
    assert_eq!(
        report.skipped.get("ignored by toolchain"),
        Some(&1),
        "{report:#?}"
    );
    assert_eq!(report.imports_unresolved, 1, "{report:#?}");
    let db = index.db();
    let paths: Vec<String> = index
        .workspace()
        .files(db)
        .iter()
        .map(|f| f.path(db).to_string())
        .collect();
    for absent in [
        "vendor/example.com/dep/dep.go",
        "cart/testdata/sample.go",
        "cart/zz_generated.go",
    ] {
        assert!(!paths.contains(&absent.to_string()), "{absent}: {paths:?}");
    }
    for present in ["go.mod", "go.work", "tools/go.mod", "cart/cart_test.go"] {
        assert!(paths.contains(&present.to_string()), "{present}: {paths:?}");
    }
    assert!(path_traits(LANGUAGES, "cart/cart_test.go").test);
    assert!(!path_traits(LANGUAGES, "cart/cart.go").test);
}

/// The certain edges of `from` (a qualified declaration in `from_file`, or the file's
/// module for `""`) of `kind`, as `file:qualified` targets.
fn edges_of(index: &Index, from_file: &str, from: &str, kind: EdgeKind) -> Vec<String> {
    let db = index.db();
    let ws = index.workspace();
    let graph = workspace_graph(db, ws);
    let files = ws.files(db);
    let fi = files
        .iter()
        .position(|f| f.path(db) == from_file)
        .unwrap_or_else(|| panic!("{from_file} is indexed"));
    let node = match from {
        "" => NodeId::module(fi as u32),
        _ => {
            let facts = &file_index(db, files[fi]).facts;
            let di = facts
                .decls
                .iter()
                .position(|d| d.qualified == from)
                .unwrap_or_else(|| panic!("{from} in {from_file}"));
            graph.decl_node(fi as u32, di as u32)
        }
    };
    let mut out: Vec<String> = graph
        .outgoing(node)
        .iter()
        .filter(|e| e.kind == kind && e.certain)
        .map(|e| {
            let tf = graph.file_of(e.to);
            let name = graph.decl_of(e.to).map_or(String::from("<module>"), |d| {
                file_index(db, files[tf as usize]).facts.decls[d as usize]
                    .qualified
                    .clone()
            });
            format!("{}:{name}", graph.paths[tf as usize])
        })
        .collect();
    out.sort();
    out
}

#[test]
fn go_fixture_imports_link_every_file_of_a_package() {
    let index = open();
    let imports = edges_of(&index, "pricing/pricing.go", "", EdgeKind::Imports);
    assert_eq!(
        imports,
        [
            "cart/cart.go:<module>",
            "cart/line.go:<module>",
            "cart/methods.go:<module>"
        ]
    );
}

#[test]
fn go_fixture_graph_binds_packages_methods_and_embedding() {
    let index = open();
    let t = |file: &str, from: &str, kind| edges_of(&index, file, from, kind);
    // `cart.New()` and `p.Total(…)`: a name of the package an import binds (by its
    // path's last element, or its alias), in whichever file declares it.
    let main_calls = t("main.go", "main", EdgeKind::Calls);
    for callee in [
        "cart/cart.go:New",
        "pricing/pricing.go:Total",
        "internal/legacy/legacy.go:Rate",
    ] {
        assert!(
            main_calls.contains(&callee.to_string()),
            "{callee}: {main_calls:?}"
        );
    }
    // A method is reached through its type, never by its own name.
    assert!(
        !main_calls.contains(&"pricing/discount.go:Receipt.Total".to_string()),
        "{main_calls:?}"
    );
    assert!(
        t("main.go", "main", EdgeKind::Instantiates).contains(&"cart/line.go:Line".to_string())
    );
    assert!(
        t("main.go", "main", EdgeKind::References)
            .contains(&"third_party/forked/forked.go:Name".to_string())
    );
    // Same-package visibility: `audit` is declared in another file of the package.
    assert_eq!(
        t("cart/methods.go", "Cart.recount", EdgeKind::Calls),
        ["cart/line.go:audit"]
    );
    // A method on its receiver: `c.recount()` inside `(c *Cart) Add`.
    assert_eq!(
        t("cart/methods.go", "Cart.Add", EdgeKind::Calls),
        ["cart/methods.go:Cart.recount"]
    );
    // The type contains the methods declared for it in other files of the package.
    let contained = t("cart/cart.go", "Cart", EdgeKind::Contains);
    for member in [
        "cart/cart.go:Cart.count",
        "cart/cart.go:Cart.items",
        "cart/methods.go:Cart.Add",
        "cart/methods.go:Cart.Items",
        "cart/methods.go:Cart.recount",
    ] {
        assert!(
            contained.contains(&member.to_string()),
            "{member}: {contained:?}"
        );
    }
    // Fields through the receiver, types through another package's name.
    assert!(
        t("cart/methods.go", "Cart.recount", EdgeKind::References)
            .contains(&"cart/cart.go:Cart.count".to_string())
    );
    assert!(
        t("pricing/pricing.go", "Total", EdgeKind::References)
            .contains(&"cart/line.go:Line".to_string())
    );
    // Embedding: a struct in a struct, an interface in an interface; `fmt.Stringer` is
    // another module's and links nowhere.
    assert_eq!(
        t("cart/cart.go", "Cart", EdgeKind::Extends),
        ["cart/line.go:Base"]
    );
    assert_eq!(
        t("pricing/discount.go", "Discounter", EdgeKind::Extends),
        ["pricing/pricing.go:Pricer"]
    );
    // Another package's type, through the name its import binds.
    assert_eq!(
        t("pricing/pricing.go", "Priced", EdgeKind::Extends),
        ["cart/line.go:Line"]
    );
    // A test of the package sees the package.
    assert!(
        t("cart/cart_test.go", "TestAdd", EdgeKind::Calls)
            .contains(&"cart/cart.go:New".to_string())
    );
}
