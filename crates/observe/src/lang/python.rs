//! Python: `.py` sources and `.pyi` stubs, imports resolved against package roots (see
//! `resolve::python`), pytest's test-file conventions, virtual environments and caches
//! never indexed.

use super::Language;
use crate::facts::{FileFacts, Lang};
use crate::resolve::{ModuleResolver, Resolution};

pub struct Python;

impl Language for Python {
    fn name(&self) -> &'static str {
        "Python"
    }

    fn lang_for_extension(&self, ext: &str) -> Option<Lang> {
        // guard: allow(lexicon) reason: file extensions of the language, not English words
        matches!(ext, "py" | "pyi").then_some(Lang::Python)
    }

    fn is_manifest(&self, name: &str) -> bool {
        // guard: allow(lexicon) reason: the packaging files that declare package roots
        name == "pyproject.toml" || name == "setup.cfg"
    }

    fn is_dependency_dir(&self, name: &str) -> bool {
        // guard: allow(lexicon) reason: installed-package and bytecode-cache directory names of the Python toolchain
        matches!(
            name,
            "site-packages" | "__pycache__" | "__pypackages__" | ".venv" | "venv" | ".tox"
        )
    }

    fn is_build_output_dir(&self, name: &str) -> bool {
        // guard: allow(lexicon) reason: the output directories of setuptools and other build backends
        name == "build" || name == "dist"
    }

    fn packaging_manifests(&self) -> &'static [&'static str] {
        // guard: allow(lexicon) reason: the packaging files of the Python toolchain
        &["pyproject.toml", "setup.py", "setup.cfg"]
    }

    fn is_test_file(&self, name: &str) -> bool {
        let Some(stem) = name.strip_suffix(".py") else {
            return false;
        };
        // guard: allow(lexicon) reason: pytest's default test discovery patterns
        stem.starts_with("test_") || stem.ends_with("_test") || stem == "conftest"
    }

    fn extract_facts(&self, _lang: Lang, text: &str) -> FileFacts {
        crate::syntax::extract_python(text)
    }

    fn resolve(&self, resolver: &ModuleResolver, from_file: &str, specifier: &str) -> Resolution {
        resolver.python().resolve(from_file, specifier)
    }

    fn is_self_receiver(&self, receiver: &str) -> bool {
        // guard: allow(lexicon) reason: Python's conventional first-parameter names
        receiver == "self" || receiver == "cls"
    }
}
