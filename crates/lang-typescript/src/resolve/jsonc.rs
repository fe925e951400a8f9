//! A small, tolerant JSONC → JSON converter for `tsconfig*.json` (and, harmlessly,
//! `package.json`).
//!
//! TypeScript accepts `//` and `/* */` comments and trailing commas in its config files.
//! Rather than pull in a JSON5 parser, we blank those out and hand the result to
//! `serde_json`. Comments are replaced by spaces (newlines kept) so that the line and
//! column of a later `serde_json` error still point at the original text.

/// Returns `text` with comments and trailing commas replaced by whitespace.
///
/// Never fails: an unterminated string or block comment simply runs to the end of the
/// input, and the JSON parser that follows reports the real problem.
pub fn strip_jsonc(text: &str) -> String {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let bytes = text.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        match b {
            b'"' => {
                let end = string_end(bytes, i);
                out.extend_from_slice(&bytes[i..end]);
                i = end;
            }
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                while i < bytes.len() && bytes[i] != b'\n' {
                    out.push(blank(bytes[i]));
                    i += 1;
                }
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                out.extend_from_slice(b"  ");
                i += 2;
                while i < bytes.len() && !(bytes[i] == b'*' && bytes.get(i + 1) == Some(&b'/')) {
                    out.push(blank(bytes[i]));
                    i += 1;
                }
                if i < bytes.len() {
                    out.extend_from_slice(b"  ");
                    i += 2;
                }
            }
            b'}' | b']' => {
                blank_trailing_comma(&mut out);
                out.push(b);
                i += 1;
            }
            _ => {
                out.push(b);
                i += 1;
            }
        }
    }
    // Characters are either copied whole or blanked whole (see `blank`), so this cannot
    // fail; stay panic-free anyway.
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

/// Index just past the string literal that starts at `start` (which holds `"`).
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut i = start + 1;
    while i < bytes.len() {
        match bytes[i] {
            b'\\' => i += 2,
            b'"' => return i + 1,
            _ => i += 1,
        }
    }
    bytes.len()
}

/// Blanks one comment byte but keeps line breaks, so error positions stay meaningful.
/// Every byte of a multi-byte character becomes a space: comments end at ASCII
/// delimiters, so whole characters are replaced and the output stays valid UTF-8.
fn blank(b: u8) -> u8 {
    if b == b'\n' || b == b'\r' { b } else { b' ' }
}

/// Called before a closing bracket: if the last significant byte emitted is a comma,
/// it is a trailing comma. It cannot be inside a string, because a string always ends
/// with `"`, and comments were already blanked.
fn blank_trailing_comma(out: &mut [u8]) {
    if let Some(pos) = out.iter().rposition(|b| !b.is_ascii_whitespace())
        && out[pos] == b','
    {
        out[pos] = b' ';
    }
}

#[cfg(test)]
mod tests {
    use super::strip_jsonc;
    use serde_json::{Value, json};

    fn parse(text: &str) -> Value {
        serde_json::from_str(&strip_jsonc(text)).expect("stripped text should parse")
    }

    #[test]
    fn line_and_block_comments_are_removed() {
        let v = parse("// head\n{ /* a */ \"a\": 1, // tail\n \"b\": /* mid */ 2 }");
        assert_eq!(v, json!({"a": 1, "b": 2}));
    }

    #[test]
    fn comment_markers_inside_strings_survive() {
        let v = parse(r#"{ "url": "http://x/y", "glob": "src/**/*.ts", "c": "/* no */" }"#);
        assert_eq!(
            v,
            json!({"url": "http://x/y", "glob": "src/**/*.ts", "c": "/* no */"})
        );
    }

    #[test]
    fn escaped_quotes_do_not_end_strings() {
        let v = parse(r#"{ "a": "say \"//hi\" \\", "b": 1 }"#);
        assert_eq!(v, json!({"a": "say \"//hi\" \\", "b": 1}));
    }

    #[test]
    fn trailing_commas_are_removed_even_before_comments() {
        let v = parse("{ \"a\": [1, 2, ], \"b\": { \"c\": 3, /* x */ }, // y\n }");
        assert_eq!(v, json!({"a": [1, 2], "b": {"c": 3}}));
    }

    #[test]
    fn commas_inside_strings_before_brackets_are_kept() {
        let v = parse(r#"{ "a": ",", "b": [","] }"#);
        assert_eq!(v, json!({"a": ",", "b": [","]}));
    }

    #[test]
    fn bom_and_non_ascii_comments_are_tolerated() {
        let v = parse("\u{feff}{ /* ünïcødé → */ \"a\": \"é\" // ✓\n}");
        assert_eq!(v, json!({"a": "é"}));
    }

    #[test]
    fn line_numbers_are_preserved() {
        let src = "{\n/* one\ntwo */\n\"a\": 1 // x\n}";
        assert_eq!(strip_jsonc(src).lines().count(), src.lines().count());
    }

    #[test]
    fn unterminated_input_does_not_panic() {
        for src in ["{ \"a", "{ /* open", "// only", "\"\\", "/", "{,}", ""] {
            let _ = strip_jsonc(src);
        }
    }

    #[test]
    fn a_slash_that_is_not_a_comment_is_kept() {
        // Not valid JSON either way, but the stripper must not swallow it.
        assert_eq!(strip_jsonc("{ 1 / 2 }"), "{ 1 / 2 }");
    }
}
