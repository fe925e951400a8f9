//! Problems found while reading configuration files. They never stop resolution: the
//! offending file or field is ignored and the resolver carries on with what it has.

use serde::{Deserialize, Serialize};

/// One problem in one configuration file.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ResolveDiagnostic {
    /// Repo-relative path of the file the problem was found in.
    pub file: String,
    pub kind: DiagnosticKind,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, thiserror::Error)]
pub enum DiagnosticKind {
    #[error("file is listed but could not be read")]
    Unreadable,
    #[error("malformed JSON: {message}")]
    MalformedJson { message: String },
    #[error("field `{field}` ignored: {reason}")]
    InvalidField { field: String, reason: String },
    #[error("`extends` target `{specifier}` not found")]
    ExtendsNotFound { specifier: String },
    #[error("`extends` of package `{specifier}` is not supported; ignored")]
    ExtendsPackageUnsupported { specifier: String },
    #[error("`extends` cycle: {}", chain.join(" -> "))]
    ExtendsCycle { chain: Vec<String> },
    #[error("`extends` chain deeper than {limit} files; the rest is ignored")]
    ExtendsTooDeep { limit: usize },
    #[error("package name `{name}` is also declared by `{kept}`, which wins")]
    DuplicatePackageName { name: String, kept: String },
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
