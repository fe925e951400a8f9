//! The one error type of the crate. Findings are not errors: a scan that finds banned
//! literals succeeds and returns them in a `Report`. Errors are reasons the scan could not
//! be trusted at all (an unreadable file, a ban list that does not parse).

use std::path::PathBuf;

/// Why a scan could not be trusted at all.
#[derive(Debug, thiserror::Error)]
pub enum GuardError {
    /// A file or directory could not be read.
    #[error("cannot read {}: {source}", path.display())]
    Io {
        /// The file or directory.
        path: PathBuf,
        /// The underlying error.
        #[source]
        source: std::io::Error,
    },

    /// A ban list is not valid TOML or does not have the expected shape.
    #[error("{}:{line}: {message}", path.display())]
    BanListSyntax {
        /// The ban list file.
        path: PathBuf,
        /// 1-based line of the problem.
        line: usize,
        /// What is wrong.
        message: String,
    },

    /// A ban list parses but one of its entries cannot be used (empty, duplicated, ...).
    #[error("{}:{line}: {message}", path.display())]
    BanListEntry {
        /// The ban list file.
        path: PathBuf,
        /// 1-based line of the entry.
        line: usize,
        /// What is wrong with it.
        message: String,
    },

    /// The root does not look like the workspace: scanning it would silently pass.
    #[error("{} has no crates/*/src directories to scan", root.display())]
    NothingToScan {
        /// The root given.
        root: PathBuf,
    },
}
