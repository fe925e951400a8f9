//! Loading ban lists: precise errors for malformed files, merging extra lists.

use std::path::Path;

use sightline_guard::{BanList, GuardError, Pattern};

fn parse(text: &str) -> Result<BanList, GuardError> {
    BanList::parse(text, Path::new("guard.toml"))
}

fn error_line(text: &str) -> usize {
    match parse(text) {
        Err(GuardError::BanListSyntax { line, .. } | GuardError::BanListEntry { line, .. }) => line,
        other => panic!("expected a ban list error, got {other:?}"),
    }
}

#[test]
fn syntax_errors_name_the_line() {
    let text = "[[group]]\nname = \"a\"\nwhy = \"b\"\nliterals = [\"x\",\n  \"y\" \"z\"]\n";
    assert_eq!(error_line(text), 5);
    let err = parse(text).err().map(|e| e.to_string()).unwrap_or_default();
    assert!(err.starts_with("guard.toml:5: "), "{err}");
}

#[test]
fn shape_errors_name_the_line() {
    // Unknown key.
    assert_eq!(
        error_line("[[group]]\nname = \"a\"\nwhy = \"b\"\nliterals = []\nwords = []\n"),
        5
    );
    // Missing reason.
    assert!(error_line("[[group]]\nname = \"a\"\nliterals = [\"x\"]\n") >= 1);
    // Literal of the wrong type.
    assert_eq!(
        error_line("[[group]]\nname = \"a\"\nwhy = \"b\"\nliterals = [\n 1,\n]\n"),
        5
    );
}

#[test]
fn unusable_entries_name_the_line() {
    let head = "[[group]]\nname = \"a\"\nwhy = \"b\"\n";
    assert_eq!(
        error_line(&format!("{head}literals = [\n  \"ok\",\n  \"--\",\n]\n")),
        6
    );
    assert_eq!(
        error_line(&format!("{head}literals = [\"x_y\",\n \"xY\"]\n")),
        5
    );
    assert_eq!(
        error_line("[[group]]\nname = \"a\"\nwhy = \"  \"\nliterals = []\n"),
        3
    );
    let twice = format!("{head}literals = []\n{head}literals = []\n");
    assert_eq!(error_line(&twice), 6);
}

#[test]
fn literals_are_classified_by_their_characters() {
    let list = parse(
        "[[group]]\nname = \"a\"\nwhy = \"b\"\nliterals = [\"Foo Bar\", \"x-y\", \"Page.TSX\"]\n",
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let patterns: Vec<&Pattern> = list.literals.iter().map(|l| &l.pattern).collect();
    assert_eq!(
        patterns,
        [
            &Pattern::Words("foobar".into()),
            &Pattern::Words("xy".into()),
            &Pattern::Substring("page.tsx".into()),
        ]
    );
}

#[test]
fn merging_keeps_every_literal_once() {
    let mut base = parse("[[group]]\nname = \"a\"\nwhy = \"b\"\nliterals = [\"x\", \"y\"]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    let extra = parse("[[group]]\nname = \"a\"\nwhy = \"c\"\nliterals = [\"y\", \"z\"]\n")
        .unwrap_or_else(|e| panic!("{e}"));
    base.merge(extra, Path::new("private.toml"));
    let texts: Vec<&str> = base.literals.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(texts, ["x", "y", "z"]);
    assert_eq!(base.literals[2].group, "a@private.toml");
    assert_eq!(base.groups.len(), 2);
}

#[test]
fn missing_file_is_an_io_error() {
    let err = BanList::load(Path::new("/nonexistent/guard.toml"));
    assert!(matches!(err, Err(GuardError::Io { .. })));
}
