//! Module resolution outside salsa: every registered language's configuration and the
//! whole file set, built at once ([`ModuleResolver`]), for programs and tests without a
//! database and for [`crate::graph::Graph::build`]. The graph's queries resolve through
//! [`crate::db::import_resolution`] instead, which depends only on what it read.

use std::collections::BTreeSet;
use std::sync::Arc;

use sightline_lang::{ConfigInput, LanguageConfig, Languages, ResolveCx};

pub use sightline_lang::{ConfigDiagnostic, FileSet, Resolution};

/// Resolves import specifiers against an in-memory file set: every language's
/// configuration and every path, built at once.
#[derive(Clone)]
pub struct ModuleResolver {
    languages: Languages,
    /// Each registered language's configuration, by position.
    configs: Vec<Arc<dyn LanguageConfig>>,
    files: BTreeSet<String>,
}

impl ModuleResolver {
    /// The resolver of [`crate::LANGUAGES`] over `files` (every repo-relative path of the
    /// index, sources and manifests); `read` gives a manifest's text, `None` if unreadable.
    pub fn new(files: &[String], read: &dyn Fn(&str) -> Option<String>) -> ModuleResolver {
        ModuleResolver::with_languages(crate::LANGUAGES, files, read)
    }

    /// [`ModuleResolver::new`] for `languages`.
    pub fn with_languages(
        languages: Languages,
        files: &[String],
        read: &dyn Fn(&str) -> Option<String>,
    ) -> ModuleResolver {
        let sorted: BTreeSet<String> = files.iter().cloned().collect();
        let configs = languages
            .iter()
            .enumerate()
            .map(|(i, language)| {
                let of_language = |p: &&String| {
                    languages
                        .of_path(p)
                        .is_some_and(|id| usize::from(id.language) == i)
                };
                let manifests: Vec<&str> = sorted
                    .iter()
                    .filter(|p| language.is_manifest(sightline_lang::path::file_name(p)))
                    .map(String::as_str)
                    .collect();
                let sources: Vec<&str> = match language.configure_reads_sources() {
                    true => sorted
                        .iter()
                        .filter(of_language)
                        .map(String::as_str)
                        .collect(),
                    false => Vec::new(),
                };
                let input = ConfigInput {
                    manifests: &manifests,
                    sources: &sources,
                    read,
                };
                Arc::from(language.configure(&input))
            })
            .collect();
        ModuleResolver {
            languages,
            configs,
            files: sorted,
        }
    }

    /// The languages it resolves for.
    pub fn languages(&self) -> Languages {
        self.languages
    }

    /// Resolves `specifier` as written in `from_file` (repo-relative), by the rules of the
    /// importing file's language; unresolved for a file of no registered language.
    pub fn resolve(&self, from_file: &str, specifier: &str) -> Resolution {
        let Some(id) = self.languages.of_path(from_file) else {
            return Resolution::Unresolved;
        };
        let (Some(language), Some(config)) = (
            self.languages.of(id),
            self.configs.get(usize::from(id.language)),
        ) else {
            return Resolution::Unresolved;
        };
        let cx = ResolveCx::new(&**config, &self.files);
        language.resolve(&cx, language.import_scope(from_file), specifier)
    }

    /// The configuration of the language at position `language`.
    pub fn config(&self, language: u8) -> Option<&dyn LanguageConfig> {
        self.configs.get(usize::from(language)).map(|c| &**c)
    }

    /// Problems met while reading configuration, every language's, in registration order.
    pub fn diagnostics(&self) -> Vec<ConfigDiagnostic> {
        self.configs
            .iter()
            .flat_map(|c| c.diagnostics().iter().cloned())
            .collect()
    }
}

impl std::fmt::Debug for ModuleResolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ModuleResolver")
            .field("languages", &self.languages)
            .field("configs", &self.configs)
            .field("files", &self.files.len())
            .finish()
    }
}
