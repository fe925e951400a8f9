//! Module resolution over the fixture app: every in-repository import must land on a file.

use sightline_observe::resolve::{ModuleResolver, Resolution};
use std::fs;
use std::path::{Path, PathBuf};

fn fixture_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/app")
}

/// Every file under `dir`, as sorted repo-relative paths with forward slashes.
fn walk(root: &Path) -> Vec<String> {
    let mut out = Vec::new();
    let mut pending = vec![root.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in fs::read_dir(&dir).expect("fixture directory is readable") {
            let path = entry.expect("directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else {
                let rel = path.strip_prefix(root).expect("inside the root");
                let parts: Vec<_> = rel
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                out.push(parts.join("/"));
            }
        }
    }
    out.sort();
    out
}

fn resolver(root: &Path, files: &[String]) -> ModuleResolver {
    ModuleResolver::new(files, &|rel| fs::read_to_string(root.join(rel)).ok())
}

/// The quoted specifiers of `from '…'` clauses and side-effect `import '…'` lines.
/// Deliberately tiny (no regex, no parser): the fixture keeps one clause per line.
fn import_specifiers(source: &str) -> Vec<String> {
    let mut specs = Vec::new();
    for line in source.lines() {
        let line = line.trim();
        let quoted = if let Some(pos) = line.find("from '").or_else(|| line.find("from \"")) {
            &line[pos + "from ".len()..]
        } else if let Some(rest) = line
            .strip_prefix("import ")
            .filter(|r| r.starts_with(['\'', '"']))
        {
            rest
        } else {
            continue;
        };
        let quote = quoted.chars().next().unwrap_or('\'');
        if let Some(end) = quoted[1..].find(quote) {
            specs.push(quoted[1..1 + end].to_string());
        }
    }
    specs
}

fn is_source(path: &str) -> bool {
    [".ts", ".tsx", ".mts", ".cts", ".js", ".jsx"]
        .iter()
        .any(|ext| path.ends_with(ext))
}

#[test]
fn every_in_repo_import_resolves_to_a_file() {
    let root = fixture_root();
    let files = walk(&root);
    let r = resolver(&root, &files);
    assert!(
        r.diagnostics().is_empty(),
        "unexpected diagnostics: {:?}",
        r.diagnostics()
    );

    let mut checked = 0;
    let mut failures = Vec::new();
    for file in files.iter().filter(|f| is_source(f)) {
        let text = fs::read_to_string(root.join(file)).expect("fixture source is readable");
        for spec in import_specifiers(&text) {
            if !(spec.starts_with('.')
                || spec.starts_with("@app/")
                || spec.starts_with("@fixture/"))
            {
                continue;
            }
            checked += 1;
            match r.resolve(file, &spec) {
                Resolution::File(target) => {
                    assert!(files.contains(&target), "{target} is not a fixture file")
                }
                other => failures.push(format!("{file}: {spec:?} -> {other:?}")),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "unresolved imports:\n{}",
        failures.join("\n")
    );
    assert!(
        checked >= 30,
        "the scan found only {checked} in-repo imports; is it still working?"
    );
}

#[test]
fn fixture_imports_land_where_the_fixture_readme_says() {
    let root = fixture_root();
    let files = walk(&root);
    let r = resolver(&root, &files);
    let cases = [
        ("src/main.tsx", "./components/App", "src/components/App.tsx"),
        (
            "src/handlers/save.ts",
            "@app/state/recordStore",
            "src/state/recordStore.ts",
        ),
        ("src/handlers/save.ts", "@app/types", "src/types.ts"),
        (
            "src/api/client.ts",
            "@fixture/shared",
            "packages/shared/src/index.ts",
        ),
        (
            "src/export/Exporter.ts",
            "@fixture/shared/format",
            "packages/shared/src/format.ts",
        ),
        ("src/export/Exporter.ts", "../shapes", "src/shapes/index.ts"),
        ("src/shapes/index.ts", "./Circle.js", "src/shapes/Circle.ts"),
        (
            "packages/shared/src/index.ts",
            "./ids.js",
            "packages/shared/src/ids.ts",
        ),
    ];
    for (from, spec, want) in cases {
        assert_eq!(
            r.resolve(from, spec),
            Resolution::File(want.to_string()),
            "{spec} from {from}"
        );
    }
    assert_eq!(r.resolve("src/main.tsx", "react"), Resolution::External);
    assert_eq!(
        r.resolve("src/main.tsx", "react-dom/client"),
        Resolution::External
    );
    assert_eq!(
        r.resolve("src/main.tsx", "@app/missing"),
        Resolution::Unresolved
    );
    assert_eq!(
        r.resolve("src/main.tsx", "./missing"),
        Resolution::Unresolved
    );
}

#[test]
fn the_import_scan_reads_both_clause_styles() {
    let src = "import a from './a';\nexport { b } from \"../b\";\nimport './side';\nconst x = 'from nowhere';";
    assert_eq!(import_specifiers(src), ["./a", "../b", "./side"]);
}
