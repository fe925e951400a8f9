//! A term chunk's tables of lists by key, packed ([`Keyed`]): which source files of the
//! chunk hold each term, with its count in each ([`crate::db::term_chunk_postings`]), and
//! the chunk's declarations, path words and import keys by word.
//!
//! A chunk of about 64 files holds thousands of distinct terms, most in one or two files.
//! As a map from a boxed key to a list, each key cost a key allocation, a list
//! allocation and a slot of 40 bytes, several times the key and its one entry. Here the
//! keys are concatenated in one string, every entry is in one slice grouped by key, and a
//! hash table of key positions finds a key: four allocations per table, whatever its
//! vocabulary.

use std::hash::BuildHasher as _;

use hashbrown::HashTable;

/// Lists of values by a string key: for each distinct key, its values in the order they
/// were added.
#[derive(Clone)]
pub struct Keyed<V> {
    /// The keys, concatenated in the order they were first added.
    text: Box<str>,
    /// Each key's end in `text` and the end of its list in `postings`.
    ends: Box<[(u32, u32)]>,
    /// Every value, grouped by key in key order.
    postings: Box<[V]>,
    /// Each key's position, by a hash of the key.
    index: HashTable<u32>,
}

impl<V> Default for Keyed<V> {
    fn default() -> Keyed<V> {
        Keyed {
            text: Box::default(),
            ends: Box::default(),
            postings: Box::default(),
            index: HashTable::new(),
        }
    }
}

fn hash(term: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(term)
}

/// A key hashed once, to be looked up in many tables: a query term is asked of every
/// term chunk's tables (hundreds on a large workspace), and every table hashes alike.
#[derive(Clone, Copy, Debug)]
pub struct Key<'a> {
    text: &'a str,
    hash: u64,
}

impl<'a> Key<'a> {
    /// `text`, hashed.
    pub fn new(text: &'a str) -> Key<'a> {
        Key {
            text,
            hash: hash(text),
        }
    }
}

impl<V: Copy> Keyed<V> {
    /// The lists of `entries` (key, value), in their order: a key's list holds its
    /// values in the order given. Keys past `u32::MAX` bytes, or values past `u32::MAX`,
    /// in all are not kept.
    pub fn build<'a>(entries: impl IntoIterator<Item = (&'a str, V)>) -> Keyed<V> {
        let mut ids: HashTable<(&'a str, u32)> = HashTable::new();
        let mut terms: Vec<&'a str> = Vec::new();
        let mut tagged: Vec<(u32, V)> = Vec::new();
        for (term, posting) in entries {
            let h = hash(term);
            let id = match ids.find(h, |(t, _)| *t == term) {
                Some(&(_, id)) => id,
                None => {
                    let Ok(id) = u32::try_from(terms.len()) else {
                        break;
                    };
                    ids.insert_unique(h, (term, id), |(t, _)| hash(t));
                    terms.push(term);
                    id
                }
            };
            tagged.push((id, posting));
        }
        drop(ids);
        // A counting sort by term, stable, so each list keeps the order it was given.
        let mut starts = vec![0u32; terms.len() + 1];
        for (id, _) in &tagged {
            starts[*id as usize + 1] += 1;
        }
        for i in 1..starts.len() {
            starts[i] += starts[i - 1];
        }
        let mut next = starts.clone();
        let mut postings: Vec<Option<V>> = vec![None; tagged.len()];
        for (id, posting) in tagged {
            let slot = &mut next[id as usize];
            postings[*slot as usize] = Some(posting);
            *slot += 1;
        }
        let postings: Box<[V]> = postings.into_iter().flatten().collect();
        let mut text = String::with_capacity(terms.iter().map(|t| t.len()).sum());
        let mut ends = Vec::with_capacity(terms.len());
        let mut index = HashTable::with_capacity(terms.len());
        for (id, term) in terms.iter().enumerate() {
            let Ok(end) = u32::try_from(text.len() + term.len()) else {
                break;
            };
            text.push_str(term);
            ends.push((end, starts[id + 1]));
            index.insert_unique(hash(term), id as u32, |&i| hash(terms[i as usize]));
        }
        Keyed {
            text: text.into_boxed_str(),
            ends: ends.into_boxed_slice(),
            postings,
            index,
        }
    }
}

impl<V> Keyed<V> {
    /// The values filed under `term`; `None` when none is.
    pub fn get(&self, term: &str) -> Option<&[V]> {
        self.get_key(Key::new(term))
    }

    /// [`Keyed::get`] of a key hashed beforehand.
    pub fn get_key(&self, key: Key<'_>) -> Option<&[V]> {
        let id = *self
            .index
            .find(key.hash, |&id| self.term(id as usize) == key.text)?;
        Some(self.list(id as usize))
    }

