//! One term chunk's postings, packed: which source files of the chunk hold each term, with
//! its count in each ([`crate::db::term_chunk_postings`]).
//!
//! A chunk of about 64 files holds thousands of distinct terms, most in one or two files.
//! As a map from a boxed term to a list, each term cost a key allocation, a list
//! allocation and a slot of 40 bytes, several times the term and its one posting. Here
//! the terms are concatenated in one string, every posting is in one slice grouped by
//! term, and a hash table of term positions finds a term: five allocations per chunk,
//! whatever its vocabulary.

use std::hash::BuildHasher as _;

use hashbrown::HashTable;

use crate::db::Posting;

/// A chunk's postings: for each distinct term, the files holding it in the order they
/// were added, each once.
#[derive(Clone, Default)]
pub struct Postings {
    /// The terms, concatenated in the order they were first added.
    text: Box<str>,
    /// Each term's end in `text` and the end of its list in `postings`.
    ends: Box<[(u32, u32)]>,
    /// Every posting, grouped by term in term order.
    postings: Box<[Posting]>,
    /// Each term's position, by a hash of the term.
    index: HashTable<u32>,
}

fn hash(term: &str) -> u64 {
    rustc_hash::FxBuildHasher.hash_one(term)
}

impl Postings {
    /// The postings of `entries` (term, posting), in their order: a term's list holds its
    /// postings in the order given. Terms past `u32::MAX` bytes, or postings past
    /// `u32::MAX`, in all are not kept.
    pub fn build<'a>(entries: impl IntoIterator<Item = (&'a str, Posting)>) -> Postings {
        let mut ids: HashTable<(&'a str, u32)> = HashTable::new();
        let mut terms: Vec<&'a str> = Vec::new();
        let mut tagged: Vec<(u32, Posting)> = Vec::new();
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
        let mut postings: Vec<Option<Posting>> = vec![None; tagged.len()];
        for (id, posting) in tagged {
            let slot = &mut next[id as usize];
            postings[*slot as usize] = Some(posting);
            *slot += 1;
        }
        let postings: Box<[Posting]> = postings.into_iter().flatten().collect();
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
        Postings {
            text: text.into_boxed_str(),
            ends: ends.into_boxed_slice(),
            postings,
            index,
        }
    }

    /// The files holding `term`, with its count in each; `None` when none does.
    pub fn get(&self, term: &str) -> Option<&[Posting]> {
        let id = *self
            .index
            .find(hash(term), |&id| self.term(id as usize) == term)?;
        Some(self.list(id as usize))
    }

    /// How many files hold `term`.
    pub fn df(&self, term: &str) -> u32 {
        self.get(term)
            .map_or(0, |list| u32::try_from(list.len()).unwrap_or(u32::MAX))
    }

    /// How many distinct terms the chunk holds.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether the chunk holds no term.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// Every term with its list, in the order the terms were first added.
    pub fn iter(&self) -> impl ExactSizeIterator<Item = (&str, &[Posting])> + '_ {
        (0..self.ends.len()).map(|i| (self.term(i), self.list(i)))
    }

    fn term(&self, i: usize) -> &str {
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1].0 as usize,
        };
        self.text.get(start..self.ends[i].0 as usize).unwrap_or("")
    }

    fn list(&self, i: usize) -> &[Posting] {
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1].1 as usize,
        };
        self.postings
            .get(start..self.ends[i].1 as usize)
            .unwrap_or(&[])
    }
}

/// Equal when every term has the same list (in the same order): the terms' order and
/// the hash table do not count.
impl PartialEq for Postings {
    fn eq(&self, other: &Postings) -> bool {
        self.len() == other.len()
            && self.postings.len() == other.postings.len()
            && self
                .iter()
                .all(|(term, list)| other.get(term) == Some(list))
    }
}

impl Eq for Postings {}

impl std::fmt::Debug for Postings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_map().entries(self.iter()).finish()
    }
}

impl crate::memory::HeapSize for Postings {
    fn heap_bytes(&self) -> usize {
        // hashbrown: a slot per bucket plus a control byte.
        let buckets = match self.index.capacity() {
            0 => 0,
            n => (n * 8 / 7).next_power_of_two(),
        };
        self.text.len()
            + std::mem::size_of_val(&*self.ends)
            + std::mem::size_of_val(&*self.postings)
            + buckets * (std::mem::size_of::<u32>() + 1)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::sync::Arc;

    use super::*;
    use crate::db::{ObserveDatabase, SourceFile};

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
            let packed = Postings::build(entries.iter().map(|(t, p)| (t.as_str(), *p)));
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
            let again = Postings::build(reversed.iter().map(|(t, p)| (t.as_str(), *p)));
            proptest::prop_assert!(again == packed);
        }
    }
}
