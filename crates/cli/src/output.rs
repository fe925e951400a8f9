//! Output shared by the commands that print a report.

use sightline_registry::Intent;
use sightline_validate::Validated;

/// clap value parser for `--intent`.
pub fn parse_intent(s: &str) -> Result<Intent, String> {
    s.parse()
}

/// What validation removed or lowered, one line each.
pub fn drop_lines(validated: &Validated) -> Vec<String> {
    validated
        .drops
        .iter()
        .map(|d| format!("{}: {}", d.what, d.reason))
        .collect()
}

/// Prints `json` pretty when asked, else the report text ending in one newline.
pub fn print_report(text: &str, json: Option<&impl serde::Serialize>) -> anyhow::Result<()> {
    match json {
        Some(value) => write_stdout(&(serde_json::to_string_pretty(value)? + "\n")),
        None if text.ends_with('\n') => write_stdout(text),
        None => write_stdout(&format!("{text}\n")),
    }
}

/// Writes to stdout; a reader that went away (`| head`) is not an error.
pub fn write_stdout(text: &str) -> anyhow::Result<()> {
    use std::io::Write as _;
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        other => Ok(other?),
    }
}
