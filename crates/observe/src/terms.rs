//! Identifier-structure term handling: split identifiers into lowercase subwords, normalise
//! them with a standard stemmer (English Snowball, in `stem.rs`), and count a text's term frequencies. No
//! word lists: the repository's own document frequencies decide what a term is worth.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

/// Shortest subword kept as a term. Single characters carry no signal.
pub(crate) const MIN_TERM_LEN: usize = 2;
/// Longest subword kept as a term; longer runs are hashes, base64 or minified noise.
pub(crate) const MAX_TERM_LEN: usize = 40;

/// A word's lowercase letters and digits. Lowercasing can add marks (`İ` becomes `i` and a
/// combining dot), which are not part of any term.
fn lowercase_chars(w: &str) -> impl Iterator<Item = char> + '_ {
    w.chars()
        .flat_map(char::to_lowercase)
        .filter(|c| c.is_alphanumeric())
}

fn lowercase_word(w: &str) -> String {
    let mut out = String::with_capacity(w.len());
    push_lowercase(&mut out, w);
    out
}

/// Appends [`lowercase_chars`] of `w` to `out`. A word of ASCII letters and digits (nearly
/// every word of source code) is lowercased bytewise, which gives the same characters: the
/// char-by-char path (`to_lowercase` yields an iterator per char) is for other scripts.
pub(crate) fn push_lowercase(out: &mut String, w: &str) {
    if w.bytes().all(|b| b.is_ascii_alphanumeric()) {
        let start = out.len();
        out.push_str(w);
        out[start..].make_ascii_lowercase();
    } else {
        out.extend(lowercase_chars(w));
    }
}

/// Splits an identifier into lowercase subwords on camelCase, PascalCase acronyms,
/// snake_case, kebab-case and dots; digits stay with the letters before them and
/// non-ASCII letters are letters: `parseHTTPHeader2` → `parse`, `http`, `header2`;
/// `f12345` → `f12345`. Words are not normalised: see [`term_words`] for that.
pub fn split_identifier(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    split_identifier_into(ident, &mut |w| {
        let w = lowercase_word(w);
        if !w.is_empty() {
            out.push(w);
        }
    });
    out
}

/// Calls `emit` for every subword of `ident` (original case), without allocating.
pub(crate) fn split_identifier_into(ident: &str, emit: &mut dyn FnMut(&str)) {
    split_words(ident, emit);
}

/// [`split_identifier_into`], statically dispatched.
fn split_words(ident: &str, emit: impl FnMut(&str)) {
    if ident.is_ascii() {
        split_ascii_words(ident, emit);
    } else {
        split_any_words(ident, emit);
    }
}

/// [`split_words`] of an ASCII identifier, by bytes: for an ASCII character, being
/// alphanumeric, lowercase, uppercase or numeric is its ASCII class, so the words are
/// those [`split_any_words`] finds, without decoding a char or asking Unicode's tables.
fn split_ascii_words(ident: &str, mut emit: impl FnMut(&str)) {
    let bytes = ident.as_bytes();
    let mut start: Option<usize> = None;
    let mut prev = b' ';
    for (i, &c) in bytes.iter().enumerate() {
        if !c.is_ascii_alphanumeric() {
            if let Some(s) = start.take() {
                emit(&ident[s..i]);
            }
            prev = c;
            continue;
        }
        match start {
            None => start = Some(i),
            Some(s) => {
                let next_is_lower = bytes.get(i + 1).is_some_and(u8::is_ascii_lowercase);
                // `aB` and `1B` start a word at B; `ABc` starts one at B (an acronym's end).
                let boundary = ((prev.is_ascii_lowercase() || prev.is_ascii_digit())
                    && c.is_ascii_uppercase())
                    || (prev.is_ascii_uppercase() && c.is_ascii_uppercase() && next_is_lower);
                if boundary {
                    emit(&ident[s..i]);
                    start = Some(i);
                }
            }
        }
        prev = c;
    }
    if let Some(s) = start {
        emit(&ident[s..]);
    }
}

