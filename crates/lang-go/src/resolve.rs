//! Go import resolution: which package (a directory of the repository) an import path
//! names.
//!
//! Every `go.mod` of the repository declares a module: its path is the import path of
//! the module's root directory, and `path/x/y` is the package in directory `x/y` below
//! it. The modules of one repository resolve each other's imports as a `go.work`
//! workspace would (a reader wants the code that is there, not a published version);
//! `replace` directives whose target is a directory (in a `go.mod` or a `go.work`) map a
//! module path to that directory. The longest matching path wins, a replacement over a
//! declared module of the same path (a `go.work`'s first), as the toolchain does. An
//! import path no module of the repository matches (the standard library, third-party
//! modules) is external; one that a module matches but whose directory holds no Go source
//! is unresolved.
//!
//! A resolution depends on the import path alone (not on the importing file), so the
//! pipeline resolves each import path once; which files a package holds is asked of the
//! file set's listing of its one directory.

use sightline_lang::path;
use sightline_lang::{ConfigDiagnostic, FileSet, LanguageConfig, Resolution};

use crate::modfile;

/// The file name of a module's manifest.
pub(crate) const GO_MOD: &str = "go.mod";
/// The file name of a workspace's manifest.
pub(crate) const GO_WORK: &str = "go.work";

/// The repository's Go modules and local replacements, read from its `go.mod` and
/// `go.work` files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GoConfig {
    /// (import path prefix, repo-relative directory), longest prefix first; among equal
    /// prefixes the one that takes precedence first.
    roots: Vec<(String, String)>,
    diagnostics: Vec<ConfigDiagnostic>,
}

impl LanguageConfig for GoConfig {
    fn diagnostics(&self) -> &[ConfigDiagnostic] {
        &self.diagnostics
    }
}

impl GoConfig {
    /// The configuration of a repository whose Go manifests are `manifests` (repo-relative,
    /// sorted), read through `read`.
    pub fn new(manifests: &[&str], read: &dyn Fn(&str) -> Option<String>) -> GoConfig {
        let mut config = GoConfig::default();
        let mut workspace_replaces = Vec::new();
        let mut module_replaces = Vec::new();
        let mut modules = Vec::new();
        let module_dirs: Vec<&str> = manifests
            .iter()
            .filter(|m| path::file_name(m) == GO_MOD)
            .map(|m| path::parent(m))
            .collect();
        for &manifest in manifests {
            let name = path::file_name(manifest);
            if name != GO_MOD && name != GO_WORK {
                continue;
            }
            let Some(text) = read(manifest) else {
                config.diagnose(manifest, "unreadable", "could not be read".to_owned());
                continue;
            };
            let parsed = modfile::parse(&text);
            for (line, problem) in &parsed.problems {
                config.diagnose(manifest, "malformed", format!("line {line}: {problem}"));
            }
            let dir = path::parent(manifest);
            for r in parsed.replaces.iter().filter(|r| r.local) {
                match local_dir(dir, &r.new) {
                    Some(target) if name == GO_WORK => {
                        workspace_replaces.push((r.old.clone(), target))
                    }
                    Some(target) => module_replaces.push((r.old.clone(), target)),
                    None => config.diagnose(
                        manifest,
                        "replace outside repository",
                        format!("`replace {} => {}` leaves the repository", r.old, r.new),
                    ),
                }
            }
            if name == GO_MOD {
                match parsed.module {
                    Some(module) => modules.push((module, dir.to_owned())),
                    None if parsed.problems.is_empty() => config.diagnose(
                        manifest,
                        "missing module",
                        "declares no `module` path".to_owned(),
                    ),
                    None => {}
                }
            }
            for used in &parsed.uses {
                let found = local_dir(dir, used).is_some_and(|d| module_dirs.contains(&d.as_str()));
                if !found {
                    config.diagnose(
                        manifest,
                        "use without module",
                        format!("`use {used}` names no directory holding a go.mod"),
                    );
                }
            }
        }
        let mut roots = workspace_replaces;
        roots.extend(module_replaces);
        roots.extend(modules);
        // Stable: among equal prefixes, the order above (workspace, module, declared).
        roots.sort_by_key(|root| std::cmp::Reverse(root.0.len()));
        let mut seen = std::collections::HashSet::new();
        roots.retain(|(prefix, _)| seen.insert(prefix.clone()));
        config.roots = roots;
        config
    }

