//! Java over the `java_app` fixture (see fixtures/README.md): configuration (a Maven
//! multi-module build, a Gradle source directory), resolution of every import form, the
//! walk's Java conventions, and the graph edges imports and packages make possible.

mod common;

use sightline_observe::db::{file_index, workspace_graph};
use sightline_observe::graph::EdgeKind;
use sightline_observe::path_traits::path_traits;
use sightline_observe::resolve::Resolution;
use sightline_observe::{CacheMode, Index, IndexOptions, LANGUAGES};
use std::path::{Path, PathBuf};

fn fixture_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/java_app")
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

const CORE: &str = "core/src/main/java/org/fixture/core";
const MAIN: &str = "app/src/main/java/org/fixture/app/Main.java";

#[test]
fn java_fixture_resolves_every_import_form() {
    let index = open();
    let resolver = sightline_observe::db::module_resolver(index.db(), index.workspace());
    let r = |from: &str, spec: &str| resolver.resolve(from, spec);
    // Single-type imports across modules, a nested type and a static member in their
    // outer type's file.
    assert_eq!(
        r(MAIN, "org.fixture.core.util.Strings"),
        file(&format!("{CORE}/util/Strings.java"))
    );
    let registry = file(&format!("{CORE}/Registry.java"));
    assert_eq!(r(MAIN, "org.fixture.core.Registry.Entry"), registry);
    assert_eq!(r(MAIN, "org.fixture.core.Registry.lookup"), registry);
    // An on-demand import reaches every type file of the package's main source set.
    let Resolution::Package { dir, files } = r(MAIN, "org.fixture.core.*") else {
        panic!("a package");
    };
    assert_eq!(dir, CORE);
    let names: Vec<&str> = files.iter().map(|f| &f[CORE.len() + 1..]).collect();
    assert_eq!(
        names,
        [
            "Circle.java",
            "Color.java",
            "Geometry.java",
            "Point.java",
            "Registry.java",
            "Shape.java",
            "Tracked.java"
        ]
    );
    // A test sees its source set's files; main code does not.
    let test = "core/src/test/java/org/fixture/core/CircleTest.java";
    assert_eq!(r(test, "org.fixture.core.*").files().len(), 9);
    assert_eq!(
        r(test, "org.fixture.core.Fixtures"),
        file("core/src/test/java/org/fixture/core/Fixtures.java")
    );
    assert_eq!(r(MAIN, "org.fixture.core.Fixtures"), Resolution::Unresolved);
    // A source root the Gradle build declares (`srcDirs = ['source']`).
    assert_eq!(
        r(MAIN, "org.fixture.plugins.CardPlugin"),
        file("plugins/source/org/fixture/plugins/CardPlugin.java")
    );
    // The JDK is external; a missing type of a repository package is unresolved.
    assert_eq!(r(MAIN, "java.util.List"), Resolution::External);
    assert_eq!(r(MAIN, "org.fixture.core.Missing"), Resolution::Unresolved);
}

#[test]
fn java_fixture_walk_skips_build_output_and_generated_files() {
    let index = open();
    let report = index.report();
    // `core/target`, `app/build` and `out`, each beside a build file.
    assert_eq!(report.skipped.get("build output"), Some(&3), "{report:#?}");
    assert_eq!(report.skipped.get("generated"), Some(&1), "{report:#?}");
    assert_eq!(
        report.imports_unresolved, 0,
        "{:?}",
        report.unresolved_examples
    );
    assert!(report.imports_external >= 4, "{report:#?}");
    let db = index.db();
    let paths: Vec<String> = index
        .workspace()
        .files(db)
        .iter()
        .map(|f| f.path(db).to_string())
        .collect();
    assert!(paths.iter().all(|p| !p.contains("/target/")
        && !p.contains("/build/")
        && !p.starts_with("out/")
        && !p.ends_with("Lexer.java")));
    for manifest in ["pom.xml", "core/pom.xml", "plugins/build.gradle"] {
        assert!(paths.contains(&manifest.to_string()), "{manifest}");
    }
}

#[test]
fn java_test_files_carry_the_test_trait() {
    for test in [
        "core/src/test/java/org/fixture/core/Fixtures.java",
        "src/integrationTest/java/a/Flow.java",
        "src/main/java/a/ParserTest.java",
        "src/main/java/a/ParserTests.java",
        "src/main/java/a/ParserIT.java",
    ] {
        assert!(path_traits(LANGUAGES, test).test, "{test}");
    }
    for source in [
        "core/src/main/java/org/fixture/core/Circle.java",
        "src/main/java/a/Testable.java",
        "src/main/java/a/Contest.java",
    ] {
        assert!(!path_traits(LANGUAGES, source).test, "{source}");
    }
}

/// The certain edges of `from` (a qualified declaration in `from_file`) of `kind`, as
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
    let node = match from {
        "" => sightline_observe::graph::NodeId::module(fi as u32),
        _ => {
            let di = facts
                .decls
                .iter()
                .position(|d| d.qualified == from)
                .unwrap_or_else(|| panic!("{from} in {from_file}"));
            graph.decl_node(fi as u32, di as u32)
        }
    };
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
            let path = &graph.paths[tf as usize];
            format!("{}:{name}", path.rsplit('/').next().unwrap_or(path))
        })
        .collect()
}

