//! Structural checks: forbidden shapes a literal scan cannot see by itself.
//!
//! - **lexicon**: an array or slice literal (`[...]`, `vec![...]`) holding at least
//!   `LEXICON_MIN` short lowercase alphabetic string literals, at any depth below its
//!   innermost `[` (so tables of `("word", weight)` tuples count too), or a match pattern
//!   alternating that many such strings (`"a" | "b" | ...`). That is the shape of a
//!   stop-word list, a morphology table or an action/noun vocabulary.
//! - **split lexicon**: the same vocabulary cut into pieces that each stay under
//!   `LEXICON_MIN` — several short arrays, or several match arms (`"a" | "b" => …`,
//!   `"c" => …`) — inside one function (or at file level, outside every function). When the
//!   pieces of one scope hold at least `LEXICON_MIN` distinct words between them, it is
//!   reported like a lexicon (and waived with `allow(lexicon)`).
//! - **query-regex**: `Regex::new` (or `RegexBuilder::new`, `RegexSet::new`, a `regex!`
//!   macro) inside a function whose text mentions a `query` identifier, or outside any
//!   function in a file that does. Regexes over the query's English are how task
//!   vocabulary sneaks in; patterns an agent typed into a grep tool go through the grep
//!   tool's own matcher and are not flagged.

use crate::lexer::{Kind, Token};
use crate::report::{FindingKind, RegexScope};
use crate::words::words;

/// Minimum number of word literals that makes a list a lexicon.
pub const LEXICON_MIN: usize = 8;
/// Longest string literal still counted as a "short word".
const WORD_MAX_LEN: usize = 20;
/// How many of a lexicon's words the report quotes.
const SAMPLE: usize = 3;

const REGEX_TYPES: [&str; 4] = ["Regex", "RegexBuilder", "RegexSet", "RegexSetBuilder"];
const REGEX_MACROS: [&str; 3] = ["regex", "lazy_regex", "bytes_regex"];

/// A structural finding: (line, column, kind).
pub type Hit = (usize, usize, FindingKind);

/// Every forbidden structure in a file's tokens: lexicons (whole or split) and regexes
/// built where the query is handled.
pub fn check(tokens: &[Token]) -> Vec<Hit> {
    let mut hits = lexicons(tokens);
    hits.extend(split_lexicons(tokens));
    hits.extend(query_regexes(tokens));
    hits
}

fn is_word_literal(token: &Token) -> Option<&str> {
    match &token.kind {
        Kind::Str(s)
            if (2..=WORD_MAX_LEN).contains(&s.len())
                && s.bytes().all(|b| b.is_ascii_lowercase()) =>
        {
            Some(s)
        }
        _ => None,
    }
}

struct Frame {
    open: char,
    line: usize,
    column: usize,
    words: Vec<String>,
}

fn lexicon_hit(line: usize, column: usize, words: &[String]) -> Option<Hit> {
    (words.len() >= LEXICON_MIN).then(|| {
        (
            line,
            column,
            FindingKind::Lexicon {
                count: words.len(),
                sample: words.iter().take(SAMPLE).cloned().collect(),
            },
        )
    })
}

fn lexicons(tokens: &[Token]) -> Vec<Hit> {
    let mut hits = Vec::new();
    let mut stack: Vec<Frame> = Vec::new();
    // The current `"a" | "b" | ...` run: its start and its words.
    let mut run: Option<(usize, usize, Vec<String>)> = None;
    let mut after_pipe = false;

    for (k, token) in tokens.iter().enumerate() {
        if let Some(word) = is_word_literal(token) {
            if let Some(frame) = stack.iter_mut().rev().find(|f| f.open == '[') {
                frame.words.push(word.to_string());
            }
            let continues = after_pipe && run.is_some();
            if !continues {
                hits.extend(run.take().and_then(|(l, c, w)| lexicon_hit(l, c, &w)));
                run = Some((token.line, token.column, Vec::new()));
            }
            if let Some((_, _, w)) = run.as_mut() {
                w.push(word.to_string());
            }
            after_pipe = false;
            continue;
        }
        // A `|` right after a word literal (and not `||`) keeps the run going.
        let is_pipe = token.kind == Kind::Punct('|')
            && tokens.get(k + 1).map(|t| &t.kind) != Some(&Kind::Punct('|'))
            && k > 0
            && is_word_literal(&tokens[k - 1]).is_some();
        if is_pipe {
            after_pipe = true;
            continue;
        }
        after_pipe = false;
        hits.extend(run.take().and_then(|(l, c, w)| lexicon_hit(l, c, &w)));
        match token.kind {
            Kind::Punct(open @ ('[' | '(' | '{')) => stack.push(Frame {
                open,
                line: token.line,
                column: token.column,
                words: Vec::new(),
            }),
            Kind::Punct(']' | ')' | '}') => {
                if let Some(frame) = stack.pop().filter(|f| f.open == '[') {
                    hits.extend(lexicon_hit(frame.line, frame.column, &frame.words));
                }
            }
            _ => {}
        }
    }
    hits.extend(run.and_then(|(l, c, w)| lexicon_hit(l, c, &w)));
    hits
}

