//! Statistics of the repository's own vocabulary: document frequencies and IDF weights.

use std::sync::Arc;

use rustc_hash::FxHashMap;

use crate::terms::TermCounts;

/// Document frequencies and lengths over a set of documents: those added one by one
/// ([`TermStats::add_document`]) plus whole groups summarised elsewhere
/// ([`TermStats::from_partials`]). The groups are kept as they are, not merged into one
/// table: a lookup sums a term over the groups (a few dozen hash probes, for the handful
/// of terms a query has), so an edit that changes one group's frequencies costs a new
/// list of group handles, not a merge of the repository's whole vocabulary.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermStats {
    /// Documents (source files) counted.
    pub documents: u32,
    /// Sum of the documents' term counts.
    pub total_terms: u64,
    /// Frequencies of the documents added one by one.
    own: FxHashMap<String, u32>,
    /// Frequencies of the groups, summed on lookup.
    parts: Vec<std::sync::Arc<PartialStats>>,
}

impl TermStats {
    /// Counts one more document.
    pub fn add_document(&mut self, counts: &TermCounts) {
        self.documents += 1;
        self.total_terms += u64::from(counts.total);
        for (term, _) in counts.iter() {
            if let Some(n) = self.own.get_mut(term) {
                *n += 1;
            } else {
                self.own.insert(term.to_string(), 1);
            }
        }
    }

    /// The statistics of the union of `parts`' documents.
    pub fn from_partials(
        parts: impl IntoIterator<Item = std::sync::Arc<PartialStats>>,
    ) -> TermStats {
        let parts: Vec<std::sync::Arc<PartialStats>> = parts.into_iter().collect();
        TermStats {
            documents: parts.iter().map(|p| p.documents).sum(),
            total_terms: parts.iter().map(|p| p.total_terms).sum(),
            own: FxHashMap::default(),
            parts,
        }
    }

    /// How many documents hold `term`.
    pub fn df(&self, term: &str) -> u32 {
        let own = self.own.get(term).copied().unwrap_or(0);
        let key = crate::postings::Key::new(term);
        own + self
            .parts
            .iter()
            .map(|p| p.postings.df_key(key))
            .sum::<u32>()
    }

    /// BM25's IDF, always positive: rare terms weigh more, terms in every file weigh ~0.
    pub fn idf(&self, term: &str) -> f64 {
        self.idf_of(self.df(term))
    }

    /// [`TermStats::idf`] of a term held by `df` documents (its [`TermStats::df`]).
    pub fn idf_of(&self, df: u32) -> f64 {
        let n = f64::from(self.documents);
        let df = f64::from(df);
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

/// A group's postings ([`crate::db::term_chunk_postings`]): the documents holding each
/// term, with its count in each.
pub type Postings = crate::postings::Keyed<crate::db::Posting>;

/// Document frequencies of one group of documents (see [`TermStats::from_partials`]): the
/// group's postings, whose lists' lengths are the frequencies. The search's own table, not
/// a copy of its vocabulary.
#[derive(Clone, Debug, Default)]
pub struct PartialStats {
    /// Documents in this group.
    pub documents: u32,
    /// Sum of the group's term counts.
    pub total_terms: u64,
    /// The group's postings.
    pub postings: Arc<Postings>,
}

impl PartialStats {
    /// Documents of the group holding `term`.
    pub fn df(&self, term: &str) -> u32 {
        self.postings.df(term)
    }
}

/// Equal when the statistics are: the same documents and length, and the same terms in
/// as many documents each. The counts inside the lists are not statistics, so an edit
/// that only changes how often a file uses its words leaves the group's stats equal.
impl PartialEq for PartialStats {
    fn eq(&self, other: &PartialStats) -> bool {
        self.documents == other.documents
            && self.total_terms == other.total_terms
            && self.postings.len() == other.postings.len()
            && self
                .postings
                .iter()
                .all(|(term, list)| other.df(term) as usize == list.len())
    }
}

impl Eq for PartialStats {}

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
        use crate::db::{ObserveDatabase, Posting, SourceFile};
        let texts = [
            "alpha beta",
            "alpha gamma",
            "alpha",
            "beta delta deltaGamma",
            "",
        ];
        let db = ObserveDatabase::default();
        let role = crate::walk::FileRole::of(crate::LANGUAGES, "a.ts").unwrap();
        let mut whole = TermStats::default();
        let mut parts = vec![PartialStats::default(); 2];
        let mut postings: Vec<Vec<(String, Posting)>> = vec![Vec::new(); 2];
        for (i, t) in texts.iter().enumerate() {
            let c = TermCounts::from_text(t);
            whole.add_document(&c);
            let file = SourceFile::new(&db, i as u32, format!("{i}.ts"), Arc::from(*t), role, None);
            parts[i % 2].documents += 1;
            parts[i % 2].total_terms += u64::from(c.total);
            for (term, tf) in c.iter() {
                let p = Posting {
                    file,
                    tf,
                    total: c.total,
                };
                postings[i % 2].push((term.to_owned(), p));
            }
        }
        for (part, postings) in parts.iter_mut().zip(postings) {
            part.postings = Arc::new(Postings::build(
                postings.iter().map(|(t, p)| (t.as_str(), *p)),
            ));
        }
        let merged = TermStats::from_partials(parts.into_iter().map(Arc::new));
        assert_eq!(merged.documents, whole.documents);
        assert_eq!(merged.total_terms, whole.total_terms);
        for term in ["alpha", "beta", "gamma", "delta", "missing"] {
            assert_eq!(merged.df(term), whole.df(term), "{term}");
            assert_eq!(merged.idf(term), whole.idf(term), "{term}");
        }
    }
}
