//! A deliberately small Rust lexer: just enough to tell code from comments and string
//! literals, so the structure checks do not trip over text inside strings or comments.
//! It never fails: anything it does not understand becomes punctuation.

/// One lexical token with its 1-based line and column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Token {
    /// What the token is.
    pub kind: Kind,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub column: usize,
}

/// The kinds of token the lexer tells apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Kind {
    /// An identifier or keyword.
    Ident(String),
    /// A string literal's contents (escapes left as written; raw and byte strings too).
    Str(String),
    /// A `//` comment's text after the two slashes (doc comments keep their `/` or `!`).
    LineComment(String),
    /// Any other character outside strings and comments.
    Punct(char),
}

struct Cursor {
    chars: Vec<char>,
    pos: usize,
    line: usize,
    column: usize,
}

impl Cursor {
    fn peek(&self, ahead: usize) -> Option<char> {
        self.chars.get(self.pos + ahead).copied()
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek(0)?;
        self.pos += 1;
        if c == '\n' {
            self.line += 1;
            self.column = 1;
        } else {
            self.column += 1;
        }
        Some(c)
    }

    fn eat_while(&mut self, mut keep: impl FnMut(char) -> bool) -> String {
        let mut out = String::new();
        while let Some(c) = self.peek(0).filter(|&c| keep(c)) {
            out.push(c);
            self.bump();
        }
        out
    }
}

/// Tokenizes Rust source text.
pub fn lex(text: &str) -> Vec<Token> {
    let mut cur = Cursor {
        chars: text.chars().collect(),
        pos: 0,
        line: 1,
        column: 1,
    };
    let mut out = Vec::new();
    while let Some(c) = cur.peek(0) {
        let (line, column) = (cur.line, cur.column);
        let kind = match c {
            c if c.is_whitespace() => {
                cur.bump();
                continue;
            }
            '/' if cur.peek(1) == Some('/') => {
                cur.bump();
                cur.bump();
                Kind::LineComment(cur.eat_while(|c| c != '\n'))
            }
            '/' if cur.peek(1) == Some('*') => {
                skip_block_comment(&mut cur);
                continue;
            }
            '"' => {
                cur.bump();
                Kind::Str(quoted(&mut cur))
            }
            'r' | 'b' | 'c' if raw_or_prefixed_string(&cur).is_some() => {
                let (prefix_len, hashes) = raw_or_prefixed_string(&cur).unwrap_or_default();
                for _ in 0..prefix_len {
                    cur.bump();
                }
                match hashes {
                    Some(n) => Kind::Str(raw(&mut cur, n)),
                    None => Kind::Str(quoted(&mut cur)),
                }
            }
            '\'' => {
                if char_literal(&mut cur) {
                    continue;
                }
                cur.bump();
                Kind::Punct('\'')
            }
            c if c.is_alphanumeric() || c == '_' => {
                Kind::Ident(cur.eat_while(|c| c.is_alphanumeric() || c == '_'))
            }
            c => {
                cur.bump();
                Kind::Punct(c)
            }
        };
        out.push(Token { kind, line, column });
    }
    out
}

/// For `r"`, `r#"`, `b"`, `br#"`, `c"`, `cr"`: how many characters precede the string
/// body (including the opening quote) and, for raw strings, the number of `#`.
fn raw_or_prefixed_string(cur: &Cursor) -> Option<(usize, Option<usize>)> {
    let mut k = 0;
    if matches!(cur.peek(0), Some('b' | 'c')) {
        k += 1;
    }
    let is_raw = cur.peek(k) == Some('r');
    if is_raw {
        k += 1;
        let mut hashes = 0;
        while cur.peek(k) == Some('#') {
            hashes += 1;
            k += 1;
        }
        (cur.peek(k) == Some('"')).then_some((k + 1, Some(hashes)))
    } else {
        (k == 1 && cur.peek(k) == Some('"')).then_some((k + 1, None))
    }
}

/// Body of a `"..."` string after the opening quote, consuming the closing quote.
fn quoted(cur: &mut Cursor) -> String {
    let mut out = String::new();
    while let Some(c) = cur.bump() {
        match c {
            '"' => break,
            '\\' => {
                out.push(c);
                if let Some(next) = cur.bump() {
                    out.push(next);
                }
            }
            c => out.push(c),
        }
    }
    out
}

/// Body of a raw string after the opening quote, consuming `"` and `hashes` `#`.
fn raw(cur: &mut Cursor, hashes: usize) -> String {
    let mut out = String::new();
    while let Some(c) = cur.bump() {
        if c == '"' && (0..hashes).all(|k| cur.peek(k) == Some('#')) {
            for _ in 0..hashes {
                cur.bump();
            }
            break;
        }
        out.push(c);
    }
    out
}

/// Consumes a char literal (`'a'`, `'\n'`, `'\u{1F600}'`) and returns true; leaves a
/// lifetime or label (`'a`) alone and returns false.
fn char_literal(cur: &mut Cursor) -> bool {
    let is_char = matches!(
        (cur.peek(1), cur.peek(2)),
        (Some('\\'), _) | (Some(_), Some('\''))
    );
    if !is_char {
        return false;
    }
    cur.bump();
    if cur.bump() == Some('\\') {
        cur.bump();
    }
    while let Some(c) = cur.bump() {
        if c == '\'' || c == '\n' {
            break;
        }
    }
    true
}

fn skip_block_comment(cur: &mut Cursor) {
    cur.bump();
    cur.bump();
    let mut depth = 1;
    while depth > 0 {
        match (cur.bump(), cur.peek(0)) {
            (None, _) => break,
            (Some('/'), Some('*')) => {
                cur.bump();
                depth += 1;
            }
            (Some('*'), Some('/')) => {
                cur.bump();
                depth -= 1;
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str) -> Vec<Kind> {
        lex(text).into_iter().map(|t| t.kind).collect()
    }

    #[test]
    fn strings_comments_and_lifetimes() {
        let got = kinds("f<'a>(r#\"x\"y\"#, '\"', b\"z\") // note\n/* a /* b */ c */ g");
        assert_eq!(
            got,
            [
                Kind::Ident("f".into()),
                Kind::Punct('<'),
                Kind::Punct('\''),
                Kind::Ident("a".into()),
                Kind::Punct('>'),
                Kind::Punct('('),
                Kind::Str("x\"y".into()),
                Kind::Punct(','),
                Kind::Punct(','),
                Kind::Str("z".into()),
                Kind::Punct(')'),
                Kind::LineComment(" note".into()),
                Kind::Ident("g".into()),
            ]
        );
    }
}
