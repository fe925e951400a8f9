//! Word-boundary semantics of banned literals.

mod support;

use sightline_guard::{BanList, FindingKind, scan_source};
use std::path::Path;

fn list(literals: &[&str]) -> BanList {
    let quoted: Vec<String> = literals.iter().map(|l| format!("{l:?}")).collect();
    let text = format!(
        "[[group]]\nname = \"g\"\nwhy = \"test\"\nliterals = [{}]\n",
        quoted.join(", ")
    );
    BanList::parse(&text, Path::new("t.toml")).unwrap_or_else(|e| panic!("{e}"))
}

fn hits(literals: &[&str], source: &str) -> Vec<(String, String)> {
    scan_source("x.rs", source, &list(literals))
        .findings
        .into_iter()
        .filter_map(|f| match f.kind {
            FindingKind::BannedLiteral {
                literal, matched, ..
            } => Some((literal, matched)),
            _ => None,
        })
        .collect()
}

#[test]
fn matches_whole_words_in_every_case_style() {
    for source in [
        "let excalidrawApp = 1;",
        "const EXCALIDRAW_URL: &str = \"\";",
        "let s = \"Excalidraw\";",
        "// see excalidraw-app for details",
        "struct MyExcalidrawThing;",
    ] {
        assert_eq!(hits(&["excalidraw"], source).len(), 1, "{source}");
    }
}

#[test]
fn never_matches_inside_a_longer_word() {
    assert!(hits(&["scene"], "let scenery = obscene;").is_empty());
    assert!(hits(&["hono"], "fn honour(phone: Phone, honolulu: u8) {}").is_empty());
    assert!(hits(&["gin"], "let plugin = login + begin + engine;").is_empty());
}

#[test]
fn plural_forms_count_as_the_word() {
    assert_eq!(hits(&["scene"], "let scenes = allScenes;").len(), 2);
    assert_eq!(hits(&["canvas"], "let canvases = 1;").len(), 1);
}

#[test]
fn multi_word_literals_match_runs_of_words() {
    let source = "let codeExplorer = CODE_EXPLORER_ID + codeexplorer(); let code = explorer;";
    let got = hits(&["code_explorer"], source);
    assert_eq!(got.len(), 3, "{got:?}");
    // A literal written as one word also matches it split by case.
    assert_eq!(hits(&["okhttp"], "let c = OkHttpClient::new();").len(), 1);
}

#[test]
fn reports_the_literal_and_the_whole_matched_token() {
    let got = hits(&["excalidraw"], "let x = excalidrawApp;");
    assert_eq!(
        got,
        [("excalidraw".to_string(), "excalidrawApp".to_string())]
    );
}

#[test]
fn file_name_literals_match_as_bounded_substrings() {
    let banned = ["page.tsx", "next.config"];
    assert_eq!(
        hits(&banned, "if p.ends_with(\"app/Page.tsx\") {}").len(),
        1
    );
    assert_eq!(hits(&banned, "let f = \"next.config.mjs\";").len(), 1);
    assert!(hits(&banned, "let f = \"homepage.tsx page.tsxx\";").is_empty());
    let got = hits(&banned, "let f = \"src/app/page.tsx\";");
    assert_eq!(got[0].1, "src/app/page.tsx");
}

#[test]
fn columns_are_one_based_characters() {
    let report = scan_source("x.rs", "// é zebra", &support::small_list());
    assert_eq!((report.findings[0].line, report.findings[0].column), (1, 6));
}
