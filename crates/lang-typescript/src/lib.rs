//! TypeScript and JavaScript for Sightline: the TypeScript grammar for `.ts`, `.mts` and
//! `.cts`, the TSX grammar for `.tsx` and every JavaScript flavour (dialects 0 and 1),
//! Node/TypeScript module resolution over `package.json` and `tsconfig` files.
//!
//! How the language maps onto the shared facts: classes, interfaces, functions (and
//! functions bound to a `const`), methods (and methods of object literals bound to a
//! name, or held by no name inside a named declaration, which qualifies them), fields,
//! type aliases, enums and namespaces are declarations; `export` and
//! `export default` set `exported` and `default_export` (an anonymous default export is
//! named `default`, which is also the name a default import imports); JSX elements are
//! renders, `new` an instantiation; `import * as ns` binds a namespace; `export … from`
//! is a re-export; `this` is the self receiver.

mod resolve;
mod syntax;

pub use resolve::{DiagnosticKind, ResolveDiagnostic, Resolver, ScriptConfig};

use sightline_lang::{
    ConfigInput, Dialect, FileFacts, Language, LanguageConfig, Resolution, ResolveCx,
};

/// TypeScript and JavaScript (TSX grammar for `.tsx` and `.js*`): facts, `tsconfig` and
/// package resolution, `node_modules`-style dependency directories.
pub struct TypeScript;

/// The dialect of `.ts`, `.mts` and `.cts` files: the TypeScript grammar.
pub const TYPESCRIPT: Dialect = 0;
/// The dialect of `.tsx` and JavaScript files: the TSX grammar, which parses both.
pub const TSX: Dialect = 1;

impl Language for TypeScript {
    fn name(&self) -> &'static str {
        "typescript"
    }

    fn facts_version(&self) -> u32 {
        5
    }

    fn dialect(&self, file_name: &str) -> Option<Dialect> {
        match file_name.rsplit_once('.')?.1 {
            // guard: allow(lexicon) reason: file extensions of the language, not English words
            "ts" | "mts" | "cts" => Some(TYPESCRIPT),
            "tsx" | "js" | "jsx" | "mjs" | "cjs" => Some(TSX),
            _ => None,
        }
    }

    fn is_manifest(&self, name: &str) -> bool {
        name == "package.json"
            || ((name.starts_with("tsconfig") || name.starts_with("jsconfig"))
                && name.ends_with(".json"))
    }

    fn project_name(&self, file_name: &str, text: &str) -> Option<String> {
        if file_name != "package.json" {
            return None;
        }
        let manifest: serde_json::Value = serde_json::from_str(text).ok()?;
        manifest.get("name")?.as_str().map(str::to_owned)
    }

    fn extract(&self, dialect: Dialect, text: &str) -> FileFacts {
        syntax::extract(dialect == TYPESCRIPT, text)
    }

    fn grammar(&self, dialect: Dialect) -> Option<tree_sitter::Language> {
        Some(syntax::language(dialect == TYPESCRIPT))
    }

    fn configure(&self, input: &ConfigInput<'_>) -> Box<dyn LanguageConfig> {
        Box::new(ScriptConfig::new(input.manifests, input.read))
    }

    fn resolve(&self, cx: &ResolveCx<'_>, dir: &str, specifier: &str) -> Resolution {
        match cx.config::<ScriptConfig>() {
            Some(config) => Resolver::new(config, cx.files()).resolve(dir, specifier),
            None => Resolver::new(&ScriptConfig::default(), cx.files()).resolve(dir, specifier),
        }
    }

    fn is_self_receiver(&self, receiver: &str) -> bool {
        receiver == "this"
    }

    /// A string, a template without a tag, an array, a regular expression or a number
    /// (an object literal may declare the very method called on it, so it is not one).
    fn is_literal_receiver(&self, receiver: &str) -> bool {
        sightline_lang::conventions::opens_literal(receiver, &['[', '`', '/'], &[])
    }

    /// A class's `constructor` runs on `new Type(...)`.
    fn is_constructor(&self, member: &str) -> bool {
        member == "constructor"
    }

    fn default_export_name(&self) -> Option<&'static str> {
        Some(syntax::DEFAULT_NAME)
    }

    /// A stem ending in `_test` or `-test` (`parse_test.ts`, `parse-args-test.tsx`), the
    /// suffixes some JavaScript and TypeScript test runners use beside the `.test.` and
    /// `.spec.` infixes, which hold across ecosystems and are applied to every file.
    fn is_test_file(&self, path: &str) -> bool {
        let file = path.rsplit('/').next().unwrap_or(path).to_ascii_lowercase();
        let stem = file.split('.').next().unwrap_or(&file);
        stem.len() > "_test".len() && (stem.ends_with("_test") || stem.ends_with("-test"))
    }

    /// Type declaration files (`.d.ts`, `.d.mts`, `.d.cts`).
    fn is_declaration_only(&self, path: &str) -> bool {
        let lower = path.to_ascii_lowercase();
        lower.ends_with(".d.ts") || lower.ends_with(".d.mts") || lower.ends_with(".d.cts")
    }

    /// `index` files: a directory imports as its `index` module.
    fn is_directory_module_stem(&self, stem: &str) -> bool {
        stem == "index"
    }

    fn is_dependency_dir(&self, name: &str) -> bool {
        name == "node_modules" || name == "bower_components" || name == "jspm_packages"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dialects_by_extension() {
        assert_eq!(TypeScript.dialect("a.ts"), Some(TYPESCRIPT));
        assert_eq!(TypeScript.dialect("a.d.ts"), Some(TYPESCRIPT));
        assert_eq!(TypeScript.dialect("a.jsx"), Some(TSX));
        assert_eq!(TypeScript.dialect("a.json"), None);
        assert_eq!(TypeScript.dialect("Makefile"), None);
    }

    #[test]
    fn test_and_declaration_files() {
        for test in [
            "src/a_test.ts",
            "lib/parse-args-test.ts",
            "app/Form_Test.tsx",
            "b-test.mjs",
        ] {
            assert!(TypeScript.is_test_file(test), "{test}");
        }
        for source in [
            "src/latest.ts",
            "src/test.ts",
            "src/-test.ts",
            "src/attest.js",
            "src/test-utils.ts",
        ] {
            assert!(!TypeScript.is_test_file(source), "{source}");
        }
        assert!(TypeScript.is_declaration_only("types/index.d.ts"));
        assert!(!TypeScript.is_declaration_only("types/index.ts"));
    }
}
