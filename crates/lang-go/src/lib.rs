//! Go for Sightline: `.go` sources (one grammar), imports resolved to packages through
//! the repository's `go.mod` and `go.work` files (see [`GoConfig`]), a directory is a
//! package whose files see each other, the toolchain's conventions for tests
//! (`_test.go`), generated files (`// Code generated … DO NOT EDIT.`), vendored
//! dependencies (`vendor/` beside a `go.mod`) and test data (`testdata/`).
//!
//! How the language maps onto the shared facts is described in the extractor (`syntax`):
//! methods are attached to their receiver's type, struct fields and interface methods are
//! members, embedding is an `extends` heritage clause, capitalised names are exported, an
//! import binds the package's name as a namespace.

mod modfile;
mod resolve;
mod syntax;

pub use resolve::GoConfig;

use sightline_lang::{
    ConfigInput, Dialect, FileFacts, Language, LanguageConfig, Resolution, ResolveCx,
};

/// Go (`.go`): facts, package resolution through `go.mod`/`go.work`, same-package
/// visibility, the toolchain's file and directory conventions.
pub struct Go;

impl Language for Go {
    fn name(&self) -> &'static str {
        "go"
    }

    fn facts_version(&self) -> u32 {
        3
    }

    fn dialect(&self, file_name: &str) -> Option<Dialect> {
        (file_name.rsplit_once('.')?.1 == "go").then_some(0)
    }

    /// A module's `go.mod` and a workspace's `go.work`.
    fn is_manifest(&self, name: &str) -> bool {
        name == resolve::GO_MOD || name == resolve::GO_WORK
    }

    fn project_name(&self, file_name: &str, text: &str) -> Option<String> {
        match file_name == resolve::GO_MOD {
            true => modfile::parse(text).module,
            false => None,
        }
    }

    fn extract(&self, _dialect: Dialect, text: &str) -> FileFacts {
        syntax::extract_file(text)
    }

    fn grammar(&self, _dialect: Dialect) -> Option<tree_sitter::Language> {
        Some(syntax::language())
    }

    fn configure(&self, input: &ConfigInput<'_>) -> Box<dyn LanguageConfig> {
        Box::new(GoConfig::new(input.manifests, input.read))
    }

    /// An import path means the same package wherever it is written, so every file
    /// shares one resolution per path.
    fn import_scope<'p>(&self, _importer: &'p str) -> &'p str {
        ""
    }

    fn resolve(&self, cx: &ResolveCx<'_>, _scope: &str, specifier: &str) -> Resolution {
        match cx.config::<GoConfig>() {
            Some(config) => config.resolve_in(cx.files(), specifier),
            None => GoConfig::default().resolve_in(cx.files(), specifier),
        }
    }

    /// A directory is a package: its files see each other's top-level names.
    fn package_scope(&self, path: &str) -> Option<String> {
        Some(sightline_lang::path::parent(path).to_owned())
    }

    /// The toolchain's test files (names ending in `_test.go`), and the files of a
    /// test-helper package: one named `…test` after the package it helps test, the
    /// standard library's convention (`httptest`, `iotest`, `fstest`), or `test…`
    /// (`testutil`, `testing`).
    fn is_test_file(&self, path: &str) -> bool {
        let package = sightline_lang::path::file_name(sightline_lang::path::parent(path));
        is_test_name(sightline_lang::path::file_name(path)) || is_test_helper_package(package)
    }

    /// The toolchain's marker (a `// Code generated … DO NOT EDIT.` line before the
    /// package clause, wherever the comments above it end), or the common header check.
    fn is_generated(&self, text: &str) -> bool {
        has_go_generated_marker(text) || sightline_lang::conventions::has_generated_header(text)
    }

    /// The go tool skips directories named `testdata` wherever they are: test inputs,
    /// often Go files that are never built.
    fn is_ignored_dir(&self, name: &str) -> bool {
        name == "testdata"
    }

    /// `go mod vendor` copies a module's dependencies into `vendor/` beside its `go.mod`.
    fn is_build_output_dir(&self, name: &str) -> bool {
        name == "vendor"
    }

    fn packaging_manifests(&self) -> &'static [&'static str] {
        &[resolve::GO_MOD]
    }
}

/// Whether a file name is a Go test file (`_test.go`).
pub(crate) fn is_test_name(file_name: &str) -> bool {
    file_name.ends_with("_test.go")
}

/// Whether a package (directory) name is a test helper's by the naming convention of Go's
/// standard library (`httptest`) and common practice (`testutil`): `test` before or after
/// a name of at least two more characters.
fn is_test_helper_package(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    let named = |rest: &str| rest.len() >= 2 && rest.bytes().all(|b| b.is_ascii_alphanumeric());
    lower.strip_suffix("test").is_some_and(named) || lower.strip_prefix("test").is_some_and(named)
}

/// Bytes of a file's head searched for the generated-code marker: the comments before a
/// package clause are a license and a doc comment, never this long in practice.
const MARKER_SCAN_BYTES: usize = 16 * 1024;

