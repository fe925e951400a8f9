//! Helpers shared by the integration tests.

// Each test binary compiles this module and uses only some of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use sightline_guard::{BanList, Finding, FindingKind, Report};

pub fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The repository's own ban list.
pub fn repo_list() -> BanList {
    let path = workspace_root().join(sightline_guard::BAN_LIST_FILE);
    BanList::load(&path).unwrap_or_else(|e| panic!("{e}"))
}

/// A small list for synthetic sources.
pub fn small_list() -> BanList {
    BanList::parse(
        r#"
[[group]]
name = "animals"
why = "synthetic products for tests"
literals = ["zebra", "blue-widget", "okapi"]

[[group]]
name = "magic-files"
why = "synthetic framework file names for tests"
literals = ["map.cfg", "+route.page"]
"#,
        Path::new("small.toml"),
    )
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The literals (as written in the list) banned on `line`.
pub fn literals_on(report: &Report, line: usize) -> Vec<String> {
    report
        .findings
        .iter()
        .filter(|f| f.line == line)
        .filter_map(|f| match &f.kind {
            FindingKind::BannedLiteral { literal, .. } => Some(literal.clone()),
            _ => None,
        })
        .collect()
}

pub fn kinds(report: &Report) -> Vec<&FindingKind> {
    report.findings.iter().map(|f: &Finding| &f.kind).collect()
}
