//! Python over the `python_app` fixture (see fixtures/README.md): module resolution for
//! every import form, the walk's Python conventions, and the graph edges those imports
//! make possible.

mod common;

use sightline_observe::db::{file_index, workspace_graph};
use sightline_observe::graph::EdgeKind;
use sightline_observe::path_traits::path_traits;
use sightline_observe::resolve::Resolution;
use sightline_observe::{CacheMode, Index, IndexOptions, LANGUAGES};
use std::path::{Path, PathBuf};

fn fixture_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/python_app")
}

fn open() -> Index {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    Index::open(&fixture_root(), &options).expect("the fixture indexes")
}

fn file(p: &str) -> Resolution {
    Resolution::File(p.to_string())
}

#[test]
fn python_fixture_resolves_every_import_form() {
    let index = open();
    let resolver = sightline_observe::db::module_resolver(index.db(), index.workspace());
    let r = |from: &str, spec: &str| resolver.resolve(from, spec);
    // Relative imports: the package itself, siblings, and parents one dot each.
    assert_eq!(r("src/shop/cart.py", "."), file("src/shop/__init__.py"));
    assert_eq!(
        r("src/shop/cart.py", ".sub.discounts"),
        file("src/shop/sub/discounts.py")
    );
    assert_eq!(
        r("src/shop/sub/discounts.py", ".."),
        file("src/shop/__init__.py")
    );
    // A source wins over its stub; a stub alone is the module.
    assert_eq!(
        r("src/shop/sub/discounts.py", "..pricing"),
        file("src/shop/pricing.py")
    );
    assert_eq!(
        r("tests/test_cart.py", "shop.typed"),
        file("src/shop/typed.pyi")
    );
    // Absolute imports under the root pyproject.toml declares (`where = ["src"]`).
    assert_eq!(
        r("tests/test_cart.py", "shop"),
        file("src/shop/__init__.py")
    );
    assert_eq!(
        r("src/plugins/payments/card.py", "shop.sub.discounts"),
        file("src/shop/sub/discounts.py")
    );
    // Namespace packages: directories without `__init__.py`.
    assert_eq!(
        r("tests/test_cart.py", "plugins.payments"),
        Resolution::Package {
            dir: "src/plugins/payments".into(),
            files: Vec::new()
        }
    );
    assert_eq!(
        r("tests/test_cart.py", "plugins.payments.card"),
        file("src/plugins/payments/card.py")
    );
    // From the repository root, and a test's neighbour module.
    assert_eq!(
        r("tools/release.py", "src.shop.cart"),
        file("src/shop/cart.py")
    );
    assert_eq!(r("tests/test_cart.py", "helpers"), file("tests/helpers.py"));
    // Third-party and standard-library names are external; a missing module of a
    // repository package is unresolved; climbing past the root is unresolved.
    assert_eq!(r("tests/test_cart.py", "requests"), Resolution::External);
    assert_eq!(r("src/shop/cart.py", "dataclasses"), Resolution::External);
    assert_eq!(
        r("tests/test_cart.py", "shop.missing"),
        Resolution::Unresolved
    );
    assert_eq!(r("tests/test_cart.py", "...up"), Resolution::Unresolved);
}

#[test]
fn python_fixture_walk_skips_environments_and_build_output() {
    let index = open();
    let report = index.report();
    assert_eq!(
        report.skipped.get("marked dependency dir"),
        Some(&1),
        "{report:#?}"
    );
    assert_eq!(report.skipped.get("build output"), Some(&1), "{report:#?}");
    assert_eq!(
        report.imports_unresolved, 0,
        "{:?}",
        report.unresolved_examples
    );
    assert!(report.imports_external >= 3, "{report:#?}");
    let db = index.db();
    let paths: Vec<String> = index
        .workspace()
        .files(db)
        .iter()
        .map(|f| f.path(db).to_string())
        .collect();
    assert!(
        paths
            .iter()
            .all(|p| !p.starts_with("env/") && !p.starts_with("build/"))
    );
    assert!(paths.contains(&"pyproject.toml".to_string()));
}