/// [`split_words`] of any identifier, char by char.
fn split_any_words(ident: &str, mut emit: impl FnMut(&str)) {
    let mut start: Option<usize> = None;
    let mut prev = ' ';
    let mut chars = ident.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !c.is_alphanumeric() {
            if let Some(s) = start.take() {
                emit(&ident[s..i]);
            }
            prev = c;
            continue;
        }
        match start {
            None => start = Some(i),
            Some(s) => {
                let next_is_lower = chars.peek().is_some_and(|(_, n)| n.is_lowercase());
                // `aB` and `1B` start a word at B; `ABc` starts one at B (an acronym's end).
                let boundary = ((prev.is_lowercase() || prev.is_numeric()) && c.is_uppercase())
                    || (prev.is_uppercase() && c.is_uppercase() && next_is_lower);
                if boundary {
                    emit(&ident[s..i]);
                    start = Some(i);
                }
            }
        }
        prev = c;
    }
    if let Some(s) = start {
        emit(&ident[s..]);
    }
}

/// Whether a lowercase subword is worth indexing.
pub fn is_term(word: &str) -> bool {
    (MIN_TERM_LEN..=MAX_TERM_LEN).contains(&word.len())
}

/// Calls `emit` with the indexed forms of one lowercase subword: its normal form
/// ([`crate::stem`]) when it is a term, and for a word of letters then digits (`header2`,
/// `base64`) also the letters alone, so both spellings find it.
pub(crate) fn for_each_term(lower: &str, mut emit: impl FnMut(&str)) {
    if is_term(lower) {
        crate::stem::with_stem(lower, &mut emit);
    }
    let letters = lower.trim_end_matches(|c: char| c.is_ascii_digit());
    if letters.len() < lower.len() && letters.chars().all(char::is_alphabetic) && is_term(letters) {
        crate::stem::with_stem(letters, &mut emit);
    }
}

/// The openings (first two bytes, or the whole of a shorter term) of a few terms: a
/// lowercase word whose normal form is one of them starts with its opening, so a caller
/// looking for those terms stems only the words that do ([`for_each_term_where`]).
/// Compared bytewise: a `starts_with` per term and word is a `memcmp` call each.
#[derive(Clone, Debug)]
pub(crate) struct Openings(Vec<(u8, [u8; 2])>);

impl Openings {
    /// The openings of `terms`.
    pub(crate) fn of<'a>(terms: impl IntoIterator<Item = &'a str>) -> Openings {
        Openings(
            terms
                .into_iter()
                .map(|t| match t.as_bytes() {
                    [] => (0, [0, 0]),
                    [a] => (1, [*a, 0]),
                    [a, b, ..] => (2, [*a, *b]),
                })
                .collect(),
        )
    }

    /// Whether a lowercase word of two or more bytes starting with `a`, `b` starts with
    /// one of the openings (what [`Openings::admit`] says of it).
    pub(crate) fn admit_pair(&self, a: u8, b: u8) -> bool {
        self.0.iter().any(|&(len, o)| match len {
            0 => true,
            1 => a == o[0],
            _ => a == o[0] && b == o[1],
        })
    }

    /// Whether `lower` starts with one of the openings.
    pub(crate) fn admit(&self, lower: &str) -> bool {
        let b = lower.as_bytes();
        self.0.iter().any(|&(len, o)| match len {
            0 => true,
            1 => b.first() == Some(&o[0]),
            _ => b.len() >= 2 && b[0] == o[0] && b[1] == o[1],
        })
    }
}

/// The terms of an identifier as the engine indexes and matches them: its subwords,
/// lowercased and normalised (`for_each_term`), in order, duplicates kept.
pub fn term_words(ident: &str) -> Vec<String> {
    let mut out = Vec::new();
    split_words(ident, |w| {
        for_each_term(&lowercase_word(w), |t| out.push(t.to_owned()))
    });
    out
}

/// Calls `emit` with each term of `ident`, as [`term_words`] lists them, without
/// collecting them, for the subwords `worth` accepts (given lowercased, before
/// normalisation): a caller looking for a few terms skips the stemming of every other word.
pub(crate) fn for_each_term_where(
    ident: &str,
    worth: impl Fn(&str) -> bool,
    mut emit: impl FnMut(&str),
) {
    let mut lower = String::new();
    split_words(ident, |w| {
        lower.clear();
        push_lowercase(&mut lower, w);
        if worth(&lower) {
            for_each_term(&lower, &mut emit);
        }
    });
}

/// The lowercase subwords of `ident` that produced one of `matched` (terms as
/// [`term_words`] gives them), each once, in order: the words a reader recognises in the
/// name, where the terms themselves may be stems (`rout` for `route`). (The search finds
/// them in its one pass over a name, [`NameWords`]; this is the reference its tests
/// compare with.)
#[cfg(test)]
pub(crate) fn matched_subwords(ident: &str, matched: &[String]) -> Vec<String> {
    let mut shown: Vec<String> = Vec::new();
    split_words(ident, |w| {
        let lower = lowercase_word(w);
        let mut hit = false;
        for_each_term(&lower, |t| hit |= matched.iter().any(|m| m == t));
        if hit && !shown.contains(&lower) {
            shown.push(lower);
        }
    });
    shown
}

