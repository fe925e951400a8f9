//! End-to-end rules of [`Resolver`] over small in-memory repositories.

use super::{DiagnosticKind, ResolveDiagnostic, Resolver, ScriptConfig};
use proptest::prelude::*;
use sightline_lang::{Resolution, path};
use std::collections::{BTreeSet, HashMap};

/// A configuration and a file set, built at once.
struct ModuleResolver {
    config: ScriptConfig,
    files: BTreeSet<String>,
}

impl ModuleResolver {
    /// `files`: every path (configuration files among them); `read`: any file's text.
    fn new(files: &[String], read: &dyn Fn(&str) -> Option<String>) -> ModuleResolver {
        let paths: Vec<&str> = files.iter().map(String::as_str).collect();
        ModuleResolver {
            config: ScriptConfig::new(&paths, read),
            files: files.iter().cloned().collect(),
        }
    }

    fn resolve(&self, from_file: &str, specifier: &str) -> Resolution {
        Resolver::new(&self.config, &self.files).resolve(path::parent(from_file), specifier)
    }

    fn diagnostics(&self) -> &[ResolveDiagnostic] {
        self.config.problems()
    }
}

/// A repository: `(path, text)`; sources get empty text, JSON files their content.
fn repo(entries: &[(&str, &str)]) -> ModuleResolver {
    let files: Vec<String> = entries.iter().map(|(p, _)| p.to_string()).collect();
    let texts: HashMap<String, String> = entries
        .iter()
        .map(|(p, t)| (p.to_string(), t.to_string()))
        .collect();
    ModuleResolver::new(&files, &|p| texts.get(p).cloned())
}

fn file(p: &str) -> Resolution {
    Resolution::File(p.to_string())
}

#[test]
fn relative_specifiers_probe_extensions_in_order() {
    let r = repo(&[
        ("src/a.ts", ""),
        ("src/a.js", ""),
        ("src/b.tsx", ""),
        ("src/c.d.ts", ""),
        ("src/d.mjs", ""),
    ]);
    assert_eq!(r.resolve("src/x.ts", "./a"), file("src/a.ts"));
    assert_eq!(r.resolve("src/x.ts", "./b"), file("src/b.tsx"));
    assert_eq!(r.resolve("src/x.ts", "./c"), file("src/c.d.ts"));
    assert_eq!(r.resolve("src/x.ts", "./d"), file("src/d.mjs"));
    assert_eq!(r.resolve("src/deep/x.ts", "../a"), file("src/a.ts"));
    assert_eq!(r.resolve("src/x.ts", "./missing"), Resolution::Unresolved);
}

#[test]
fn output_extensions_map_to_typescript_sources() {
    let r = repo(&[
        ("src/a.ts", ""),
        ("src/v.tsx", ""),
        ("src/m.mts", ""),
        ("src/plain.js", ""),
        ("src/data.json", "{}"),
    ]);
    assert_eq!(r.resolve("src/x.ts", "./a.js"), file("src/a.ts"));
    assert_eq!(r.resolve("src/x.ts", "./v.js"), file("src/v.tsx"));
    assert_eq!(r.resolve("src/x.ts", "./v.jsx"), file("src/v.tsx"));
    assert_eq!(r.resolve("src/x.ts", "./m.mjs"), file("src/m.mts"));
    assert_eq!(r.resolve("src/x.ts", "./plain.js"), file("src/plain.js"));
    assert_eq!(r.resolve("src/x.ts", "./data.json"), file("src/data.json"));
    assert_eq!(r.resolve("src/x.ts", "./a.ts"), file("src/a.ts"));
}

#[test]
fn directories_use_index_files() {
    let r = repo(&[("src/ui/index.tsx", ""), ("src/x.ts", ""), ("index.ts", "")]);
    assert_eq!(r.resolve("src/x.ts", "./ui"), file("src/ui/index.tsx"));
    assert_eq!(r.resolve("src/x.ts", "./ui/"), file("src/ui/index.tsx"));
    assert_eq!(r.resolve("src/x.ts", ".."), file("index.ts"));
}

