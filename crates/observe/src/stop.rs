//! English stop words ("the", "on", "how", …) from a maintained list (the `stop-words`
//! crate's copy of NLTK's): a query word that is one of them names nothing in code and is
//! not a term. Only whole query words are tested, never the subwords of an identifier.

use std::collections::HashSet;
use std::sync::OnceLock;

static WORDS: OnceLock<HashSet<&'static str>> = OnceLock::new();

/// Whether `word` (as written; compared lowercased) is an English stop word.
pub(crate) fn is_stop_word(word: &str) -> bool {
    let words = WORDS.get_or_init(|| {
        stop_words::lookup("en")
            .unwrap_or_default()
            .iter()
            .copied()
            .collect()
    });
    words.contains(word.to_lowercase().as_str())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn function_words_are_stop_words_and_code_words_are_not() {
        for w in ["the", "On", "how", "with"] {
            assert!(is_stop_word(w), "{w}");
        }
        for w in ["handle", "server", "binding", "route"] {
            assert!(!is_stop_word(w), "{w}");
        }
    }
}
