//! Python for Sightline: `.py` sources and `.pyi` stubs (one grammar), imports resolved
//! against import roots (see [`PythonConfig`]), pytest's test-file conventions, virtual
//! environments and caches never indexed, `build`/`dist` next to packaging files skipped.
//!
//! How the language maps onto the shared facts is described in the extractor (`syntax`):
//! every module-level name is exported, `import a.b.c` binds a namespace, `from m import
//! x` also tries the submodule `m.x` (an `optional` import), a call of a capitalised name
//! is an instantiation, `self` and `cls` are self receivers.

mod packaging;
mod resolve;
mod syntax;

pub use resolve::PythonConfig;

use sightline_lang::{
    ConfigInput, Dialect, FileFacts, Language, LanguageConfig, Resolution, ResolveCx,
};

/// Python (`.py`, `.pyi`): facts, import resolution over import roots, packaging layout.
pub struct Python;

impl Language for Python {
    fn name(&self) -> &'static str {
        "python"
    }

    fn facts_version(&self) -> u32 {
        4
    }

    fn dialect(&self, file_name: &str) -> Option<Dialect> {
        matches!(file_name.rsplit_once('.')?.1, "py" | "pyi").then_some(0)
    }

    /// The packaging files that can declare package roots (read by [`PythonConfig`]).
    fn is_manifest(&self, name: &str) -> bool {
        name == "pyproject.toml" || name == "setup.cfg"
    }

    fn project_name(&self, file_name: &str, text: &str) -> Option<String> {
        packaging::project_name(file_name, text)
    }

    fn extract(&self, _dialect: Dialect, text: &str) -> FileFacts {
        syntax::extract_file(text)
    }

    fn grammar(&self, _dialect: Dialect) -> Option<tree_sitter::Language> {
        Some(syntax::language())
    }

    /// Import roots come from the packaging files and from where packages are (a
    /// directory with `__init__.py` whose parent has none), and which top-level names are
    /// the repository's own from the module paths.
    fn configure_reads_sources(&self) -> bool {
        true
    }

    fn configure(&self, input: &ConfigInput<'_>) -> Box<dyn LanguageConfig> {
        let mut paths: Vec<&str> = input.sources.to_vec();
        paths.extend_from_slice(input.manifests);
        paths.sort_unstable();
        Box::new(PythonConfig::new(&paths, input.read))
    }

    fn resolve(&self, cx: &ResolveCx<'_>, dir: &str, specifier: &str) -> Resolution {
        match cx.config::<PythonConfig>() {
            Some(config) => config.resolve_in(cx.files(), dir, specifier),
            None => PythonConfig::default().resolve_in(cx.files(), dir, specifier),
        }
    }

    /// The conventional names of a method's first parameter (PEP 8).
    fn is_self_receiver(&self, receiver: &str) -> bool {
        receiver == "self" || receiver == "cls"
    }

    /// A string (its prefixes in either case: `b", ".join`, `Rb'…'`), a list, a dict or a
    /// set display, a number: Python's own types, which no repository extends.
    fn is_literal_receiver(&self, receiver: &str) -> bool {
        sightline_lang::conventions::opens_literal(
            receiver,
            &['[', '{'],
            &["b", "r", "u", "f", "rb", "br", "fr", "rf"],
        )
    }

    /// `__init__` runs on `Type(...)`.
    fn is_constructor(&self, member: &str) -> bool {
        member == "__init__"
    }

    /// pytest's default discovery patterns (`test_*.py`, `*_test.py`) and its
    /// per-directory fixture module (`conftest.py`).
    fn is_test_file(&self, path: &str) -> bool {
        let file = sightline_lang::path::file_name(path).to_ascii_lowercase();
        let Some(stem) = file.strip_suffix(".py") else {
            return false;
        };
        stem.starts_with("test_") || stem.ends_with("_test") || stem == "conftest"
    }

    /// `.pyi` stubs.
    fn is_declaration_only(&self, path: &str) -> bool {
        path.to_ascii_lowercase().ends_with(".pyi")
    }

    /// Installed packages, bytecode caches, and the conventional names of virtual
    /// environments (others are found by their marker file).
    fn is_dependency_dir(&self, name: &str) -> bool {
        matches!(
            name,
            "site-packages" | "__pycache__" | "__pypackages__" | ".venv" | "venv" | ".tox"
        )
    }

    /// The file every virtual environment has at its root (PEP 405), whatever the
    /// directory is called.
    fn dependency_dir_markers(&self) -> &'static [&'static str] {
        &["pyvenv.cfg"]
    }

    /// Where setuptools and other build backends copy the sources they package.
    fn is_build_output_dir(&self, name: &str) -> bool {
        name == "build" || name == "dist"
    }

    fn packaging_manifests(&self) -> &'static [&'static str] {
        &["pyproject.toml", "setup.py", "setup.cfg"]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn python_test_files_follow_pytest_conventions() {
        for test in ["pkg/test_a.py", "pkg/a_test.py", "conftest.py"] {
            assert!(Python.is_test_file(test), "{test}");
        }
        for source in [
            "pkg/testing.py",
            "pkg/contest.py",
            "pkg/latest.py",
            "test_a.pyi",
        ] {
            assert!(!Python.is_test_file(source), "{source}");
        }
    }

    #[test]
    fn stubs_are_declaration_only() {
        assert!(Python.is_declaration_only("pkg/core.pyi"));
        assert!(!Python.is_declaration_only("pkg/core.py"));
    }
}
