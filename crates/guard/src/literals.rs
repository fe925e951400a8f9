//! Finding banned literals in one line of text.
//!
//! Word literals match a run of consecutive words of one token whose lowercase
//! concatenation equals the literal's key, optionally followed by a plural `s`/`es`
//! (`Widgets` is as much a leak as `Widget`). Because the run must start and end on word
//! boundaries, a literal never matches a longer, unrelated word that merely contains it.
//! Substring literals (file names such as `name.ext`) match anywhere, case-insensitively,
//! as long as no letter or digit touches either end.

use std::collections::HashMap;

use crate::banlist::{BanList, Pattern};
use crate::words::{tokens, words};

/// A banned literal seen in a line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineMatch {
    /// Index into `BanList::literals`.
    pub literal: usize,
    /// 1-based column (in characters) where the match starts.
    pub column: usize,
    /// The whole token (or path-like run) the match sits in, as written.
    pub matched: String,
}

/// Plural endings accepted after a word literal.
const PLURALS: [&str; 3] = ["", "s", "es"];

/// A ban list prepared for fast line scanning.
pub struct Matcher {
    by_key: HashMap<String, usize>,
    longest_key: usize,
    substrings: Vec<(usize, String)>,
}

impl Matcher {
    /// A matcher for every literal of `list`.
    pub fn new(list: &BanList) -> Self {
        let mut by_key = HashMap::new();
        let mut longest_key = 0;
        let mut substrings = Vec::new();
        for (index, literal) in list.literals.iter().enumerate() {
            match &literal.pattern {
                Pattern::Words(key) => {
                    for plural in PLURALS {
                        let form = format!("{key}{plural}");
                        longest_key = longest_key.max(form.len());
                        by_key.entry(form).or_insert(index);
                    }
                }
                Pattern::Substring(needle) => substrings.push((index, needle.clone())),
            }
        }
        Self {
            by_key,
            longest_key,
            substrings,
        }
    }

    /// Every banned literal in `line`, in column order, at most once per literal and
    /// starting column.
    pub fn scan_line(&self, line: &str) -> Vec<LineMatch> {
        let mut found = Vec::new();
        self.scan_words(line, &mut found);
        self.scan_substrings(line, &mut found);
        found.sort_by_key(|m| (m.column, m.literal));
        found.dedup_by_key(|m| (m.column, m.literal));
        found
    }

    fn scan_words(&self, line: &str, found: &mut Vec<LineMatch>) {
        for token_range in tokens(line) {
            let token = &line[token_range.clone()];
            let spans = words(token);
            let parts: Vec<String> = spans
                .iter()
                .map(|r| token[r.clone()].to_lowercase())
                .collect();
            for i in 0..parts.len() {
                let mut key = String::new();
                for part in &parts[i..] {
                    key.push_str(part);
                    if key.len() > self.longest_key {
                        break;
                    }
                    if let Some(&literal) = self.by_key.get(&key) {
                        found.push(LineMatch {
                            literal,
                            column: column_of(line, token_range.start + spans[i].start),
                            matched: token.to_string(),
                        });
                    }
                }
            }
        }
    }

    fn scan_substrings(&self, line: &str, found: &mut Vec<LineMatch>) {
        if self.substrings.is_empty() {
            return;
        }
        // ASCII lowering keeps byte offsets identical to the original line.
        let lower = line.to_ascii_lowercase();
        for (literal, needle) in &self.substrings {
            for (at, _) in lower.match_indices(needle.as_str()) {
                let end = at + needle.len();
                let before = lower[..at].chars().next_back();
                let after = lower[end..].chars().next();
                if before.is_some_and(char::is_alphanumeric)
                    || after.is_some_and(char::is_alphanumeric)
                {
                    continue;
                }
                found.push(LineMatch {
                    literal: *literal,
                    column: column_of(line, at),
                    matched: path_run(line, at, end).to_string(),
                });
            }
        }
    }
}

/// 1-based character column of a byte offset.
fn column_of(line: &str, byte: usize) -> usize {
    line[..byte].chars().count() + 1
}

/// The path-like run around a substring match: letters, digits and `._-/+@$`.
fn path_run(line: &str, start: usize, end: usize) -> &str {
    let in_path = |c: char| c.is_alphanumeric() || "._-/+@$".contains(c);
    let from = line[..start]
        .char_indices()
        .rev()
        .take_while(|&(_, c)| in_path(c))
        .last()
        .map_or(start, |(i, _)| i);
    let to = line[end..]
        .char_indices()
        .find(|&(_, c)| !in_path(c))
        .map_or(line.len(), |(i, _)| end + i);
    &line[from..to]
}
