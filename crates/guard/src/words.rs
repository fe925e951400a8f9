//! Splitting text into identifier-like tokens and tokens into words.
//!
//! A *token* is a maximal run of alphanumeric characters and underscores, plus hyphens that
//! sit between two alphanumerics (so kebab-case names in strings stay one token). A *word*
//! is a piece of a token after splitting on `_`, `-`, lower→upper case changes
//! (`fooBar`), the end of an acronym (`HTTPServer` → `HTTP`, `Server`) and letter↔digit
//! changes (`v2api` → `v`, `2`, `api`). Banned literals are matched against runs of whole
//! words, which is what gives the guard its word boundaries.

use std::ops::Range;

/// A token of a line: its byte range in the line.
pub fn tokens(line: &str) -> Vec<Range<usize>> {
    let chars: Vec<(usize, char)> = line.char_indices().collect();
    let is_core = |c: char| c.is_alphanumeric() || c == '_';
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (k, &(at, c)) in chars.iter().enumerate() {
        let joins = c == '-'
            && k > 0
            && chars[k - 1].1.is_alphanumeric()
            && chars.get(k + 1).is_some_and(|&(_, n)| n.is_alphanumeric());
        if is_core(c) || (joins && start.is_some()) {
            start.get_or_insert(at);
        } else if let Some(s) = start.take() {
            out.push(s..at);
        }
    }
    if let Some(s) = start {
        out.push(s..line.len());
    }
    out
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    Upper,
    Lower,
    Digit,
    Sep,
}

fn class(c: char) -> Class {
    if c == '_' || c == '-' || c.is_whitespace() {
        Class::Sep
    } else if c.is_numeric() {
        Class::Digit
    } else if c.is_uppercase() {
        Class::Upper
    } else {
        // Lowercase letters and caseless alphanumerics behave alike.
        Class::Lower
    }
}

/// The words of a token, as byte ranges into `token`.
pub fn words(token: &str) -> Vec<Range<usize>> {
    let chars: Vec<(usize, char)> = token.char_indices().collect();
    let mut out = Vec::new();
    let mut start: Option<usize> = None;
    for (k, &(at, c)) in chars.iter().enumerate() {
        let cls = class(c);
        if cls == Class::Sep {
            if let Some(s) = start.take() {
                out.push(s..at);
            }
            continue;
        }
        if let Some(s) = start {
            let prev = class(chars[k - 1].1);
            let next = chars.get(k + 1).map(|&(_, n)| class(n));
            let boundary = match (prev, cls) {
                (Class::Lower, Class::Upper) => true,
                (Class::Digit, Class::Upper | Class::Lower) => true,
                (Class::Upper | Class::Lower, Class::Digit) => true,
                // The last capital of an acronym starts the next word: `HTTPServer`.
                (Class::Upper, Class::Upper) => next == Some(Class::Lower),
                _ => false,
            };
            if boundary {
                out.push(s..at);
                start = Some(at);
            }
        } else {
            start = Some(at);
        }
    }
    if let Some(s) = start {
        out.push(s..token.len());
    }
    out
}

/// The lowercase words of a text, joined without separators: the key a literal is
/// matched by (`"Blue Widget"`, `blue_widget` and `blueWidget` all give
/// `bluewidget`).
pub fn compact_key(text: &str) -> String {
    words(text)
        .into_iter()
        .map(|r| text[r].to_lowercase())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(s: &str) -> Vec<&str> {
        words(s).into_iter().map(|r| &s[r]).collect()
    }

    #[test]
    fn splits_case_styles() {
        assert_eq!(split("fooBarBaz"), ["foo", "Bar", "Baz"]);
        assert_eq!(split("HTTPServer2go"), ["HTTP", "Server", "2", "go"]);
        assert_eq!(
            split("SCREAMING_CASE-kebab"),
            ["SCREAMING", "CASE", "kebab"]
        );
        assert_eq!(split("ok"), ["ok"]);
    }

    #[test]
    fn tokens_join_kebab_but_not_operators() {
        let line = r#"let a = b - c; "some-name" x_y"#;
        let got: Vec<&str> = tokens(line).into_iter().map(|r| &line[r]).collect();
        assert_eq!(got, ["let", "a", "b", "c", "some-name", "x_y"]);
    }
}