#[test]
fn directories_use_package_json_entries() {
    let r = repo(&[
        (
            "lib/a/package.json",
            r#"{ "main": "./main.js", "types": "./types.ts" }"#,
        ),
        ("lib/a/types.ts", ""),
        ("lib/a/main.js", ""),
        (
            "lib/b/package.json",
            r#"{ "exports": { ".": { "import": "./esm.js", "default": "./cjs.js" } } }"#,
        ),
        ("lib/b/cjs.js", ""),
        ("lib/c/package.json", r#"{ "main": "./dist/index.js" }"#),
        ("lib/c/src/index.ts", ""),
        ("lib/d/package.json", r#"{ "main": "./nowhere.js" }"#),
        ("lib/d/index.ts", ""),
        ("lib/e/package.json", r#"{ "main": "." }"#),
        ("lib/e/index.js", ""),
    ]);
    assert_eq!(r.resolve("x.ts", "./lib/a"), file("lib/a/types.ts"));
    assert_eq!(r.resolve("x.ts", "./lib/b"), file("lib/b/cjs.js"));
    assert_eq!(
        r.resolve("x.ts", "./lib/c"),
        file("lib/c/src/index.ts"),
        "dist/ retried under src/"
    );
    assert_eq!(
        r.resolve("x.ts", "./lib/d"),
        file("lib/d/index.ts"),
        "missing main falls back to index"
    );
    assert_eq!(
        r.resolve("x.ts", "./lib/e"),
        file("lib/e/index.js"),
        "self-reference does not loop"
    );
}

#[test]
fn relative_paths_never_escape_the_root() {
    let r = repo(&[("a.ts", "")]);
    assert_eq!(r.resolve("src/x.ts", "../../a"), Resolution::Unresolved);
    assert_eq!(r.resolve("x.ts", "/a"), Resolution::Unresolved);
    assert_eq!(r.resolve("x.ts", ""), Resolution::Unresolved);
}

#[test]
fn schemes_and_unknown_bare_packages_are_external() {
    let r = repo(&[("a.ts", "")]);
    assert_eq!(r.resolve("a.ts", "node:fs"), Resolution::External);
    assert_eq!(r.resolve("a.ts", "react"), Resolution::External);
    assert_eq!(r.resolve("a.ts", "@scope/pkg/sub"), Resolution::External);
}

#[test]
fn tsconfig_paths_and_base_url() {
    let r = repo(&[
        (
            "tsconfig.json",
            r#"{ "compilerOptions": { "baseUrl": ".", "paths": {
                "@app/*": ["src/*"],
                "@app/core/*": ["missing/*", "core/*"],
                "@cfg": ["config/main.ts"] } } }"#,
        ),
        ("src/a/b.ts", ""),
        ("core/c.ts", ""),
        ("config/main.ts", ""),
        ("util/u.ts", ""),
    ]);
    assert_eq!(r.resolve("src/x.ts", "@app/a/b"), file("src/a/b.ts"));
    assert_eq!(
        r.resolve("src/x.ts", "@app/core/c"),
        file("core/c.ts"),
        "longest prefix, later target"
    );
    assert_eq!(
        r.resolve("src/x.ts", "@cfg"),
        file("config/main.ts"),
        "exact key"
    );
    assert_eq!(
        r.resolve("src/x.ts", "util/u"),
        file("util/u.ts"),
        "baseUrl"
    );
    assert_eq!(
        r.resolve("src/x.ts", "@app/none"),
        Resolution::Unresolved,
        "a broken alias, not a package"
    );
    assert_eq!(r.resolve("src/x.ts", "react"), Resolution::External);
    assert!(r.diagnostics().is_empty(), "{:?}", r.diagnostics());
}

