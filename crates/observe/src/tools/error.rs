//! The error type shared by the exploration tools. Every variant names the input that
//! caused it, so a caller (often a model) can correct its call without guessing.

use crate::paths::PathError;

/// Why a tool call failed as a whole. Problems with individual files inside a search are
/// not errors; they are reported as diagnostics in the tool's result.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    /// A path argument was refused (absolute, `..`, outside the root, missing, …).
    #[error(transparent)]
    Path(#[from] PathError),
    /// A grep pattern did not compile; `message` is the regex engine's reason.
    #[error(
        "invalid regular expression `{pattern}`: {message} (to search the text as written, \
         leave `regex` out)"
    )]
    InvalidRegex {
        /// The pattern as given.
        pattern: String,
        /// The regex engine's reason.
        message: String,
    },
    /// A file glob did not parse; `message` is the glob parser's reason.
    #[error("invalid glob `{glob}`: {message}")]
    InvalidGlob {
        /// The glob as given.
        glob: String,
        /// The glob parser's reason.
        message: String,
    },
    /// An argument failed validation (an empty query, a cap out of range); `reason` says
    /// what is accepted.
    #[error("invalid argument `{name}` = {value}: {reason}")]
    InvalidArgument {
        /// The argument's name in the tool's schema.
        name: &'static str,
        /// The value given, rendered.
        value: String,
        /// Which values are accepted.
        reason: String,
    },
    /// `read_file` was given a directory or another non-regular file.
    #[error("`{path}` is not a regular file")]
    NotAFile {
        /// The repository-relative path given.
        path: String,
    },
    /// `list_files` was given a path that is not a directory.
    #[error("`{path}` is not a directory")]
    NotADirectory {
        /// The repository-relative path given.
        path: String,
    },
    /// `read_file`'s file exceeds its byte limit.
    #[error("`{path}` is {size} bytes, over the {limit}-byte limit for this tool")]
    FileTooLarge {
        /// The repository-relative path.
        path: String,
        /// The file's size in bytes.
        size: u64,
        /// The tool's limit in bytes.
        limit: u64,
    },
    /// A 1-based `start_line` beyond the file's last line.
    #[error("start_line {start_line} is past the end of `{path}`, which has {total_lines} lines")]
    StartPastEnd {
        /// The repository-relative path.
        path: String,
        /// The 1-based start line asked for.
        start_line: u32,
        /// The file's line count.
        total_lines: u32,
    },
    /// A line window whose start is after its end.
    #[error("start_line {start_line} is after end_line {end_line}")]
    StartAfterEnd {
        /// The 1-based start line asked for.
        start_line: u32,
        /// The 1-based end line asked for.
        end_line: u32,
    },
    /// The operating system refused to read a file that did resolve inside the root.
    #[error("cannot read `{path}`: {source}")]
    Io {
        /// The repository-relative path.
        path: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
}

impl ToolError {
    /// Shorthand for an argument that failed validation.
    pub(crate) fn invalid_argument(
        name: &'static str,
        value: impl ToString,
        reason: impl Into<String>,
    ) -> ToolError {
        ToolError::InvalidArgument {
            name,
            value: value.to_string(),
            reason: reason.into(),
        }
    }
}
