//! Python module resolution: which indexed file an `import` names.
//!
//! Absolute imports are looked up under each import root in order, as the interpreter
//! walks `sys.path`:
//! 1. roots declared by packaging configuration (`pyproject.toml`, `setup.cfg`, see
//!    `packaging`): the `where`, `from` and package-dir entries of setuptools, poetry,
//!    hatch and flit;
//! 2. the parent of every topmost regular package (a directory with `__init__.py` whose
//!    parent has none) — this finds `src/` layouts and nested projects without any
//!    configuration;
//! 3. the repository root;
//! 4. the importing file's own directory (scripts and tests import their neighbours).
//!
//! A dotted name `a.b.c` under a root is the module `a/b/c.py` (or its `.pyi` stub), the
//! package `a/b/c/__init__.py`, or a namespace package — a directory of Python files with
//! no `__init__.py` (a [`Resolution::Package`] without files: resolved, no file to link). Relative imports climb one directory per
//! leading dot past the first. A name no root knows is an external package; one whose top
//! segment is in the repository but whose rest is not is unresolved.

use std::collections::{BTreeSet, HashSet};

use sightline_lang::path;
use sightline_lang::{ConfigDiagnostic, FileSet, Language, LanguageConfig, Resolution};

use crate::packaging::declared_roots;

/// Module suffixes in preference order: sources over stubs, modules over packages.
const MODULE_SUFFIXES: [&str; 4] = [".py", ".pyi", "/__init__.py", "/__init__.pyi"];

/// Resolves Python module names (`pkg.mod`, relative `.mod`) to repository files, trying
/// each import root in order; built from the workspace's file list. Which files exist is
/// asked of the resolution's [`FileSet`], so this layout stays equal when a Python file is
/// added to or removed from a directory that keeps a Python file (its directories, roots
/// and top-level names do not change), and the resolutions reading it are not redone.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PythonConfig {
    /// Every directory holding a Python file at any depth (so namespace packages too).
    dirs: HashSet<String>,
    /// Import roots in search order ("" is the repository root).
    roots: Vec<String>,
    /// Top-level module and package names importable from some root.
    top_names: HashSet<String>,
    /// Packaging files that could not be read.
    diagnostics: Vec<ConfigDiagnostic>,
}

impl LanguageConfig for PythonConfig {
    fn diagnostics(&self) -> &[ConfigDiagnostic] {
        &self.diagnostics
    }
}

impl PythonConfig {
    /// `files`: the repo-relative paths of Python sources and packaging files, sorted;
    /// `read`: a packaging file's text.
    pub fn new(files: &[&str], read: &dyn Fn(&str) -> Option<String>) -> PythonConfig {
        let mut r = PythonConfig::default();
        let mut python: HashSet<String> = HashSet::new();
        for &f in files {
            if f.ends_with(".py") || f.ends_with(".pyi") {
                python.insert(f.to_owned());
                let mut dir = path::parent(f);
                while !dir.is_empty() && r.dirs.insert(dir.to_owned()) {
                    dir = path::parent(dir);
                }
            }
        }
        if python.is_empty() {
            return r;
        }
        let mut roots: Vec<String> = Vec::new();
        for &f in files {
            let name = path::file_name(f);
            if crate::Python.is_manifest(name)
                && let Some(text) = read(f)
            {
                let (declared, problem) = declared_roots(name, &text);
                if let Some(message) = problem {
                    r.diagnostics.push(ConfigDiagnostic {
                        file: f.to_owned(),
                        reason: "malformed packaging file".to_owned(),
                        message,
                    });
                }
                for root in declared {
                    if let Some(joined) = path::join(path::parent(f), &root)
                        && r.dirs.contains(&joined)
                    {
                        roots.push(joined);
                    }
                }
            }
        }
        let mut topmost: BTreeSet<(usize, String)> = BTreeSet::new();
        for dir in &r.dirs {
            let parent = path::parent(dir);
            if is_package(&python, dir) && (parent.is_empty() || !is_package(&python, parent)) {
                topmost.insert((parent.matches('/').count(), parent.to_owned()));
            }
        }
        roots.extend(topmost.into_iter().map(|(_, d)| d));
        roots.push(String::new());
        let mut seen = HashSet::new();
        roots.retain(|root| seen.insert(root.clone()));
        for f in &python {
            for root in &roots {
                let rest = if root.is_empty() {
                    Some(f.as_str())
                } else {
                    f.strip_prefix(root.as_str())
                        .and_then(|rest| rest.strip_prefix('/'))
                };
                if let Some(rest) = rest {
                    let top = rest.split('/').next().unwrap_or(rest);
                    let top = top
                        .strip_suffix(".pyi")
                        .or_else(|| top.strip_suffix(".py"))
                        .unwrap_or(top);
                    r.top_names.insert(top.to_owned());
                }
            }
        }
        r.roots = roots;
        r
    }