#[test]
fn paths_without_base_url_are_relative_to_the_defining_config() {
    let r = repo(&[
        (
            "configs/base.json",
            r#"{ "compilerOptions": { "paths": { "~/*": ["../web/src/*"] } } }"#,
        ),
        ("web/tsconfig.json", r#"{ "extends": "../configs/base" }"#),
        ("web/src/a.ts", ""),
    ]);
    assert_eq!(r.resolve("web/src/x.ts", "~/a"), file("web/src/a.ts"));
}

#[test]
fn inherited_paths_follow_an_overriding_base_url() {
    // TypeScript resolves `paths` against the effective `baseUrl`, wherever it was set.
    let r = repo(&[
        (
            "tsconfig.base.json",
            r#"{ "compilerOptions": { "paths": { "~/*": ["./*"] } } }"#,
        ),
        (
            "app/tsconfig.json",
            r#"{ "extends": "../tsconfig.base.json", "compilerOptions": { "baseUrl": "./src" } }"#,
        ),
        ("app/src/a.ts", ""),
    ]);
    assert_eq!(r.resolve("app/src/x.ts", "~/a"), file("app/src/a.ts"));
}

#[test]
fn nearest_tsconfig_applies() {
    let r = repo(&[
        (
            "tsconfig.json",
            r#"{ "compilerOptions": { "paths": { "@x/*": ["root/*"] } } }"#,
        ),
        (
            "pkg/tsconfig.json",
            r#"{ "compilerOptions": { "paths": { "@x/*": ["own/*"] } } }"#,
        ),
        ("root/a.ts", ""),
        ("pkg/own/a.ts", ""),
    ]);
    assert_eq!(r.resolve("pkg/src/deep/x.ts", "@x/a"), file("pkg/own/a.ts"));
    assert_eq!(r.resolve("src/x.ts", "@x/a"), file("root/a.ts"));
}

#[test]
fn extends_merges_jsonc_and_later_entries_override() {
    let r = repo(&[
        (
            "a.json",
            "{ // base\n \"compilerOptions\": { \"baseUrl\": \"./a\", },\n}",
        ),
        ("b.json", r#"{ "compilerOptions": { "baseUrl": "./b" } }"#),
        (
            "tsconfig.json",
            r#"{ "extends": ["./a.json", "./b.json"] }"#,
        ),
        ("a/m.ts", ""),
        ("b/m.ts", ""),
    ]);
    assert_eq!(r.resolve("x.ts", "m"), file("b/m.ts"));
    assert!(r.diagnostics().is_empty(), "{:?}", r.diagnostics());
}

#[test]
fn extends_problems_are_diagnosed_not_fatal() {
    let r = repo(&[
        (
            "tsconfig.json",
            r#"{ "extends": "./one.json", "compilerOptions": { "baseUrl": "." } }"#,
        ),
        ("one.json", r#"{ "extends": "./two.json" }"#),
        ("two.json", r#"{ "extends": "./one.json" }"#),
        (
            "p/tsconfig.json",
            r#"{ "extends": "@tsconfig/strict", "compilerOptions": { "baseUrl": "." } }"#,
        ),
        ("q/tsconfig.json", r#"{ "extends": "./gone.json" }"#),
        ("r/tsconfig.json", "{ not json"),
        ("m.ts", ""),
        ("p/n.ts", ""),
    ]);
    let kinds: Vec<_> = r
        .diagnostics()
        .iter()
        .map(|d| (&d.file[..], &d.kind))
        .collect();
    assert!(
        kinds
            .iter()
            .any(|(_, k)| matches!(k, DiagnosticKind::ExtendsCycle { .. })),
        "{kinds:?}"
    );
    assert!(kinds.iter().any(|(f, k)| *f == "p/tsconfig.json"
        && matches!(k, DiagnosticKind::ExtendsPackageUnsupported { .. })));
    assert!(kinds.iter().any(
        |(f, k)| *f == "q/tsconfig.json" && matches!(k, DiagnosticKind::ExtendsNotFound { .. })
    ));
    assert!(
        kinds
            .iter()
            .any(|(f, k)| *f == "r/tsconfig.json"
                && matches!(k, DiagnosticKind::MalformedJson { .. }))
    );
    // The rest of each config still applies.
    assert_eq!(r.resolve("x.ts", "m"), file("m.ts"));
    assert_eq!(r.resolve("p/x.ts", "n"), file("p/n.ts"));
    assert_eq!(r.resolve("r/x.ts", "./../m"), file("m.ts"));
}

#[test]
fn diagnostics_are_reported_once_per_problem() {
    let r = repo(&[
        ("base.json", "{ broken"),
        ("a/tsconfig.json", r#"{ "extends": "../base.json" }"#),
        ("b/tsconfig.json", r#"{ "extends": "../base.json" }"#),
    ]);
    assert_eq!(r.diagnostics().len(), 1, "{:?}", r.diagnostics());
    assert_eq!(r.diagnostics()[0].file, "base.json");
}

#[test]
fn workspace_packages_by_name() {
    let r = repo(&[
        (
            "package.json",
            r#"{ "name": "root", "workspaces": ["packages/*"] }"#,
        ),
        (
            "packages/ui/package.json",
            r#"{ "name": "@w/ui", "main": "./dist/index.js", "exports": { ".": "./dist/index.js", "./theme": "./src/theme/index.ts" } }"#,
        ),
        ("packages/ui/src/index.ts", ""),
        ("packages/ui/src/theme/index.ts", ""),
        ("packages/ui/src/button.tsx", ""),
        ("packages/core/package.json", r#"{ "name": "core" }"#),
        ("packages/core/index.ts", ""),
        ("packages/core/util/strings.ts", ""),
        ("packages/bare/package.json", r#"{ "name": "bare" }"#),
        ("packages/bare/src/index.ts", ""),
    ]);
    assert_eq!(
        r.resolve("app/x.ts", "@w/ui"),
        file("packages/ui/src/index.ts")
    );
    assert_eq!(
        r.resolve("app/x.ts", "@w/ui/theme"),
        file("packages/ui/src/theme/index.ts"),
        "exports subpath"
    );
    assert_eq!(
        r.resolve("app/x.ts", "@w/ui/button"),
        file("packages/ui/src/button.tsx"),
        "src/ probing"
    );
    assert_eq!(
        r.resolve("app/x.ts", "core"),
        file("packages/core/index.ts")
    );
    assert_eq!(
        r.resolve("app/x.ts", "core/util/strings"),
        file("packages/core/util/strings.ts")
    );
    assert_eq!(
        r.resolve("app/x.ts", "bare"),
        file("packages/bare/src/index.ts"),
        "src/index fallback"
    );
    assert_eq!(
        r.resolve("app/x.ts", "core/nope"),
        Resolution::Unresolved,
        "known package, missing file"
    );
}

#[test]
fn duplicate_and_vendored_package_names() {
    let r = repo(&[
        ("a/package.json", r#"{ "name": "dup" }"#),
        ("a/index.ts", ""),
        ("b/package.json", r#"{ "name": "dup" }"#),
        ("b/index.ts", ""),
        ("node_modules/left/package.json", r#"{ "name": "left" }"#),
        ("node_modules/left/index.js", ""),
    ]);
    assert_eq!(r.resolve("x.ts", "dup"), file("a/index.ts"));
    assert_eq!(r.resolve("x.ts", "left"), Resolution::External);
    assert!(matches!(r.diagnostics(), [d] if d.file == "b/package.json"));
}

#[test]
fn package_imports_use_the_nearest_declaring_package() {
    let r = repo(&[
        (
            "pkg/package.json",
            r##"{ "imports": { "#lib/*": "./src/lib/*.js", "#cfg": { "import": "./cfg.ts" } } }"##,
        ),
        ("pkg/src/lib/a.ts", ""),
        ("pkg/cfg.ts", ""),
    ]);
    assert_eq!(
        r.resolve("pkg/src/x.ts", "#lib/a"),
        file("pkg/src/lib/a.ts")
    );
    assert_eq!(r.resolve("pkg/src/x.ts", "#cfg"), file("pkg/cfg.ts"));
    assert_eq!(r.resolve("pkg/src/x.ts", "#other"), Resolution::Unresolved);
    assert_eq!(r.resolve("x.ts", "#lib/a"), Resolution::Unresolved);
}

#[test]
fn resolution_is_deterministic_across_input_order() {
    let mut entries = vec![
        (
            "tsconfig.json",
            r#"{ "compilerOptions": { "paths": { "a/*": ["x/*"], "a/*b": ["y/*"] } } }"#,
        ),
        ("x/1b.ts", ""),
        ("y/1.ts", ""),
        ("p/package.json", r#"{ "name": "n" }"#),
        ("q/package.json", r#"{ "name": "n" }"#),
        ("p/index.ts", ""),
        ("q/index.ts", ""),
    ];
    let forward = repo(&entries);
    entries.reverse();
    let backward = repo(&entries);
    for spec in ["a/1b", "n"] {
        assert_eq!(
            forward.resolve("z.ts", spec),
            backward.resolve("z.ts", spec)
        );
    }
    assert_eq!(forward.diagnostics(), backward.diagnostics());
}

/// Path segments and specifier pieces small enough that random inputs collide often.
fn segment() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("src".to_string()),
        Just("..".to_string()),
        Just(".".to_string()),
        Just("index.ts".to_string()),
        Just("a.ts".to_string()),
        Just("a.js".to_string()),
        Just("package.json".to_string()),
        Just("tsconfig.json".to_string()),
        Just("@s".to_string()),
        Just("*".to_string()),
        Just("".to_string()),
        "[a-z.@*#:]{1,4}",
    ]
}

fn rel_path() -> impl Strategy<Value = String> {
    prop::collection::vec(segment(), 1..5).prop_map(|s| s.join("/"))
}

fn json_text() -> impl Strategy<Value = String> {
    let target = rel_path().prop_map(|p| format!("\"{p}\""));
    prop_oneof![
        prop::collection::vec(target, 0..3).prop_map(|ts| format!(
            r#"{{ "name": "@s/a", "main": {m}, "exports": {{ "./*": [{ts}] }}, "compilerOptions": {{ "baseUrl": {m}, "paths": {{ "*": [{ts}], "@s/*": [{ts}] }} }}, "extends": {m} }}"#,
            m = ts.first().cloned().unwrap_or_else(|| "\"..\"".into()),
            ts = ts.join(",")
        )),
        "[{}\\[\\]\",:/* a-z.]{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn resolve_never_panics_and_stays_inside_the_file_set(
        entries in prop::collection::vec((rel_path(), json_text()), 0..12),
        queries in prop::collection::vec((rel_path(), rel_path()), 1..12),
    ) {
        let files: Vec<String> = entries.iter().map(|(p, _)| p.clone()).collect();
        let texts: HashMap<String, String> = entries.into_iter().collect();
        let r = ModuleResolver::new(&files, &|p| texts.get(p).cloned());
        for (from, spec) in &queries {
            for spec in [spec.clone(), format!("./{spec}"), format!("../{spec}"), format!("@s/{spec}")] {
                if let Resolution::File(p) = r.resolve(from, &spec) {
                    prop_assert!(files.contains(&p), "{spec:?} from {from:?} gave {p:?}");
                }
            }
        }
    }
}

#[test]
fn a_ten_thousand_file_extends_chain_is_cut_with_a_diagnostic_not_a_stack_overflow() {
    // Resolution runs on a thread with a small stack, so unbounded recursion would abort.
    let handle = std::thread::Builder::new()
        .stack_size(256 * 1024)
        .spawn(|| {
            let n = 10_000;
            let mut owned: Vec<(String, String)> = (0..n)
                .map(|i| {
                    let text = match i + 1 < n {
                        true => format!(r#"{{"extends": "./c{}.json"}}"#, i + 1),
                        false => r#"{"compilerOptions": {"baseUrl": "."}}"#.to_owned(),
                    };
                    (format!("cfg/c{i}.json"), text)
                })
                .collect();
            owned.push((
                "tsconfig.json".into(),
                r#"{"extends": "./cfg/c0.json"}"#.into(),
            ));
            owned.push(("src/a.ts".into(), String::new()));
            let entries: Vec<(&str, &str)> = owned
                .iter()
                .map(|(p, t)| (p.as_str(), t.as_str()))
                .collect();
            let r = repo(&entries);
            r.diagnostics()
                .iter()
                .filter(|d| matches!(d.kind, DiagnosticKind::ExtendsTooDeep { .. }))
                .count()
        })
        .unwrap();
    assert!(handle.join().unwrap() >= 1);
}
