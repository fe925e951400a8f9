//! Literal evidence: the tokens of a query as written, matched exactly. A query that spells
//! an identifier (`parse_args`, `useCacheKey`, `no-empty`, `Store.save`), a file name
//! (`lib/rules/no-empty.js`) or anything between backticks or quotes says more than its
//! stemmed words do: `frozen` written in backticks asks for what is named `frozen`, not
//! for every word stemming like it. What a literal is worth is how few places of this
//! repository it matches ([`LiteralStats`]), never a list of words.
//!
//! A literal is recognised by its shape alone: it is quoted (backticks, double quotes,
//! single quotes around a whole token), or it carries an identifier's inner structure
//! (a lowercase-to-uppercase step, or `_`, `-`, `.`, `/`, `::` between letters or digits).
//! A plain word (`support`) is not a literal; its stems already weigh it.
//!
//! A code fragment written without spaces (`nodeDb[node.id]`, `z.record(valueType)`,
//! `Vec<Vec<T>>`, `a?.b`) is a literal as a whole too: identifier characters glued to
//! balanced brackets, `->` or `?.`. It is matched verbatim in text only (it names no
//! declaration or path), so a fragment only a few files hold points at them; its tokens
//! (`nodeDb`, `node.id`) stay literals of their own.

use serde::{Deserialize, Serialize};

use crate::terms::{compound_key, split_identifier};

/// Longest literal kept; longer runs are pasted code or noise.
const MAX_LITERAL_LEN: usize = 80;
/// Shortest literal kept (in characters of its compound key): shorter says nothing exact,
/// unless it was quoted (`on`).
const MIN_KEY_LEN: usize = 3;
/// Shortest quoted literal kept.
const MIN_QUOTED_KEY_LEN: usize = 2;

/// One literal of a query.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Literal {
    /// As written, without the quotes (`no-empty`, `Store.save`, `# lint: off`).
    pub text: String,
    /// Its identifier segments, split at `.`, `/` and `::` (`["Store", "save"]`).
    pub segments: Vec<String>,
    /// The compound key of the whole (`noempty`): case and `_`/`-` separators ignored.
    pub key: String,
    /// It was quoted in the query.
    pub quoted: bool,
    /// Source files it matched (a declaration name, a path or the text); set by the search.
    pub df: u32,
    /// Its specificity in this repository (BM25's IDF of `df`); 0 until resolved.
    pub idf: f64,
    /// It is a code fragment (`nodeDb[node.id]`): matched in text only. Decided once here,
    /// not at every name or path it is held against.
    #[serde(default)]
    pub fragment: bool,
}

/// The compound key of a file name's stem (`ring_buffer.rs` → `ringbuffer`).
fn stem_key(file: &str) -> String {
    compound_key(file.split('.').next().unwrap_or(file))
}

impl Literal {
    /// Whether the literal is a code fragment (see `fragment`): it is matched in text only.
    pub fn is_fragment(&self) -> bool {
        self.fragment
    }

    /// The compound key of the last segment: what a declaration's name must equal.
    pub fn name_key(&self) -> String {
        self.segments
            .last()
            .map(|s| compound_key(s))
            .unwrap_or_default()
    }

    /// The key the segment before the last must equal in a qualified name, when written.
    pub fn qualifier_key(&self) -> Option<String> {
        let n = self.segments.len();
        (n >= 2).then(|| compound_key(&self.segments[n - 2]))
    }

    /// Whether a declaration called `name`, qualified as `qualified` (`Store.save`), is
    /// what the literal names: its name's key is the literal's last segment's, and a
    /// written qualifier matches the enclosing name.
    pub fn names(&self, name: &str, qualified: &str) -> bool {
        let key = self.name_key();
        let too_short = key.len() < MIN_KEY_LEN && !self.quoted;
        if too_short || self.is_fragment() || key.is_empty() || compound_key(name) != key {
            return false;
        }
        match self.qualifier_key() {
            None => true,
            Some(q) => {
                let mut parts = qualified.rsplit('.');
                parts.next();
                // A qualifier that names no enclosing declaration (`c.req.param`'s `req` is
                // a variable) does not forbid the match; one that names another does.
                match parts.next() {
                    Some(owner) => compound_key(owner) == q || !self.segments_are_types(),
                    None => true,
                }
            }
        }
    }

