//! Where an import leads ([`Resolution`]) and what a language's resolver may read
//! ([`ResolveCx`]: its configuration and the file set).
//!
//! The file set is asked only about the paths and directories a resolution probes, so
//! the pipeline can answer per directory and a resolution depends on the directories it
//! looked at, not on every path: a file added elsewhere re-resolves nothing.

use std::any::Any;
use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use crate::config::LanguageConfig;

/// Where an import specifier leads.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Resolution {
    /// A file of the index (repo-relative).
    File(String),
    /// A package: a directory whose files an import reaches together (a package of
    /// several files, or a module that is a directory without a file of its own). The
    /// import links to every file listed, and binds its namespace to all of them; a
    /// package with no file listed resolves without a node to point at.
    Package {
        /// The package's directory (repo-relative, "" for the root).
        dir: String,
        /// The files the import reaches, repo-relative, sorted.
        files: Vec<String>,
    },
    /// Something outside the repository (a third-party package, a scheme).
    External,
    /// Looked like it should be in the repository, but no indexed file matches.
    Unresolved,
}

impl Resolution {
    /// The files this resolution reaches: one for a file, every listed file of a package,
    /// none otherwise.
    pub fn files(&self) -> &[String] {
        match self {
            Resolution::File(f) => std::slice::from_ref(f),
            Resolution::Package { files, .. } => files,
            Resolution::External | Resolution::Unresolved => &[],
        }
    }

    /// Whether the import was found in the repository (a file or a package).
    pub fn is_resolved(&self) -> bool {
        matches!(self, Resolution::File(_) | Resolution::Package { .. })
    }
}

/// Which repo-relative files exist, as a resolution asks: a path at a time, or a
/// directory's listing (a package's files).
pub trait FileSet {
    /// Whether `path` (repo-relative) is an indexed file.
    fn contains(&self, path: &str) -> bool;

    /// The names of the indexed files directly in `dir` (repo-relative, "" for the root),
    /// sorted.
    fn list(&self, dir: &str) -> Vec<String>;
}

impl FileSet for BTreeSet<String> {
    fn contains(&self, path: &str) -> bool {
        BTreeSet::contains(self, path)
    }

    fn list(&self, dir: &str) -> Vec<String> {
        let prefix = match dir {
            "" => String::new(),
            d => format!("{d}/"),
        };
        self.range(prefix.clone()..)
            .take_while(|p| p.starts_with(&prefix))
            .filter_map(|p| {
                let rest = &p[prefix.len()..];
                (!rest.contains('/')).then(|| rest.to_owned())
            })
            .collect()
    }
}

/// What one resolution may read: its language's configuration and the file set.
pub struct ResolveCx<'a> {
    config: &'a dyn LanguageConfig,
    files: &'a dyn FileSet,
}

impl<'a> ResolveCx<'a> {
    /// A view over a configuration and a file set.
    pub fn new(config: &'a dyn LanguageConfig, files: &'a dyn FileSet) -> ResolveCx<'a> {
        ResolveCx { config, files }
    }

    /// The language's configuration as the concrete type its
    /// [`crate::Language::configure`] built; `None` for any other type.
    pub fn config<T: LanguageConfig>(&self) -> Option<&'a T> {
        (self.config as &dyn Any).downcast_ref::<T>()
    }

    /// The file set.
    pub fn files(&self) -> &'a dyn FileSet {
        self.files
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_listing_holds_the_files_directly_in_a_directory() {
        let set: BTreeSet<String> = ["a/x.go", "a/y.go", "a/b/z.go", "ab/w.go", "top.go"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        assert_eq!(set.list("a"), ["x.go", "y.go"]);
        assert_eq!(set.list(""), ["top.go"]);
        assert!(set.list("missing").is_empty());
    }
}
