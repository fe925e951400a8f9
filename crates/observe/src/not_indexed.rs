//! What the index cannot see: the files of the tree no registered language reads, by
//! file type (the `ignore` crate's default types). An answer that found nothing says so
//! instead of claiming no code mentions what was asked.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// How many file types a note names before it elides the rest.
const NOTE_TYPES: usize = 3;

/// Files of the tree no registered language reads, by file type, most numerous first.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct NotIndexed {
    /// (type, files), by descending count, then name.
    pub by_type: Vec<(String, u32)>,
}

impl NotIndexed {
    /// The counts of a walk ([`crate::walk::WalkOutcome::not_indexed_types`]).
    pub fn of(counts: &BTreeMap<String, u32>) -> NotIndexed {
        let mut by_type: Vec<(String, u32)> = counts.iter().map(|(k, n)| (k.clone(), *n)).collect();
        by_type.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        NotIndexed { by_type }
    }

    /// How many files in all.
    pub fn total(&self) -> u32 {
        self.by_type.iter().map(|(_, n)| n).sum()
    }

    /// `"293 files in languages not indexed: rust 293"` (the most numerous types, then
    /// `…`), or `None` when every file of a known type is indexed.
    pub fn note(&self) -> Option<String> {
        if self.by_type.is_empty() {
            return None;
        }
        let mut types: Vec<String> = self
            .by_type
            .iter()
            .take(NOTE_TYPES)
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        if self.by_type.len() > NOTE_TYPES {
            types.push("…".to_owned());
        }
        Some(format!(
            "{} files in languages not indexed: {}",
            self.total(),
            types.join(", ")
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_names_the_most_numerous_types() {
        let counts: BTreeMap<String, u32> = [("rust", 293), ("toml", 4), ("c", 9), ("yaml", 2)]
            .into_iter()
            .map(|(k, n)| (k.to_owned(), n))
            .collect();
        let note = NotIndexed::of(&counts).note().unwrap();
        assert_eq!(
            note,
            "308 files in languages not indexed: rust 293, c 9, toml 4, …"
        );
        assert_eq!(NotIndexed::default().note(), None);
    }
}