    /// How many values are filed under `term` (for postings: how many files hold it).
    pub fn df(&self, term: &str) -> u32 {
        self.df_key(Key::new(term))
    }

    /// [`Keyed::df`] of a key hashed beforehand.
    pub fn df_key(&self, key: Key<'_>) -> u32 {
        self.get_key(key)
            .map_or(0, |list| u32::try_from(list.len()).unwrap_or(u32::MAX))
    }

    /// How many distinct keys the table holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the table holds no key.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Every key with its list, in the order the keys were first added.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &[V])> + '_ {
        (0..self.ends.len()).map(|i| (self.term(i), self.list(i)))
    }

    fn term(&self, i: usize) -> &str {
        self.text
            .get(packed_span(&self.ends, i, |e| e.0))
            .unwrap_or("")
    }

    fn list(&self, i: usize) -> &[V] {
        self.postings
            .get(packed_span(&self.ends, i, |e| e.1))
            .unwrap_or(&[])
    }
}

/// Where the `i`th of items packed end to end lies, when `ends` holds each item's end
/// (picked by `end`) in order: from the previous item's end to its own. Past the end, or
/// with ends that do not ascend (a corrupt cache entry), the span is empty or out of the
/// packed data, which every caller reads with `get`: never a panic.
pub(crate) fn packed_span(
    ends: &[(u32, u32)],
    i: usize,
    end: impl Fn(&(u32, u32)) -> u32,
) -> std::ops::Range<usize> {
    let start = i
        .checked_sub(1)
        .and_then(|p| ends.get(p))
        .map_or(0, |e| end(e) as usize);
    start..ends.get(i).map_or(start, |e| end(e) as usize)
}

/// Equal when every key has the same list (in the same order): the keys' order and the
/// hash table do not count.
impl<V: PartialEq> PartialEq for Keyed<V> {
    fn eq(&self, other: &Keyed<V>) -> bool {
        self.len() == other.len()
            && self.postings.len() == other.postings.len()
            && self
                .iter()
                .all(|(term, list)| other.get(term) == Some(list))
    }
}

impl<V: Eq> Eq for Keyed<V> {}

impl<V: std::fmt::Debug> std::fmt::Debug for Keyed<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl<V> crate::memory::HeapSize for Keyed<V> {
    fn heap_bytes(&self) -> usize {
        // hashbrown: a slot per bucket plus a control byte.
        let buckets = match self.index.capacity() {
            0 => 0,
            n => (n * 8 / 7).next_power_of_two(),
        };
        self.text.len()
            + std::mem::size_of_val(&*self.ends)
            + std::mem::size_of_val::<[V]>(&self.postings)
            + buckets * (std::mem::size_of::<u32>() + 1)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use super::*;
    use crate::db::{ObserveDatabase, Posting, SourceFile};

    proptest::proptest! {
        /// The packed postings answer exactly what a map of lists built from the same
        /// entries answers.
        #[test]
        fn packed_postings_equal_a_map_of_lists(
            entries in proptest::collection::vec(("[a-e]{1,3}", 0u32..4, 1u32..9), 0..60),
        ) {
            let db = ObserveDatabase::default();
            let role = crate::walk::FileRole::of(crate::LANGUAGES, "a.ts").unwrap();
            let files: Vec<SourceFile> = (0..4)
                .map(|i| SourceFile::new(&db, i, format!("{i}.ts"), Arc::from(""), role, None))
                .collect();
            let entries: Vec<(String, Posting)> = entries
                .into_iter()
                .map(|(t, f, tf)| (t, Posting { file: files[f as usize], tf, total: tf + 1 }))
                .collect();
            let mut expected: BTreeMap<&str, Vec<Posting>> = BTreeMap::new();
            for (t, p) in &entries {
                expected.entry(t.as_str()).or_default().push(*p);
            }
            let packed = Keyed::build(entries.iter().map(|(t, p)| (t.as_str(), *p)));
            proptest::prop_assert_eq!(packed.len(), expected.len());
            for (t, list) in &expected {
                proptest::prop_assert_eq!(packed.get(t), Some(list.as_slice()));
                proptest::prop_assert_eq!(packed.df(t) as usize, list.len());
            }
            let listed: BTreeMap<&str, Vec<Posting>> =
                packed.iter().map(|(t, l)| (t, l.to_vec())).collect();
            proptest::prop_assert_eq!(&listed, &expected);
            proptest::prop_assert_eq!(packed.get("zz"), None);
            // Built again from the same entries in reverse term order: equal.
            let mut reversed = entries.clone();
            reversed.sort_by(|a, b| b.0.cmp(&a.0));
            let again = Keyed::build(reversed.iter().map(|(t, p)| (t.as_str(), *p)));
            proptest::prop_assert!(again == packed);
        }
    }
}
