//! Problems found while reading configuration files. They never stop resolution: the
//! offending file or field is ignored and the resolver carries on with what it has.

use serde::{Deserialize, Serialize};

/// One problem in one configuration file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ResolveDiagnostic {
    /// Repo-relative path of the file the problem was found in.
    pub file: String,
    /// What went wrong.
    pub kind: DiagnosticKind,
}

/// What was wrong with a configuration file; `Display` gives the message, [`Self::reason`]
/// a stable name to count by.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
pub enum DiagnosticKind {
    /// A configuration file in the index could not be read (e.g. removed since the walk).
    #[error("file is listed but could not be read")]
    Unreadable,
    /// The file is not JSON (with comments and trailing commas allowed).
    #[error("malformed JSON: {message}")]
    MalformedJson {
        /// The parser's message.
        message: String,
    },
    /// A field had the wrong type or shape and was ignored.
    #[error("field `{field}` ignored: {reason}")]
    InvalidField {
        /// The field's name.
        field: String,
        /// What was expected.
        reason: String,
    },
    /// A relative `extends` names no file in the repository.
    #[error("`extends` target `{specifier}` not found")]
    ExtendsNotFound {
        /// The `extends` value as written.
        specifier: String,
    },
    /// `extends` names a package (e.g. a shared config in `node_modules`), which is not read.
    #[error("`extends` of package `{specifier}` is not supported; ignored")]
    ExtendsPackageUnsupported {
        /// The `extends` value as written.
        specifier: String,
    },
    /// Following `extends` came back to a file already in the chain.
    #[error("`extends` cycle: {}", chain.join(" -> "))]
    ExtendsCycle {
        /// Repo-relative paths of the cycle in `extends` order, ending with the repeated file.
        chain: Vec<String>,
    },
    /// The `extends` chain exceeded the depth limit.
    #[error("`extends` chain deeper than {limit} files; the rest is ignored")]
    ExtendsTooDeep {
        /// The maximum number of files followed.
        limit: usize,
    },
    /// Two package manifests declare the same name; the first in path order is kept.
    #[error("package name `{name}` is also declared by `{kept}`, which wins")]
    DuplicatePackageName {
        /// The package name declared twice.
        name: String,
        /// Repo-relative path of the manifest that keeps the name.
        kept: String,
    },
}

impl DiagnosticKind {
    /// A short stable name of the problem, for counts by reason.
    pub fn reason(&self) -> &'static str {
        match self {
            DiagnosticKind::Unreadable => "unreadable",
            DiagnosticKind::MalformedJson { .. } => "malformed json",
            DiagnosticKind::InvalidField { .. } => "invalid field",
            DiagnosticKind::ExtendsNotFound { .. } => "extends not found",
            DiagnosticKind::ExtendsPackageUnsupported { .. } => "extends package unsupported",
            DiagnosticKind::ExtendsCycle { .. } => "extends cycle",
            DiagnosticKind::ExtendsTooDeep { .. } => "extends too deep",
            DiagnosticKind::DuplicatePackageName { .. } => "duplicate package name",
        }
    }
}

impl std::fmt::Display for ResolveDiagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.file, self.kind)
    }
}

impl ResolveDiagnostic {
    pub(crate) fn new(file: &str, kind: DiagnosticKind) -> Self {
        Self {
            file: file.to_string(),
            kind,
        }
    }
}
