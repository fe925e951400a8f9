//! The lines a deterministic report quotes beside a place's signature: those of its observed
//! text that hold the query's most specific words and literals the signature does not, so
//! a reader sees why the place was chosen without reading it. Sized by the evidence: a line
//! joins only when what it adds is specific (at least [`SPECIFIC_SHARE`] of the query's
//! most specific word's IDF), so a place whose only other evidence is a common word gets
//! no extra line, and a signature that already holds the evidence stands alone.

use sightline_observe::query::QueryTerms;
use sightline_observe::sizing::line_terms;
use sightline_registry::{Candidate, EvidenceLine};

/// A line is evidence when the query pieces it adds weigh at least this share of the
/// query's most specific word: below it, it adds only words common in the repository.
pub const SPECIFIC_SHARE: f64 = 0.5;
/// The longest line quoted, as the validator's default quote limit
/// (`Budget::max_quote_chars`): a longer line (minified code, a data table) says less
/// than it costs.
const LONGEST_LINE: usize = 240;

/// The query's pieces one line holds, each with its weight ([`line_terms`]).
type Pieces = Vec<(String, f64)>;

/// The query's heaviest known word (its IDF), or literal when it has no word: what
/// "specific" is measured against. A literal's specificity is not the yardstick when the
/// query has words: a named identifier is usually far rarer than any word, and the lines
/// that explain a named place hold the query's other words.
fn heaviest(terms: &QueryTerms) -> f64 {
    let word = terms
        .terms
        .iter()
        .filter(|t| !t.compound)
        .map(|t| t.idf)
        .fold(0.0, f64::max);
    if word > 0.0 {
        return word;
    }
    terms.known_literals().map(|l| l.idf).fold(0.0, f64::max)
}

/// Up to `cap` lines of `c`'s observed text within its range, other than `quoted` (the line
/// the flow link already quotes), that add the most specific query evidence, in line order.
/// Greedy: each pick adds the heaviest pieces not yet shown (by the quote or an earlier
/// pick); ties go to a declaration's signature line, then to the shorter line, then to the
/// earlier one.
pub fn evidence_lines(
    c: &Candidate,
    terms: &QueryTerms,
    quoted: u32,
    cap: usize,
) -> Vec<EvidenceLine> {
    let Some(range) = c.range else {
        return Vec::new();
    };
    let floor = SPECIFIC_SHARE * heaviest(terms);
    if cap == 0 || floor <= 0.0 {
        return Vec::new();
    }
    let mut shown: Vec<String> = Vec::new();
    let mut lines: Vec<(u32, &str, Pieces)> = Vec::new();
    for o in &c.observed {
        for (n, text) in (o.lines.start..).zip(o.text.lines()) {
            if !range.contains_line(n) || lines.iter().any(|(m, _, _)| *m == n) {
                continue;
            }
            let found = line_terms(terms, text);
            if n == quoted {
                shown.extend(found.into_iter().map(|(k, _)| k));
            } else if !found.is_empty()
                && text.chars().any(char::is_alphanumeric)
                && text.trim().chars().count() <= LONGEST_LINE
            {
                lines.push((n, text, found));
            }
        }
    }
    let is_signature = |n: u32| c.symbols.iter().any(|s| s.line == n);
    let mut picked: Vec<EvidenceLine> = Vec::new();
    while picked.len() < cap {
        let adds = |found: &[(String, f64)]| -> f64 {
            found
                .iter()
                .filter(|(k, _)| !shown.contains(k))
                .map(|(_, w)| w)
                .sum()
        };
        let best = lines
            .iter()
            .enumerate()
            .map(|(i, (n, text, found))| (i, adds(found), is_signature(*n), text.trim().len(), *n))
            .filter(|&(_, w, ..)| w >= floor)
            .max_by(|a, b| {
                a.1.total_cmp(&b.1)
                    .then(a.2.cmp(&b.2))
                    .then(b.3.cmp(&a.3))
                    .then(b.4.cmp(&a.4))
            });
        let Some((i, ..)) = best else { break };
        let (n, text, found) = lines.swap_remove(i);
        shown.extend(found.into_iter().map(|(k, _)| k));
        picked.push(EvidenceLine {
            line: n,
            text: text.trim_end().to_owned(),
        });
    }
    picked.sort_by_key(|e| e.line);
    picked
}