/// An identifier's lowercase subwords and its terms (as [`term_words`] lists them, each
/// with the subword it came from), read in one pass into buffers reused from one
/// identifier to the next: what scoring a declaration's name needs, where splitting,
/// lowercasing and normalising it once per question asked of it (its terms, its subword
/// count, its compound key, its matched subwords) cost an allocation each.
#[derive(Debug, Default)]
pub(crate) struct NameWords {
    /// The subwords, lowercased and packed: together they are the compound key.
    words: String,
    /// Where each subword ends in `words`.
    word_ends: Vec<usize>,
    /// The terms, packed.
    terms: String,
    /// Where each term ends in `terms`, and the subword it came from.
    term_ends: Vec<(usize, usize)>,
}

impl NameWords {
    /// Reads `ident`, forgetting the previous identifier.
    pub(crate) fn read(&mut self, ident: &str) {
        let NameWords {
            words,
            word_ends,
            terms,
            term_ends,
        } = self;
        words.clear();
        word_ends.clear();
        terms.clear();
        term_ends.clear();
        split_words(ident, |w| {
            let start = words.len();
            push_lowercase(words, w);
            let subword = word_ends.len();
            word_ends.push(words.len());
            for_each_term(&words[start..], |t| {
                terms.push_str(t);
                term_ends.push((terms.len(), subword));
            });
        });
    }

    /// How many subwords the identifier splits into ([`subword_count`]).
    pub(crate) fn subword_count(&self) -> usize {
        self.word_ends.len()
    }

    /// The lowercase subword `i`.
    pub(crate) fn subword(&self, i: usize) -> &str {
        let start = i.checked_sub(1).map_or(0, |j| self.word_ends[j]);
        &self.words[start..self.word_ends[i]]
    }

    /// The identifier's [`compound_key`].
    pub(crate) fn compound_key(&self) -> &str {
        &self.words
    }

    /// How many terms the identifier has, duplicates counted.
    pub(crate) fn term_count(&self) -> usize {
        self.term_ends.len()
    }

    /// Term `i` (in [`term_words`] order) and the subword it came from.
    pub(crate) fn term(&self, i: usize) -> (&str, usize) {
        let start = i.checked_sub(1).map_or(0, |j| self.term_ends[j].0);
        let (end, subword) = self.term_ends[i];
        (&self.terms[start..end], subword)
    }
}

/// How many subwords `ident` splits into (a compound key is indexed when there are several).
pub(crate) fn subword_count(ident: &str) -> usize {
    let mut n = 0;
    split_words(ident, |_| n += 1);
    n
}

/// Iterates the identifier-like tokens of a text (a letter, `_` or `$`, then letters,
/// digits, `_` or `$`; letters of any script), including those inside comments and string
/// literals. ASCII bytes are classified as bytes and only the others decoded as chars:
/// source text is mostly ASCII and this scan reads every byte of every file.
pub fn identifier_tokens(text: &str) -> impl Iterator<Item = &str> {
    let mut at = 0;
    std::iter::from_fn(move || {
        while let Some(c) = char_at(text, at) {
            let start = at;
            at += c.len_utf8();
            if c.is_alphabetic() || c == '_' || c == '$' {
                while let Some(d) = char_at(text, at) {
                    if !(d.is_alphanumeric() || d == '_' || d == '$') {
                        break;
                    }
                    at += d.len_utf8();
                }
                return Some(&text[start..at]);
            }
        }
        None
    })
}

/// The char starting at byte `at` of `text` (a char boundary), decoding only non-ASCII.
#[inline]
fn char_at(text: &str, at: usize) -> Option<char> {
    let b = *text.as_bytes().get(at)?;
    if b.is_ascii() {
        Some(char::from(b))
    } else {
        text.get(at..).and_then(|rest| rest.chars().next())
    }
}