    /// Import roots in search order ("" is the repository root).
    pub fn roots(&self) -> &[String] {
        &self.roots
    }

    /// Resolves `specifier` (`a.b`, `.a`, `..`, …) as written in a file of directory
    /// `dir`, asking `files` which candidate modules exist. A resolution depends on the
    /// importing file's directory alone, so the files of one directory share it.
    pub fn resolve_in(&self, files: &dyn FileSet, dir: &str, specifier: &str) -> Resolution {
        let dots = specifier.len() - specifier.trim_start_matches('.').len();
        let rest = &specifier[dots..];
        if !rest.is_empty() && !rest.split('.').all(is_identifier) {
            return Resolution::Unresolved;
        }
        if dots > 0 {
            let mut base = dir;
            for _ in 1..dots {
                if base.is_empty() {
                    return Resolution::Unresolved;
                }
                base = path::parent(base);
            }
            let found = if rest.is_empty() {
                self.package_at(files, base)
            } else {
                self.module_in(files, base, rest)
            };
            return found.unwrap_or(Resolution::Unresolved);
        }
        if rest.is_empty() {
            return Resolution::Unresolved;
        }
        let found = self
            .roots
            .iter()
            .find_map(|root| self.module_in(files, root, rest))
            .or_else(|| self.module_in(files, dir, rest));
        if let Some(found) = found {
            return found;
        }
        let top = rest.split('.').next().unwrap_or(rest);
        if self.top_names.contains(top) {
            Resolution::Unresolved
        } else {
            Resolution::External
        }
    }

    /// The package a directory is: its `__init__`, else a namespace package.
    fn package_at(&self, files: &dyn FileSet, dir: &str) -> Option<Resolution> {
        if !self.dirs.contains(dir) {
            // Holds no Python file (or is the root): no `__init__` and no namespace package.
            return None;
        }
        for init in ["__init__.py", "__init__.pyi"] {
            let candidate = format!("{dir}/{init}");
            if files.contains(&candidate) {
                return Some(Resolution::File(candidate));
            }
        }
        self.dirs.contains(dir).then(|| namespace_package(dir))
    }

    /// The module `dotted` under directory `base`.
    fn module_in(&self, files: &dyn FileSet, base: &str, dotted: &str) -> Option<Resolution> {
        let rel = dotted.replace('.', "/");
        let stem = path::join(base, &rel)?;
        for suffix in MODULE_SUFFIXES {
            // A directory that holds no Python file at any depth holds no candidate: not
            // asking the file set about it keeps the resolution from depending on it.
            let dir = match suffix.starts_with('/') {
                true => stem.as_str(),
                false => path::parent(&stem),
            };
            if !dir.is_empty() && !self.dirs.contains(dir) {
                continue;
            }
            let candidate = format!("{stem}{suffix}");
            if files.contains(&candidate) {
                return Some(Resolution::File(candidate));
            }
        }
        self.dirs.contains(&stem).then(|| namespace_package(&stem))
    }
}

/// A namespace package: a module that is a directory without a file of its own, so the
/// import resolves without a file to link to.
fn namespace_package(dir: &str) -> Resolution {
    Resolution::Package {
        dir: dir.to_owned(),
        files: Vec::new(),
    }
}

/// Whether `dir` holds an `__init__` module among `python` (every Python path).
fn is_package(python: &HashSet<String>, dir: &str) -> bool {
    python.contains(&format!("{dir}/__init__.py"))
        || python.contains(&format!("{dir}/__init__.pyi"))
}

fn is_identifier(segment: &str) -> bool {
    !segment.is_empty()
        && !segment.starts_with(|c: char| c.is_ascii_digit())
        && segment.chars().all(|c| c == '_' || c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn topmost_packages_make_roots_without_configuration() {
        let files = [
            "lib/core/__init__.py",
            "lib/core/a.py",
            "lib/core/inner/__init__.py",
            "lib/core/inner/b.py",
            "scripts/run.py",
        ];
        let r = PythonConfig::new(&files, &|_| None);
        let set: std::collections::BTreeSet<String> = files.iter().map(|f| f.to_string()).collect();
        assert_eq!(r.roots(), ["lib", ""]);
        assert_eq!(
            r.resolve_in(&set, "scripts", "core.inner.b"),
            Resolution::File("lib/core/inner/b.py".into())
        );
        // `import a.b.c` of a name only the repository root knows.
        assert_eq!(
            r.resolve_in(&set, "scripts", "lib.core"),
            Resolution::File("lib/core/__init__.py".into())
        );
        assert_eq!(
            r.resolve_in(&set, "scripts", "not-an.identifier"),
            Resolution::Unresolved
        );
    }
}
