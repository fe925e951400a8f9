//! Shared test helpers: the fixture index and a parser for the tool results a model sees.
#![allow(dead_code)]

pub mod server;

use std::path::PathBuf;

use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::RegistryDatabase;

pub fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app")
}

pub fn open_fixture() -> Index<RegistryDatabase> {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    Index::open_with_db(RegistryDatabase::default(), &fixture(), &options).expect("index")
}

/// One `#### path:a-b [cN] - …` window of a tool result and the source lines under it.
#[derive(Debug, Clone)]
pub struct ShownWindow {
    pub path: String,
    pub id: String,
    pub lines: Vec<String>,
}

impl ShownWindow {
    /// A source line long enough to be a distinctive quote.
    pub fn quote(&self) -> String {
        self.lines
            .iter()
            .map(|l| l.trim())
            .find(|l| l.len() >= 20)
            .or_else(|| self.lines.first().map(|l| l.trim()))
            .unwrap_or_default()
            .to_owned()
    }
}

/// The windows of a tool result, in order; headers without an ID are skipped.
pub fn windows(text: &str) -> Vec<ShownWindow> {
    let mut out: Vec<ShownWindow> = Vec::new();
    let mut current: Option<ShownWindow> = None;
    for line in text.lines() {
        if let Some(header) = line.strip_prefix("#### ") {
            out.extend(current.take());
            let path = header.split(':').next().unwrap_or_default().to_owned();
            let id = header
                .split('[')
                .nth(1)
                .and_then(|r| r.split(']').next())
                .unwrap_or_default()
                .to_owned();
            if !id.is_empty() {
                current = Some(ShownWindow {
                    path,
                    id,
                    lines: Vec::new(),
                });
            }
            continue;
        }
        if let Some(w) = current.as_mut() {
            // Source lines are `{line:>4} {text}`.
            let trimmed = line.trim_start();
            let digits = trimmed.chars().take_while(char::is_ascii_digit).count();
            if digits > 0 && trimmed[digits..].starts_with(' ') {
                w.lines.push(trimmed[digits + 1..].to_owned());
            }
        }
    }
    out.extend(current);
    out
}
