//! A language's configuration: what it reads of its manifests (and, if it needs them,
//! its source paths) once, for every resolution. The pipeline keeps it behind
//! `dyn LanguageConfig` and compares it by value, so a manifest edit that leaves the
//! configuration equal re-resolves nothing.

use std::any::Any;

/// What [`crate::Language::configure`] reads.
pub struct ConfigInput<'a> {
    /// This language's manifests (repo-relative paths), sorted.
    pub manifests: &'a [&'a str],
    /// This language's source paths, sorted, when it asks for them
    /// ([`crate::Language::configure_reads_sources`]); empty otherwise.
    pub sources: &'a [&'a str],
    /// The text of a manifest; `None` when it cannot be read or is not one of `manifests`.
    pub read: &'a dyn Fn(&str) -> Option<String>,
}

/// One problem met while reading configuration. It never stops resolution: the offending
/// file or field is ignored.
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct ConfigDiagnostic {
    /// Repo-relative path of the file the problem was found in.
    pub file: String,
    /// A short stable name of the problem, to count by (`malformed json`).
    pub reason: String,
    /// What went wrong, for people.
    pub message: String,
}

impl std::fmt::Display for ConfigDiagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.message)
    }
}

/// Equality across `dyn` values of one concrete type, for any `PartialEq` type.
pub trait DynEq {
    /// Whether `other` is a value of the same type, equal to this one.
    fn dyn_eq(&self, other: &dyn Any) -> bool;
}

impl<T: PartialEq + Any> DynEq for T {
    fn dyn_eq(&self, other: &dyn Any) -> bool {
        other.downcast_ref::<T>().is_some_and(|o| o == self)
    }
}

/// A language's parsed configuration. Implement it for a `PartialEq` type (equality is
/// what lets an unchanged configuration spare every resolution); the language reads it
/// back with [`crate::ResolveCx::config`].
pub trait LanguageConfig: Any + DynEq + std::fmt::Debug + Send + Sync {
    /// Problems met while reading the manifests.
    fn diagnostics(&self) -> &[ConfigDiagnostic] {
        &[]
    }
}

impl PartialEq for dyn LanguageConfig {
    fn eq(&self, other: &dyn LanguageConfig) -> bool {
        self.dyn_eq(other as &dyn Any)
    }
}

/// The configuration of a language that reads none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct NoConfig;

impl LanguageConfig for NoConfig {}
