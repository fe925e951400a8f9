//! Quote verification (rule 2): a flow link's quote must appear in the text a tool showed
//! for its candidate. Matching is forgiving about layout only: runs of whitespace collapse
//! to one space, and line-number prefixes copied from numbered tool output (`  42 code`,
//! `42| code`, `42: code`) are stripped. It is matched against the untruncated observed
//! text, never against a rendering.

use sightline_base::selection::{MAX_EVIDENCE_LINES, MAX_QUOTE_LINES};
use sightline_base::{Candidate, EvidenceLine};

/// Why a quote was rejected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QuoteError {
    /// The quote has no text.
    Empty,
    /// The quote spans this many lines, more than allowed.
    TooManyLines(usize),
    /// Found, but too small a piece to be evidence (`"e"` is in every file).
    NotMeaningful,
    /// No tool showed this text for the candidate.
    NotObserved,
}

impl QuoteError {
    /// The rejection in words a model can act on.
    pub fn reason(&self) -> String {
        match self {
            QuoteError::Empty => "the quote is empty".to_owned(),
            QuoteError::TooManyLines(n) => {
                format!("the quote has {n} lines; at most {MAX_QUOTE_LINES} are allowed")
            }
            QuoteError::NotMeaningful => format!(
                "the quote is not a meaningful span: quote a whole line, or at least \
                 {MIN_QUOTE_CHARS} non-space characters of whole tokens"
            ),
            QuoteError::NotObserved => {
                "the quote is not in the text observed for this candidate".to_owned()
            }
        }
    }
}

/// Collapses every run of whitespace to one space and trims the ends.
/// Fewest non-space characters a quote that is not a whole line must have.
pub const MIN_QUOTE_CHARS: usize = 12;

/// Whether `needle`, found in the normalised observed text `hay`, is evidence: a whole
/// observed line with a letter or digit in it, or a run of whole tokens (it neither starts
/// nor ends inside a word) with at least [`MIN_QUOTE_CHARS`] non-space characters.
fn is_meaningful(needle: &str, hay: &str, lines: &[String]) -> bool {
    if lines.iter().any(|l| l == needle) && needle.chars().any(char::is_alphanumeric) {
        return true;
    }
    if needle.chars().filter(|c| !c.is_whitespace()).count() < MIN_QUOTE_CHARS {
        return false;
    }
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let first_is_word = needle.chars().next().is_some_and(word);
    let last_is_word = needle.chars().next_back().is_some_and(word);
    hay.match_indices(needle).any(|(i, _)| {
        let before = hay[..i].chars().next_back();
        let after = hay[i + needle.len()..].chars().next();
        let cuts_a_word_before = first_is_word && before.is_some_and(word);
        let cuts_a_word_after = last_is_word && after.is_some_and(word);
        !cuts_a_word_before && !cuts_a_word_after
    })
}

/// A matched quote line as the tools showed it: the observed line it is in whole, with
/// its indentation and spacing, or the normalized span when it is part of a line.
fn as_observed(line: String, candidate: &Candidate) -> String {
    candidate
        .observed
        .iter()
        .flat_map(|o| o.text.lines())
        .find(|raw| normalize(raw) == line)
        .map_or(line, |raw| raw.trim_end().to_owned())
}

/// Collapses every run of whitespace to one space and trims the ends, so quotes compare
/// across indentation and wrapping.
pub fn normalize(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The line without a leading line number (`  42 x`, `42| x`, `42 | x`, `42: x`) and the
/// candidate label tools print after one (`42 [c7 40-60] x`), or `None` when it has no
/// number.
fn strip_line_number(line: &str) -> Option<&str> {
    let rest = strip_number(line)?;
    Some(strip_label(rest).unwrap_or(rest))
}

/// `rest` without a leading candidate label (`[c7]`, `[c7 40-60]`) and the space after it.
fn strip_label(rest: &str) -> Option<&str> {
    let t = rest.trim_start();
    let close = t.find(']')?;
    t[..=close].parse::<sightline_base::CandidateId>().ok()?;
    Some(&t[close + 1..])
}

fn strip_number(line: &str) -> Option<&str> {
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
/// lines as matched (line numbers stripped when that is how they matched): a whole
/// observed line verbatim with its indentation, a part of one whitespace-normalized. That
/// is how the report shows them.
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
    let observed_lines: Vec<String> = candidate
        .observed
        .iter()
        .flat_map(|o| o.text.lines().map(normalize))
        .collect();
    let mut found_but_small = false;
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
        let found: Vec<&String> = haystacks.iter().filter(|h| h.contains(&needle)).collect();
        if found.is_empty() {
            continue;
        }
        // A two-line quote is never one observed line; its joined lines are checked as a
        // run of tokens.
        if found
            .iter()
            .any(|h| is_meaningful(&needle, h, &observed_lines))
        {
            return Ok(reading
                .into_iter()
                .filter(|l| !l.is_empty())
                .map(|l| as_observed(l, candidate))
                .collect());
        }
        found_but_small = true;
    }
    Err(if found_but_small {
        QuoteError::NotMeaningful
    } else {
        QuoteError::NotObserved
    })
}

