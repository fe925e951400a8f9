//! Property: any literal of the repository's ban list, inserted anywhere in a synthetic
//! source (identifier, string or comment, any case style), is found on the line it was
//! inserted on, and nowhere else; the same literal glued inside a longer word is not.

mod support;

use proptest::prelude::*;
use sightline_guard::{BanList, Pattern, scan_source, words};

/// Filler vocabulary: ordinary words that no ban list should contain.
const NEUTRAL: [&str; 8] = [
    "value", "index", "count", "left", "total", "limit", "offset", "weight",
];

#[derive(Debug, Clone, Copy)]
enum Place {
    Ident,
    Str,
    Comment,
}

#[derive(Debug, Clone, Copy)]
enum Style {
    Camel,
    Pascal,
    Snake,
    Screaming,
}

fn capitalize(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// `words` joined in one identifier style.
fn identifier(words: &[String], style: Style) -> String {
    match style {
        Style::Camel => words
            .iter()
            .enumerate()
            .map(|(i, w)| {
                if i == 0 {
                    w.to_lowercase()
                } else {
                    capitalize(&w.to_lowercase())
                }
            })
            .collect(),
        Style::Pascal => words
            .iter()
            .map(|w| capitalize(&w.to_lowercase()))
            .collect(),
        Style::Snake => words
            .iter()
            .map(|w| w.to_lowercase())
            .collect::<Vec<_>>()
            .join("_"),
        Style::Screaming => words
            .iter()
            .map(|w| w.to_uppercase())
            .collect::<Vec<_>>()
            .join("_"),
    }
}

fn literal_words(text: &str) -> Vec<String> {
    words::words(text)
        .into_iter()
        .map(|r| text[r].to_string())
        .collect()
}

/// A neutral line of code, different for each `seed`.
fn filler(seed: usize) -> String {
    let a = NEUTRAL[seed % NEUTRAL.len()];
    let b = NEUTRAL[(seed / NEUTRAL.len()) % NEUTRAL.len()];
    match seed % 3 {
        0 => format!("let {a}_{b} = {b} + {seed};"),
        1 => format!("// {a} {b} stays the same"),
        _ => format!("let {a} = \"{b} {a}\";"),
    }
}

fn the_list() -> &'static BanList {
    static LIST: std::sync::OnceLock<BanList> = std::sync::OnceLock::new();
    LIST.get_or_init(support::repo_list)
}

fn place_strategy() -> impl Strategy<Value = Place> {
    prop_oneof![Just(Place::Ident), Just(Place::Str), Just(Place::Comment)]
}

fn style_strategy() -> impl Strategy<Value = Style> {
    prop_oneof![
        Just(Style::Camel),
        Just(Style::Pascal),
        Just(Style::Snake),
        Just(Style::Screaming)
    ]
}

/// The inserted line and whether the insertion is an identifier.
fn inserted_line(
    text: &str,
    pattern: &Pattern,
    place: Place,
    style: Style,
    prefix: Option<&str>,
    suffix: Option<&str>,
    upper: bool,
) -> String {
    let cased = if upper {
        text.to_uppercase()
    } else {
        text.to_string()
    };
    match (place, pattern) {
        (Place::Ident, Pattern::Words(_)) => {
            let mut parts: Vec<String> = prefix.map(str::to_string).into_iter().collect();
            parts.extend(literal_words(text));
            parts.extend(suffix.map(str::to_string));
            format!("let {} = 1;", identifier(&parts, style))
        }
        (Place::Comment, _) => format!(
            "// {} {cased} {}",
            prefix.unwrap_or("note"),
            suffix.unwrap_or("here")
        ),
        // Strings, and identifiers for file-name literals (which cannot be identifiers).
        _ => format!("let s = \"{}/{cased}\";", prefix.unwrap_or("dir")),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    #[test]
    fn any_inserted_literal_is_found(
        pick in any::<prop::sample::Index>(),
        place in place_strategy(),
        style in style_strategy(),
        prefix in prop::option::of(prop::sample::select(NEUTRAL.to_vec())),
        suffix in prop::option::of(prop::sample::select(NEUTRAL.to_vec())),
        upper in any::<bool>(),
        seeds in prop::collection::vec(0usize..200, 0..12),
        at in any::<prop::sample::Index>(),
    ) {
        let list = the_list();
        let literal = &list.literals[pick.index(list.literals.len())];
        let mut lines: Vec<String> = seeds.iter().map(|&s| filler(s)).collect();
        let position = at.index(lines.len() + 1);
        lines.insert(
            position,
            inserted_line(&literal.text, &literal.pattern, place, style, prefix, suffix, upper),
        );
        let source = lines.join("\n");
        let report = scan_source("synthetic.rs", &source, list);

        let line = position + 1;
        prop_assert!(
            support::literals_on(&report, line).contains(&literal.text),
            "{:?} not found at line {line} of:\n{source}\n{report}", literal.text
        );
        prop_assert!(
            report.findings.iter().all(|f| f.line == line),
            "neutral lines were flagged:\n{source}\n{report}"
        );
    }

    #[test]
    fn a_literal_inside_a_longer_word_is_not_found(
        pick in any::<prop::sample::Index>(),
        glue_before in any::<bool>(),
        place in place_strategy(),
    ) {
        let list = the_list();
        let literal = &list.literals[pick.index(list.literals.len())];
        // File-name literals are bounded by letters and digits, word literals by words.
        let key = match &literal.pattern {
            Pattern::Words(key) => key.clone(),
            Pattern::Substring(needle) => needle.clone(),
        };
        let glued = if glue_before { format!("zq{key}") } else { format!("{key}zq") };
        let line = match place {
            Place::Ident if matches!(literal.pattern, Pattern::Words(_)) => format!("let {glued} = 1;"),
            Place::Comment => format!("// {glued}"),
            _ => format!("let s = \"{glued}\";"),
        };
        let report = scan_source("synthetic.rs", &line, list);
        prop_assert!(
            !support::literals_on(&report, 1).contains(&literal.text),
            "{:?} matched inside {glued:?}:\n{report}", literal.text
        );
    }
}