#[test]
fn java_fixture_imports_link_modules_and_bind_names() {
    let index = open();
    let t = |from: &str, kind| edges_of(&index, MAIN, from, kind);
    // One imports edge per file an import reaches: the package's seven type files, and
    // Registry and Strings once more by name (deduplicated).
    let imports = t("", EdgeKind::Imports);
    assert_eq!(imports.len(), 8, "{imports:?}");
    assert!(imports.contains(&"Strings.java:<module>".to_string()));
    // `new Circle(…)` through the on-demand import; `Registry.register(…)`, a member of a
    // type the on-demand import brings in; `Strings.join` through a single-type import.
    let main = "Main.main";
    assert!(t(main, EdgeKind::Instantiates).contains(&"Circle.java:Circle".to_string()));
    let calls = t(main, EdgeKind::Calls);
    for expected in [
        "Registry.java:Registry.register",
        "Strings.java:Strings.join",
    ] {
        assert!(
            calls.contains(&expected.to_string()),
            "{expected}: {calls:?}"
        );
    }
    // A static import names a member of its type; a nested type's import the nested type.
    assert!(
        calls.contains(&"Registry.java:Registry.lookup".to_string()),
        "{calls:?}"
    );
    assert!(t(main, EdgeKind::Instantiates).contains(&"Registry.java:Registry.Entry".to_string()));
    // `Color.GREEN`, a member of a type the on-demand import brings in.
    assert!(
        t(main, EdgeKind::References).contains(&"Color.java:Color.GREEN".to_string()),
        "{:?}",
        t(main, EdgeKind::References)
    );
}

#[test]
fn java_fixture_files_of_one_package_see_each_other() {
    let index = open();
    let circle = format!("{CORE}/Circle.java");
    let t = |from: &str, kind| edges_of(&index, &circle, from, kind);
    // `implements Shape` and `@Tracked` without imports: same package.
    assert_eq!(t("Circle", EdgeKind::Implements), ["Shape.java:Shape"]);
    assert!(t("Circle", EdgeKind::References).contains(&"Tracked.java:Tracked".to_string()));
    // A package-private class's static method and constant.
    assert_eq!(
        t("Circle.area", EdgeKind::Calls),
        ["Geometry.java:Geometry.square"]
    );
    assert!(
        t("Circle.area", EdgeKind::References).contains(&"Geometry.java:Geometry.PI".to_string())
    );
    // `this`-less and `this.` calls of the class's own methods, and a constructor call.
    assert!(t("Circle.checked", EdgeKind::Calls).contains(&"Circle.java:Circle.area".to_string()));
    assert!(
        t("Circle.scaled", EdgeKind::Calls).contains(&"Circle.java:Circle.checked".to_string())
    );
    // A member used on a variable is looked up in the variable's declared type.
    let registry = format!("{CORE}/Registry.java");
    assert!(
        edges_of(&index, &registry, "Registry.lookup", EdgeKind::References)
            .contains(&"Registry.java:Registry.Entry.shape".to_string())
    );
    // A test in the same package of the test source set sees main and test types alike.
    let test = "core/src/test/java/org/fixture/core/CircleTest.java";
    let from = "CircleTest.scalingKeepsTheShape";
    assert_eq!(
        edges_of(&index, test, from, EdgeKind::Instantiates),
        ["Circle.java:Circle"]
    );
    let calls = edges_of(&index, test, from, EdgeKind::Calls);
    for expected in [
        "Geometry.java:Geometry.square",
        "Fixtures.java:Fixtures.check",
    ] {
        assert!(
            calls.contains(&expected.to_string()),
            "{expected}: {calls:?}"
        );
    }
    // Heritage of a record and a Gradle module's class.
    assert_eq!(
        edges_of(
            &index,
            &format!("{CORE}/Point.java"),
            "Point",
            EdgeKind::Implements
        ),
        ["Shape.java:Shape"]
    );
    assert_eq!(
        edges_of(
            &index,
            "plugins/source/org/fixture/plugins/CardPlugin.java",
            "CardPlugin",
            EdgeKind::Implements
        ),
        ["Shape.java:Shape"]
    );
}

#[test]
fn java_edit_is_reindexed_and_cached_facts_round_trip() {
    let dir = common::java_fixture_copy();
    let cache = tempfile::tempdir().unwrap();
    let options = IndexOptions {
        cache: CacheMode::Dir(cache.path().to_path_buf()),
        progress: None,
    };
    let mut index = Index::open(dir.path(), &options).unwrap();
    index.save_cache().unwrap();
    let path = format!("{CORE}/Geometry.java");
    let text = std::fs::read_to_string(dir.path().join(&path)).unwrap();
    let edited = text.replace(
        "    private Geometry() {}",
        "    private Geometry() {}\n\n    static double cube(double x) {\n        return x * square(x);\n    }",
    );
    common::write_file(dir.path(), &path, &edited);
    let refreshed = index.refresh();
    assert_eq!(refreshed.changed, std::slice::from_ref(&path));
    assert_eq!(
        edges_of(&index, &path, "Geometry.cube", EdgeKind::Calls),
        ["Geometry.java:Geometry.square"]
    );
    index.save_cache().unwrap();
    // A second open reads every Java file's facts from the cache, parsing none.
    let again = Index::open(dir.path(), &options).unwrap();
    assert_eq!(again.report().parsed, 0, "{:#?}", again.report());
    assert_eq!(
        edges_of(&again, &path, "Geometry.cube", EdgeKind::Calls),
        ["Geometry.java:Geometry.square"]
    );
}
