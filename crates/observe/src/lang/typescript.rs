//! TypeScript and JavaScript: the TypeScript grammar for `.ts`, the TSX grammar for `.tsx`
//! and every JavaScript flavour, Node/TypeScript module resolution.

use super::Language;
use crate::facts::{FileFacts, Lang};
use crate::resolve::{Resolution, Resolver};

/// TypeScript and JavaScript (TSX grammar for `.tsx`/`.js*`): facts, `tsconfig`/package
/// resolution, `node_modules`-style dependency directories.
pub struct TypeScript;

impl Language for TypeScript {
    fn name(&self) -> &'static str {
        "TypeScript/JavaScript"
    }

    fn lang_for_extension(&self, ext: &str) -> Option<Lang> {
        match ext {
            // guard: allow(lexicon) reason: file extensions of the language, not English words
            "ts" | "mts" | "cts" => Some(Lang::TypeScript),
            "tsx" | "js" | "jsx" | "mjs" | "cjs" => Some(Lang::Tsx),
            _ => None,
        }
    }

    fn is_manifest(&self, name: &str) -> bool {
        name == "package.json"
            || ((name.starts_with("tsconfig") || name.starts_with("jsconfig"))
                && name.ends_with(".json"))
    }

    fn is_dependency_dir(&self, name: &str) -> bool {
        name == "node_modules" || name == "bower_components" || name == "jspm_packages"
    }

    fn extract_facts(&self, lang: Lang, text: &str) -> FileFacts {
        crate::syntax::extract_script(lang, text)
    }

    fn resolve(&self, resolver: &Resolver<'_>, from_file: &str, specifier: &str) -> Resolution {
        resolver.resolve_script(from_file, specifier)
    }

    fn is_self_receiver(&self, receiver: &str) -> bool {
        receiver == "this"
    }
}
