//! Bounded text helpers. Every scan here has a byte budget so that a minified file with one
//! enormous line costs the same per fact as an ordinary one.

use tree_sitter::Node;

/// Bytes examined at most when building a short excerpt from a position.
const SCAN_BUDGET: usize = 4096;

/// The node's text, or "" when its range is not a valid slice (never panics).
#[inline]
pub fn node_text<'a>(text: &'a str, node: Node<'_>) -> &'a str {
    text.get(node.start_byte()..node.end_byte()).unwrap_or("")
}

/// A string literal's contents: the text without its surrounding quote characters.
#[inline]
pub fn unquote(raw: &str) -> &str {
    let mut chars = raw.chars();
    match (chars.next(), raw.chars().next_back()) {
        (Some(a @ ('"' | '\'' | '`')), Some(b)) if a == b && raw.len() >= 2 => {
            &raw[1..raw.len() - 1]
        }
        _ => raw,
    }
}

/// `s` cut to at most `max` characters.
#[inline]
pub fn truncate_chars(s: &str, max: usize) -> &str {
    match s.char_indices().nth(max) {
        Some((i, _)) => &s[..i],
        None => s,
    }
}

/// The longest prefix of `text[start..]` of at most `budget` bytes that ends on a char boundary.
#[inline]
fn window(text: &str, start: usize, budget: usize) -> &str {
    let Some(rest) = text.get(start..) else {
        return "";
    };
    if rest.len() <= budget {
        return rest;
    }
    let mut end = budget;
    while !rest.is_char_boundary(end) {
        end -= 1;
    }
    &rest[..end]
}

/// An expression's text on one line, at most `max` characters: whitespace runs that span a
/// line break are dropped (`a\n  .b()` → `a.b()`), which is how chained receivers read.
#[inline]
pub fn compact(raw: &str, max: usize) -> String {
    let raw = window(raw, 0, SCAN_BUDGET);
    if !raw.contains('\n') {
        return truncate_chars(raw.trim(), max).to_owned();
    }
    let mut out = String::with_capacity(max.min(raw.len()));
    let mut count = 0;
    for line in raw.lines() {
        for ch in line.trim().chars() {
            if count == max {
                return out;
            }
            out.push(ch);
            count += 1;
        }
    }
    out
}

/// The signature text for a declaration whose signature starts at byte `at`, `column` bytes
/// into its line: that line, trimmed, at most `max` characters. When the line is so long
/// that the declaration starts past the excerpt (minified code), the excerpt starts at the
/// declaration instead, so the signature still shows it.
#[inline]
pub fn signature(text: &str, at: usize, column: usize, max: usize) -> String {
    let line_start = at.saturating_sub(column);
    let raw = first_line(window(text, line_start, SCAN_BUDGET));
    let lead = raw.len() - raw.trim_start().len();
    let line = raw.trim();
    let excerpt = truncate_chars(line, max);
    if excerpt.len() == line.len() || at < line_start + lead + excerpt.len() {
        return excerpt.to_owned();
    }
    let own = first_line(window(text, at, SCAN_BUDGET)).trim();
    truncate_chars(own, max).to_owned()
}

#[inline]
fn first_line(s: &str) -> &str {
    s.split('\n').next().unwrap_or("")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn syntax_text_helpers() {
        assert_eq!(unquote("'x'"), "x");
        assert_eq!(unquote("\"x\""), "x");
        assert_eq!(unquote("'"), "'");
        assert_eq!(truncate_chars("héllo", 2), "hé");
        assert_eq!(
            compact("this\n    .store\n    .get()", 80),
            "this.store.get()"
        );
        assert_eq!(compact("a.b", 1), "a");
        let text = "  export function f() {}\n";
        assert_eq!(signature(text, 2, 2, 200), "export function f() {}");
        let long = format!("{}function g() {{}}", "x;".repeat(300));
        assert_eq!(signature(&long, 600, 600, 200), "function g() {}");
        assert_eq!(signature(&long, 0, 0, 4), "x;x;");
    }
}
