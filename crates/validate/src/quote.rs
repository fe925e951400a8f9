//! Quote verification (rule 2): a flow link's quote must appear in the text a tool showed
//! for its candidate. Matching is forgiving about layout only: runs of whitespace collapse
//! to one space, and line-number prefixes copied from numbered tool output (`  42 code`,
//! `42| code`, `42: code`) are stripped. It is matched against the untruncated observed
//! text, never against a rendering.

use sightline_registry::Candidate;
use sightline_registry::selection::MAX_QUOTE_LINES;

/// Why a quote was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuoteError {
    Empty,
    TooManyLines(usize),
    NotObserved,
}

impl QuoteError {
    pub fn reason(&self) -> String {
        match self {
            QuoteError::Empty => "the quote is empty".to_owned(),
            QuoteError::TooManyLines(n) => {
                format!("the quote has {n} lines; at most {MAX_QUOTE_LINES} are allowed")
            }
            QuoteError::NotObserved => {
                "the quote is not in the text observed for this candidate".to_owned()
            }
        }
    }
}

/// Collapses every run of whitespace to one space and trims the ends.
pub fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The line without a leading line number (`  42 x`, `42| x`, `42 | x`, `42: x`), or
/// `None` when it has none.
fn strip_line_number(line: &str) -> Option<&str> {
    let t = line.trim_start();
    let digits = t.len() - t.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    if digits == 0 {
        return None;
    }
    let rest = &t[digits..];
    let after_sep = rest.trim_start_matches([' ', '\t']);
    if let Some(r) = after_sep
        .strip_prefix('|')
        .or_else(|| after_sep.strip_prefix(':'))
    {
        return Some(r);
    }
    // A bare number followed by whitespace; a number alone on a line is a number prefix of an
    // empty line.
    if after_sep.len() < rest.len() || rest.is_empty() {
        Some(after_sep)
    } else {
        None
    }
}

/// The quote's non-blank lines.
fn quote_lines(quote: &str) -> Vec<&str> {
    quote.lines().filter(|l| !l.trim().is_empty()).collect()
}

/// The readings of a quote worth matching: as written, and with line numbers stripped
/// when every line carries one (a partial strip would be a guess).
fn readings(lines: &[&str]) -> Vec<Vec<String>> {
    let as_written: Vec<String> = lines.iter().map(|l| normalize(l)).collect();
    let stripped: Option<Vec<String>> = lines
        .iter()
        .map(|l| strip_line_number(l).map(normalize))
        .collect();
    // Stripped first: when the model copied numbered output, the numbers are not code.
    match stripped {
        Some(s) if s != as_written && s.iter().any(|l| !l.is_empty()) => vec![s, as_written],
        _ => vec![as_written],
    }
}

/// Checks `quote` against `candidate`'s observed text; on success returns the quote's
/// lines as matched (whitespace-normalized, line numbers stripped when that is how they
/// matched), which is how the report shows them.
pub fn verify(quote: &str, candidate: &Candidate) -> Result<Vec<String>, QuoteError> {
    let lines = quote_lines(quote);
    if lines.is_empty() {
        return Err(QuoteError::Empty);
    }
    if lines.len() > MAX_QUOTE_LINES {
        return Err(QuoteError::TooManyLines(lines.len()));
    }
    let haystacks: Vec<String> = candidate
        .observed
        .iter()
        .map(|o| normalize(&o.text))
        .collect();
    for reading in readings(&lines) {
        let needle = reading
            .iter()
            .filter(|l| !l.is_empty())
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
        if needle.is_empty() {
            continue;
        }
        if haystacks.iter().any(|h| h.contains(&needle)) {
            return Ok(reading.into_iter().filter(|l| !l.is_empty()).collect());
        }
    }
    Err(QuoteError::NotObserved)
}

/// Rule 2: drops flow links whose quote does not check out against their candidate.
pub(crate) fn drop_unverified(
    pass: &mut crate::pass::Pass,
    registry: &sightline_registry::Registry,
) {
    use crate::outcome::Rule;
    use crate::pass::{drop_of, retain_or_record};
    retain_or_record(&mut pass.sel.flow, &mut pass.drops, |l, _| {
        let checked = match registry.get(l.candidate) {
            Some(c) => verify(&l.quote, c),
            None => Err(QuoteError::NotObserved),
        };
        match checked {
            Ok(_) => Ok(()),
            Err(e) => Err(drop_of(
                Rule::QuoteUnverified,
                format!("flow link {}", l.candidate),
                e.reason(),
            )),
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strips_common_number_prefixes() {
        assert_eq!(strip_line_number("  42 let x = 1;"), Some("let x = 1;"));
        assert_eq!(strip_line_number("42| let x"), Some(" let x"));
        assert_eq!(strip_line_number("42 | let x"), Some(" let x"));
        assert_eq!(strip_line_number("42: let x"), Some(" let x"));
        assert_eq!(strip_line_number("let x"), None);
        assert_eq!(strip_line_number("42x"), None);
    }

    #[test]
    fn normalizes_whitespace() {
        assert_eq!(normalize("  a \t b\n\n c  "), "a b c");
    }
}
