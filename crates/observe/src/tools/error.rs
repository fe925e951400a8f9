//! The error type shared by the exploration tools. Every variant names the input that
//! caused it, so a caller (often a model) can correct its call without guessing.

use crate::paths::PathError;

/// Why a tool call failed as a whole. Problems with individual files inside a search are
/// not errors; they are reported as diagnostics in the tool's result.
#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error(transparent)]
    Path(#[from] PathError),
    #[error("invalid regular expression `{pattern}`: {message}")]
    InvalidRegex { pattern: String, message: String },
    #[error("invalid glob `{glob}`: {message}")]
    InvalidGlob { glob: String, message: String },
    #[error("invalid argument `{name}` = {value}: {reason}")]
    InvalidArgument {
        name: &'static str,
        value: String,
        reason: String,
    },
    #[error("`{path}` is not a regular file")]
    NotAFile { path: String },
    #[error("`{path}` is not a directory")]
    NotADirectory { path: String },
    #[error("`{path}` is {size} bytes, over the {limit}-byte limit for this tool")]
    FileTooLarge { path: String, size: u64, limit: u64 },
    #[error("start_line {start_line} is past the end of `{path}`, which has {total_lines} lines")]
    StartPastEnd {
        path: String,
        start_line: u32,
        total_lines: u32,
    },
    #[error("start_line {start_line} is after end_line {end_line}")]
    StartAfterEnd { start_line: u32, end_line: u32 },
    #[error("cannot read `{path}`: {source}")]
    Io {
        path: String,
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
