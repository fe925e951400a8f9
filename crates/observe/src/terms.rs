//! Identifier-structure term handling: split identifiers into lowercase subwords, and count
//! a text's subword frequencies. No stemming tables or stop-word lists: the repository's
//! own document frequencies decide what a term is worth.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// Shortest subword kept as a term. Single characters carry no signal.
pub const MIN_TERM_LEN: usize = 2;
/// Longest subword kept as a term; longer runs are hashes, base64 or minified noise.
pub const MAX_TERM_LEN: usize = 40;

/// Splits an identifier into lowercase subwords on camelCase, PascalCase acronyms,
/// snake_case, kebab-case, dots and digits: `parseHTTPHeader2` → `parse`, `http`, `header`.
pub fn split_identifier(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    split_identifier_into(ident, &mut |w| out.push(w.to_ascii_lowercase()));
    out
}

/// Calls `emit` for every subword of `ident` (original case), without allocating.
pub fn split_identifier_into(ident: &str, emit: &mut dyn FnMut(&str)) {
    split_words(ident, emit);
}

/// [`split_identifier_into`], statically dispatched.
fn split_words(ident: &str, mut emit: impl FnMut(&str)) {
    let bytes = ident.as_bytes();
    let mut start: Option<usize> = None;
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if !c.is_ascii_alphabetic() {
            if let Some(s) = start.take() {
                emit(&ident[s..i]);
            }
            i += 1;
            continue;
        }
        match start {
            None => start = Some(i),
            Some(s) => {
                let prev = bytes[i - 1];
                let next_is_lower = bytes.get(i + 1).is_some_and(|n| n.is_ascii_lowercase());
                // `aB` starts a word at B; `ABc` starts a word at B (end of an acronym).
                let boundary = (prev.is_ascii_lowercase() && c.is_ascii_uppercase())
                    || (prev.is_ascii_uppercase() && c.is_ascii_uppercase() && next_is_lower);
                if boundary {
                    emit(&ident[s..i]);
                    start = Some(i);
                }
            }
        }
        i += 1;
    }
    if let Some(s) = start {
        emit(&ident[s..]);
    }
}

/// Whether a lowercase subword is worth indexing.
pub fn is_term(word: &str) -> bool {
    (MIN_TERM_LEN..=MAX_TERM_LEN).contains(&word.len())
}

/// Iterates the identifier-like tokens (`[A-Za-z_$][A-Za-z0-9_$]*`) of a text, including those
/// inside comments and string literals.
pub fn identifier_tokens(text: &str) -> impl Iterator<Item = &str> {
    let bytes = text.as_bytes();
    let mut i = 0;
    std::iter::from_fn(move || {
        while i < bytes.len() {
            let c = bytes[i];
            if c.is_ascii_alphabetic() || c == b'_' || c == b'$' {
                let s = i;
                while i < bytes.len()
                    && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_' || bytes[i] == b'$')
                {
                    i += 1;
                }
                return Some(&text[s..i]);
            }
            i += 1;
        }
        None
    })
}

/// Term frequencies of one file: every identifier-like token split into subwords, plus the
/// whole lowercased token when it splits into several (so exact compound names match too).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TermCounts {
    /// Sorted by term; counts saturate at `u32::MAX`.
    pub terms: Vec<(String, u32)>,
    pub total: u32,
}

impl TermCounts {
    pub fn from_text(text: &str) -> TermCounts {
        let mut map: FxHashMap<String, u32> = FxHashMap::default();
        let mut total: u32 = 0;
        let mut buf = String::new();
        let mut compound = String::new();
        for tok in identifier_tokens(text) {
            // Most tokens are one lowercase word: counted as themselves, no compound.
            if tok.bytes().all(|b| b.is_ascii_lowercase()) {
                if is_term(tok) {
                    bump(&mut map, tok);
                    total = total.saturating_add(1);
                }
                continue;
            }
            let mut parts = 0;
            compound.clear();
            split_words(tok, |w| {
                parts += 1;
                buf.clear();
                buf.push_str(w);
                buf.make_ascii_lowercase();
                compound.push_str(&buf);
                if is_term(&buf) {
                    bump(&mut map, &buf);
                    total = total.saturating_add(1);
                }
            });
            if parts > 1 && tok.len() <= MAX_TERM_LEN {
                bump(&mut map, &compound);
            }
        }
        let mut terms: Vec<(String, u32)> = map.into_iter().collect();
        terms.sort_unstable();
        TermCounts { terms, total }
    }

    pub fn get(&self, term: &str) -> u32 {
        self.terms
            .binary_search_by(|(t, _)| t.as_str().cmp(term))
            .map(|i| self.terms[i].1)
            .unwrap_or(0)
    }
}

fn bump(map: &mut FxHashMap<String, u32>, key: &str) {
    if let Some(n) = map.get_mut(key) {
        *n = n.saturating_add(1);
    } else {
        map.insert(key.to_owned(), 1);
    }
}

/// The key under which a whole multi-word identifier is counted: its subwords joined, so
/// `recordStore`, `record_store` and `RecordStore` share one key.
pub fn compound_key(ident: &str) -> String {
    let mut key = String::with_capacity(ident.len());
    split_identifier_into(ident, &mut |w| {
        for c in w.chars() {
            key.push(c.to_ascii_lowercase());
        }
    });
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_common_identifier_shapes() {
        assert_eq!(
            split_identifier("parseHTTPHeader2"),
            ["parse", "http", "header"]
        );
        assert_eq!(
            split_identifier("record_store-item"),
            ["record", "store", "item"]
        );
        assert_eq!(split_identifier("XMLParser"), ["xml", "parser"]);
        assert_eq!(split_identifier("$el"), ["el"]);
        assert!(split_identifier("123").is_empty());
    }

    #[test]
    fn compound_keys_ignore_separators_and_case() {
        assert_eq!(compound_key("recordStore"), compound_key("record_store"));
        assert_eq!(compound_key("RecordStore"), "recordstore");
    }

    #[test]
    fn counts_split_terms_and_compounds() {
        let c = TermCounts::from_text("const recordStore = new RecordStore(); // record it");
        assert_eq!(c.get("record"), 3);
        assert_eq!(c.get("store"), 2);
        assert_eq!(c.get("recordstore"), 2);
        assert_eq!(c.get("it"), 1);
    }

    proptest::proptest! {
        #[test]
        fn splitting_never_panics_and_yields_alphabetic_words(s in "\\PC{0,40}") {
            for w in split_identifier(&s) {
                proptest::prop_assert!(w.bytes().all(|b| b.is_ascii_lowercase()));
            }
        }
    }
}
