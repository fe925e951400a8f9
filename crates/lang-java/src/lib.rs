//! Java for Sightline: `.java` sources, imports resolved against the source roots of
//! Maven and Gradle builds (see [`JavaConfig`]), the files of one package seeing each
//! other's types, Maven's and Gradle's test conventions, their output directories never
//! indexed.
//!
//! How the language maps onto the shared facts is described in the extractor (`syntax`):
//! types nest (`Outer.Inner`), `import a.b.C` names `C` and `import a.b.*` a package (a
//! glob import), a static import names a member of a type (`C.m`), `extends` and
//! `implements` are heritage, annotations are references, `this` is the self receiver.
//!
//! ```
//! use sightline_lang::{DeclKind, Language};
//! use sightline_lang_java::Java;
//!
//! let facts = Java.extract(0, "package a;\nimport b.C;\npublic class A extends C {\n  void run() {}\n}\n");
//! assert_eq!(facts.decls[1].qualified, "A.run");
//! assert_eq!(facts.decls[0].kind, DeclKind::Class);
//! assert_eq!(facts.imports[0].specifier, "b.C");
//! assert!(Java.is_test_file("core/src/test/java/a/AHelper.java"));
//! ```

mod config;
mod layout;
mod manifest;
mod resolve;
mod syntax;

pub use config::JavaConfig;

use sightline_lang::{
    ConfigInput, Dialect, FileFacts, Language, LanguageConfig, Resolution, ResolveCx,
};

/// Java (`.java`): facts, packages and their source roots, build layouts.
pub struct Java;

impl Language for Java {
    fn name(&self) -> &'static str {
        "java"
    }

    fn facts_version(&self) -> u32 {
        4
    }

    fn dialect(&self, file_name: &str) -> Option<Dialect> {
        (file_name.rsplit_once('.')?.1 == "java").then_some(0)
    }

    /// Maven's `pom.xml` and Gradle's build and settings scripts (Groovy or Kotlin).
    fn is_manifest(&self, name: &str) -> bool {
        manifest::is_build_file(name)
    }

    fn project_name(&self, file_name: &str, text: &str) -> Option<String> {
        manifest::project_name(file_name, text)
    }

    fn extract(&self, _dialect: Dialect, text: &str) -> FileFacts {
        syntax::extract_file(text)
    }

    fn grammar(&self, _dialect: Dialect) -> Option<tree_sitter::Language> {
        Some(syntax::language())
    }

    /// Source roots follow a convention found in the paths (`src/<set>/java`), and
    /// packages are the directories below them, so the configuration reads the paths.
    fn configure_reads_sources(&self) -> bool {
        true
    }

    fn configure(&self, input: &ConfigInput<'_>) -> Box<dyn LanguageConfig> {
        Box::new(JavaConfig::new(input))
    }

    fn resolve(&self, cx: &ResolveCx<'_>, dir: &str, specifier: &str) -> Resolution {
        match cx.config::<JavaConfig>() {
            Some(config) => config.resolve_in(cx.files(), dir, specifier),
            None => JavaConfig::default().resolve_in(cx.files(), dir, specifier),
        }
    }

    fn is_self_receiver(&self, receiver: &str) -> bool {
        receiver == "this"
    }

    /// A string literal or text block: `String` is final.
    fn is_literal_receiver(&self, receiver: &str) -> bool {
        receiver.trim_start_matches('(').starts_with('"')
    }

    /// The extractor names every constructor [`syntax::CONSTRUCTOR`].
    fn is_constructor(&self, member: &str) -> bool {
        member == syntax::CONSTRUCTOR
    }

    /// A method calls its class's methods and reads its fields by their bare names.
    fn bare_names_reach_members(&self) -> bool {
        true
    }

    /// The package's directory below its source root, per module: the main and test
    /// source sets of one module share their packages (`src/main/java/a/b` and
    /// `src/test/java/a/b` are the package `a.b`); elsewhere a directory is a package.
    fn package_scope(&self, path: &str) -> Option<String> {
        Some(layout::package_key(path))
    }

    /// Test source sets (`src/test/`, `src/integrationTest/`, …) and the class names test
    /// runners pick up (`*Test`, `*Tests`, `*TestCase`, `Test*`, `*IT`, `*ITCase`).
    fn is_test_file(&self, path: &str) -> bool {
        layout::in_test_source_set(path)
            || layout::is_test_class_file(sightline_lang::path::file_name(path))
    }

    /// `package-info.java`: the package's documentation and annotations, declaring what
    /// the package's other files implement.
    fn is_declaration_only(&self, path: &str) -> bool {
        sightline_lang::path::file_name(path) == "package-info.java"
    }

    /// Gradle's per-project cache.
    fn is_dependency_dir(&self, name: &str) -> bool {
        name == ".gradle"
    }

    /// Maven's `target`, Gradle's `build` and the IDEs' `out`.
    fn is_build_output_dir(&self, name: &str) -> bool {
        matches!(name, "target" | "build" | "out")
    }

    fn packaging_manifests(&self) -> &'static [&'static str] {
        &[
            "pom.xml",
            "build.gradle",
            "build.gradle.kts",
            "settings.gradle",
            "settings.gradle.kts",
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn java_files_and_manifests() {
        assert_eq!(Java.dialect("A.java"), Some(0));
        assert_eq!(Java.dialect("A.jav"), None);
        assert_eq!(Java.dialect("java"), None);
        for name in [
            "pom.xml",
            "build.gradle",
            "settings.gradle.kts",
            "build.gradle.kts",
        ] {
            assert!(Java.is_manifest(name), "{name}");
        }
        assert!(!Java.is_manifest("gradle.properties"));
    }

    #[test]
    fn test_files_by_source_set_and_name() {
        assert!(Java.is_test_file("src/test/java/a/Helper.java"));
        assert!(Java.is_test_file("src/main/java/a/ParserTest.java"));
        assert!(!Java.is_test_file("src/main/java/a/Parser.java"));
        assert!(!Java.is_test_file("src/main/java/test/Parser.java"));
    }

    #[test]
    fn package_info_declares_what_the_package_implements() {
        assert!(Java.is_declaration_only("src/main/java/a/package-info.java"));
        assert!(!Java.is_declaration_only("src/main/java/a/Info.java"));
    }
}
