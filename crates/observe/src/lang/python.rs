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
        matches!(ext, "py" | "pyi").then_some(Lang::Python)
    }

    fn is_manifest(&self, name: &str) -> bool {
        name == "pyproject.toml" || name == "setup.cfg"
    }

    fn is_dependency_dir(&self, name: &str) -> bool {
        matches!(
            name,
            "site-packages" | "__pycache__" | "__pypackages__" | ".venv" | "venv" | ".tox"
        )
    }

    fn is_build_output_dir(&self, name: &str) -> bool {
        name == "build" || name == "dist"
    }

    fn packaging_manifests(&self) -> &'static [&'static str] {
        &["pyproject.toml", "setup.py", "setup.cfg"]
    }

    fn is_test_file(&self, name: &str) -> bool {
        let Some(stem) = name.strip_suffix(".py") else {
            return false;
        };
        stem.starts_with("test_") || stem.ends_with("_test") || stem == "conftest"
    }

    fn extract_facts(&self, _lang: Lang, text: &str) -> FileFacts {
        crate::syntax::extract_python(text)
    }

    fn resolve(&self, resolver: &ModuleResolver, from_file: &str, specifier: &str) -> Resolution {
        resolver.python().resolve(from_file, specifier)
    }

    fn is_self_receiver(&self, receiver: &str) -> bool {
        receiver == "self" || receiver == "cls"
    }
}
