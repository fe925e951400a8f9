//! Statistics of the repository's own vocabulary: document frequencies and IDF weights.

use std::collections::HashMap;

use crate::terms::TermCounts;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TermStats {
    pub documents: u32,
    pub total_terms: u64,
    pub df: HashMap<String, u32>,
}

impl TermStats {
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
}
