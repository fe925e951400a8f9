//! The guard run on this very workspace: `cargo test` fails when production code stops
//! being generic, just like `cargo xtask guard` does.

mod support;

#[test]
fn workspace_production_code_is_generic() {
    let root = support::workspace_root();
    let report = sightline_guard::scan_workspace(&root, &support::repo_list())
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(
        report.files_scanned > 0,
        "nothing scanned under {}",
        root.display()
    );
    assert!(
        !report.has_findings(),
        "production code is not generic (DESIGN.md section 3):\n{report}"
    );
}

#[test]
fn repository_ban_list_explains_every_group() {
    let list = support::repo_list();
    assert!(!list.literals.is_empty());
    for group in &list.groups {
        assert!(
            !group.why.trim().is_empty(),
            "group {} has no why",
            group.name
        );
        assert!(
            list.literals.iter().any(|l| l.group == group.name),
            "group {} is empty",
            group.name
        );
    }
}

/// Generic words the engine uses by design (DESIGN.md section 3 path roles and pipeline
/// vocabulary) must never be banned, or the guard would push people to misspell them.
#[test]
fn generic_engine_vocabulary_is_not_banned() {
    let list = support::repo_list();
    let generic = [
        "route",
        "component",
        "hook",
        "service",
        "api",
        "store",
        "type",
        "config",
        "test",
        "query",
        "file",
        "path",
        "symbol",
        "graph",
        "token",
        "handler",
        "report",
        "candidate",
        "model",
        "range",
        "intent",
        "explore",
        "grep",
        "middleware",
        "plugin",
        "export",
        "package.json",
        "tsconfig.json",
        "index.ts",
    ];
    for word in generic {
        let report = sightline_guard::scan_source("x.rs", &format!("let a = \"{word}\";"), &list);
        assert!(!report.has_findings(), "{word} is banned:\n{report}");
    }
}
