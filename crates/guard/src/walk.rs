//! Which files are production sources.
//!
//! Production sources are `crates/*/src/**/*.rs` under the root. Not scanned:
//! - anything under a directory named `tests`, `benches`, `fixtures` or `testdata`;
//! - files named `tests.rs` (the file form of a `mod tests;`);
//! - the tail of a file from a `#[cfg(test)]` line that introduces a `mod` item to the
//!   end of the file. Unit tests conventionally sit at the end; cutting there is simple
//!   to explain, and a `#[cfg(test)]` on anything but a module does not cut.
//!
//! `xtask` is not under `crates/`, so it is never scanned.

use std::path::{Path, PathBuf};

use crate::error::GuardError;

const SKIPPED_DIRS: [&str; 4] = ["tests", "benches", "fixtures", "testdata"];
const SKIPPED_FILES: [&str; 1] = ["tests.rs"];

fn io_error(path: &Path) -> impl FnOnce(std::io::Error) -> GuardError + '_ {
    move |source| GuardError::Io {
        path: path.to_path_buf(),
        source,
    }
}

/// The `src` directories of the workspace's crates, sorted.
pub fn source_roots(root: &Path) -> Result<Vec<PathBuf>, GuardError> {
    let crates = root.join("crates");
    let mut roots = Vec::new();
    if !crates.is_dir() {
        return Ok(roots);
    }
    for entry in std::fs::read_dir(&crates).map_err(io_error(&crates))? {
        let src = entry.map_err(io_error(&crates))?.path().join("src");
        if src.is_dir() {
            roots.push(src);
        }
    }
    roots.sort();
    Ok(roots)
}

/// Every production `.rs` file below `dir`, sorted.
pub fn rust_files(dir: &Path) -> Result<Vec<PathBuf>, GuardError> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(current) = pending.pop() {
        for entry in std::fs::read_dir(&current).map_err(io_error(&current))? {
            let entry = entry.map_err(io_error(&current))?;
            let path = entry.path();
            let name = entry.file_name().to_string_lossy().into_owned();
            let file_type = entry.file_type().map_err(io_error(&path))?;
            if file_type.is_dir() {
                if !SKIPPED_DIRS.contains(&name.as_str()) {
                    pending.push(path);
                }
            } else if name.ends_with(".rs") && !SKIPPED_FILES.contains(&name.as_str()) {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// The part of a file that is scanned: everything before a trailing
/// `#[cfg(test)] mod ...` block.
pub fn production_part(text: &str) -> &str {
    let mut offset = 0;
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    for (i, line) in lines.iter().enumerate() {
        if line.trim() == "#[cfg(test)]" && introduces_module(&lines[i + 1..]) {
            return &text[..offset];
        }
        offset += line.len();
    }
    text
}

/// Whether the next item after some attribute lines is a `mod`.
fn introduces_module(rest: &[&str]) -> bool {
    rest.iter()
        .map(|l| l.trim())
        .find(|l| !l.is_empty() && !l.starts_with("#[") && !l.starts_with("//"))
        .is_some_and(|l| {
            l.split_whitespace()
                .find(|w| !w.starts_with("pub"))
                .is_some_and(|w| w == "mod")
        })
}

/// `path` relative to `root`, with `/` separators, for stable reports.
pub fn display_path(root: &Path, path: &Path) -> String {
    let relative = path.strip_prefix(root).unwrap_or(path);
    relative
        .components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}