/// Term frequencies of one file: every identifier-like token split into subwords, plus the
/// whole lowercased token when it splits into several (so exact compound names match too).
///
/// Packed: the sorted terms concatenated in one string, and each term's end in it with
/// its count, two allocations per file. A repository holds millions of (file, term) pairs
/// (1.5 million on a 15k-file workspace), and a boxed string per pair cost its pointer,
/// length and allocation beside a term of seven bytes on average; the cache decodes each
/// file's counts in two allocations instead of one per term.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TermCounts {
    /// The terms in sorted order, concatenated.
    text: Box<str>,
    /// Each term's end in `text` and its count (saturating at `u32::MAX`), in term order.
    ends: Box<[(u32, u32)]>,
    /// Number of words counted (compound keys excluded): the file's length for BM25.
    pub total: u32,
}

impl TermCounts {
    /// The counts of `terms` (term, count) sorted by term, each term once, with `total`
    /// words counted. Terms past `u32::MAX` bytes in all are not kept.
    pub fn from_sorted<'a>(
        terms: impl IntoIterator<Item = (&'a str, u32)>,
        total: u32,
    ) -> TermCounts {
        let mut text = String::new();
        let mut ends = Vec::new();
        for (term, n) in terms {
            let Ok(end) = u32::try_from(text.len() + term.len()) else {
                break;
            };
            debug_assert!(
                ends.is_empty()
                    || text[crate::postings::packed_span(&ends, ends.len() - 1, |e| e.0)] < *term
            );
            text.push_str(term);
            ends.push((end, n));
        }
        TermCounts {
            text: text.into_boxed_str(),
            ends: ends.into_boxed_slice(),
            total,
        }
    }

    /// The terms and their counts, sorted by term.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, u32)> + '_ {
        (0..self.ends.len()).map(|i| (self.term(i), self.ends[i].1))
    }

    /// How many distinct terms the file holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the file holds no term.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The `i`th term (empty past the end or if the packed text is inconsistent, as a
    /// corrupt cache entry could make it: never a panic).
    fn term(&self, i: usize) -> &str {
        self.text
            .get(crate::postings::packed_span(&self.ends, i, |e| e.0))
            .unwrap_or("")
    }

    /// Heap bytes of the packed terms.
    pub(crate) fn heap_bytes(&self) -> usize {
        self.text.len() + std::mem::size_of_val(&*self.ends)
    }
    /// Counts the terms of a file's text. Total: any text is accepted.
    pub(crate) fn from_text(text: &str) -> TermCounts {
        // A file repeats its identifiers: each distinct token is counted first (borrowed
        // from the text, one lookup per token), then split and normalised once with its
        // count, which is what splitting every occurrence adds up to.
        let mut tokens: FxHashMap<&str, u32> = FxHashMap::default();
        for tok in identifier_tokens(text) {
            let n = tokens.entry(tok).or_insert(0);
            *n = n.saturating_add(1);
        }
        let mut map: FxHashMap<String, u32> = FxHashMap::default();
        let mut total: u32 = 0;
        let mut buf = String::new();
        let mut compound = String::new();
        for (tok, n) in tokens {
            // Most tokens are one lowercase word: counted as their normal form, no compound.
            if tok.bytes().all(|b| b.is_ascii_lowercase()) {
                if is_term(tok) {
                    crate::stem::with_stem(tok, |t| bump(&mut map, t, n));
                    total = total.saturating_add(n);
                }
                continue;
            }
            let mut parts = 0;
            compound.clear();
            split_words(tok, |w| {
                parts += 1;
                buf.clear();
                push_lowercase(&mut buf, w);
                compound.push_str(&buf);
                let mut counted = false;
                for_each_term(&buf, |t| {
                    bump(&mut map, t, n);
                    counted = true;
                });
                if counted {
                    total = total.saturating_add(n);
                }
            });
            if parts > 1 && tok.len() <= MAX_TERM_LEN {
                bump(&mut map, &compound, n);
            }
        }
        TermCounts::from_map(map, total)
    }

    /// The counts of `map`, sorted, with `total` words counted.
    pub fn from_map<S: AsRef<str>>(
        map: impl IntoIterator<Item = (S, u32)>,
        total: u32,
    ) -> TermCounts {
        let mut terms: Vec<(S, u32)> = map.into_iter().collect();
        terms.sort_unstable_by(|a, b| a.0.as_ref().cmp(b.0.as_ref()));
        TermCounts::from_sorted(terms.iter().map(|(t, n)| (t.as_ref(), *n)), total)
    }

    /// How often `term` occurs; 0 when absent (binary search over the sorted terms).
    pub fn get(&self, term: &str) -> u32 {
        let (mut lo, mut hi) = (0, self.ends.len());
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            match self.term(mid).cmp(term) {
                std::cmp::Ordering::Less => lo = mid + 1,
                std::cmp::Ordering::Greater => hi = mid,
                std::cmp::Ordering::Equal => return self.ends[mid].1,
            }
        }
        0
    }
}

