//! Lexicon and query-regex heuristics, waivers and the test-code cut-off.

mod support;

use sightline_guard::{BanList, Check, FindingKind, scan_source, walk};

fn scan(source: &str) -> sightline_guard::Report {
    scan_source("x.rs", source, &BanList::default())
}

fn words(n: usize) -> String {
    let pool = [
        "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota",
    ];
    let quoted: Vec<String> = pool[..n].iter().map(|w| format!("{w:?}")).collect();
    quoted.join(", ")
}

fn lexicons(report: &sightline_guard::Report) -> usize {
    support::kinds(report)
        .iter()
        .filter(|k| matches!(k, FindingKind::Lexicon { .. }))
        .count()
}

#[test]
fn long_word_arrays_are_lexicons_and_short_ones_are_not() {
    assert_eq!(
        lexicons(&scan(&format!("const W: &[&str] = &[{}];", words(8)))),
        1
    );
    assert_eq!(lexicons(&scan(&format!("let w = vec![{}];", words(9)))), 1);
    assert_eq!(
        lexicons(&scan(&format!("const W: &[&str] = &[{}];", words(7)))),
        0
    );
}

#[test]
fn word_tables_and_match_alternations_are_lexicons() {
    let words_only: Vec<String> = ["ab", "cd", "ef", "gh", "ij", "kl", "mn", "op"]
        .iter()
        .enumerate()
        .map(|(i, w)| format!("({w:?}, {i})"))
        .collect();
    let table = format!("const T: &[(&str, u8)] = &[{}];", words_only.join(", "));
    assert_eq!(lexicons(&scan(&table)), 1);
    let arms = words(8).replace(", ", " | ");
    assert_eq!(
        lexicons(&scan(&format!("match w {{ {arms} => 1, _ => 0 }}"))),
        1
    );
}

#[test]
fn non_word_strings_do_not_make_a_lexicon() {
    let source =
        r#"const X: &[&str] = &["Alpha", "b-c", "d_e", "f g", "h.i", "J", "k1", "LM", "x"];"#;
    assert_eq!(lexicons(&scan(source)), 0);
    // Strings inside comments and other strings are not literals.
    let commented = format!(
        "// [{}]\nlet s = \"[{}]\";",
        words(9),
        words(9).replace('"', "'")
    );
    assert_eq!(lexicons(&scan(&commented)), 0);
}

#[test]
fn regex_in_a_query_handler_is_flagged() {
    let source = "fn rank(query: &str) -> bool {\n    let re = Regex::new(\"^fix\").unwrap();\n    re.is_match(query)\n}\n";
    let report = scan(source);
    assert_eq!(report.findings.len(), 1, "{report}");
    assert_eq!(
        (report.findings[0].line, report.findings[0].column),
        (2, 14)
    );
    assert!(matches!(
        &report.findings[0].kind,
        FindingKind::QueryRegex { scope: sightline_guard::RegexScope::Function(name), .. } if name == "rank"
    ));
}

#[test]
fn regex_away_from_queries_is_not_flagged() {
    let source = "fn strip(line: &str) -> String {\n    Regex::new(\"\\\\s+\").unwrap().replace_all(line, \" \").into()\n}\nfn other(query: &str) {}\n";
    assert!(!scan(source).has_findings(), "{}", scan(source));
    // Outside any function, the file decides.
    let top = "static RE: LazyLock<Regex> = LazyLock::new(|| Regex::new(\"x\").unwrap());\n";
    assert!(!scan(top).has_findings());
    let with_query = format!("{top}fn f(user_query: &str) {{}}\n");
    assert_eq!(scan(&with_query).findings.len(), 1);
}

#[test]
fn waivers_need_a_reason_and_are_listed() {
    let lexicon = format!("const W: &[&str] = &[{}];", words(8));
    let waived = format!("// guard: allow(lexicon) reason: names of greek letters\n{lexicon}\n");
    let report = scan(&waived);
    assert!(!report.has_findings(), "{report}");
    assert_eq!(report.waived.len(), 1);
    assert_eq!(report.waived[0].reason, "names of greek letters");

    let same_line = format!("{lexicon} // guard: allow(lexicon) reason: letters\n");
    assert!(!scan(&same_line).has_findings());

    for bad in [
        "// guard: allow(lexicon)",
        "// guard: allow(lexicon) reason:   ",
        "// guard: allow(everything) reason: x",
        "// guard: please",
    ] {
        let report = scan(&format!("{bad}\n{lexicon}\n"));
        assert!(
            support::kinds(&report)
                .iter()
                .any(|k| matches!(k, FindingKind::BadWaiver { .. })),
            "{bad}: {report}"
        );
        assert_eq!(lexicons(&report), 1, "{bad} must not waive");
    }
}

