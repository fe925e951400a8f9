//! Statistics of the repository's own vocabulary: document frequencies and IDF weights.

use std::collections::HashMap;

use rustc_hash::FxHashMap;

use crate::terms::TermCounts;

/// Document frequencies over a set of files (the workspace's source files), the input of
/// every IDF weight; built by [`TermStats::add_document`] or [`TermStats::from_partials`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermStats {
    /// Number of documents (files) counted.
    pub documents: u32,
    /// Sum of every document's [`TermCounts::total`].
    pub total_terms: u64,
    /// Number of documents containing each term at least once.
    pub df: HashMap<String, u32>,
}

impl TermStats {
    /// Counts one more document with these term counts.
    pub fn add_document(&mut self, counts: &TermCounts) {
        self.documents += 1;
        self.total_terms += u64::from(counts.total);
        for (term, _) in &counts.terms {
            if let Some(n) = self.df.get_mut(term) {
                *n += 1;
            } else {
                self.df.insert(term.clone(), 1);
            }
        }
    }

    /// Sums the statistics of disjoint groups of documents: the same result as adding every
    /// document of every group, in any order.
    pub fn from_partials<'a>(parts: impl IntoIterator<Item = &'a PartialStats>) -> TermStats {
        let mut documents = 0;
        let mut total_terms = 0;
        let mut merged: FxHashMap<&str, u32> = FxHashMap::default();
        for p in parts {
            documents += p.documents;
            total_terms += p.total_terms;
            if merged.is_empty() {
                merged.reserve(p.df.len() * 2);
            }
            for (term, n) in &p.df {
                *merged.entry(term.as_str()).or_default() += n;
            }
        }
        let mut df = HashMap::with_capacity(merged.len());
        df.extend(merged.into_iter().map(|(t, n)| (t.to_owned(), n)));
        TermStats {
            documents,
            total_terms,
            df,
        }
    }

    /// Number of documents containing `term`; 0 for a term never seen.
    pub fn df(&self, term: &str) -> u32 {
        self.df.get(term).copied().unwrap_or(0)
    }

    /// BM25's IDF, always positive: rare terms weigh more, terms in every file weigh ~0.
    pub fn idf(&self, term: &str) -> f64 {
        let n = f64::from(self.documents);
        let df = f64::from(self.df(term));
        ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
    }

    /// Average number of counted terms per document (BM25 length normalization).
    pub fn average_length(&self) -> f64 {
        if self.documents == 0 {
            0.0
        } else {
            self.total_terms as f64 / f64::from(self.documents)
        }
    }
}

/// Document frequencies of one group of documents (see [`TermStats::from_partials`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PartialStats {
    /// Number of documents in this group.
    pub documents: u32,
    /// Sum of the group's [`TermCounts::total`].
    pub total_terms: u64,
    /// Number of documents of the group containing each term.
    pub df: FxHashMap<String, u32>,
}

impl PartialStats {
    /// Counts one more document of this group.
    pub fn add_document(&mut self, counts: &TermCounts) {
        self.documents += 1;
        self.total_terms += u64::from(counts.total);
        for (term, _) in &counts.terms {
            if let Some(n) = self.df.get_mut(term.as_str()) {
                *n += 1;
            } else {
                self.df.insert(term.clone(), 1);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rarer_terms_weigh_more() {
        let mut s = TermStats::default();
        s.add_document(&TermCounts::from_text("alpha beta"));
        s.add_document(&TermCounts::from_text("alpha gamma"));
        s.add_document(&TermCounts::from_text("alpha"));
        assert!(s.idf("beta") > s.idf("alpha"));
        assert!(s.idf("alpha") > 0.0);
        assert!(s.idf("missing") > s.idf("beta"));
    }

    #[test]
    fn partials_sum_to_the_whole() {
        let texts = [
            "alpha beta",
            "alpha gamma",
            "alpha",
            "beta delta deltaGamma",
            "",
        ];
        let mut whole = TermStats::default();
        let mut parts = vec![PartialStats::default(); 2];
        for (i, t) in texts.iter().enumerate() {
            let c = TermCounts::from_text(t);
            whole.add_document(&c);
            parts[i % 2].add_document(&c);
        }
        assert_eq!(TermStats::from_partials(&parts), whole);
    }
}