    /// Whether the qualifier looks like a type (it starts with an uppercase letter): only
    /// then must an enclosing declaration carry it.
    fn segments_are_types(&self) -> bool {
        let n = self.segments.len();
        n >= 2
            && self.segments[n - 2]
                .chars()
                .next()
                .is_some_and(char::is_uppercase)
    }

    /// Whether the literal names the file at `path`: its whole file name, its stem or one of
    /// its directories (by compound key), or a tail of the path (`rules/no-empty.js`).
    pub fn names_path(&self, path: &str) -> bool {
        if self.is_fragment() {
            return false;
        }
        let lower = path.to_lowercase();
        let text = self.text.to_lowercase();
        if text.contains('/') && (lower == text || lower.ends_with(&format!("/{text}"))) {
            return true;
        }
        let mut segments = path.rsplit('/');
        let Some(file) = segments.next() else {
            return false;
        };
        if file.to_lowercase() == text {
            return true;
        }
        stem_key(file) == self.key || segments.any(|d| compound_key(d) == self.key)
    }

    /// The key of the type qualifier the file at `path` is named after, when one is:
    /// `Store.load` and `pkg::RingBuffer::push` name a member of `Store` and `RingBuffer`,
    /// and `store.py` or `ring_buffer.rs` may be the file the member is about. Only a file
    /// that declares something of that name is (the caller checks the file's declarations:
    /// `Object.assign` does not name an `object.ts` of helpers).
    pub fn qualifier_naming(&self, path: &str) -> Option<String> {
        if self.is_fragment() {
            return None;
        }
        let stem = stem_key(path.rsplit('/').next()?);
        self.type_qualifier_keys().find(|q| *q == stem)
    }

    /// The compound keys of the segments before the last that look like types (start
    /// with an uppercase letter). A lowercase qualifier (`cache.clear`, `ctx.req`) is a
    /// variable or a module, which names no file.
    fn type_qualifier_keys(&self) -> impl Iterator<Item = String> + '_ {
        let qualifiers = self.segments.len().saturating_sub(1);
        self.segments[..qualifiers]
            .iter()
            .filter(|s| s.chars().next().is_some_and(char::is_uppercase))
            .map(|s| compound_key(s))
            .filter(|k| k.len() >= MIN_KEY_LEN)
    }

    /// The keys under which [`path_literal_keys`] files every path this literal can name
    /// ([`Literal::names_path`]): the last segment of its lowercased text (a file name, or
    /// a path's tail ending in one), its compound key (a stem or a directory) and the keys
    /// of its type qualifiers (a stem).
    pub fn path_lookup_keys(&self) -> Vec<String> {
        let text = self.text.to_lowercase();
        let last = text.rsplit('/').next().unwrap_or_default().to_owned();
        let mut keys = vec![last, self.key.clone()];
        keys.extend(self.type_qualifier_keys());
        keys.sort_unstable();
        keys.dedup();
        keys
    }

    /// Where the literal occurs in `text` as written, with no identifier character glued to
    /// either end (`no-empty` is in `'no-empty'`, not in `no-empty-function`).
    pub fn occurs_in(&self, text: &str) -> bool {
        let word = |c: char| c.is_alphanumeric() || c == '_' || c == '$' || c == '-';
        text.match_indices(self.text.as_str()).any(|(i, m)| {
            let before = text[..i].chars().next_back();
            let after = text[i + m.len()..].chars().next();
            !before.is_some_and(word) && !after.is_some_and(word)
        })
    }
}

