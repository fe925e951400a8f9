//! Rust for Sightline: `.rs` sources, `Cargo.toml` packages and workspaces, the module
//! tree and `use` paths resolved to files, Cargo's test and output conventions.
//!
//! How the language maps onto the shared facts is described in the extractor (`syntax`):
//! items are declarations (an `impl` block attached to its type, so its methods are the
//! type's members, and a trait impl `implements` its trait), `use` trees and `mod`
//! declarations are imports (`pub use` re-exports), macro invocations are calls of the
//! macro's name (never expanded), `self` and `Self` are self receivers.
//!
//! Resolution (`resolve`) reads the packages of every `Cargo.toml` ([`CargoConfig`]):
//! `crate::`, `super::` and `self::` paths walk the importing file's module tree, other
//! workspace crates are reached by name (`-` read as `_`, renamed dependencies too) at
//! their library root, and a path resolves to the file of the deepest module it walks
//! through. A resolution depends on the importing file itself (`mod x;` is found beside
//! it), so its import scope is its path.
//!
//! ```
//! use sightline_lang::{Language, Resolution, ResolveCx};
//! use sightline_lang_rust::{CargoConfig, Rust};
//! use std::collections::BTreeSet;
//!
//! let manifest = "[package]\nname = \"shop-core\"\n";
//! let config = CargoConfig::new(&["Cargo.toml"], &|_| Some(manifest.to_owned()));
//! let files: BTreeSet<String> =
//!     ["src/lib.rs", "src/cart.rs", "src/bin/shop.rs"].iter().map(|s| s.to_string()).collect();
//! let cx = ResolveCx::new(&config, &files);
//! let scope = Rust.import_scope("src/bin/shop.rs");
//! assert_eq!(
//!     Rust.resolve(&cx, scope, "shop_core::cart::Cart"),
//!     Resolution::File("src/cart.rs".into())
//! );
//! ```

mod cargo;
mod layout;
mod resolve;
mod specifier;
mod syntax;

pub use cargo::{CargoConfig, Package};

use sightline_lang::{
    ConfigInput, Dialect, FileFacts, Language, LanguageConfig, Resolution, ResolveCx,
};

/// Rust (`.rs`): facts, Cargo packages, module-tree resolution, Cargo's layout.
pub struct Rust;

/// Directories of a package that hold test-like targets besides `tests/` (which every
/// language reads as tests already): benchmarks and examples.
const TARGET_DIRS: [&str; 2] = ["benches", "examples"];

impl Language for Rust {
    fn name(&self) -> &'static str {
        "rust"
    }

    fn facts_version(&self) -> u32 {
        2
    }

    fn dialect(&self, file_name: &str) -> Option<Dialect> {
        (file_name.rsplit_once('.')?.1 == "rs").then_some(0)
    }

    fn is_manifest(&self, file_name: &str) -> bool {
        file_name == cargo::MANIFEST
    }

    fn project_name(&self, file_name: &str, text: &str) -> Option<String> {
        if file_name != cargo::MANIFEST {
            return None;
        }
        let manifest: toml::Table = toml::from_str(text).ok()?;
        let name = manifest.get("package")?.get("name")?.as_str()?;
        Some(name.to_owned())
    }

    fn extract(&self, _dialect: Dialect, text: &str) -> FileFacts {
        syntax::extract_file(text)
    }

    fn grammar(&self, _dialect: Dialect) -> Option<tree_sitter::Language> {
        Some(syntax::language())
    }

    fn configure(&self, input: &ConfigInput<'_>) -> Box<dyn LanguageConfig> {
        Box::new(CargoConfig::new(input.manifests, input.read))
    }

    /// The importing file itself: `mod x;` and `super::` depend on which file of a
    /// directory declares them (`a.rs` and `a/mod.rs` differ).
    fn import_scope<'p>(&self, importer: &'p str) -> &'p str {
        importer
    }

    fn resolve(&self, cx: &ResolveCx<'_>, scope: &str, specifier: &str) -> Resolution {
        match cx.config::<CargoConfig>() {
            Some(config) => resolve::resolve(config, cx.files(), scope, specifier),
            None => resolve::resolve(&CargoConfig::default(), cx.files(), scope, specifier),
        }
    }

    /// A string, byte string, raw string or character literal, an array, a number. A
    /// method an extension trait of the repository adds to `str` is then not linked from a
    /// literal: rarer than `"4".parse()` meeting a `parse` the repository declares.
    fn is_literal_receiver(&self, receiver: &str) -> bool {
        sightline_lang::conventions::opens_literal(
            receiver,
            &['['],
            &["b", "c", "r", "br", "r#", "r##", "br#", "br##"],
        )
    }

    /// `self.method()` and `Self::function()`.
    fn is_self_receiver(&self, receiver: &str) -> bool {
        receiver == "self" || receiver == "Self"
    }

    /// Benchmarks and examples (Cargo's `benches/` and `examples/` targets), and the
    /// `tests.rs` file conventionally holding a module's `#[cfg(test)] mod tests;`.
    fn is_test_file(&self, path: &str) -> bool {
        let (dirs, file) = path.rsplit_once('/').unwrap_or(("", path));
        file == "tests.rs" || dirs.split('/').any(|d| TARGET_DIRS.contains(&d))
    }

    /// `mod.rs`: a directory is the module its `mod.rs` declares.
    fn is_directory_module_stem(&self, stem: &str) -> bool {
        stem == "mod"
    }

    /// Cargo's build directory, beside a `Cargo.toml`.
    fn is_build_output_dir(&self, dir_name: &str) -> bool {
        dir_name == "target"
    }

    fn packaging_manifests(&self) -> &'static [&'static str] {
        &[cargo::MANIFEST]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rust_sources_and_manifests_by_name() {
        assert_eq!(Rust.dialect("lib.rs"), Some(0));
        assert_eq!(Rust.dialect("lib.rsx"), None);
        assert_eq!(Rust.dialect("Cargo.toml"), None);
        assert!(Rust.is_manifest("Cargo.toml"));
        assert!(!Rust.is_manifest("Cargo.lock"));
    }

    #[test]
    fn cargo_test_targets_and_test_modules_are_tests() {
        for test in [
            "benches/search.rs",
            "crates/x/examples/demo.rs",
            "src/parser/tests.rs",
        ] {
            assert!(Rust.is_test_file(test), "{test}");
        }
        for source in ["src/testing.rs", "src/examples_of.rs", "src/bench.rs"] {
            assert!(!Rust.is_test_file(source), "{source}");
        }
    }
}
