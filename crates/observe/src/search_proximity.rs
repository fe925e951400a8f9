//! Proximity: the query's terms gathered in one short run of a file's lines. A file whose
//! one function mentions three of the query's words is about the query in a way that a
//! file mentioning them in three unrelated places is not; BM25 over the whole file cannot
//! tell the two apart.

use crate::facts::LineRange;
use crate::query::QueryTerms;
use crate::terms::{Openings, for_each_term_where, identifier_tokens};

/// Lines in the run the feature looks at: about one function.
pub(crate) const RUN_LINES: usize = 24;
/// How many of the best files (after scoring without proximity) are read for it.
pub(crate) const PROXIMITY_FILES: usize = 32;
/// Query terms tracked (a bit each); a longer query's later terms are ignored.
const MAX_TERMS: usize = 64;

/// The summed IDF of the distinct query terms in the best run of [`RUN_LINES`] lines of
/// `text`, and that run (the earliest among equals). `None` when no term occurs.
pub(crate) fn proximity(text: &str, terms: &QueryTerms) -> Option<(f64, LineRange)> {
    let tracked: Vec<(&str, f64)> = terms
        .terms
        .iter()
        .filter(|t| !t.compound)
        .take(MAX_TERMS)
        .map(|t| (t.term.as_str(), t.idf))
        .collect();
    if tracked.is_empty() {
        return None;
    }
    // A word's normal form differs from the word at most in its last letter (the stemmer
    // strips and rewrites endings; a handful of irregular forms aside), so a line can hold
    // a tracked term only if the term less its last letter occurs in it: those lines alone
    // are tokenised.
    let lines: Vec<&str> = text.lines().collect();
    let candidates = candidate_lines(text, &lines, &tracked);
    let openings = Openings::of(tracked.iter().map(|(t, _)| *t));
    let worth = |lower: &str| openings.admit(lower);
    let masks: Vec<u64> = lines
        .iter()
        .zip(&candidates)
        .map(|(line, &candidate)| {
            let mut mask = 0u64;
            if !candidate {
                return mask;
            }
            for tok in identifier_tokens(line) {
                for_each_term_where(tok, worth, |t| {
                    if let Some(i) = tracked.iter().position(|(q, _)| *q == t) {
                        mask |= 1 << i;
                    }
                });
            }
            mask
        })
        .collect();
    let mut counts = [0u32; MAX_TERMS];
    let weight = |counts: &[u32; MAX_TERMS]| -> f64 {
        tracked
            .iter()
            .enumerate()
            .filter(|(i, _)| counts[*i] > 0)
            .map(|(_, (_, idf))| idf)
            .sum()
    };
    let mut best: Option<(f64, usize)> = None;
    for (i, &mask) in masks.iter().enumerate() {
        for (b, count) in counts.iter_mut().enumerate().take(tracked.len()) {
            if mask & (1 << b) != 0 {
                *count += 1;
            }
        }
        if i >= RUN_LINES {
            let old = masks[i - RUN_LINES];
            for (b, count) in counts.iter_mut().enumerate().take(tracked.len()) {
                if old & (1 << b) != 0 {
                    *count -= 1;
                }
            }
        }
        // A window is scored where a line adds a term: only then can it improve.
        if mask != 0 {
            let w = weight(&counts);
            if best.is_none_or(|(bw, _)| w > bw + 1e-12) {
                best = Some((w, (i + 1).saturating_sub(RUN_LINES)));
            }
        }
    }
    let (w, start) = best?;
    // The run, tightened to the lines that hold a term.
    let end = (start + RUN_LINES).min(masks.len());
    let first = (start..end).find(|&i| masks[i] != 0)?;
    let last = (start..end).rev().find(|&i| masks[i] != 0)?;
    Some((w, LineRange::new(first as u32 + 1, last as u32 + 1)))
}

/// Which of `lines` (the lines of `text`) may hold a tracked term (see [`proximity`]); every
/// line when a term is not ASCII (its case cannot be folded bytewise).
fn candidate_lines(text: &str, lines: &[&str], tracked: &[(&str, f64)]) -> Vec<bool> {
    if tracked.iter().any(|(t, _)| !t.is_ascii()) {
        return vec![true; lines.len()];
    }
    let lower = text.to_ascii_lowercase();
    // Byte offset where each line starts (`lines()` splits at `\n`, so offsets line up).
    let mut starts: Vec<usize> = Vec::with_capacity(lines.len());
    let mut at = 0;
    for line in lines {
        starts.push(at);
        at += line.len() + 1;
        if text.as_bytes().get(at - 1) == Some(&b'\r') {
            at += 1;
        }
    }
    let mut out = vec![false; lines.len()];
    for (term, _) in tracked {
        let keep = if term.len() > 2 {
            term.len() - 1
        } else {
            term.len()
        };
        for pos in memchr::memmem::find_iter(lower.as_bytes(), &term.as_bytes()[..keep]) {
            let line = starts.partition_point(|&s| s <= pos).saturating_sub(1);
            if let Some(flag) = out.get_mut(line) {
                *flag = true;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn terms(stats_docs: &[&str], query: &str) -> QueryTerms {
        let mut stats = crate::idf::TermStats::default();
        for d in stats_docs {
            stats.add_document(&crate::terms::TermCounts::from_text(d));
        }
        QueryTerms::parse(query, &stats)
    }

    #[test]
    fn terms_together_beat_terms_apart() {
        let q = terms(
            &["retry request", "timeout", "other"],
            "retry request timeout",
        );
        let together = "fn a() {\n  retry(request, timeout);\n}\n";
        let mut apart = String::from("retry\n");
        apart.push_str(&"x\n".repeat(RUN_LINES + 5));
        apart.push_str("request\n");
        apart.push_str(&"x\n".repeat(RUN_LINES + 5));
        apart.push_str("timeout\n");
        let (t, run) = proximity(together, &q).unwrap();
        let (a, _) = proximity(&apart, &q).unwrap();
        assert!(t > a, "{t} {a}");
        assert_eq!(run, LineRange::new(2, 2));
        assert!(proximity("nothing here", &q).is_none());
    }
}