/// A function: its name and the token index range from `fn` to its closing brace.
struct FnSpan {
    name: String,
    tokens: std::ops::Range<usize>,
}

fn function_spans(tokens: &[Token]) -> Vec<FnSpan> {
    let mut spans = Vec::new();
    // (name, index of `fn`, brace depth at `fn`) of a signature waiting for its body.
    let mut pending: Option<(String, usize, usize)> = None;
    // (name, index of `fn`, depth inside the body) of open bodies.
    let mut open: Vec<(String, usize, usize)> = Vec::new();
    let mut depth = 0usize;
    for (k, token) in tokens.iter().enumerate() {
        match &token.kind {
            Kind::Ident(kw) if kw == "fn" => {
                if let Some(Kind::Ident(name)) = tokens.get(k + 1).map(|t| &t.kind) {
                    pending = Some((name.clone(), k, depth));
                }
            }
            Kind::Punct(';') if pending.as_ref().is_some_and(|p| p.2 == depth) => {
                pending = None;
            }
            Kind::Punct('{') => {
                depth += 1;
                if let Some((name, start, _)) = pending.take_if(|p| p.2 + 1 == depth) {
                    open.push((name, start, depth));
                }
            }
            Kind::Punct('}') => {
                if let Some((name, start, _)) = open.pop_if(|o| o.2 == depth) {
                    spans.push(FnSpan {
                        name,
                        tokens: start..k + 1,
                    });
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    spans
}

fn mentions_query(tokens: &[Token]) -> bool {
    tokens.iter().any(|t| match &t.kind {
        Kind::Ident(name) => words(name)
            .into_iter()
            .any(|r| matches!(name[r].to_lowercase().as_str(), "query" | "queries")),
        _ => false,
    })
}

/// The regex construction starting at token `k`, as written (`Regex::new`, `regex!`).
fn regex_call(tokens: &[Token], k: usize) -> Option<String> {
    let kind = |i: usize| tokens.get(i).map(|t| &t.kind);
    let Some(Kind::Ident(name)) = kind(k) else {
        return None;
    };
    let colon = Some(&Kind::Punct(':'));
    if REGEX_TYPES.contains(&name.as_str())
        && kind(k + 1) == colon
        && kind(k + 2) == colon
        && kind(k + 3) == Some(&Kind::Ident("new".into()))
    {
        return Some(format!("{name}::new"));
    }
    if REGEX_MACROS.contains(&name.as_str()) && kind(k + 1) == Some(&Kind::Punct('!')) {
        return Some(format!("{name}!"));
    }
    None
}

fn query_regexes(tokens: &[Token]) -> Vec<Hit> {
    let spans = function_spans(tokens);
    let file_mentions_query = mentions_query(tokens);
    let mut hits = Vec::new();
    for k in 0..tokens.len() {
        let Some(call) = regex_call(tokens, k) else {
            continue;
        };
        // Innermost function containing the call: the shortest span around it.
        let enclosing = spans
            .iter()
            .filter(|s| s.tokens.contains(&k))
            .min_by_key(|s| s.tokens.len());
        let scope = match enclosing {
            Some(span) if mentions_query(&tokens[span.tokens.clone()]) => {
                Some(RegexScope::Function(span.name.clone()))
            }
            Some(_) => None,
            None if file_mentions_query => Some(RegexScope::File),
            None => None,
        };
        if let Some(scope) = scope {
            let token = &tokens[k];
            hits.push((
                token.line,
                token.column,
                FindingKind::QueryRegex { call, scope },
            ));
        }
    }
    hits
}

/// A piece of a possible split lexicon: where it starts and its word literals.
struct Piece {
    start: usize,
    words: Vec<String>,
}

/// Whether tokens `k, k+1` are `=>`.
fn is_arrow(tokens: &[Token], k: usize) -> bool {
    tokens.get(k).map(|t| &t.kind) == Some(&Kind::Punct('='))
        && tokens.get(k + 1).map(|t| &t.kind) == Some(&Kind::Punct('>'))
}

/// The word-holding pieces of a file: each array literal's words (innermost `[`), each
/// `"a" | "b"` alternation, and each single-word match arm (`"a" =>`).
fn pieces(tokens: &[Token]) -> Vec<Piece> {
    let mut out = Vec::new();
    let mut arrays: Vec<Option<Piece>> = Vec::new();
    let mut k = 0;
    while k < tokens.len() {
        if let Some(word) = is_word_literal(&tokens[k]) {
            if let Some(Some(array)) = arrays.last_mut() {
                array.words.push(word.to_string());
            }
            // An alternation run starting here: `"a" | "b" | ...`.
            let start = k;
            let mut words = vec![word.to_string()];
            let mut j = k + 1;
            while tokens.get(j).map(|t| &t.kind) == Some(&Kind::Punct('|'))
                && tokens.get(j + 1).map(|t| &t.kind) != Some(&Kind::Punct('|'))
            {
                match tokens.get(j + 1).and_then(is_word_literal) {
                    Some(w) => {
                        words.push(w.to_string());
                        j += 2;
                    }
                    None => break,
                }
            }
            let in_array = matches!(arrays.last(), Some(Some(_)));
            if !in_array && (words.len() > 1 || is_arrow(tokens, j)) {
                out.push(Piece { start, words });
            }
            k = j.max(k + 1);
            continue;
        }
        match tokens[k].kind {
            Kind::Punct('[') => arrays.push(Some(Piece {
                start: k,
                words: Vec::new(),
            })),
            Kind::Punct('(' | '{') => arrays.push(None),
            Kind::Punct(']' | ')' | '}') => {
                if let Some(Some(array)) = arrays.pop()
                    && !array.words.is_empty()
                {
                    out.push(array);
                }
            }
            _ => {}
        }
        k += 1;
    }
    out
}

fn split_lexicons(tokens: &[Token]) -> Vec<Hit> {
    let spans = function_spans(tokens);
    // Pieces grouped by scope: the innermost function holding them, or the file (`None`).
    let mut scopes: Vec<(Option<usize>, Vec<Piece>)> = Vec::new();
    for piece in pieces(tokens) {
        let scope = spans
            .iter()
            .enumerate()
            .filter(|(_, s)| s.tokens.contains(&piece.start))
            .min_by_key(|(_, s)| s.tokens.len())
            .map(|(i, _)| i);
        match scopes.iter_mut().find(|(s, _)| *s == scope) {
            Some((_, list)) => list.push(piece),
            None => scopes.push((scope, vec![piece])),
        }
    }
    let mut hits = Vec::new();
    for (_, list) in scopes {
        // A piece long enough is already a lexicon finding of its own (reported or waived
        // there); the rest of the scope is judged without it.
        let list: Vec<Piece> = list
            .into_iter()
            .filter(|p| p.words.len() < LEXICON_MIN)
            .collect();
        if list.len() < 2 {
            continue;
        }
        let mut distinct: Vec<String> = Vec::new();
        for w in list.iter().flat_map(|p| &p.words) {
            if !distinct.contains(w) {
                distinct.push(w.clone());
            }
        }
        if distinct.len() >= LEXICON_MIN {
            let first = &tokens[list[0].start];
            hits.push((
                first.line,
                first.column,
                FindingKind::SplitLexicon {
                    count: distinct.len(),
                    pieces: list.len(),
                    sample: distinct.into_iter().take(SAMPLE).collect(),
                },
            ));
        }
    }
    hits
}
