//! `read_file` without a range is capped, says the file's size before its text, and says
//! how to read on; a range asked for is returned whole up to the cap; text is byte-capped.

use std::fs;

use sightline_observe::paths::RepoRoot;
use sightline_observe::tools::read_file::{self, ReadFileArgs};

fn numbered(lines: u32) -> String {
    (1..=lines).map(|n| format!("line {n}\n")).collect()
}

#[test]
fn an_open_read_is_capped_and_says_the_total_and_how_to_continue() {
    let dir = tempfile::tempdir().unwrap();
    fs::write(dir.path().join("long.ts"), numbered(1234)).unwrap();
    let root = RepoRoot::new(dir.path()).unwrap();

    let open = read_file::run(&root, &ReadFileArgs::new("long.ts")).unwrap();
    assert_eq!(
        (open.start_line, open.end_line),
        (1, read_file::DEFAULT_MAX_LINES)
    );
    assert!(open.truncated);
    let text = open.render_text();
    let first = text.lines().next().unwrap();
    assert_eq!(first, "long.ts (lines 1-200 of 1,234)");
    assert!(
        text.contains("read on with start_line: 201"),
        "no continuation:\n{}",
        &text[text.len() - 200..]
    );

    // Continuing from there reads the next window.
    let next = read_file::run(
        &root,
        &ReadFileArgs {
            start_line: Some(201),
            ..ReadFileArgs::new("long.ts")
        },
    )
    .unwrap();
    assert_eq!((next.start_line, next.end_line), (201, 400));

    // A range asked for comes back whole, up to the maximum.
    let range = read_file::run(
        &root,
        &ReadFileArgs {
            start_line: Some(1),
            end_line: Some(700),
            ..ReadFileArgs::new("long.ts")
        },
    )
    .unwrap();
    assert_eq!(range.end_line, 700);
    assert!(!range.truncated);
    let all = read_file::run(
        &root,
        &ReadFileArgs {
            end_line: Some(5000),
            ..ReadFileArgs::new("long.ts")
        },
    )
    .unwrap();
    assert_eq!(all.end_line, read_file::MAX_LINES_CAP);
    assert!(all.truncated);
}

#[test]
fn text_is_capped_in_bytes_at_a_line_boundary_or_inside_one_huge_line() {
    let dir = tempfile::tempdir().unwrap();
    let wide = format!("{}\n", "x".repeat(1000));
    fs::write(dir.path().join("wide.txt"), wide.repeat(100)).unwrap();
    // An odd prefix puts the byte cap inside a two-byte character.
    let minified = format!("a{}\nsecond\n", "é".repeat(read_file::MAX_TEXT_BYTES));
    fs::write(dir.path().join("min.js"), minified).unwrap();
    let root = RepoRoot::new(dir.path()).unwrap();

    let wide = read_file::run(&root, &ReadFileArgs::new("wide.txt")).unwrap();
    assert!(wide.text.len() <= read_file::MAX_TEXT_BYTES);
    assert!(wide.truncated && wide.text.ends_with('\n'));
    assert_eq!(wide.text.lines().count() as u32, wide.end_line);

    let min = read_file::run(&root, &ReadFileArgs::new("min.js")).unwrap();
    assert!(min.line_cut);
    assert_eq!((min.start_line, min.end_line), (1, 1));
    assert!(min.text.len() <= read_file::MAX_TEXT_BYTES && !min.invalid_utf8);
    assert!(min.text[1..].chars().all(|c| c == 'é'));
    assert_eq!(min.text.len(), read_file::MAX_TEXT_BYTES - 1);
    let text = min.render_text();
    assert!(
        text.contains("read on with start_line: 2"),
        "{}",
        &text[text.len() - 200..]
    );
}
