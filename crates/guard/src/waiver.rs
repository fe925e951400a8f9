//! Waiver comments. A heuristic check has false positives; the way out is a `//` comment
//! on the flagged line or the line above it:
//!
//! ```text
//! // guard: allow(<check>) reason: <why this is not what the check is about>
//! ```
//!
//! where `<check>` is `literal`, `lexicon` or `query-regex`. The reason is mandatory and
//! every waived finding is listed in the report, so waivers stay visible in review.
//! Doc comments (`///`, `//!`) are never waivers, so documentation can show the syntax.

use crate::lexer::{Kind, Token};
use crate::report::{Check, FindingKind, Waiver};

/// What a `guard:` comment turned out to be.
pub enum Parsed {
    /// A well-formed waiver.
    Waiver(Waiver),
    /// A comment that starts like a waiver but is not one: (line, column, problem).
    Malformed(usize, usize, FindingKind),
}

const MARKER: &str = "guard:";

/// Every `guard:` line comment of a file, parsed.
pub fn collect(path: &str, tokens: &[Token]) -> Vec<Parsed> {
    tokens
        .iter()
        .filter_map(|token| match &token.kind {
            Kind::LineComment(text) => {
                let body = text.trim_start().strip_prefix(MARKER)?;
                Some(match parse(body.trim()) {
                    Ok((check, reason)) => Parsed::Waiver(Waiver {
                        path: path.to_string(),
                        line: token.line,
                        check,
                        reason,
                    }),
                    Err(problem) => Parsed::Malformed(
                        token.line,
                        token.column,
                        FindingKind::BadWaiver { problem },
                    ),
                })
            }
            _ => None,
        })
        .collect()
}

/// Parses `allow(<check>) reason: <why>`.
fn parse(body: &str) -> Result<(Check, String), String> {
    let expected = "expected `allow(<check>) reason: <why>`";
    let rest = body
        .strip_prefix("allow(")
        .ok_or_else(|| expected.to_string())?;
    let (name, rest) = rest.split_once(')').ok_or_else(|| expected.to_string())?;
    let name = name.trim();
    let check = Check::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Check::ALL.iter().map(|c| c.name()).collect();
        format!("unknown check `{name}` (known: {})", known.join(", "))
    })?;
    let reason = rest
        .trim()
        .strip_prefix("reason:")
        .map(str::trim)
        .unwrap_or_default();
    if reason.is_empty() {
        return Err(format!(
            "allow({}) gives no reason (add `reason: <why>`)",
            check.name()
        ));
    }
    Ok((check, reason.to_string()))
}