#[test]
fn python_test_files_carry_the_test_trait() {
    for test in [
        "tests/helpers.py",
        "pkg/test_a.py",
        "pkg/a_test.py",
        "conftest.py",
    ] {
        assert!(path_traits(LANGUAGES, test).test, "{test}");
    }
    for source in ["src/shop/cart.py", "pkg/testing.py", "pkg/contest.py"] {
        assert!(!path_traits(LANGUAGES, source).test, "{source}");
    }
}

/// The edges of `from` (a qualified declaration in `from_file`) of `kind`, as
/// `file:qualified` targets.
fn edges_of(index: &Index, from_file: &str, from: &str, kind: EdgeKind) -> Vec<String> {
    let db = index.db();
    let ws = index.workspace();
    let graph = workspace_graph(db, ws);
    let files = ws.files(db);
    let fi = files
        .iter()
        .position(|f| f.path(db) == from_file)
        .unwrap_or_else(|| panic!("{from_file} is indexed"));
    let facts = &file_index(db, files[fi]).facts;
    let di = facts
        .decls
        .iter()
        .position(|d| d.qualified == from)
        .unwrap_or_else(|| panic!("{from} in {from_file}"));
    let node = graph.decl_node(fi as u32, di as u32);
    graph
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
        .collect()
}

#[test]
fn python_fixture_graph_follows_imports_reexports_and_self_calls() {
    let index = open();
    let t = |file: &str, from: &str, kind| edges_of(&index, file, from, kind);
    // `from shop import Cart`: re-exported by `shop/__init__.py` from `.cart`.
    assert_eq!(
        t("tests/test_cart.py", "test_add", EdgeKind::Instantiates),
        ["src/shop/cart.py:Cart"]
    );
    // `from shop import total`: re-exported through `from .pricing import *`.
    assert!(
        t("tests/test_cart.py", "test_add", EdgeKind::Calls)
            .contains(&"src/shop/pricing.py:total".to_string())
    );
    // `self._recount()` is the enclosing class's method.
    assert_eq!(
        t("src/shop/cart.py", "Cart.add", EdgeKind::Calls),
        ["src/shop/cart.py:Cart._recount"]
    );
    // `from . import pricing` binds the submodule; `pricing.total(…)` is its function.
    assert!(
        t("src/shop/cart.py", "Cart.checkout", EdgeKind::Calls)
            .contains(&"src/shop/pricing.py:total".to_string())
    );
    // `import shop.sub.discounts` binds the dotted path.
    assert_eq!(
        t(
            "src/plugins/payments/card.py",
            "CardPayment.charge",
            EdgeKind::Calls
        ),
        ["src/shop/sub/discounts.py:apply_discount"]
    );
    assert_eq!(
        t("src/shop/cart.py", "GiftCart", EdgeKind::Extends),
        ["src/shop/cart.py:Cart"]
    );
}

#[test]
fn python_edit_is_reindexed_and_cached_facts_round_trip() {
    let dir = common::python_fixture_copy();
    let cache = tempfile::tempdir().unwrap();
    let options = IndexOptions {
        cache: CacheMode::Dir(cache.path().to_path_buf()),
        progress: None,
    };
    let mut index = Index::open(dir.path(), &options).unwrap();
    index.save_cache().unwrap();
    let path = "src/shop/pricing.py";
    let text = std::fs::read_to_string(dir.path().join(path)).unwrap();
    common::write_file(
        dir.path(),
        path,
        &format!("{text}\n\ndef audit(lines):\n    return total(lines)\n"),
    );
    let refreshed = index.refresh();
    assert_eq!(refreshed.changed, [path.to_string()]);
    assert_eq!(
        edges_of(&index, path, "audit", EdgeKind::Calls),
        ["src/shop/pricing.py:total"]
    );
    index.save_cache().unwrap();
    // A second open reads every Python file's facts from the cache, parsing none.
    let again = Index::open(dir.path(), &options).unwrap();
    assert_eq!(again.report().parsed, 0, "{:#?}", again.report());
    assert_eq!(
        edges_of(&again, path, "audit", EdgeKind::Calls),
        ["src/shop/pricing.py:total"]
    );
}