/// The keys a path is filed under so that every literal naming it ([`Literal::names_path`])
/// finds it through one of its [`Literal::path_lookup_keys`]: its lowercased file name
/// (spelled both ways `names_path` lowercases it) and the compound keys of its stem and of
/// each directory. A superset of what matches: a candidate is confirmed by `names_path`.
pub fn path_literal_keys(path: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let lower = path.to_lowercase();
    keys.extend(lower.rsplit('/').next().map(str::to_owned));
    let mut segments = path.rsplit('/');
    if let Some(file) = segments.next() {
        keys.push(file.to_lowercase());
        keys.push(stem_key(file));
    }
    keys.extend(segments.map(compound_key));
    keys.sort_unstable();
    keys.dedup();
    keys
}

/// BM25's IDF of a literal matched in `df` of `documents` files.
pub fn literal_idf(documents: u32, df: u32) -> f64 {
    let n = f64::from(documents);
    let df = f64::from(df);
    ((n - df + 0.5) / (df + 0.5) + 1.0).ln()
}

/// The literals of a query, each once, in query order.
pub fn literals(query: &str) -> Vec<Literal> {
    let mut out: Vec<Literal> = Vec::new();
    let mut push = |text: &str, quoted: bool| {
        if let Some(lit) = literal(text, quoted)
            && !out.iter().any(|l| l.text == lit.text)
        {
            out.push(lit);
        }
    };
    let unquoted = |text: &str, push: &mut dyn FnMut(&str, bool)| {
        for token in text.split_whitespace() {
            if let Some(fragment) = fragment(token) {
                push(fragment, false);
            }
            for atom in atoms(token) {
                if shaped(atom) {
                    push(atom, false);
                }
            }
        }
    };
    let mut rest = query;
    while !rest.is_empty() {
        let Some((before, quoted, after)) = next_quoted(rest) else {
            unquoted(rest, &mut push);
            break;
        };
        unquoted(before, &mut push);
        // A quoted span is a literal as a whole (matched in text) and so is every token in
        // it (matched against names and paths).
        let span = quoted.trim();
        let inner: Vec<&str> = atoms(span).collect();
        if inner.len() != 1 || inner[0] != span {
            push(span, true);
        }
        for atom in inner {
            push(atom, true);
        }
        rest = after;
    }
    out
}

/// The first quoted span of `text`: what precedes it, its content, what follows. A single
/// quote only opens at the start of a word and closes at the end of one, so an apostrophe
/// (`don't`) never opens a span.
fn next_quoted(text: &str) -> Option<(&str, &str, &str)> {
    let bytes = text.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        let open = match b {
            b'`' | b'"' => true,
            b'\'' => {
                i == 0
                    || !text[..i]
                        .chars()
                        .next_back()
                        .is_some_and(char::is_alphanumeric)
            }
            _ => false,
        };
        if !open {
            continue;
        }
        let body = &text[i + 1..];
        let close = body.char_indices().find(|&(j, c)| {
            c == b as char
                && (b != b'\''
                    || !body[j + 1..]
                        .chars()
                        .next()
                        .is_some_and(char::is_alphanumeric))
        });
        if let Some((j, _)) = close {
            return Some((&text[..i], &body[..j], &body[j + 1..]));
        }
    }
    None
}

/// Characters a literal token is made of: identifier characters and the separators an
/// identifier, a member path or a file path is written with.
fn atom_char(c: char) -> bool {
    c.is_alphanumeric() || matches!(c, '_' | '$' | '-' | '.' | '/' | ':')
}

/// Maximal runs of [`atom_char`]s, trimmed of separators at either end.
fn atoms(text: &str) -> impl Iterator<Item = &str> {
    text.split(|c: char| !atom_char(c))
        .map(|a| a.trim_matches(|c: char| matches!(c, '-' | '.' | '/' | ':')))
        .filter(|a| !a.is_empty())
}

/// Bracket pairs a code fragment is written with.
const BRACKETS: [(char, char); 4] = [('(', ')'), ('[', ']'), ('{', '}'), ('<', '>')];

