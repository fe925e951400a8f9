//! The one normalisation of words, applied alike to query words, identifier subwords and
//! path words: the English Snowball stemmer of the `rust-stemmers` crate on lowercase
//! alphabetic words (`shared` → `share`, `retried` → `retri`). Words with digits or
//! non-ASCII letters are kept as they are. Results are memoized per thread, because the same
//! few thousand words recur across a repository's files.

use std::cell::RefCell;

use rust_stemmers::{Algorithm, Stemmer};
use rustc_hash::FxHashMap;

/// Most memoized words per thread; the memo starts over when full, so a repository with an
/// unusual vocabulary cannot grow it without bound.
const MEMO_CAP: usize = 1 << 16;

struct Memo {
    stemmer: Stemmer,
    stems: FxHashMap<Box<str>, Box<str>>,
}

thread_local! {
    static MEMO: RefCell<Memo> = RefCell::new(Memo {
        stemmer: Stemmer::create(Algorithm::English),
        stems: FxHashMap::default(),
    });
}

/// Calls `f` with the normal form of `lower`, a lowercase word.
pub(crate) fn with_stem<R>(lower: &str, f: impl FnOnce(&str) -> R) -> R {
    if !lower.bytes().all(|b| b.is_ascii_lowercase()) {
        return f(lower);
    }
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if let Some(stem) = memo.stems.get(lower) {
            return f(stem);
        }
        let stem: Box<str> = memo.stemmer.stem(lower).into();
        if memo.stems.len() >= MEMO_CAP {
            memo.stems.clear();
        }
        let out = f(&stem);
        memo.stems.insert(lower.into(), stem);
        out
    })
}

/// The normal form of a lowercase word, owned (for tests; the crate uses [`with_stem`]).
#[cfg(test)]
fn stem(lower: &str) -> String {
    with_stem(lower, str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn inflections_share_a_stem_and_distinct_words_do_not() {
        assert_eq!(stem("shared"), stem("share"));
        assert_eq!(stem("binding"), stem("bind"));
        assert_eq!(stem("retried"), stem("retries"));
        assert_eq!(stem("caching"), stem("cache"));
        // The prefix variants this replaced conflated these.
        assert_ne!(stem("shared"), stem("shard"));
        assert_ne!(stem("through"), stem("throw"));
        assert_ne!(stem("code"), stem("codepen"));
        assert_ne!(stem("only"), stem("onlyyou"));
    }

    #[test]
    fn words_with_digits_or_non_ascii_letters_are_kept() {
        assert_eq!(stem("f12345"), "f12345");
        assert_eq!(stem("größe"), "größe");
    }
}
