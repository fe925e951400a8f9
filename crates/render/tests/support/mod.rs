//! Shared helpers for the render tests: the validate crate's fixture registry and
//! generators, and a reader for the report layout.

#![allow(dead_code, unused_imports)]

#[path = "../../../validate/tests/support/mod.rs"]
pub mod shared;

pub use shared::{fixture, strategy};

use sightline_render::BlockJson;

/// The JSON block of a report, parsed.
pub fn json_block(text: &str) -> Result<BlockJson, String> {
    let start = text.find("```json\n").ok_or("no JSON block")? + "```json\n".len();
    let len = text[start..].find("\n```").ok_or("unclosed JSON block")?;
    serde_json::from_str(&text[start..start + len]).map_err(|e| e.to_string())
}

/// The text before the JSON block.
pub fn body(text: &str) -> &str {
    text.split("```json\n").next().unwrap_or(text)
}

/// An item line's number and the rest of the line (`12. src/a.ts:1-9 …`).
pub fn item(line: &str) -> Option<(usize, &str)> {
    let (num, rest) = line.split_once(". ")?;
    if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((num.parse().ok()?, rest))
}

/// A cited location: path, and the range when one is written.
#[derive(Debug, PartialEq)]
pub struct Cited {
    pub path: String,
    pub range: Option<(u32, u32)>,
    /// Whether the path was written in full (not as a `[n]` reference).
    pub written: bool,
}

/// Every numbered item's location, references resolved to the item they point at.
pub fn cited(text: &str) -> Result<Vec<Cited>, String> {
    let mut out: Vec<Cited> = Vec::new();
    let mut items = 0;
    for line in body(text).lines() {
        let Some((n, rest)) = item(line) else {
            continue;
        };
        items += 1;
        if n != items {
            return Err(format!("item {n} out of order in {line:?}"));
        }
        // A dropped read target names its place when the registry knows it.
        let rest = rest.strip_prefix("(dropped) ").unwrap_or(rest);
        if rest.starts_with("an unknown candidate") {
            continue;
        }
        let loc = rest.split(' ').next().unwrap_or(rest);
        let (path_part, range) = match loc.rsplit_once(':') {
            Some((p, r)) => {
                let (s, e) = r.split_once('-').unwrap_or((r, r));
                let s = s.parse::<u32>().map_err(|e| format!("{line:?}: {e}"))?;
                let e = e.parse::<u32>().map_err(|e| format!("{line:?}: {e}"))?;
                (p, Some((s, e)))
            }
            None => (loc, None),
        };
        let (path, written) = match path_part
            .strip_prefix('[')
            .and_then(|r| r.strip_suffix(']'))
        {
            Some(k) => {
                let k: usize = k.parse().map_err(|e| format!("{line:?}: {e}"))?;
                let first = out
                    .get(k.wrapping_sub(1))
                    .ok_or(format!("{line:?} refers forward"))?;
                if !first.written {
                    return Err(format!(
                        "{line:?} refers to an item that did not write its path"
                    ));
                }
                (first.path.clone(), false)
            }
            None => (path_part.to_owned(), true),
        };
        out.push(Cited {
            path,
            range,
            written,
        });
    }
    Ok(out)
}
