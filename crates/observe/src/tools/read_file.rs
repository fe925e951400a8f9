//! `read_file`: a bounded window of one file's lines.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::error::ToolError;
use crate::paths::RepoRoot;

/// Default for [`ReadFileArgs::max_lines`].
pub const DEFAULT_MAX_LINES: u32 = 400;
/// Largest accepted [`ReadFileArgs::max_lines`]; larger values are lowered to it.
pub const MAX_LINES_CAP: u32 = 2000;
/// Files larger than this are refused rather than loaded.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Arguments of [`run`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, schemars::JsonSchema)]
pub struct ReadFileArgs {
    /// Repository-relative path of the file.
    pub path: String,
    /// First line to read, 1-based (default 1).
    #[serde(default)]
    pub start_line: Option<u32>,
    /// Last line to read, 1-based and inclusive (default: end of file). Values past the
    /// end of the file are clamped.
    #[serde(default)]
    pub end_line: Option<u32>,
    /// Most lines to return (default 400, at most 2000); `truncated` reports a cut.
    #[serde(default = "default_max_lines")]
    pub max_lines: u32,
}

fn default_max_lines() -> u32 {
    DEFAULT_MAX_LINES
}

impl ReadFileArgs {
    /// The whole file (up to the default line limit).
    pub fn new(path: impl Into<String>) -> ReadFileArgs {
        ReadFileArgs {
            path: path.into(),
            start_line: None,
            end_line: None,
            max_lines: DEFAULT_MAX_LINES,
        }
    }
}

/// Result of [`run`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct ReadFileResult {
    /// Canonical repository-relative path (symlinks inside the root resolved).
    pub path: String,
    /// First line returned, 1-based.
    pub start_line: u32,
    /// Last line returned, inclusive; `start_line - 1` when no line was returned (an
    /// empty file).
    pub end_line: u32,
    /// Number of lines in the file (a final line without a terminator counts).
    pub total_lines: u32,
    /// Lines within the requested range were left out because of `max_lines`.
    pub truncated: bool,
    /// The lines `start_line..=end_line` exactly as stored, terminators included.
    pub text: String,
    /// The file is not valid UTF-8; `text` was decoded with replacement characters.
    pub invalid_utf8: bool,
}

impl ReadFileResult {
    /// A `path:start-end` header, then `N | line` for each line, for humans.
    pub fn render_text(&self) -> String {
        let mut out = format!(
            "{}:{}-{} ({} lines total)\n",
            self.path, self.start_line, self.end_line, self.total_lines
        );
        let width = self.end_line.max(1).to_string().len();
        for (number, line) in (self.start_line..).zip(self.text.lines()) {
            let _ = writeln!(out, "{number:>width$} | {line}");
        }
        if self.truncated {
            out.push_str("(truncated; continue with a later start_line)\n");
        }
        if self.invalid_utf8 {
            out.push_str("(not valid UTF-8; shown with replacement characters)\n");
        }
        out
    }
}

/// Reads the requested window of `args.path`.
pub fn run(root: &RepoRoot, args: &ReadFileArgs) -> Result<ReadFileResult, ToolError> {
    let window = Window::validate(args)?;
    let file = root.resolve(&args.path)?;
    let rel = file.rel().to_string();
    let io_error = |source| ToolError::Io {
        path: rel.clone(),
        source,
    };

    let meta = std::fs::metadata(file.abs()).map_err(io_error)?;
    if !meta.is_file() {
        return Err(ToolError::NotAFile { path: rel });
    }
    if meta.len() > MAX_FILE_BYTES {
        return Err(ToolError::FileTooLarge {
            path: rel,
            size: meta.len(),
            limit: MAX_FILE_BYTES,
        });
    }
    let bytes = std::fs::read(file.abs()).map_err(io_error)?;

    let starts = line_starts(&bytes);
    // Bounded by the 16 MiB size limit, so the count fits.
    let total_lines = u32::try_from(starts.len()).unwrap_or(u32::MAX);
    let start = window.start;
    if total_lines == 0 && start == 1 {
        return Ok(ReadFileResult {
            path: rel,
            start_line: 1,
            end_line: 0,
            total_lines: 0,
            truncated: false,
            text: String::new(),
            invalid_utf8: false,
        });
    }
    if start > total_lines {
        return Err(ToolError::StartPastEnd {
            path: rel,
            start_line: start,
            total_lines,
        });
    }
    let wanted_end = window.end.unwrap_or(u32::MAX).min(total_lines);
    let end = wanted_end.min(start.saturating_add(window.max_lines - 1));

    let from = starts[start as usize - 1];
    let to = starts.get(end as usize).copied().unwrap_or(bytes.len());
    let slice = &bytes[from..to];
    let (text, invalid_utf8) = match std::str::from_utf8(slice) {
        Ok(text) => (text.to_string(), false),
        Err(_) => (String::from_utf8_lossy(slice).into_owned(), true),
    };
    Ok(ReadFileResult {
        path: rel,
        start_line: start,
        end_line: end,
        total_lines,
        truncated: end < wanted_end,
        text,
        invalid_utf8,
    })
}

/// The validated line window, before the file is known.
struct Window {
    start: u32,
    end: Option<u32>,
    max_lines: u32,
}

impl Window {
    fn validate(args: &ReadFileArgs) -> Result<Window, ToolError> {
        if args.max_lines == 0 {
            return Err(ToolError::invalid_argument(
                "max_lines",
                0,
                "must be at least 1",
            ));
        }
        if args.start_line == Some(0) {
            return Err(ToolError::invalid_argument(
                "start_line",
                0,
                "lines are numbered from 1",
            ));
        }
        if args.end_line == Some(0) {
            return Err(ToolError::invalid_argument(
                "end_line",
                0,
                "lines are numbered from 1",
            ));
        }
        let start = args.start_line.unwrap_or(1);
        if let Some(end) = args.end_line
            && start > end
        {
            return Err(ToolError::StartAfterEnd {
                start_line: start,
                end_line: end,
            });
        }
        Ok(Window {
            start,
            end: args.end_line,
            max_lines: args.max_lines.min(MAX_LINES_CAP),
        })
    }
}

/// Byte offset where each line starts. A trailing terminator does not open a new line,
/// and an empty file has none.
fn line_starts(bytes: &[u8]) -> Vec<usize> {
    let mut starts = Vec::new();
    if bytes.is_empty() {
        return starts;
    }
    starts.push(0);
    for (i, &b) in bytes.iter().enumerate() {
        if b == b'\n' && i + 1 < bytes.len() {
            starts.push(i + 1);
        }
    }
    starts
}
