//! The other readings of a `grep` pattern that matched nothing as sent, in the order they
//! are tried: the other regex-ness (a literal `a|b` as a regex, a regex `f(x)` or an
//! invalid one as literal text), an alternation's pieces each as written when it is no
//! valid regex (whether sent as one or as literal text), and a
//! capitalised pattern ignoring case. `grep::run` answers with the first that matches and
//! says which it was ([`ReadAs`]).

use grep_regex::RegexMatcherBuilder;

use super::grep::{GrepArgs, ReadAs};

/// The readings to try, each with how the result will say it was read. `invalid_regex`:
/// the pattern was sent as a regex that does not compile.
pub(crate) fn other_readings(args: &GrepArgs, invalid_regex: bool) -> Vec<(GrepArgs, ReadAs)> {
    let mut readings = Vec::new();
    if invalid_regex || has_regex_syntax(&args.pattern) {
        let other = GrepArgs {
            regex: !args.regex,
            ..args.clone()
        };
        let read_as = ReadAs {
            regex: other.regex,
            invalid_regex,
            ignoring_case: false,
            alternatives: false,
        };
        readings.push((other, read_as));
    }
    // An alternation sent as literal text whose regex reading does not compile either
    // (`get_dependant(|solve_dependencies(`): the agent meant each piece as written, and
    // both readings above found nothing, so its pieces are read apart as for an invalid
    // regex.
    let invalid_either_way =
        invalid_regex || (!args.regex && RegexMatcherBuilder::new().build(&args.pattern).is_err());
    if let Some(mended) = invalid_either_way
        .then(|| mend_alternatives(&args.pattern))
        .flatten()
    {
        let other = GrepArgs {
            pattern: mended,
            regex: true,
            ..args.clone()
        };
        let read_as = ReadAs {
            regex: true,
            invalid_regex,
            ignoring_case: false,
            alternatives: true,
        };
        readings.push((other, read_as));
    }
    if !invalid_regex
        && args.case_sensitive.is_none()
        && args.pattern.chars().any(char::is_uppercase)
    {
        let other = GrepArgs {
            case_sensitive: Some(false),
            ..args.clone()
        };
        let read_as = ReadAs {
            regex: args.regex,
            invalid_regex: false,
            ignoring_case: true,
            alternatives: false,
        };
        readings.push((other, read_as));
    }
    readings
}

/// Characters that make a literal pattern mean something else as a regex.
pub(crate) fn has_regex_syntax(pattern: &str) -> bool {
    pattern.contains([
        '.', '^', '$', '*', '+', '?', '(', ')', '[', ']', '{', '}', '|', '\\',
    ])
}

/// An invalid regex's `|` alternatives (split outside classes and escapes), each kept as a
/// regex where it compiles and escaped to literal text where it does not, joined again:
/// an agent that mixes `\(` with a bare `(` in one alternation means each piece as
/// written. `None` without two alternatives or when nothing needed mending.
fn mend_alternatives(pattern: &str) -> Option<String> {
    let mut pieces = vec![String::new()];
    let (mut escaped, mut in_class) = (false, false);
    for c in pattern.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' => in_class = true,
            ']' => in_class = false,
            '|' if !in_class => {
                pieces.push(String::new());
                continue;
            }
            _ => {}
        }
        pieces.last_mut()?.push(c);
    }
    if pieces.len() < 2 {
        return None;
    }
    let compiles = |piece: &str| RegexMatcherBuilder::new().build(piece).is_ok();
    let mut mended_any = false;
    let mended: Vec<String> = pieces
        .iter()
        .map(|piece| match compiles(piece) {
            true => format!("(?:{piece})"),
            false => {
                mended_any = true;
                regex_syntax::escape(piece)
            }
        })
        .collect();
    mended_any.then(|| mended.join("|"))
}

#[cfg(test)]
mod tests {
    use super::{RegexMatcherBuilder, mend_alternatives};
    use proptest::prelude::*;

    proptest! {
        /// A mended pattern always compiles, and any text reads literally once escaped.
        #[test]
        fn mended_alternatives_and_escaped_text_compile(pattern in "[a-z()\\[\\]|\\\\.?*+{}^$#&~-]{0,12}") {
            if let Some(mended) = mend_alternatives(&pattern) {
                prop_assert!(RegexMatcherBuilder::new().build(&mended).is_ok(), "{mended}");
            }
            let literal = regex_syntax::escape(&pattern);
            let matcher = RegexMatcherBuilder::new().build(&literal);
            prop_assert!(matcher.is_ok(), "{literal}");
            let found = grep_matcher::Matcher::find(&matcher.unwrap(), pattern.as_bytes());
            prop_assert!(pattern.is_empty() || found.unwrap().is_some_and(|m| m.start() == 0 && m.end() == pattern.len()));
        }
    }
}