#[test]
fn waivers_only_cover_their_check_and_nearby_lines() {
    let lexicon = format!("const W: &[&str] = &[{}];", words(8));
    let wrong_check = format!("// guard: allow(query-regex) reason: x\n{lexicon}\n");
    let report = scan(&wrong_check);
    assert_eq!(lexicons(&report), 1);
    assert!(report.findings.iter().any(|f| f.kind
        == FindingKind::UnusedWaiver {
            check: Check::QueryRegex
        }));
    let too_far = format!("// guard: allow(lexicon) reason: x\n\n{lexicon}\n");
    assert_eq!(lexicons(&scan(&too_far)), 1);
    // Doc comments show the syntax without being waivers.
    assert!(!scan("/// // guard: allow(lexicon) reason: docs\nfn f() {}\n").has_findings());
}

#[test]
fn test_module_at_the_end_is_cut_off() {
    let text = "fn f() {}\n#[cfg(test)]\nmod tests {\n    const ZEBRA: u8 = 1;\n}\n";
    assert_eq!(walk::production_part(text), "fn f() {}\n");
    let helper = "#[cfg(test)]\nfn helper() {}\nconst ZEBRA: u8 = 1;\n";
    assert_eq!(walk::production_part(helper), helper);
    let attributed = "fn f() {}\n#[cfg(test)]\n#[allow(unused)]\npub(crate) mod tests;\n";
    assert_eq!(walk::production_part(attributed), "fn f() {}\n");
}

fn split_lexicons(report: &sightline_guard::Report) -> usize {
    support::kinds(report)
        .iter()
        .filter(|k| matches!(k, FindingKind::SplitLexicon { .. }))
        .count()
}

#[test]
fn a_lexicon_split_over_short_arrays_in_one_function_is_caught() {
    let source = r#"
fn kinds(w: &str) -> u8 {
    const A: [&str; 4] = ["alpha", "beta", "gamma", "delta"];
    const B: [&str; 4] = ["epsilon", "zeta", "eta", "theta"];
    u8::from(A.contains(&w) || B.contains(&w))
}
"#;
    assert_eq!(split_lexicons(&scan(source)), 1);
    assert_eq!(lexicons(&scan(source)), 0);
}

#[test]
fn a_lexicon_split_over_match_arms_is_caught() {
    let source = r#"
fn kind(w: &str) -> u8 {
    match w {
        "alpha" | "beta" => 1,
        "gamma" | "delta" | "epsilon" => 2,
        "zeta" => 3,
        "eta" => 4,
        "theta" => 5,
        _ => 0,
    }
}
"#;
    assert_eq!(split_lexicons(&scan(source)), 1);
}

#[test]
fn short_lists_in_separate_functions_are_not_a_split_lexicon() {
    let source = r#"
fn a(w: &str) -> bool { ["alpha", "beta", "gamma", "delta"].contains(&w) }
fn b(w: &str) -> bool { ["epsilon", "zeta", "eta", "theta"].contains(&w) }
"#;
    assert_eq!(split_lexicons(&scan(source)), 0);
}

#[test]
fn a_split_lexicon_can_be_waived_as_a_lexicon() {
    let source = r#"
fn kind(w: &str) -> u8 {
    // guard: allow(lexicon) reason: a test of the waiver
    match w { "alpha" | "beta" | "gamma" | "delta" => 1, "epsilon" | "zeta" | "eta" | "theta" => 2, _ => 0 }
}
"#;
    let report = scan(source);
    assert_eq!(split_lexicons(&report), 0);
    assert_eq!(report.waived.len(), 1);
}

#[test]
fn a_long_waived_list_does_not_hide_the_short_ones_beside_it() {
    let source = r#"
fn kinds(w: &str) -> u8 {
    // guard: allow(lexicon) reason: a test of the waiver
    let long = ["one", "two", "three", "four", "five", "six", "seven", "eight"];
    let a = ["alpha", "beta", "gamma", "delta"];
    let b = ["epsilon", "zeta", "eta", "theta"];
    u8::from(long.contains(&w) || a.contains(&w) || b.contains(&w))
}
"#;
    assert_eq!(split_lexicons(&scan(source)), 1);
}