    fn diagnose(&mut self, file: &str, reason: &str, message: String) {
        self.diagnostics.push(ConfigDiagnostic {
            file: file.to_owned(),
            reason: reason.to_owned(),
            message,
        });
    }

    /// The module paths (and replaced paths) the repository holds, with their
    /// directories, in the order they are tried.
    pub fn roots(&self) -> &[(String, String)] {
        &self.roots
    }

    /// Resolves the import path `specifier`, asking `files` which Go files the package's
    /// directory holds.
    pub fn resolve_in(&self, files: &dyn FileSet, specifier: &str) -> Resolution {
        if !is_import_path(specifier) {
            return Resolution::Unresolved;
        }
        for (prefix, dir) in &self.roots {
            let rest = match specifier.strip_prefix(prefix.as_str()) {
                Some("") => "",
                Some(rest) => match rest.strip_prefix('/') {
                    Some(rest) => rest,
                    None => continue,
                },
                None => continue,
            };
            return path::join(dir, rest)
                .and_then(|target| package(files, &target))
                .unwrap_or(Resolution::Unresolved);
        }
        Resolution::External
    }
}

/// The package in `dir`: its Go sources, tests excluded (importing a package never
/// imports its tests); `None` when it has none.
fn package(files: &dyn FileSet, dir: &str) -> Option<Resolution> {
    let sources: Vec<String> = files
        .list(dir)
        .into_iter()
        .filter(|name| name.ends_with(".go") && !crate::is_test_name(name))
        .map(|name| match dir {
            "" => name,
            dir => format!("{dir}/{name}"),
        })
        .collect();
    (!sources.is_empty()).then(|| Resolution::Package {
        dir: dir.to_owned(),
        files: sources,
    })
}

/// A replacement directory `target` written in a manifest of directory `dir`, inside the
/// repository; `None` for an absolute path or one that climbs out.
fn local_dir(dir: &str, target: &str) -> Option<String> {
    if target.starts_with('/') {
        return None;
    }
    path::join(dir, target)
}

/// Whether `s` can be a module-mode import path: non-empty slash-separated elements, none
/// empty, `.` or `..`, no white space or backslash (relative imports are not allowed in
/// module mode).
fn is_import_path(s: &str) -> bool {
    !s.is_empty()
        && !s.contains(|c: char| c.is_whitespace() || c == '\\')
        && s.split('/').all(|e| !e.is_empty() && e != "." && e != "..")
}

#[cfg(test)]
mod tests {
    use std::collections::{BTreeMap, BTreeSet};

    use super::*;

    fn config(manifests: &[(&str, &str)]) -> GoConfig {
        let texts: BTreeMap<&str, &str> = manifests.iter().copied().collect();
        let paths: Vec<&str> = texts.keys().copied().collect();
        GoConfig::new(&paths, &|p| texts.get(p).map(|t| t.to_string()))
    }

    fn files(paths: &[&str]) -> BTreeSet<String> {
        paths.iter().map(|p| p.to_string()).collect()
    }

    fn package_files(r: &Resolution) -> Vec<&str> {
        r.files().iter().map(String::as_str).collect()
    }