/// Adds `by` occurrences of `key` (saturating, so the order of additions never matters).
fn bump(map: &mut FxHashMap<String, u32>, key: &str, by: u32) {
    if let Some(n) = map.get_mut(key) {
        *n = n.saturating_add(by);
    } else {
        map.insert(key.to_owned(), by);
    }
}

/// The key under which a whole multi-word identifier is counted: its subwords joined, so
/// `recordStore`, `record_store` and `RecordStore` share one key.
pub(crate) fn compound_key(ident: &str) -> String {
    let mut key = String::with_capacity(ident.len());
    split_words(ident, |w| push_lowercase(&mut key, w));
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_common_identifier_shapes() {
        assert_eq!(
            split_identifier("parseHTTPHeader2"),
            ["parse", "http", "header2"]
        );
        assert_eq!(split_identifier("f12345"), ["f12345"]);
        assert_eq!(split_identifier("v2Api"), ["v2", "api"]);
        assert_eq!(split_identifier("größeBerechnen"), ["größe", "berechnen"]);
        assert_eq!(
            split_identifier("record_store-item"),
            ["record", "store", "item"]
        );
        assert_eq!(split_identifier("XMLParser"), ["xml", "parser"]);
        assert_eq!(split_identifier("$el"), ["el"]);
        assert_eq!(split_identifier("123"), ["123"]);
    }

    #[test]
    fn matched_subwords_are_the_names_words_not_their_stems() {
        let name = "getRouteHandlerRoutes";
        let terms = term_words(name);
        // Every matched term maps back to a subword written in the name, each once.
        let shown = matched_subwords(name, &terms);
        let subwords = split_identifier(name);
        assert!(shown.iter().all(|w| subwords.contains(w)));
        let mut unique = shown.clone();
        unique.dedup();
        assert_eq!(unique.len(), shown.len());
        // A term the name does not produce shows nothing.
        assert!(matched_subwords(name, &["unrelated".to_owned()]).is_empty());
        // Only the subwords whose terms matched are shown.
        let first = term_words("route");
        assert_eq!(matched_subwords(name, &first), ["route", "routes"]);
    }

    #[test]
    fn compound_keys_ignore_separators_and_case() {
        assert_eq!(compound_key("recordStore"), compound_key("record_store"));
        assert_eq!(compound_key("RecordStore"), "recordstore");
    }

    #[test]
    fn identifiers_with_digits_and_non_ascii_letters_are_tokens() {
        let tokens: Vec<&str> = identifier_tokens("let f12345 = größe_x + $y;").collect();
        assert_eq!(tokens, ["let", "f12345", "größe_x", "$y"]);
    }

    #[test]
    fn terms_are_normalised_and_digit_words_also_count_their_letters() {
        assert_eq!(term_words("sharedRetries"), ["share", "retri"]);
        assert_eq!(term_words("header2"), ["header2", "header"]);
        assert_eq!(term_words("f12345"), ["f12345"]);
        let c = TermCounts::from_text("function f12345() { return cachedValues; }");
        assert_eq!(c.get("f12345"), 1);
        assert_eq!(c.get("cach"), 1);
        assert_eq!(c.get("valu"), 1);
    }

    #[test]
    fn counts_split_terms_and_compounds() {
        let c = TermCounts::from_text("const recordStore = new RecordStore(); // record it");
        assert_eq!(c.get("record"), 3);
        assert_eq!(c.get("store"), 2);
        assert_eq!(c.get("recordstore"), 2);
        assert_eq!(c.get("it"), 1);
    }

    /// Tokens as a scan over chars finds them: what [`identifier_tokens`] must equal.
    fn tokens_by_chars(text: &str) -> Vec<&str> {
        let mut out = Vec::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            if c.is_alphabetic() || c == '_' || c == '$' {
                let mut end = i + c.len_utf8();
                while let Some(&(j, d)) = chars.peek() {
                    if !(d.is_alphanumeric() || d == '_' || d == '$') {
                        break;
                    }
                    end = j + d.len_utf8();
                    chars.next();
                }
                out.push(&text[i..end]);
            }
        }
        out
    }

    /// Term counts as splitting every occurrence on its own gives them: what
    /// [`TermCounts::from_text`] must equal.
    fn counts_by_occurrence(text: &str) -> TermCounts {
        let mut map: FxHashMap<String, u32> = FxHashMap::default();
        let mut total: u32 = 0;
        for tok in tokens_by_chars(text) {
            let mut parts = 0;
            let mut compound = String::new();
            split_words(tok, |w| {
                parts += 1;
                let lower = lowercase_word(w);
                compound.push_str(&lower);
                let mut counted = false;
                for_each_term(&lower, |t| {
                    bump(&mut map, t, 1);
                    counted = true;
                });
                if counted {
                    total = total.saturating_add(1);
                }
            });
            if parts > 1 && tok.len() <= MAX_TERM_LEN {
                bump(&mut map, &compound, 1);
            }
        }
        TermCounts::from_map(map, total)
    }

    proptest::proptest! {
        #[test]
        fn counting_distinct_tokens_equals_counting_every_occurrence(
            text in "([a-zA-Z_$]{1,8}|[0-9]{1,3}|[ .;(){}\n]|größe|İx|ǅa|\\PC){0,60}"
        ) {
            proptest::prop_assert_eq!(identifier_tokens(&text).collect::<Vec<_>>(), tokens_by_chars(&text));
            proptest::prop_assert_eq!(TermCounts::from_text(&text), counts_by_occurrence(&text));
        }

        #[test]
        fn splitting_never_panics_and_yields_alphanumeric_words(s in "\\PC{0,40}|İ[a-z]") {
            for w in split_identifier(&s) {
                proptest::prop_assert!(!w.is_empty() && w.chars().all(char::is_alphanumeric));
            }
            let terms = term_words(&s);
            proptest::prop_assert!(terms.len() <= 2 * split_identifier(&s).len());
            proptest::prop_assert!(terms.iter().all(|t| !t.is_empty()));
        }

        #[test]
        fn openings_admit_what_starts_with_does(
            terms in proptest::collection::vec("[a-c]{0,3}|\\PC{0,3}", 0..4),
            word in "[a-c]{0,4}|\\PC{0,4}",
        ) {
            let openings = Openings::of(terms.iter().map(String::as_str));
            let expected = terms
                .iter()
                .any(|t| word.as_bytes().starts_with(&t.as_bytes()[..t.len().min(2)]));
            proptest::prop_assert_eq!(openings.admit(&word), expected);
            if let [a, b, ..] = word.as_bytes() {
                proptest::prop_assert_eq!(openings.admit_pair(*a, *b), expected);
            }
        }

        #[test]
        fn splitting_ascii_by_bytes_equals_splitting_by_chars(
            s in "([a-zA-Z]{1,6}[0-9]{0,2}|[_.$ -]|HTTP|ABc|a1B|[!-~]){0,10}"
        ) {
            let mut by_bytes = Vec::new();
            split_ascii_words(&s, |w| by_bytes.push(w.to_owned()));
            let mut by_chars = Vec::new();
            split_any_words(&s, |w| by_chars.push(w.to_owned()));
            proptest::prop_assert_eq!(by_bytes, by_chars);
        }

        #[test]
        fn lowercasing_bytewise_equals_lowercasing_by_char(w in "[a-zA-Z0-9]{0,12}|\\PC{0,12}") {
            let by_char: String = lowercase_chars(&w).collect();
            proptest::prop_assert_eq!(lowercase_word(&w), by_char);
        }

        #[test]
        fn name_words_answer_what_the_separate_passes_do(
            s in "([a-zA-Z]{1,6}[0-9]{0,2}|[_.$-]|HTTP|İx|größe){0,8}|\\PC{0,20}"
        ) {
            let mut words = NameWords::default();
            // Read over another identifier first: the buffers are reused.
            words.read("someOtherName_2");
            words.read(&s);
            let terms: Vec<String> =
                (0..words.term_count()).map(|i| words.term(i).0.to_owned()).collect();
            proptest::prop_assert_eq!(&terms, &term_words(&s));
            proptest::prop_assert_eq!(words.subword_count(), subword_count(&s));
            proptest::prop_assert_eq!(words.compound_key(), compound_key(&s));
            let mut lowers = Vec::new();
            split_words(&s, |w| lowers.push(lowercase_word(w)));
            for i in 0..words.term_count() {
                let (term, subword) = words.term(i);
                let mut from_subword = Vec::new();
                for_each_term(&lowers[subword], |t| from_subword.push(t.to_owned()));
                proptest::prop_assert!(from_subword.iter().any(|t| t == term));
            }
            for (i, lower) in lowers.iter().enumerate() {
                proptest::prop_assert_eq!(words.subword(i), lower.as_str());
            }
        }
    }
}
