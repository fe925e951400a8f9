//! Problems found while reading configuration files. They never stop resolution: the
//! offending file or field is ignored and the resolver carries on with what it has.

/// One problem in one configuration file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ResolveDiagnostic {
    /// Repo-relative path of the file the problem was found in.
    pub file: String,
    /// What went wrong.
    pub kind: DiagnosticKind,
}

/// What was wrong with a configuration file; `Display` gives the message, [`Self::reason`]
/// a stable name to count by.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DiagnosticKind {
    /// A configuration file in the index could not be read (e.g. removed since the walk).
    Unreadable,
    /// The file is not JSON (with comments and trailing commas allowed).
    MalformedJson {
        /// The parser's message.
        message: String,
    },
    /// A field had the wrong type or shape and was ignored.
    InvalidField {
        /// The field's name.
        field: String,
        /// What was expected.
        reason: String,
    },
    /// A relative `extends` names no file in the repository.
    ExtendsNotFound {
        /// The `extends` value as written.
        specifier: String,
    },
    /// `extends` names a package (e.g. a shared config in `node_modules`), which is not read.
    ExtendsPackageUnsupported {
        /// The `extends` value as written.
        specifier: String,
    },
    /// Following `extends` came back to a file already in the chain.
    ExtendsCycle {
        /// Repo-relative paths of the cycle in `extends` order, ending with the repeated file.
        chain: Vec<String>,
    },
    /// The `extends` chain exceeded the depth limit.
    ExtendsTooDeep {
        /// The maximum number of files followed.
        limit: usize,
    },
    /// Two package manifests declare the same name; the first in path order is kept.
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

impl std::fmt::Display for DiagnosticKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DiagnosticKind::Unreadable => write!(f, "file is listed but could not be read"),
            DiagnosticKind::MalformedJson { message } => write!(f, "malformed JSON: {message}"),
            DiagnosticKind::InvalidField { field, reason } => {
                write!(f, "field `{field}` ignored: {reason}")
            }
            DiagnosticKind::ExtendsNotFound { specifier } => {
                write!(f, "`extends` target `{specifier}` not found")
            }
            DiagnosticKind::ExtendsPackageUnsupported { specifier } => {
                write!(
                    f,
                    "`extends` of package `{specifier}` is not supported; ignored"
                )
            }
            DiagnosticKind::ExtendsCycle { chain } => {
                write!(f, "`extends` cycle: {}", chain.join(" -> "))
            }
            DiagnosticKind::ExtendsTooDeep { limit } => {
                write!(
                    f,
                    "`extends` chain deeper than {limit} files; the rest is ignored"
                )
            }
            DiagnosticKind::DuplicatePackageName { name, kept } => {
                write!(
                    f,
                    "package name `{name}` is also declared by `{kept}`, which wins"
                )
            }
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

    /// The problem as the pipeline counts and shows it.
    pub fn reported(&self) -> sightline_lang::ConfigDiagnostic {
        sightline_lang::ConfigDiagnostic {
            file: self.file.clone(),
            reason: self.kind.reason().to_owned(),
            message: self.kind.to_string(),
        }
    }
}