    #[test]
    fn a_module_path_maps_to_directories() {
        let c = config(&[("go.mod", "module example.com/app\n")]);
        let fs = files(&[
            "main.go",
            "internal/store/store.go",
            "internal/store/store_test.go",
            "internal/store/sql.go",
            "internal/store/README.md",
        ]);
        let r = c.resolve_in(&fs, "example.com/app/internal/store");
        assert_eq!(
            package_files(&r),
            ["internal/store/sql.go", "internal/store/store.go"]
        );
        assert!(matches!(&r, Resolution::Package { dir, .. } if dir == "internal/store"));
        assert_eq!(
            package_files(&c.resolve_in(&fs, "example.com/app")),
            ["main.go"]
        );
        assert_eq!(
            c.resolve_in(&fs, "example.com/app/missing"),
            Resolution::Unresolved
        );
        assert_eq!(
            c.resolve_in(&fs, "example.com/application"),
            Resolution::External
        );
        assert_eq!(c.resolve_in(&fs, "fmt"), Resolution::External);
        assert_eq!(c.resolve_in(&fs, "net/http"), Resolution::External);
        assert_eq!(c.resolve_in(&fs, "./store"), Resolution::Unresolved);
    }

    #[test]
    fn nested_modules_own_their_subtrees() {
        let c = config(&[
            ("go.mod", "module example.com/m\n"),
            ("tools/go.mod", "module example.com/m/tools\n"),
        ]);
        let fs = files(&["tools/gen/gen.go", "tools/gen.go", "lib/lib.go"]);
        assert_eq!(
            package_files(&c.resolve_in(&fs, "example.com/m/tools/gen")),
            ["tools/gen/gen.go"]
        );
        assert_eq!(
            package_files(&c.resolve_in(&fs, "example.com/m/lib")),
            ["lib/lib.go"]
        );
    }

    #[test]
    fn local_replacements_and_workspaces() {
        let c = config(&[
            (
                "app/go.mod",
                "module example.com/app\nreplace example.com/lib => ../lib\nreplace example.com/up => ../../out\n",
            ),
            ("lib/go.mod", "module example.com/lib\n"),
            ("forks/lib/x.go", ""),
            (
                "go.work",
                "go 1.22\nuse ./app\nuse ./lib\nuse ./gone\nreplace example.com/lib => ./forks/lib\n",
            ),
        ]);
        let fs = files(&["app/main.go", "lib/lib.go", "forks/lib/lib.go"]);
        // The workspace's replacement wins over the module's and over the declaration.
        assert_eq!(
            package_files(&c.resolve_in(&fs, "example.com/lib")),
            ["forks/lib/lib.go"]
        );
        let reasons: Vec<&str> = c.diagnostics().iter().map(|d| d.reason.as_str()).collect();
        assert_eq!(
            reasons,
            ["replace outside repository", "use without module"]
        );
    }

    #[test]
    fn a_module_replacement_reaches_a_directory_without_its_own_go_mod() {
        let c = config(&[(
            "go.mod",
            "module example.com/app\nreplace example.com/vendored/x v1.0.0 => ./third_party/x\n",
        )]);
        let fs = files(&["third_party/x/x.go", "third_party/x/sub/y.go"]);
        assert_eq!(
            package_files(&c.resolve_in(&fs, "example.com/vendored/x/sub")),
            ["third_party/x/sub/y.go"]
        );
    }

    #[test]
    fn manifests_that_say_nothing_are_diagnosed() {
        let c = config(&[("a/go.mod", "go 1.21\n"), ("b/go.mod", "module\n")]);
        let reasons: Vec<&str> = c.diagnostics().iter().map(|d| d.reason.as_str()).collect();
        assert_eq!(reasons, ["missing module", "malformed"]);
        assert!(c.roots().is_empty());
    }

    #[test]
    fn odd_import_paths_resolve_to_nothing() {
        let c = config(&[("go.mod", "module m\n")]);
        let fs = files(&["a/a.go"]);
        for bad in ["", "m/../a", "m//a", "m/a b", "/m/a", "m\\a"] {
            assert_eq!(c.resolve_in(&fs, bad), Resolution::Unresolved, "{bad:?}");
        }
        assert_eq!(package_files(&c.resolve_in(&fs, "m/a")), ["a/a.go"]);
    }
}
