//! Proximity: the query's terms gathered in one short run of a file's lines. A file whose
//! one function mentions three of the query's words is about the query in a way that a
//! file mentioning them in three unrelated places is not; BM25 over the whole file cannot
//! tell the two apart.
//!
//! A query reads the text of its best [`PROXIMITY_FILES`] files, so what does not depend
//! on the file is prepared once per query ([`Proximity::new`]): the tracked terms, their
//! openings, one case-insensitive searcher for their stems, and a memo of each subword's
//! terms. A file is then searched in one reused lowercase buffer (no list of its lines), and
//! only the lines that may hold a term are tokenised.

use std::cell::RefCell;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, Input, MatchKind};
use rustc_hash::FxHashMap;

use crate::facts::LineRange;
use crate::query::QueryTerms;
use crate::terms::{Openings, for_each_term, identifier_tokens, split_identifier_into};

/// Lines in the run the feature looks at: about one function.
pub(crate) const RUN_LINES: usize = 24;
/// How many of the best files (after scoring without proximity) are read for it.
pub(crate) const PROXIMITY_FILES: usize = 32;
/// Query terms tracked (a bit each); a longer query's later terms are ignored.
const MAX_TERMS: usize = 64;
/// Distinct subwords the memo keeps per query: a file of an unusual vocabulary cannot grow
/// it without bound (it starts over when full).
const MEMO_CAP: usize = 1 << 14;

/// One query's proximity scorer: what every file it reads shares.
pub(crate) struct Proximity<'q> {
    /// The query's non-compound terms (at most [`MAX_TERMS`]) with their IDF.
    tracked: Vec<(&'q str, f64)>,
    openings: Openings,
    /// Finds each tracked term less its last letter (see [`Proximity::score`]) in a
    /// lowercased text; `None` when a term is not ASCII (its case cannot be folded
    /// bytewise) or is empty: then every line is a candidate.
    needles: Option<AhoCorasick>,
    /// The text being scored, ASCII-lowercased: one buffer for every file of the query.
    lower: RefCell<Vec<u8>>,
    /// The tracked terms (as bits) each lowercase subword yields, as
    /// [`for_each_term`] gives them: the same words recur on every line and in every file.
    memo: RefCell<FxHashMap<Box<str>, u64>>,
}

/// The terms proximity tracks, with their IDF: the query's single-word terms, at most
/// [`MAX_TERMS`].
fn tracked_terms(terms: &QueryTerms) -> Vec<(&str, f64)> {
    terms
        .terms
        .iter()
        .filter(|t| !t.compound)
        .take(MAX_TERMS)
        .map(|t| (t.term.as_str(), t.idf))
        .collect()
}

