//! The ban list: groups of literals, each group with the reason it exists.
//!
//! File format (TOML):
//!
//! ```toml
//! [[group]]
//! name = "example-group"
//! why = "one sentence on why these words would be overfitting"
//! literals = ["first", "second-word", "file.name"]
//! ```
//!
//! Several files can be merged (the repository's list plus an extra, private one). Every
//! error names the file and line, so a typo in a list is fixed in seconds.

use std::ops::Range;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use toml::Spanned;

use crate::error::GuardError;
use crate::words::compact_key;

/// How a literal is matched.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Pattern {
    /// Letters, digits, `_`, `-` and spaces only: matched against runs of whole words of
    /// an identifier or string, by their lowercase concatenation (this key).
    Words(String),
    /// Anything with other punctuation (`name.ext`, `dir/name`): matched as a
    /// case-insensitive substring not touching another letter or digit (this lowercase
    /// needle).
    Substring(String),
}

/// One banned literal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Literal {
    /// As written in the list.
    pub text: String,
    /// Name of the group it belongs to.
    pub group: String,
    /// How the literal is matched against source text.
    pub pattern: Pattern,
}

/// One group of a ban list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Group {
    /// The group's name in the list (`[group.name]`).
    pub name: String,
    /// Why the group's literals are banned, as the list says.
    pub why: String,
}

/// All literals of one or more ban lists.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct BanList {
    /// Every group, in list order.
    pub groups: Vec<Group>,
    /// Every literal of every group, in list order.
    pub literals: Vec<Literal>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFile {
    #[serde(default)]
    group: Vec<RawGroup>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawGroup {
    name: Spanned<String>,
    why: Spanned<String>,
    literals: Vec<Spanned<String>>,
}

impl BanList {
    /// Reads and parses one ban list file.
    pub fn load(path: &Path) -> Result<Self, GuardError> {
        let text = std::fs::read_to_string(path).map_err(|source| GuardError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&text, path)
    }

    /// Parses ban list text; `origin` is only used to name the file in errors.
    pub fn parse(text: &str, origin: &Path) -> Result<Self, GuardError> {
        let raw: RawFile = toml::from_str(text).map_err(|e| GuardError::BanListSyntax {
            path: origin.to_path_buf(),
            line: e.span().map_or(1, |s| line_of(text, s.start)),
            message: e.message().trim().to_string(),
        })?;
        let entry_error = |span: Range<usize>, message: String| GuardError::BanListEntry {
            path: origin.to_path_buf(),
            line: line_of(text, span.start),
            message,
        };

        let mut list = BanList::default();
        for group in raw.group {
            let name = group.name.get_ref().trim().to_string();
            if name.is_empty() {
                return Err(entry_error(group.name.span(), "group name is empty".into()));
            }
            if list.groups.iter().any(|g| g.name == name) {
                return Err(entry_error(
                    group.name.span(),
                    format!("group \"{name}\" is defined twice"),
                ));
            }
            if group.why.get_ref().trim().is_empty() {
                return Err(entry_error(
                    group.why.span(),
                    format!("group \"{name}\" does not say why it exists"),
                ));
            }
            for literal in &group.literals {
                let parsed = parse_literal(literal.get_ref(), &name)
                    .map_err(|message| entry_error(literal.span(), message))?;
                if let Some(prev) = list.literals.iter().find(|l| l.pattern == parsed.pattern) {
                    return Err(entry_error(
                        literal.span(),
                        format!(
                            "literal \"{}\" duplicates \"{}\" of group \"{}\"",
                            parsed.text, prev.text, prev.group
                        ),
                    ));
                }
                list.literals.push(parsed);
            }
            list.groups.push(Group {
                name,
                why: group.why.into_inner().trim().to_string(),
            });
        }
        Ok(list)
    }

    /// Adds another list's groups and literals. A literal both lists ban is kept once;
    /// a group name used by both is kept apart by naming the origin.
    pub fn merge(&mut self, other: BanList, origin: &Path) {
        let renamed = |name: &str, groups: &[Group]| {
            if groups.iter().any(|g| g.name == name) {
                format!("{name}@{}", origin.display())
            } else {
                name.to_string()
            }
        };
        let names: Vec<(String, String)> = other
            .groups
            .iter()
            .map(|g| (g.name.clone(), renamed(&g.name, &self.groups)))
            .collect();
        let new_name = |old: &str| {
            names
                .iter()
                .find(|(o, _)| o == old)
                .map_or_else(|| old.to_string(), |(_, n)| n.clone())
        };
        for mut literal in other.literals {
            if self.literals.iter().any(|l| l.pattern == literal.pattern) {
                continue;
            }
            literal.group = new_name(&literal.group);
            self.literals.push(literal);
        }
        for mut group in other.groups {
            group.name = new_name(&group.name);
            self.groups.push(group);
        }
    }

    /// Loads `path` and merges it with every list in `extras`, in order.
    pub fn load_all(path: &Path, extras: &[PathBuf]) -> Result<Self, GuardError> {
        let mut list = Self::load(path)?;
        for extra in extras {
            list.merge(Self::load(extra)?, extra);
        }
        Ok(list)
    }
}

fn parse_literal(text: &str, group: &str) -> Result<Literal, String> {
    let trimmed = text.trim();
    if !trimmed.chars().any(char::is_alphanumeric) {
        return Err(format!(
            "literal \"{text}\" has no letters or digits and would match nothing sensible"
        ));
    }
    let wordlike = trimmed
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == ' ');
    let pattern = if wordlike {
        Pattern::Words(compact_key(trimmed))
    } else {
        Pattern::Substring(trimmed.to_ascii_lowercase())
    };
    Ok(Literal {
        text: trimmed.to_string(),
        group: group.to_string(),
        pattern,
    })
}

/// 1-based line of a byte offset.
fn line_of(text: &str, offset: usize) -> usize {
    let end = offset.min(text.len());
    text.as_bytes()[..end]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}