/// The code fragment a whitespace-free `token` spells, if any: the token without the
/// sentence punctuation and unbalanced brackets around it (`(see`, `foo(x),`), when what
/// is left glues an identifier character to a bracket, `->` or `?.` and its brackets
/// balance. A bare call with no arguments (`parseBody()`) is not one: its name already is
/// a literal, and its call sites are not what it names.
fn fragment(token: &str) -> Option<&str> {
    let mut t = token;
    loop {
        let before = t.len();
        t = t.trim_end_matches([',', ';', '.', '!', '?', ':']);
        if let Some(last) = t.chars().next_back()
            && let Some(&(open, _)) = BRACKETS.iter().find(|(_, close)| *close == last)
            && t.matches(open).count() < t.matches(last).count()
        {
            t = &t[..t.len() - last.len_utf8()];
        }
        if let Some(first) = t.chars().next()
            && let Some(&(_, close)) = BRACKETS.iter().find(|(open, _)| *open == first)
            && t.matches(close).count() < t.matches(first).count()
        {
            t = &t[first.len_utf8()..];
        }
        if t.len() == before {
            break;
        }
    }
    (is_fragment(t) && balanced(t)).then_some(t)
}

/// Whether `text` glues an identifier character to a bracket, `->` or `?.`, and is not a
/// bare call (`parseBody()`, quoted or not: it names what it calls, as its name does).
fn is_fragment(text: &str) -> bool {
    let bare_call = text
        .strip_suffix("()")
        .is_some_and(|name| atoms(name).next() == Some(name));
    if bare_call {
        return false;
    }
    let ident = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let bracket = |c: char| BRACKETS.iter().any(|&(o, c2)| c == o || c == c2);
    let chars: Vec<char> = text.chars().collect();
    chars
        .windows(2)
        .any(|w| (ident(w[0]) && bracket(w[1])) || (bracket(w[0]) && ident(w[1])))
        || text.contains("->")
        || text.contains("?.")
}

/// Whether every bracket of `text` closes in order (a `->` arrow is no bracket).
fn balanced(text: &str) -> bool {
    let mut stack = Vec::new();
    let mut prev = ' ';
    for c in text.chars() {
        if let Some(&(_, close)) = BRACKETS.iter().find(|(open, _)| *open == c) {
            stack.push(close);
        } else if BRACKETS.iter().any(|(_, close)| *close == c)
            && !(c == '>' && prev == '-')
            && stack.pop() != Some(c)
        {
            return false;
        }
        prev = c;
    }
    stack.is_empty()
}

/// Whether an unquoted token carries an identifier's inner structure.
fn shaped(atom: &str) -> bool {
    let chars: Vec<char> = atom.chars().collect();
    chars
        .windows(2)
        .any(|w| w[0].is_lowercase() && w[1].is_uppercase())
        || chars.windows(3).any(|w| {
            w[0].is_alphanumeric()
                && matches!(w[1], '_' | '-' | '.' | '/' | ':')
                && w[2].is_alphanumeric()
        })
}