/// Whether a line of comments before the package clause reads `// Code generated … DO NOT
/// EDIT.` (the toolchain's convention, `go help generate`).
fn has_go_generated_marker(text: &str) -> bool {
    let mut scanned = 0;
    let mut in_block = false;
    for line in text.lines() {
        scanned += line.len() + 1;
        if scanned > MARKER_SCAN_BYTES {
            return false;
        }
        let line = line.trim_end_matches('\r');
        if line.starts_with("// Code generated ") && line.ends_with(" DO NOT EDIT.") {
            return true;
        }
        let trimmed = line.trim();
        if in_block {
            in_block = !trimmed.contains("*/");
            continue;
        }
        if trimmed.starts_with("/*") {
            in_block = !trimmed.contains("*/");
            continue;
        }
        if !(trimmed.is_empty() || trimmed.starts_with("//")) {
            // The package clause (or any code) ends the header.
            return false;
        }
    }
    false
}

/// The name an import of `import_path` binds when it gives none: the package name the
/// path implies, as Go's own tools guess it without reading the package (its last
/// element; the one before a major-version element such as `v2`; a `go-` prefix dropped;
/// cut at the first character that cannot be in an identifier, so `yaml.v3` is `yaml`).
pub fn assumed_package_name(import_path: &str) -> &str {
    let mut elements = import_path.rsplit('/');
    let mut base = elements.next().unwrap_or(import_path);
    let is_major_version = |s: &str| {
        s.strip_prefix('v')
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    if is_major_version(base)
        && let Some(previous) = elements.next()
    {
        base = previous;
    }
    let base = base.strip_prefix("go-").unwrap_or(base);
    let end = base
        .find(|c: char| !(c == '_' || c.is_alphanumeric()))
        .unwrap_or(base.len());
    &base[..end]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn go_files_and_manifests() {
        assert_eq!(Go.dialect("main.go"), Some(0));
        assert_eq!(Go.dialect("main_test.go"), Some(0));
        assert_eq!(Go.dialect("go.mod"), None);
        assert_eq!(Go.dialect("a.gox"), None);
        assert!(Go.is_manifest("go.mod") && Go.is_manifest("go.work"));
        assert!(!Go.is_manifest("go.sum"));
    }

    #[test]
    fn test_files_by_suffix() {
        assert!(Go.is_test_file("pkg/store_test.go"));
        assert!(!Go.is_test_file("pkg/contest.go"));
        assert!(!Go.is_test_file("pkg/test.go"));
        for helper in [
            "net/http/httptest/server.go",
            "internal/testutil/assert.go",
            "util/testing/t.go",
            "promtest/x.go",
        ] {
            assert!(Go.is_test_file(helper), "{helper}");
        }
        // A file's own name is not its package's; `test` alone is the cross-ecosystem
        // directory rule, applied to every language elsewhere.
        for source in [
            "x.go",
            "pkg/testing.go",
            "b/test-x/y.go",
            "test/x.go",
            "c/xtest/z.go",
        ] {
            assert!(!Go.is_test_file(source), "{source}");
        }
    }

    #[test]
    fn generated_marker_before_the_package_clause() {
        assert!(
            Go.is_generated("// Code generated by protoc-gen-go. DO NOT EDIT.\n\npackage pb\n")
        );
        let licensed = format!(
            "{}\n// Code generated by stringer -type=Kind; DO NOT EDIT.\n\npackage k\n",
            "// Licensed under the terms of a license.\n//\n".repeat(6)
        );
        assert!(Go.is_generated(&licensed));
        assert!(
            Go.is_generated(
                "/*\n license\n*/\n\n// Code generated by x. DO NOT EDIT.\npackage y\n"
            )
        );
        // After the package clause, or not in the toolchain's form: not the marker.
        assert!(!has_go_generated_marker(
            "package x\n\n// Code generated by x. DO NOT EDIT.\n"
        ));
        assert!(!has_go_generated_marker(
            "// Code generated by x.\npackage x\n"
        ));
        assert!(!Go.is_generated("package x\n\nfunc generated() {}\n"));
    }

    #[test]
    fn assumed_names_follow_the_toolchain() {
        assert_eq!(assumed_package_name("fmt"), "fmt");
        assert_eq!(assumed_package_name("net/http"), "http");
        assert_eq!(assumed_package_name("example.com/x/go-yaml"), "yaml");
        assert_eq!(assumed_package_name("gopkg.in/yaml.v3"), "yaml");
        assert_eq!(assumed_package_name("example.com/mod/v2"), "mod");
        assert_eq!(assumed_package_name("v2"), "v2");
        assert_eq!(assumed_package_name("example.com/a-b"), "a");
        assert_eq!(assumed_package_name(""), "");
    }

    #[test]
    fn vendor_is_output_beside_a_go_mod() {
        assert!(Go.is_build_output_dir("vendor"));
        assert_eq!(Go.packaging_manifests(), ["go.mod"]);
        assert!(!Go.is_dependency_dir("vendor"));
        assert!(Go.is_ignored_dir("testdata") && !Go.is_ignored_dir("data"));
    }
}
