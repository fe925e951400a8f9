//! The report format, pinned on a synthetic workspace that has one of everything.

mod support;

use std::fs;
use std::path::Path;

fn write(root: &Path, relative: &str, text: &str) {
    let path = root.join(relative);
    if let Some(parent) = path.parent() {
        fs::create_dir_all(parent).unwrap_or_else(|e| panic!("{e}"));
    }
    fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
}

const LIB: &str = r#"//! A crate that knows too much.

pub fn zebraApp() -> &'static str {
    "Blue-Widget loaded from conf/map.cfg"
}

// guard: allow(lexicon) reason: fixed order of the input columns
const COLUMNS: &[&str] = &["alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta"];

const WORDS: &[&str] = &["fix", "add", "remove", "update", "change", "make", "drop", "rename"];

pub fn score(query: &str) -> bool {
    let re = Regex::new("^(fix|add)").unwrap();
    re.is_match(query)
}

// guard: allow(literal)
pub fn okapi_zebras() {} // guard: allow(literal) reason: quoting an upstream name

// guard: allow(query-regex) reason: nothing below needs it

#[cfg(test)]
mod tests {
    const ZEBRA: &str = "zebra";
}
"#;

#[test]
fn report_format() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let root = dir.path();
    write(root, "crates/app/src/lib.rs", LIB);
    write(
        root,
        "crates/app/src/nested/deep.rs",
        "// served from +route.page\n",
    );
    // Not production code: never scanned.
    write(root, "crates/app/tests/it.rs", "const ZEBRA: u8 = 1;\n");
    write(
        root,
        "crates/app/src/fixtures/sample.rs",
        "const ZEBRA: u8 = 1;\n",
    );
    write(root, "crates/app/src/tests.rs", "const ZEBRA: u8 = 1;\n");
    write(root, "xtask/src/main.rs", "const ZEBRA: u8 = 1;\n");

    let report = sightline_guard::scan_workspace(root, &support::small_list())
        .unwrap_or_else(|e| panic!("{e}"));
    insta::assert_snapshot!(report.to_string());
}

#[test]
fn an_empty_root_is_an_error_not_a_pass() {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    let err = sightline_guard::scan_workspace(dir.path(), &support::small_list());
    assert!(matches!(
        err,
        Err(sightline_guard::GuardError::NothingToScan { .. })
    ));
}