fn literal(text: &str, quoted: bool) -> Option<Literal> {
    if text.len() > MAX_LITERAL_LEN || !text.chars().any(char::is_alphabetic) {
        return None;
    }
    let segments: Vec<String> = text
        .split(['.', '/', ':'])
        .filter(|s| !s.is_empty())
        .map(str::to_owned)
        .collect();
    let key = compound_key(text);
    let words = split_identifier(text);
    let min = if quoted {
        MIN_QUOTED_KEY_LEN
    } else {
        MIN_KEY_LEN
    };
    if key.len() < min || words.is_empty() {
        return None;
    }
    Some(Literal {
        text: text.to_owned(),
        segments,
        key,
        quoted,
        df: 0,
        idf: 0.0,
        fragment: is_fragment(text),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(q: &str) -> Vec<String> {
        literals(q).into_iter().map(|l| l.text).collect()
    }

    #[test]
    fn shapes_and_quotes_make_literals_plain_words_do_not() {
        assert_eq!(
            texts("ignore empty switch statements with comments in no-empty rule"),
            ["no-empty"]
        );
        assert_eq!(texts("a backticked `frozen` wins"), ["frozen"]);
        assert_eq!(
            texts("Split `Store.save` into parts, see parse_args"),
            ["Store.save", "parse_args"]
        );
        assert_eq!(
            texts("fix useCacheKey in lib/rules/no-empty.js"),
            ["useCacheKey", "lib/rules/no-empty.js"]
        );
        assert!(texts("support more things").is_empty());
        assert!(texts("bump to 0.18.2").is_empty());
    }

    #[test]
    fn apostrophes_open_no_span_and_quoted_code_gives_its_tokens() {
        assert!(texts("don't return a DataForm if it's cached").contains(&"DataForm".into()));
        assert_eq!(texts("don't cache"), Vec::<String>::new());
        assert_eq!(
            texts("use `foo.endsWith(\"bar\")` here"),
            ["foo.endsWith(\"bar\")", "foo.endsWith", "bar"]
        );
        assert_eq!(texts("handle 'globalThis' access"), ["globalThis"]);
    }

    #[test]
    fn a_code_fragment_is_a_literal_as_a_whole_and_matches_text_only() {
        assert_eq!(
            texts("guard nodeDb[node.id] against undefined"),
            ["nodeDb[node.id]", "nodeDb", "node.id"]
        );
        assert_eq!(
            texts("support v3-style single-arg z.record(valueType)."),
            [
                "v3-style",
                "single-arg",
                "z.record(valueType)",
                "z.record",
                "valueType"
            ]
        );
        assert_eq!(texts("use user?.name here"), ["user?.name"]);
        assert_eq!(texts("Vec<Vec<T>>, please"), ["Vec<Vec<T>>"]);
        // Sentence punctuation and unbalanced brackets around a token are not the fragment;
        // a bare call is its name; prose in brackets is no fragment.
        assert_eq!(texts("(see foo[bar]), ok"), ["foo[bar]"]);
        assert_eq!(
            texts("reuse cached formData in parseBody()"),
            ["formData", "parseBody"]
        );
        assert!(texts("render [object Promise] (fix #13668)").is_empty());
        assert!(texts("unbalanced foo(bar").iter().all(|t| !t.contains('(')));
        let l = &literals("nodeDb[node.label]")[0];
        assert!(l.is_fragment());
        assert!(!l.names("label", "label"));
        assert!(!l.names_path("src/label.ts"));
        assert!(l.occurs_in("  nodeDb[node.label] = x;"));
        assert!(!l.occurs_in("  nodeDb[node.labels] = x;"));
        // A quoted bare call still names its declaration.
        let call = &literals("remove a param from `labelHelper()`")[0];
        assert!(!call.is_fragment() && call.names("labelHelper", "labelHelper"));
    }

    #[test]
    fn names_match_by_key_and_a_written_type_qualifier() {
        let l = &literals("`Store.save`")[0];
        assert!(l.names("save", "Store.save"));
        assert!(!l.names("save", "Console.save"));
        assert!(!l.names("saver", "Store.saver"));
        let member = &literals("ctx.req.param")[0];
        assert!(member.names("param", "Request.param"));
        let snake = &literals("parse_args")[0];
        assert!(snake.names("parseArgs", "parseArgs"));
        assert!(snake.names("parse_args", "parse_args"));
    }

    #[test]
    fn paths_match_by_file_name_stem_directory_or_tail() {
        let l = &literals("no-empty rule")[0];
        assert!(l.names_path("lib/rules/no-empty.js"));
        assert!(!l.names_path("lib/rules/no-empty-function.js"));
        let dir = &literals("strip-prefix middleware")[0];
        assert!(dir.names_path("src/middleware/strip-prefix/index.ts"));
        let tail = &literals("see rules/no-empty.js")[0];
        assert!(tail.names_path("lib/rules/no-empty.js"));
        assert!(!tail.names_path("lib/rules/other.js"));
    }

    #[test]
    fn a_type_qualifier_names_the_file_its_type_is_named_after() {
        let member = &literals("add a parameter to `Store.load`")[0];
        assert_eq!(
            member.qualifier_naming("lib/store.py").as_deref(),
            Some("store")
        );
        assert_eq!(member.qualifier_naming("lib/load.py"), None);
        let path = &literals("`pkg::RingBuffer::push`")[0];
        assert_eq!(
            path.qualifier_naming("src/ring_buffer.rs").as_deref(),
            Some("ringbuffer")
        );
        assert_eq!(path.qualifier_naming("src/pkg.rs"), None);
        // A lowercase qualifier is a variable or a module, not a type.
        let variable = &literals("`cache.clear`")[0];
        assert_eq!(variable.qualifier_naming("src/cache.ts"), None);
        // The whole name still names files only as before.
        assert!(!member.names_path("lib/store.py"));
    }

    #[test]
    fn text_occurrences_need_word_boundaries() {
        let l = &literals("no-empty")[0];
        assert!(l.occurs_in("rules: { 'no-empty': 'error' }"));
        assert!(!l.occurs_in("'no-empty-function'"));
    }

    /// A path of segments from a small alphabet (so literals often name it), with a file
    /// name that may carry extensions.
    fn path_strategy() -> impl proptest::strategy::Strategy<Value = String> {
        proptest::collection::vec("[aAbB_Σσ-]{1,4}(\\.[a-z]{1,2}){0,2}", 1..5)
            .prop_map(|s| s.join("/"))
    }

    use proptest::strategy::Strategy as _;

    proptest::proptest! {
        #[test]
        fn every_path_a_literal_names_is_filed_under_one_of_its_keys(
            path in path_strategy(),
            tail in 1usize..4,
            quote in proptest::bool::ANY,
            upper in proptest::bool::ANY,
            other in path_strategy(),
        ) {
            // Literals spelled from the path's own tail (so they often name it), and from
            // another path (so they often do not).
            let segments: Vec<&str> = path.split('/').collect();
            let mut spelled = segments[segments.len().saturating_sub(tail)..].join("/");
            if upper {
                spelled = spelled.to_uppercase();
            }
            // And a member of a type named after the path's file (`Ab.member`).
            let file = segments[segments.len() - 1];
            let stem = file.split('.').next().unwrap_or(file);
            let mut qualified: String = stem.chars().take(1).flat_map(char::to_uppercase).collect();
            qualified.extend(stem.chars().skip(1));
            let query = match quote {
                true => format!("`{spelled}` and `{other}` and `{qualified}.member`"),
                false => format!("{spelled} {other} {qualified}.member"),
            };
            let keys = path_literal_keys(&path);
            for l in literals(&query) {
                if l.names_path(&path) || l.qualifier_naming(&path).is_some() {
                    proptest::prop_assert!(
                        l.path_lookup_keys().iter().any(|k| keys.contains(k)),
                        "{:?} names {path} but none of {:?} is in {keys:?}",
                        l.text,
                        l.path_lookup_keys()
                    );
                }
            }
        }

        #[test]
        fn extraction_never_panics_and_keys_are_non_trivial(q in "\\PC{0,60}") {
            for l in literals(&q) {
                proptest::prop_assert!(l.key.len() >= MIN_QUOTED_KEY_LEN);
                proptest::prop_assert!(l.text.len() <= MAX_LITERAL_LEN);
                proptest::prop_assert!(q.contains(&l.text));
            }
        }

        #[test]
        fn every_fragment_is_balanced_text_of_the_query(
            q in "[a-z(\\[{<>}\\]). ?-]{0,40}"
        ) {
            for l in literals(&q) {
                proptest::prop_assert!(q.contains(&l.text));
                if l.is_fragment() {
                    proptest::prop_assert!(balanced(&l.text), "{:?}", l.text);
                    proptest::prop_assert!(!l.text.contains(char::is_whitespace));
                }
            }
        }
    }
}
