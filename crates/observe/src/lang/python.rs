//! Python: `.py` sources and `.pyi` stubs, imports resolved against package roots (see
//! `resolve::python`), pytest's test-file conventions, virtual environments and caches
//! never indexed.

use super::Language;
use crate::facts::{FileFacts, Lang};
use crate::resolve::{Resolution, Resolver};

/// Python (`.py`, `.pyi`): facts, import resolution over import roots, packaging layout.
pub struct Python;

impl Language for Python {
    fn name(&self) -> &'static str {
        "Python"
    }

    fn lang_for_extension(&self, ext: &str) -> Option<Lang> {
        matches!(ext, "py" | "pyi").then_some(Lang::Python)
    }

    /// The packaging files that can declare package roots (read by `resolve::python`).
    fn is_manifest(&self, name: &str) -> bool {
        name == "pyproject.toml" || name == "setup.cfg"
    }

    /// Installed packages, bytecode caches, and the conventional names of virtual
    /// environments (others are found by their `pyvenv.cfg`; see `walk`).
    fn is_dependency_dir(&self, name: &str) -> bool {
        matches!(
            name,
            "site-packages" | "__pycache__" | "__pypackages__" | ".venv" | "venv" | ".tox"
        )
    }

    /// Where setuptools and other build backends copy the sources they package.
    fn is_build_output_dir(&self, name: &str) -> bool {
        name == "build" || name == "dist"
    }

    fn packaging_manifests(&self) -> &'static [&'static str] {
        &["pyproject.toml", "setup.py", "setup.cfg"]
    }

    fn extract_facts(&self, _lang: Lang, text: &str) -> FileFacts {
        crate::syntax::extract_python(text)
    }

    fn resolve(&self, resolver: &Resolver<'_>, from_file: &str, specifier: &str) -> Resolution {
        resolver.python_import(crate::resolve::path::parent(from_file), specifier)
    }

    /// The conventional names of a method's first parameter (PEP 8).
    fn is_self_receiver(&self, receiver: &str) -> bool {
        receiver == "self" || receiver == "cls"
    }
}
