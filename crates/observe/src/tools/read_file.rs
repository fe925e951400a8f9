//! `read_file`: a bounded window of one file's lines.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::error::ToolError;
use crate::paths::RepoRoot;

/// Lines returned by a read without `end_line` or `max_lines`: enough for a declaration
/// or two, small enough that a whole-file read cannot flood a model's context.
pub const DEFAULT_MAX_LINES: u32 = 200;
/// Largest accepted [`ReadFileArgs::max_lines`]; larger values are lowered to it. Also
/// the cap of a read with `end_line` and no `max_lines`.
pub const MAX_LINES_CAP: u32 = 1000;
/// Most bytes of text one read returns, whatever the line count (a minified line can be
/// a megabyte); the read ends at the last whole line within it.
pub const MAX_TEXT_BYTES: usize = 64 << 10;
/// Files larger than this are refused rather than loaded.
pub const MAX_FILE_BYTES: u64 = 16 << 20;

/// Arguments of [`run`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, schemars::JsonSchema)]
// The doc is for Rust callers; a model reads the tool's own description, not this one.
#[schemars(description = "")]
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
    /// Most lines to return: default 200 when `end_line` is absent, otherwise the
    /// requested range; at most 1000. Text is also capped at 64 KiB. A cut read says how
    /// many lines the file has and which `start_line` continues it.
    #[serde(default)]
    pub max_lines: Option<u32>,
}

impl ReadFileArgs {
    /// The whole file (up to the default line limit).
    pub fn new(path: impl Into<String>) -> ReadFileArgs {
        ReadFileArgs {
            path: path.into(),
            start_line: None,
            end_line: None,
            max_lines: None,
        }
    }
}

/// Result of [`run`].
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Default)]
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
    /// Lines within the requested range were left out because of the line or byte cap.
    pub truncated: bool,
    /// The only line returned was longer than 64 KiB and `text` holds its first 64 KiB.
    #[serde(default)]
    pub line_cut: bool,
    /// The lines `start_line..=end_line` exactly as stored, terminators included.
    pub text: String,
    /// The file is not valid UTF-8; `text` was decoded with replacement characters.
    pub invalid_utf8: bool,
}

impl ReadFileResult {
    /// A `path (lines 1-200 of 1,234)` header, then `N | line` for each line, then how
    /// to read on when the read was cut, for humans.
    pub fn render_text(&self) -> String {
        let mut out = format!("{} ({})\n", crate::escape::inline(&self.path), self.span());
        let width = self.end_line.max(1).to_string().len();
        for (number, line) in (self.start_line..).zip(self.text.lines()) {
            let _ = writeln!(out, "{number:>width$} | {line}");
        }
        if let Some(note) = self.continuation() {
            let _ = writeln!(out, "{note}");
        }
        if self.invalid_utf8 {
            out.push_str("(not valid UTF-8; shown with replacement characters)\n");
        }
        out
    }

    /// `lines 1-200 of 1,234` (`empty file` for none).
    pub fn span(&self) -> String {
        if self.total_lines == 0 {
            return "empty file".to_owned();
        }
        format!(
            "lines {}-{} of {}",
            self.start_line,
            self.end_line,
            thousands(self.total_lines)
        )
    }

    /// How to read on after a cut read; `None` when nothing was cut.
    pub fn continuation(&self) -> Option<String> {
        if self.line_cut {
            return Some(format!(
                "(line {} is over {} KiB and was cut; grep inside it instead{})",
                self.start_line,
                MAX_TEXT_BYTES >> 10,
                if self.end_line < self.total_lines {
                    format!(", or read on with start_line: {}", self.end_line + 1)
                } else {
                    String::new()
                }
            ));
        }
        self.truncated.then(|| {
            format!(
                "(cut: {} of {} lines remain after line {}; read on with start_line: {})",
                thousands(self.total_lines - self.end_line),
                thousands(self.total_lines),
                self.end_line,
                self.end_line + 1
            )
        })
    }
}

/// One source line as the agent-facing tools number it: `12 text`, without padding (as
/// `rg -n` prints it), and a blank line as its number alone. A read and a definition's body
/// print lines the same way.
pub fn write_numbered(out: &mut String, number: u32, line: &str) {
    let _ = match line.is_empty() {
        true => writeln!(out, "{number}"),
        false => writeln!(out, "{number} {line}"),
    };
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
            ..ReadFileResult::default()
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
    let by_lines = wanted_end.min(start.saturating_add(window.max_lines - 1));
    let from = starts[start as usize - 1];
    let line_end = |line: u32| starts.get(line as usize).copied().unwrap_or(bytes.len());
    // The byte cap: the last whole line that ends within it, or the first line cut.
    let end = (start..=by_lines)
        .take_while(|&line| line_end(line) - from <= MAX_TEXT_BYTES)
        .last();
    let (end, slice, line_cut) = match end {
        Some(end) => (end, &bytes[from..line_end(end)], false),
        None => (start, &bytes[from..from + MAX_TEXT_BYTES], true),
    };
    let (text, invalid_utf8) = match std::str::from_utf8(slice) {
        Ok(text) => (text.to_string(), false),
        // A cut may split a character; only the split is lost, not the whole text.
        Err(e) if line_cut && e.error_len().is_none() => (
            String::from_utf8_lossy(&slice[..e.valid_up_to()]).into_owned(),
            false,
        ),
        Err(_) => (String::from_utf8_lossy(slice).into_owned(), true),
    };
    Ok(ReadFileResult {
        path: rel,
        start_line: start,
        end_line: end,
        total_lines,
        truncated: end < wanted_end,
        line_cut,
        text,
        invalid_utf8,
    })
}

/// `1234567` as `1,234,567`.
fn thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The validated line window, before the file is known.
struct Window {
    start: u32,
    end: Option<u32>,
    max_lines: u32,
}

impl Window {
    fn validate(args: &ReadFileArgs) -> Result<Window, ToolError> {
        if args.max_lines == Some(0) {
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
            // A range asked for is returned whole up to the cap; an open-ended read gets
            // the smaller default.
            max_lines: args
                .max_lines
                .unwrap_or(if args.end_line.is_some() {
                    MAX_LINES_CAP
                } else {
                    DEFAULT_MAX_LINES
                })
                .min(MAX_LINES_CAP),
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