/// The observed line `line` of `candidate`, within its range, as the tool showed it.
fn observed_line(candidate: &Candidate, line: u32) -> Option<&str> {
    if !candidate.range?.contains_line(line) {
        return None;
    }
    candidate.observed_line(line)
}

/// Checks an evidence line against `candidate`: the line it names lies in the candidate's
/// range, a tool showed it, and it reads as `evidence.text` (whitespace collapsed) with a
/// letter or digit in it. Returns the line as observed, trailing space trimmed.
pub fn verify_line(evidence: &EvidenceLine, candidate: &Candidate) -> Result<String, QuoteError> {
    let wanted = normalize(&evidence.text);
    if wanted.is_empty() {
        return Err(QuoteError::Empty);
    }
    let raw = observed_line(candidate, evidence.line).ok_or(QuoteError::NotObserved)?;
    if normalize(raw) != wanted {
        return Err(QuoteError::NotObserved);
    }
    if !wanted.chars().any(char::is_alphanumeric) {
        return Err(QuoteError::NotMeaningful);
    }
    Ok(raw.trim_end().to_owned())
}

/// The line number of a verified quote's first line ([`verify`]'s result) in `candidate`:
/// the first line within its range whose observed text is (for a whole line) or holds (for
/// part of one) that line, followed by the quote's other lines. `None` when it cannot be
/// placed on observed lines (a quote joined across a line break mid-line).
pub fn locate(lines: &[String], candidate: &Candidate) -> Option<u32> {
    let range = candidate.range?;
    let first = normalize(lines.first()?);
    let fits = |at: u32| {
        lines.iter().enumerate().all(|(k, l)| {
            let Some(raw) = observed_line(candidate, at + k as u32) else {
                return false;
            };
            let (raw, l) = (normalize(raw), normalize(l));
            if k == 0 {
                raw.contains(&l)
            } else {
                raw == l || raw.starts_with(&l)
            }
        })
    };
    let mut starts: Vec<u32> = candidate
        .observed
        .iter()
        .flat_map(|o| {
            (o.lines.start..)
                .zip(o.text.lines())
                .filter(|(_, raw)| normalize(raw).contains(&first))
                .map(|(n, _)| n)
        })
        .filter(|&n| range.contains_line(n))
        .collect();
    starts.sort_unstable();
    starts.into_iter().find(|&n| fits(n))
}

/// Rule 2c: drops evidence lines that do not check out against their link's candidate
/// ([`verify_line`]), repeat the quote or another line, or pass
/// [`MAX_EVIDENCE_LINES`]. Runs after narrowing, so the lines are checked against the
/// candidate the link finally cites.
pub(crate) fn drop_unverified_evidence(
    pass: &mut crate::pass::Pass,
    registry: &sightline_base::Registry,
) {
    use crate::outcome::Rule;
    use crate::pass::drop_of;
    for link in &mut pass.sel.flow {
        if link.evidence.is_empty() {
            continue;
        }
        let c = registry.get(link.candidate);
        let quoted: Option<(u32, usize)> = c.and_then(|c| {
            let lines = verify(&link.quote, c).ok()?;
            Some((locate(&lines, c)?, lines.len()))
        });
        let mut kept: Vec<EvidenceLine> = Vec::new();
        for e in link.evidence.drain(..) {
            let what = format!("flow link {} line {}", link.candidate, e.line);
            let checked = match c {
                Some(c) => verify_line(&e, c),
                None => Err(QuoteError::NotObserved),
            };
            let repeated = kept.iter().any(|k| k.line == e.line)
                || quoted.is_some_and(|(at, n)| (at..at + n as u32).contains(&e.line));
            let dropped = match checked {
                Err(err) => Some(drop_of(Rule::QuoteUnverified, what, err.reason())),
                Ok(_) if repeated => Some(drop_of(
                    Rule::Duplicate,
                    what,
                    "the line is already quoted for this place",
                )),
                Ok(_) if kept.len() >= MAX_EVIDENCE_LINES => Some(drop_of(
                    Rule::OverCount,
                    what,
                    format!("at most {MAX_EVIDENCE_LINES} evidence lines per place"),
                )),
                Ok(_) => None,
            };
            match dropped {
                Some(d) => pass.drops.push(d),
                None => kept.push(e),
            }
        }
        link.evidence = kept;
    }
}

/// Rule 2: drops flow links whose quote does not check out against their candidate.
pub(crate) fn drop_unverified(pass: &mut crate::pass::Pass, registry: &sightline_base::Registry) {
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
        assert_eq!(
            strip_line_number(" 250 [c32 250-290] def foo():"),
            Some(" def foo():")
        );
        assert_eq!(strip_line_number("12: [c7] x"), Some(" x"));
        assert_eq!(strip_line_number("12: [cx] x"), Some(" [cx] x"));
    }

    #[test]
    fn normalizes_whitespace() {
        assert_eq!(normalize("  a \t b\n\n c  "), "a b c");
    }
}