impl<'q> Proximity<'q> {
    /// The scorer of `terms`' proximity; `None` when the query tracks no term.
    pub(crate) fn new(terms: &'q QueryTerms) -> Option<Proximity<'q>> {
        let tracked = tracked_terms(terms);
        if tracked.is_empty() {
            return None;
        }
        let openings = Openings::of(tracked.iter().map(|(t, _)| *t));
        Some(Proximity {
            needles: needles(&tracked),
            tracked,
            openings,
            lower: RefCell::default(),
            memo: RefCell::default(),
        })
    }

    /// The summed IDF of the distinct query terms in the best run of [`RUN_LINES`] lines of
    /// `text`, and that run (the earliest among equals). `None` when no term occurs.
    ///
    /// A word's normal form differs from the word at most in its last letter (the stemmer
    /// strips and rewrites endings; a handful of irregular forms aside), so a line can hold
    /// a tracked term only if the term less its last letter occurs in it: those lines alone
    /// are tokenised.
    pub(crate) fn score(&self, text: &str) -> Option<(f64, LineRange)> {
        // The lines holding a term, in order, with the terms each holds as bits.
        let mut marked: Vec<(usize, u64)> = Vec::new();
        let mut mark = |i: usize, line: &str| {
            let mask = self.line_mask(line);
            if mask != 0 {
                marked.push((i, mask));
            }
        };
        match &self.needles {
            Some(needles) => {
                let mut lower = self.lower.borrow_mut();
                lower.clear();
                lower.extend_from_slice(text.as_bytes());
                lower.make_ascii_lowercase();
                for_each_candidate_line(text, &lower, needles, &mut mark);
            }
            None => text.lines().enumerate().for_each(|(i, line)| mark(i, line)),
        }
        self.best_run(&marked)
    }

    /// The tracked terms `line`'s identifiers yield, as bits.
    fn line_mask(&self, line: &str) -> u64 {
        let mut mask = 0u64;
        let mut lower = String::new();
        let mut memo = self.memo.borrow_mut();
        for tok in identifier_tokens(line) {
            split_identifier_into(tok, &mut |w| {
                // A word of ASCII letters and digits lowercases bytewise: its opening is
                // known before it is copied.
                if let [a, b, ..] = w.as_bytes()
                    && w.bytes().all(|c| c.is_ascii_alphanumeric())
                    && !self
                        .openings
                        .admit_pair(a.to_ascii_lowercase(), b.to_ascii_lowercase())
                {
                    return;
                }
                lower.clear();
                crate::terms::push_lowercase(&mut lower, w);
                if !self.openings.admit(&lower) {
                    return;
                }
                if let Some(&bits) = memo.get(lower.as_str()) {
                    mask |= bits;
                    return;
                }
                let mut bits = 0u64;
                for_each_term(&lower, |t| {
                    if let Some(i) = self.tracked.iter().position(|(q, _)| *q == t) {
                        bits |= 1 << i;
                    }
                });
                if memo.len() >= MEMO_CAP {
                    memo.clear();
                }
                memo.insert(lower.as_str().into(), bits);
                mask |= bits;
            });
        }
        mask
    }

    /// The best run over the marked lines (line number and bits, ascending): each run of
    /// [`RUN_LINES`] lines ending at a marked line is weighed by the distinct terms in it,
    /// the first best one kept, and tightened to its marked lines.
    fn best_run(&self, marked: &[(usize, u64)]) -> Option<(f64, LineRange)> {
        let mut counts = [0u32; MAX_TERMS];
        let n = self.tracked.len();
        let weight = |counts: &[u32; MAX_TERMS]| -> f64 {
            self.tracked
                .iter()
                .enumerate()
                .filter(|(i, _)| counts[*i] > 0)
                .map(|(_, (_, idf))| idf)
                .sum()
        };
        let mut best: Option<(f64, usize)> = None;
        // The first marked line still inside the run ending at the current one.
        let mut oldest = 0;
        for (k, &(i, mask)) in marked.iter().enumerate() {
            for (b, count) in counts.iter_mut().enumerate().take(n) {
                if mask & (1 << b) != 0 {
                    *count += 1;
                }
            }
            while oldest < k && marked[oldest].0 + RUN_LINES <= i {
                let old = marked[oldest].1;
                for (b, count) in counts.iter_mut().enumerate().take(n) {
                    if old & (1 << b) != 0 {
                        *count -= 1;
                    }
                }
                oldest += 1;
            }
            let w = weight(&counts);
            if best.is_none_or(|(bw, _)| w > bw + 1e-12) {
                best = Some((w, (i + 1).saturating_sub(RUN_LINES)));
            }
        }
        let (w, start) = best?;
        // The run, tightened to the lines that hold a term.
        let inside = |&&(i, _): &&(usize, u64)| (start..start + RUN_LINES).contains(&i);
        let first = marked.iter().find(inside)?.0;
        let last = marked.iter().rev().find(inside)?.0;
        Some((w, LineRange::new(first as u32 + 1, last as u32 + 1)))
    }
}

/// The searcher of the tracked terms less their last letter (a term of one or two letters
/// whole) in a lowercased text; `None` when one of them is not ASCII or is empty (every
/// line is then a candidate). Case-sensitive over a lowercased copy rather than
/// case-insensitive over the text: only the former keeps the searcher's vectorised
/// prefilter.
fn needles(tracked: &[(&str, f64)]) -> Option<AhoCorasick> {
    let mut patterns: Vec<&[u8]> = Vec::with_capacity(tracked.len());
    for (term, _) in tracked {
        if term.is_empty() || !term.is_ascii() {
            return None;
        }
        let keep = if term.len() > 2 {
            term.len() - 1
        } else {
            term.len()
        };
        let pattern = &term.as_bytes()[..keep];
        // A lowercased text never holds an ASCII capital: such a term finds no line.
        if !pattern.iter().any(u8::is_ascii_uppercase) {
            patterns.push(pattern);
        }
    }
    AhoCorasickBuilder::new()
        .match_kind(MatchKind::LeftmostFirst)
        .build(patterns)
        .ok()
}

/// Calls `f` with the number and text of every line of `text` (as [`str::lines`] splits
/// it) in which `needles` finds something in `lower` (`text` lowercased, byte for byte),
/// in order. Once a line is found the search resumes at the next line: a match never
/// spans a line break (no pattern holds one), so a line holding several matches is found
/// by the first.
fn for_each_candidate_line(
    text: &str,
    lower: &[u8],
    needles: &AhoCorasick,
    f: &mut impl FnMut(usize, &str),
) {
    let bytes = lower;
    // Lines before `counted_to` number `line`.
    let (mut counted_to, mut line) = (0usize, 0usize);
    let mut from = 0;
    while from < bytes.len() {
        let Some(m) = needles.find(Input::new(bytes).span(from..bytes.len())) else {
            break;
        };
        let start = memchr::memrchr(b'\n', &bytes[..m.start()]).map_or(0, |p| p + 1);
        let end = memchr::memchr(b'\n', &bytes[m.start()..]).map(|p| m.start() + p);
        line += memchr::memchr_iter(b'\n', &bytes[counted_to..start]).count();
        counted_to = start;
        let mut text_of_line = &text[start..end.unwrap_or(bytes.len())];
        // `lines` drops the `\r` of a `\r\n`.
        if end.is_some() {
            text_of_line = text_of_line.strip_suffix('\r').unwrap_or(text_of_line);
        }
        f(line, text_of_line);
        match end {
            Some(end) => from = end + 1,
            None => break,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::terms::for_each_term_where;

    fn terms(stats_docs: &[&str], query: &str) -> QueryTerms {
        let mut stats = crate::idf::TermStats::default();
        for d in stats_docs {
            stats.add_document(&crate::terms::TermCounts::from_text(d));
        }
        QueryTerms::parse(query, &stats)
    }

    fn proximity(text: &str, terms: &QueryTerms) -> Option<(f64, LineRange)> {
        Proximity::new(terms)?.score(text)
    }

    /// The definition, over every line: each line's terms as bits (a line without the
    /// stem of one of them less its last letter, ASCII case folded, counts none), and the
    /// first best window of [`RUN_LINES`] lines ending at a line holding a term.
    fn reference(text: &str, terms: &QueryTerms) -> Option<(f64, LineRange)> {
        let tracked = tracked_terms(terms);
        if tracked.is_empty() {
            return None;
        }
        let ascii = tracked.iter().all(|(t, _)| t.is_ascii());
        let openings = Openings::of(tracked.iter().map(|(t, _)| *t));
        let masks: Vec<u64> = text
            .lines()
            .map(|line| {
                let lower = line.to_ascii_lowercase();
                let candidate = !ascii
                    || tracked.iter().any(|(t, _)| {
                        let keep = if t.len() > 2 { t.len() - 1 } else { t.len() };
                        lower.contains(&t[..keep])
                    });
                let mut mask = 0u64;
                if candidate {
                    for tok in identifier_tokens(line) {
                        for_each_term_where(
                            tok,
                            |l| openings.admit(l),
                            |t| {
                                if let Some(i) = tracked.iter().position(|(q, _)| *q == t) {
                                    mask |= 1 << i;
                                }
                            },
                        );
                    }
                }
                mask
            })
            .collect();
        let mut best: Option<(f64, usize)> = None;
        for (i, &mask) in masks.iter().enumerate() {
            if mask == 0 {
                continue;
            }
            let start = (i + 1).saturating_sub(RUN_LINES);
            let held = masks[start..=i].iter().fold(0, |a, m| a | m);
            let w: f64 = tracked
                .iter()
                .enumerate()
                .filter(|(b, _)| held & (1 << b) != 0)
                .map(|(_, (_, idf))| idf)
                .sum();
            if best.is_none_or(|(bw, _)| w > bw + 1e-12) {
                best = Some((w, start));
            }
        }
        let (w, start) = best?;
        let end = (start + RUN_LINES).min(masks.len());
        let first = (start..end).find(|&i| masks[i] != 0)?;
        let last = (start..end).rev().find(|&i| masks[i] != 0)?;
        Some((w, LineRange::new(first as u32 + 1, last as u32 + 1)))
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

    proptest::proptest! {
        /// The per-query scorer (a searcher over the text in place, the marked lines
        /// alone) gives exactly the dense definition's weight and run, line breaks of
        /// either kind, capitals and non-ASCII letters included.
        #[test]
        fn the_scorer_equals_the_definition_over_every_line(
            lines in proptest::collection::vec(
                // Mostly lines without a term, so runs start and end between them.
                proptest::option::weighted(0.06, proptest::collection::vec(
                    "(Retry|retries|REQUEST|requested|timeOut|time_out|x|Größe|größe|\\r| |\\(|\\))",
                    1..5,
                )),
                0..300,
            ),
            crlf in proptest::bool::ANY,
            last_break in proptest::bool::ANY,
            query in "(retry request timeout|größe retry|request|time out retries)",
        ) {
            let q = terms(
                &["retry request timeout", "retry request", "retry", "größe", "other", "x"],
                &query,
            );
            let sep = if crlf { "\r\n" } else { "\n" };
            let mut text = lines
                .iter()
                .map(|l| l.as_deref().unwrap_or_default().concat())
                .collect::<Vec<_>>()
                .join(sep);
            if last_break {
                text.push_str(sep);
            }
            proptest::prop_assert_eq!(proximity(&text, &q), reference(&text, &q));
        }
    }
}
