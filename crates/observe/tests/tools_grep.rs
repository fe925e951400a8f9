//! `grep` over small temporary repositories.

mod common;

use sightline_observe::paths::{PathError, RepoRoot};
use sightline_observe::tools::ToolError;
use sightline_observe::tools::grep::{self, GrepArgs, GrepResult, ReadAs};
use sightline_observe::tools::grep_skipped::SkipReason;
use tempfile::TempDir;

use common::create_file as write;

fn repo() -> (TempDir, RepoRoot) {
    let dir = tempfile::tempdir().unwrap();
    let r = dir.path();
    write(r, ".gitignore", "dist/\n*.log\n");
    write(
        r,
        "src/app.ts",
        "import { helper } from './util';\nexport function fooBar() {}\nconst x = FOOBAR;\n",
    );
    write(
        r,
        "src/util.tsx",
        "export const helper = () => <div>fooBar</div>;\n",
    );
    write(r, "src/dots.ts", "a.b\naxb\n");
    write(r, "README.md", "Call fooBar() to start.\n");
    write(r, "dist/bundle.ts", "fooBar\n");
    write(r, "debug.log", "fooBar\n");
    write(r, "node_modules/pkg/index.ts", "fooBar\n");
    write(r, ".git/config", "fooBar\n");
    write(r, "assets/blob.bin", b"fooBar\0\x01\x02\n");
    let root = RepoRoot::new(r).unwrap();
    (dir, root)
}

fn search(root: &RepoRoot, args: GrepArgs) -> GrepResult {
    grep::run(root, &args).unwrap()
}

fn located(result: &GrepResult) -> Vec<String> {
    result
        .matches
        .iter()
        .map(|m| format!("{}:{}", m.path, m.line))
        .collect()
}

#[test]
fn a_lowercase_pattern_ignores_case_by_default() {
    let (_dir, root) = repo();
    let result = search(&root, GrepArgs::new("foobar"));
    assert_eq!(
        located(&result),
        ["src/app.ts:2", "src/app.ts:3", "src/util.tsx:1"]
    );
    assert_eq!(result.files_with_matches, 2);
    // The README is no language's source: next to the code's hits it is a count.
    assert_eq!(result.folded.len(), 1);
    assert_eq!(result.folded[0].path, "README.md");
    assert_eq!(result.total_matches, 4);
    assert!(!result.truncated);
    assert!(result.diagnostics.is_empty(), "{:?}", result.diagnostics);
    assert_eq!(result.matches[0].text, "export function fooBar() {}");

    let exact = search(
        &root,
        GrepArgs {
            case_sensitive: Some(true),
            ..GrepArgs::new("foobar")
        },
    );
    assert!(exact.matches.is_empty(), "{:?}", located(&exact));
}

/// A capital letter makes the search match case (`rg --smart-case`), unless the caller
/// asks to ignore it.
#[test]
fn a_pattern_with_a_capital_matches_case_unless_told_otherwise() {
    let (_dir, root) = repo();
    assert_eq!(
        located(&search(&root, GrepArgs::new("FOOBAR"))),
        ["src/app.ts:3"]
    );
    assert_eq!(
        located(&search(&root, GrepArgs::new("fooBar"))),
        ["src/app.ts:2", "src/util.tsx:1"]
    );
    let ignoring = search(
        &root,
        GrepArgs {
            case_sensitive: Some(false),
            ..GrepArgs::new("FOOBAR")
        },
    );
    assert_eq!(
        located(&ignoring),
        ["src/app.ts:2", "src/app.ts:3", "src/util.tsx:1"]
    );
}

#[test]
fn literal_and_regex_differ_on_metacharacters() {
    let (_dir, root) = repo();
    let literal = search(&root, GrepArgs::new("a.b"));
    assert_eq!(located(&literal), ["src/dots.ts:1"]);
    let regex = search(
        &root,
        GrepArgs {
            regex: true,
            ..GrepArgs::new("^a.b$")
        },
    );
    assert_eq!(located(&regex), ["src/dots.ts:1", "src/dots.ts:2"]);
    // Parentheses are plain text in literal mode.
    let call = search(&root, GrepArgs::new("fooBar()"));
    assert_eq!(located(&call), ["src/app.ts:2"]);
    assert_eq!(call.folded_matches, 1, "the README's line, folded");
}

#[test]
fn a_pattern_that_matches_only_read_the_other_way_is_answered_that_way() {
    let (_dir, root) = repo();
    // A regex alternation sent as literal text: answered as the regex, and said so.
    let literal = search(&root, GrepArgs::new("helper|fooBar"));
    let as_regex = search(
        &root,
        GrepArgs {
            regex: true,
            ..GrepArgs::new("helper|fooBar")
        },
    );
    assert_eq!(
        literal.read_as,
        Some(ReadAs {
            regex: true,
            invalid_regex: false,
            ignoring_case: false,
            alternatives: false
        })
    );
    assert_eq!(located(&literal), located(&as_regex));
    assert!(!located(&literal).is_empty());
    let text = literal.render_text();
    assert!(
        text.starts_with("nothing matched literally; read as a regex:\n"),
        "{text}"
    );
    assert_eq!(
        text.lines().skip(1).collect::<Vec<_>>(),
        as_regex.render_text().lines().collect::<Vec<_>>()
    );
    // Text with regex syntax sent as a regex: `fooBar() to` as a regex would need `fooBar`
    // followed by ` to`, so it matches only literally (the README's line).
    let regex = search(
        &root,
        GrepArgs {
            regex: true,
            secondary: true,
            ..GrepArgs::new("fooBar() to")
        },
    );
    assert_eq!(
        regex.read_as,
        Some(ReadAs {
            regex: false,
            invalid_regex: false,
            ignoring_case: false,
            alternatives: false
        })
    );
    assert_eq!(located(&regex), ["README.md:1"]);
    assert!(
        regex
            .render_text()
            .starts_with("nothing matched as a regex; read as literal text:\n")
    );
    // An invalid regex whose text is in a file is read literally.
    let invalid = search(
        &root,
        GrepArgs {
            regex: true,
            secondary: true,
            ..GrepArgs::new("fooBar(")
        },
    );
    assert_eq!(
        invalid.read_as,
        Some(ReadAs {
            regex: false,
            invalid_regex: true,
            ignoring_case: false,
            alternatives: false
        })
    );
    assert_eq!(located(&invalid), ["README.md:1", "src/app.ts:2"]);
    // An invalid regex whose text is nowhere, an alternation of a bare `(` and a valid
    // piece: each alternative read as written, the invalid one as literal text.
    let mixed = search(
        &root,
        GrepArgs {
            regex: true,
            ..GrepArgs::new("fooBar(|\\bhelper\\b")
        },
    );
    assert_eq!(
        mixed.read_as,
        Some(ReadAs {
            regex: true,
            invalid_regex: true,
            ignoring_case: false,
            alternatives: true
        })
    );
    let meant = GrepArgs {
        regex: true,
        ..GrepArgs::new("fooBar\\(|\\bhelper\\b")
    };
    assert_eq!(located(&mixed), located(&search(&root, meant)));
    assert!(
        mixed
            .render_text()
            .starts_with("not a valid regex; its `|` alternatives read apart")
    );
    // The same mistake sent as literal text (an agent's `a(|b(` without `regex`): its
    // regex reading does not compile, so its pieces are read apart too.
    let literal = search(&root, GrepArgs::new("fooBar(|helper("));
    assert_eq!(
        literal.read_as,
        Some(ReadAs {
            regex: true,
            invalid_regex: false,
            ignoring_case: false,
            alternatives: true
        })
    );
    let meant = GrepArgs {
        regex: true,
        ..GrepArgs::new("fooBar\\(|helper\\(")
    };
    assert!(!located(&literal).is_empty());
    assert_eq!(located(&literal), located(&search(&root, meant)));
    assert!(
        literal
            .render_text()
            .starts_with("nothing matched literally; its `|` alternatives read apart")
    );
    // A capital that made the pattern match case, where nothing has that case: read
    // ignoring case, and said so.
    let miscased = search(&root, GrepArgs::new("Foobar"));
    assert_eq!(
        miscased.read_as,
        Some(ReadAs {
            regex: false,
            invalid_regex: false,
            ignoring_case: true,
            alternatives: false
        })
    );
    assert_eq!(
        located(&miscased),
        located(&search(&root, GrepArgs::new("foobar")))
    );
    assert!(
        miscased
            .render_text()
            .starts_with("nothing matched in this case; ignoring case:\n")
    );
    // Nothing is re-read for plain words, for a pattern that matched as sent, or when the
    // other way finds nothing either.
    for args in [
        GrepArgs::new("absent"),
        GrepArgs::new("Absent"),
        GrepArgs {
            case_sensitive: Some(true),
            ..GrepArgs::new("Foobar")
        },
        GrepArgs::new("absent|gone"),
        GrepArgs::new("fooBar"),
        GrepArgs::new("a.b"),
    ] {
        let result = search(&root, args.clone());
        assert_eq!(result.read_as, None, "{args:?}");
    }
    assert_eq!(
        search(&root, GrepArgs::new("absent|gone")).render_text(),
        "no matches\n"
    );
    // A scope without files is said as such, whatever the pattern's readings.
    let nowhere = search(
        &root,
        GrepArgs {
            glob: Some("*.absent".into()),
            ..GrepArgs::new("helper|fooBar")
        },
    );
    assert_eq!(nowhere.read_as, None);
    assert!(nowhere.empty_scope.is_some());
    assert!(
        nowhere
            .render_text()
            .starts_with("no file matches glob `*.absent`"),
        "{}",
        nowhere.render_text()
    );
}

#[test]
fn invalid_regex_names_the_pattern() {
    let (_dir, root) = repo();
    // Invalid as a regex, and absent as literal text too.
    let err = grep::run(
        &root,
        &GrepArgs {
            regex: true,
            ..GrepArgs::new("absent(")
        },
    )
    .unwrap_err();
    match &err {
        ToolError::InvalidRegex { pattern, message } => {
            assert_eq!(pattern, "absent(");
            assert!(!message.is_empty());
        }
        other => panic!("unexpected {other:?}"),
    }
    assert!(err.to_string().contains("`absent(`"));
}

#[test]
fn invalid_arguments_are_refused() {
    let (_dir, root) = repo();
    let empty = grep::run(&root, &GrepArgs::new("")).unwrap_err();
    assert!(matches!(
        empty,
        ToolError::InvalidArgument {
            name: "pattern",
            ..
        }
    ));
    let zero = grep::run(
        &root,
        &GrepArgs {
            max_matches: 0,
            ..GrepArgs::new("x")
        },
    )
    .unwrap_err();
    assert!(matches!(
        zero,
        ToolError::InvalidArgument {
            name: "max_matches",
            ..
        }
    ));
    let glob = grep::run(
        &root,
        &GrepArgs {
            glob: Some("src/[".into()),
            ..GrepArgs::new("x")
        },
    )
    .unwrap_err();
    assert!(matches!(glob, ToolError::InvalidGlob { ref glob, .. } if glob == "src/["));
}

#[test]
fn glob_filters_by_name_or_by_path() {
    let (_dir, root) = repo();
    let by_name = search(
        &root,
        GrepArgs {
            glob: Some("*.tsx".into()),
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(located(&by_name), ["src/util.tsx:1"]);
    let by_path = search(
        &root,
        GrepArgs {
            glob: Some("src/**/*.ts".into()),
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(located(&by_path), ["src/app.ts:2", "src/app.ts:3"]);
}

#[test]
fn ignored_dependency_vcs_binary_and_large_files_are_skipped() {
    let (dir, root) = repo();
    let mut big = "fooBar\n".to_string();
    big.push_str(&"x".repeat(1 << 20));
    write(dir.path(), "src/huge.ts", big);
    let result = search(&root, GrepArgs::new("foobar"));
    for m in &result.matches {
        assert!(
            !m.path.starts_with("dist/")
                && !m.path.starts_with("node_modules/")
                && !m.path.starts_with(".git/")
                && m.path != "debug.log"
                && m.path != "assets/blob.bin"
                && m.path != "src/huge.ts",
            "{}",
            m.path
        );
    }
    assert_eq!(result.skipped.dependency_dirs, 1);
    assert_eq!(result.skipped.vcs_dirs, 1);
    assert_eq!(result.files_skipped_binary, 1);
    assert_eq!(result.files_skipped_large, 1);
}

#[test]
fn truncation_flag_is_set_only_when_matches_were_left_out() {
    let (_dir, root) = repo();
    let cut = search(
        &root,
        GrepArgs {
            max_matches: 2,
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(located(&cut), ["src/app.ts:2", "src/app.ts:3"]);
    assert!(cut.truncated);
    let exact = search(
        &root,
        GrepArgs {
            max_matches: 3,
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(exact.matches.len(), 3);
    assert!(!exact.truncated);
    // Over-large limits are lowered to the cap instead of failing.
    let capped = search(
        &root,
        GrepArgs {
            max_matches: 1_000_000,
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(capped.matches.len(), 3);
}

#[test]
fn context_lines_surround_matches() {
    let (dir, root) = repo();
    write(dir.path(), "ctx.ts", "one\nhit\ntwo\nhit\nthree\nfour\n");
    let result = search(
        &root,
        GrepArgs {
            path: Some("ctx.ts".into()),
            context: 1,
            ..GrepArgs::new("hit")
        },
    );
    assert_eq!(located(&result), ["ctx.ts:2", "ctx.ts:4"]);
    let first = &result.matches[0];
    assert_eq!(first.context_before[0].line, 1);
    assert_eq!(first.context_before[0].text, "one");
    assert_eq!(first.context_after.len(), 1);
    assert_eq!(first.context_after[0].text, "two");
    // Line 3 sits between both matches and belongs to both contexts.
    let second = &result.matches[1];
    assert_eq!(second.context_before[0].line, 3);
    assert_eq!(second.context_after[0].text, "three");

    // Context is capped at 3 lines.
    let wide = search(
        &root,
        GrepArgs {
            path: Some("ctx.ts".into()),
            context: 50,
            ..GrepArgs::new("three")
        },
    );
    assert_eq!(wide.matches[0].context_before.len(), 3);
    assert_eq!(wide.matches[0].context_after.len(), 1);
}

#[test]
fn truncated_result_keeps_after_context_of_last_match_up_to_an_unreported_match() {
    let (dir, root) = repo();
    write(dir.path(), "ctx.ts", "hit\nafter\nhit\nhit\n");
    let result = search(
        &root,
        GrepArgs {
            path: Some("ctx.ts".into()),
            context: 2,
            max_matches: 1,
            ..GrepArgs::new("hit")
        },
    );
    assert!(result.truncated);
    assert_eq!(located(&result), ["ctx.ts:1"]);
    let after: Vec<u32> = result.matches[0]
        .context_after
        .iter()
        .map(|l| l.line)
        .collect();
    // Line 3 matches but was left out: shown as context it would pass for a non-match.
    assert_eq!(after, [2]);
    assert_eq!(result.total_matches, 3);
    assert!(!result.render_text().contains("3- hit"));
}

#[test]
fn invalid_utf8_is_reported_not_fatal() {
    let (dir, root) = repo();
    write(dir.path(), "src/latin1.ts", b"// caf\xe9 fooBar\nok\n");
    let result = search(
        &root,
        GrepArgs {
            path: Some("src".into()),
            ..GrepArgs::new("foobar")
        },
    );
    let m = result
        .matches
        .iter()
        .find(|m| m.path == "src/latin1.ts")
        .unwrap();
    assert_eq!(m.text, "// caf\u{FFFD} fooBar");
    assert!(
        result
            .diagnostics
            .iter()
            .any(|d| d.contains("src/latin1.ts") && d.contains("UTF-8")),
        "{:?}",
        result.diagnostics
    );
}

#[test]
fn long_lines_are_cut_and_flagged() {
    let (dir, root) = repo();
    let line = format!("needle {}", "é".repeat(500));
    write(dir.path(), "long.ts", format!("{line}\r\n"));
    let result = search(&root, GrepArgs::new("needle"));
    let m = &result.matches[0];
    assert!(m.truncated);
    // Cut at the end only (the match is at the start), the cut marked.
    assert_eq!(m.text.chars().count(), grep::MAX_LINE_CHARS + 1);
    assert!(m.text.starts_with("needle") && m.text.ends_with('…'));
}

#[test]
fn path_limits_the_search_and_escapes_are_refused() {
    let (_dir, root) = repo();
    let scoped = search(
        &root,
        GrepArgs {
            path: Some("./src".into()),
            ..GrepArgs::new("foobar")
        },
    );
    assert!(scoped.matches.iter().all(|m| m.path.starts_with("src/")));
    // An explicitly named ignored file is still searched.
    let explicit = search(
        &root,
        GrepArgs {
            path: Some("dist/bundle.ts".into()),
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(located(&explicit), ["dist/bundle.ts:1"]);

    for bad in ["../", "/etc", "src/../..", "C:\\Windows", "src\0"] {
        let err = grep::run(
            &root,
            &GrepArgs {
                path: Some(bad.into()),
                ..GrepArgs::new("x")
            },
        )
        .unwrap_err();
        assert!(matches!(err, ToolError::Path(_)), "{bad:?}: {err}");
    }
}

#[cfg(unix)]
#[test]
fn symlinks_are_not_followed_out_of_the_root() {
    let (dir, root) = repo();
    let outside = tempfile::tempdir().unwrap();
    write(outside.path(), "leak.ts", "fooBar\n");
    std::os::unix::fs::symlink(outside.path(), dir.path().join("out")).unwrap();
    let result = search(&root, GrepArgs::new("foobar"));
    assert!(result.matches.iter().all(|m| !m.path.starts_with("out")));
    let err = grep::run(
        &root,
        &GrepArgs {
            path: Some("out".into()),
            ..GrepArgs::new("foobar")
        },
    )
    .unwrap_err();
    assert!(matches!(
        err,
        ToolError::Path(PathError::OutsideRoot { .. })
    ));
}

#[test]
fn args_have_serde_defaults_and_results_round_trip() {
    let args: GrepArgs = serde_json::from_str(r#"{"pattern":"foobar"}"#).unwrap();
    assert_eq!(args, GrepArgs::new("foobar"));
    let (_dir, root) = repo();
    let result = grep::run(&root, &args).unwrap();
    let json = serde_json::to_string(&result).unwrap();
    let back: GrepResult = serde_json::from_str(&json).unwrap();
    assert_eq!(back, result);
    let text = result.render_text();
    assert!(
        text.contains("## src/app.ts\n2:export function fooBar() {}"),
        "{text}"
    );
}

#[test]
fn rendered_context_is_shown_once_and_distinct_from_matches() {
    let (dir, root) = repo();
    write(
        dir.path(),
        "ctx.ts",
        "a\nhit one\nb\nhit two\nc\nd\ne\nf\ng\nhit three\nh\n",
    );
    let result = search(
        &root,
        GrepArgs {
            path: Some("ctx.ts".into()),
            context: 1,
            ..GrepArgs::new("hit")
        },
    );
    let text = result.render_tagged(&|m| Some(format!("[m{}]", m.line)));
    assert_eq!(
        text,
        "## ctx.ts\n1-a\n2:[m2] hit one\n3-b\n4:[m4] hit two\n5-c\n--\n\
         9-g\n10:[m10] hit three\n11-h\n"
    );
    // Without context only match lines appear, and each file has one heading.
    let bare = search(&root, GrepArgs::new("foobar")).render_text();
    assert_eq!(bare.matches("## src/app.ts").count(), 1, "{bare}");
    let context = |l: &str| {
        l.split_once('-')
            .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    assert!(!bare.lines().any(context), "{bare}");
}

#[test]
fn truncation_counts_every_match_and_file_it_left_out() {
    let (dir, root) = repo();
    // 3 matches in a.ts, 2 in b.ts, 1 in c.ts: 6 matches in 3 files.
    write(dir.path(), "many/a.ts", "hit\nhit\nmiss\nhit\n");
    write(dir.path(), "many/b.ts", "hit\nhit\n");
    write(dir.path(), "many/c.ts", "x hit\n");
    write(dir.path(), "many/d.ts", "nothing\n");
    let result = search(
        &root,
        GrepArgs {
            path: Some("many".into()),
            max_matches: 2,
            context: 1,
            ..GrepArgs::new("hit")
        },
    );
    assert!(result.truncated);
    assert_eq!(located(&result), ["many/a.ts:1", "many/a.ts:2"]);
    assert_eq!(result.total_matches, 6);
    assert_eq!(result.total_files_with_matches, 3);
    assert!(!result.totals_capped);
    assert_eq!(result.files_searched, 4);
    let text = result.render_text();
    assert!(
        text.contains("(2 of 6 matches in 1 of 3 files shown"),
        "{text}"
    );

    // When nothing is cut the totals equal what is shown.
    let all = search(
        &root,
        GrepArgs {
            path: Some("many".into()),
            ..GrepArgs::new("hit")
        },
    );
    assert!(!all.truncated);
    assert_eq!(all.total_matches, all.matches.len());
    assert_eq!(all.total_files_with_matches, all.files_with_matches);
}

#[test]
fn skipped_files_that_hold_a_match_are_named_with_their_reason() {
    let (dir, root) = repo();
    // Too large, holding the pattern on line 3.
    let mut big = "a\nb\nconst fooBar = 1;\n".to_string();
    big.push_str(&"x".repeat(1 << 20));
    write(dir.path(), "src/huge.ts", &big);
    // Too large and binary, without the pattern: not listed.
    write(dir.path(), "src/other.bin", vec![0u8; (1 << 20) + 10]);
    write(dir.path(), "assets/empty.bin", b"\0\0nothing\n");
    let result = search(&root, GrepArgs::new("foobar"));
    let named: Vec<(&str, SkipReason, Option<bool>, Option<u32>)> = result
        .skipped_files
        .iter()
        .map(|f| (f.path.as_str(), f.reason, f.holds_match, f.first_match_line))
        .collect();
    assert_eq!(
        named,
        [
            ("assets/blob.bin", SkipReason::Binary, Some(true), None),
            ("src/huge.ts", SkipReason::TooLarge, Some(true), Some(3)),
        ]
    );
    assert_eq!(result.files_skipped_binary, 2);
    assert_eq!(result.files_skipped_large, 2);
    let text = result.render_text();
    assert!(
        text.contains("skipped assets/blob.bin (binary, 10 B): holds a match"),
        "{text}"
    );
    assert!(
        text.contains(
            "skipped src/huge.ts (too large to search, 1.0 MiB): holds a match, first at line 3"
        ),
        "{text}"
    );
    assert!(
        !text.contains("other.bin") && !text.contains("empty.bin"),
        "{text}"
    );

    // A pattern no skipped file holds lists none.
    let none = search(&root, GrepArgs::new("readme-only-word-zz"));
    assert!(none.skipped_files.is_empty(), "{:?}", none.skipped_files);
}

/// The `(path, count)` pairs of a files-only text: `path: n` lines, and `dir/: a n, b n`
/// lines that print a directory once for its files.
fn listed_in(text: &str) -> Vec<(String, usize)> {
    let mut out = Vec::new();
    // The listing comes first; notes (truncation, skipped files) follow it.
    let notes = ["(", "no matches", "skipped ", "note: "];
    let listing = text
        .lines()
        .take_while(|l| !notes.iter().any(|n| l.starts_with(n)));
    for line in listing {
        let (head, rest) = line.rsplit_once(": ").unwrap_or_else(|| panic!("{line}"));
        if head.ends_with('/') {
            for file in rest.split(", ") {
                let (name, n) = file.rsplit_once(' ').unwrap_or_else(|| panic!("{line}"));
                out.push((format!("{head}{name}"), n.parse().unwrap()));
            }
        } else {
            out.push((head.to_owned(), rest.parse().unwrap()));
        }
    }
    out
}

/// A directory is printed once for its consecutive files; a file alone in its directory,
/// or at the root, keeps its whole path.
#[test]
fn files_only_prints_a_shared_directory_once() {
    let (_dir, root) = common::temp_repo(&[
        ("README.md", "needle\n"),
        ("top.ts", "needle\nneedle\n"),
        ("src/deep/dir/a.ts", "needle\n"),
        ("src/deep/dir/b.ts", "needle\nneedle\nneedle\n"),
        ("src/deep/dir/sub/c.ts", "needle\n"),
        ("src/deep/other.ts", "needle\n"),
    ]);
    let files = search(
        &root,
        GrepArgs {
            files_only: true,
            ..GrepArgs::new("needle")
        },
    );
    insta::assert_snapshot!("files_only_grouped", files.render_text());
}

/// A files-only search lists each file a full search finds, once, in the same order, with
/// its count of matching lines; past `max_matches` files it says how many it left out.
#[test]
fn files_only_lists_each_matching_file_once_with_its_count() {
    let (_dir, root) = repo();
    for pattern in ["foobar", "a", "export", "nothing-matches-this"] {
        // Every matching file's lines, none folded (a files-only listing folds nothing).
        let full = search(
            &root,
            GrepArgs {
                secondary: true,
                ..GrepArgs::new(pattern)
            },
        );
        let files = search(
            &root,
            GrepArgs {
                files_only: true,
                ..GrepArgs::new(pattern)
            },
        );
        assert!(files.matches.is_empty());
        let mut expected: Vec<(String, usize)> = Vec::new();
        for m in &full.matches {
            match expected.last_mut() {
                Some((path, n)) if *path == m.path => *n += 1,
                _ => expected.push((m.path.clone(), 1)),
            }
        }
        let listed: Vec<(String, usize)> = files
            .file_counts
            .iter()
            .map(|f| (f.path.clone(), f.matches))
            .collect();
        assert_eq!(listed, expected, "{pattern}");
        assert_eq!(files.total_matches, full.total_matches, "{pattern}");
        let text = files.render_text();
        assert_eq!(listed_in(&text), expected, "{text}");
        assert!(!text.contains("\n1:"), "no match lines: {text}");
    }
    let capped = search(
        &root,
        GrepArgs {
            files_only: true,
            max_matches: 1,
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(capped.file_counts.len(), 1);
    assert!(capped.truncated);
    assert!(
        capped.render_text().contains("(1 of 3 files shown"),
        "{}",
        capped.render_text()
    );
}

/// A `path` listing several existing paths, as `rg PATTERN a b` takes them, searches those
/// and says how it read them; a list with a missing part is still an error.
#[test]
fn a_path_listing_several_paths_searches_each() {
    let (_dir, root) = repo();
    let listed = search(
        &root,
        GrepArgs {
            path: Some("src/app.ts  src/util.tsx".into()),
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(
        located(&listed),
        ["src/app.ts:2", "src/app.ts:3", "src/util.tsx:1"]
    );
    assert!(
        listed.render_text().contains("note: `path` named 2 paths"),
        "{}",
        listed.render_text()
    );
    let with_dir = search(
        &root,
        GrepArgs {
            path: Some("src README.md".into()),
            secondary: true,
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(
        located(&with_dir),
        [
            "README.md:1",
            "src/app.ts:2",
            "src/app.ts:3",
            "src/util.tsx:1"
        ]
    );
    // A glob beside the list narrows it: files under a listed path that match the glob.
    let narrowed = search(
        &root,
        GrepArgs {
            path: Some("src README.md".into()),
            glob: Some("*.ts !**/util*".into()),
            secondary: true,
            ..GrepArgs::new("foobar")
        },
    );
    assert_eq!(located(&narrowed), ["src/app.ts:2", "src/app.ts:3"]);
    let none = search(
        &root,
        GrepArgs {
            path: Some("src README.md".into()),
            glob: Some("*.go".into()),
            ..GrepArgs::new("foobar")
        },
    );
    assert!(none.matches.is_empty());
    assert!(
        none.render_text()
            .contains("no file matches glob `*.go` under `src/ README.md`"),
        "{}",
        none.render_text()
    );
    for path in ["src/app.ts nothere.ts", "src/app.ts src/*.ts"] {
        let args = GrepArgs {
            path: Some(path.into()),
            ..GrepArgs::new("foobar")
        };
        assert!(grep::run(&root, &args).is_err(), "{path}");
    }
}

/// A pattern no line holds but some searched paths do (an agent grepping for a file's
/// name) says which paths, so the reply is never an empty shrug; a pattern that matches a
/// line lists no paths, nor does one that matches neither.
#[test]
fn a_pattern_found_only_in_paths_names_those_paths() {
    let (_dir, root) = repo();
    let by_name = search(&root, GrepArgs::new("src/ut"));
    assert!(by_name.matches.is_empty());
    assert_eq!(by_name.path_matches, ["src/util.tsx"]);
    assert_eq!(
        by_name.render_text(),
        "no matches in any line; in 1 path: src/util.tsx\n"
    );
    let in_a_line = search(&root, GrepArgs::new("util"));
    assert!(!in_a_line.matches.is_empty());
    assert!(in_a_line.path_matches.is_empty(), "a line matched");
    let none = search(&root, GrepArgs::new("nowhere at all"));
    assert_eq!(
        (none.path_matches_total, none.render_text().as_str()),
        (0, "no matches\n")
    );
    let scoped = search(
        &root,
        GrepArgs {
            path: Some("src".into()),
            ..GrepArgs::new("README")
        },
    );
    assert!(
        scoped.path_matches.is_empty(),
        "only the searched files' paths"
    );
}

/// Any pattern a model writes, regex or not, valid or not, with any case setting and
/// context, gets matches, a mended reading, `no matches` or an error: never a panic, a
/// mended or case-folded reading always says so on its first line, and files named for
/// their name are few and never files the answer shows.
#[test]
fn any_pattern_gets_an_answer_without_a_panic() {
    use proptest::prelude::*;
    let (_dir, root) = repo();
    let piece = prop::sample::select(vec![
        "foo", "Bar", "FOOBAR", "|", "||", "(", ")", "[", "]", "\\", "\\(", "?", "*", "+", ".",
        "^", "$", "{", "}", "{2}", "a.b", "x", " ", "-", "/", "é", "", "\\b", "(?i)", "[A-Z]",
        "util", "dots",
    ]);
    let pattern = prop::collection::vec(piece, 1..6).prop_map(|p| p.concat());
    let case = prop::sample::select(vec![None, Some(true), Some(false)]);
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(400));
    runner
        .run(
            &(pattern, any::<bool>(), case, 0u32..3, any::<bool>()),
            |(pattern, regex, case_sensitive, context, files_only)| {
                let args = GrepArgs {
                    regex,
                    case_sensitive,
                    context,
                    files_only,
                    ..GrepArgs::new(pattern.clone())
                };
                if let Ok(result) = grep::run(&root, &args) {
                    let text = result.render_text();
                    // Named files: only beside lines matched as sent, few, none shown.
                    let named = &result.named_files;
                    prop_assert!(named.len() <= grep::NAMED_FILES_SHOWN, "{named:?}");
                    if !named.is_empty() {
                        prop_assert!(result.total_matches > 0 && result.read_as.is_none());
                    }
                    for path in named {
                        let shown = result.matches.iter().any(|m| &m.path == path)
                            || result.file_counts.iter().any(|f| &f.path == path);
                        prop_assert!(!shown, "{pattern:?}: {path} shown and named");
                    }
                    if result.read_as.is_some() {
                        prop_assert!(
                            text.lines().next().is_some_and(|l| l.ends_with(':')),
                            "{pattern:?}: {text}"
                        );
                    }
                }
                Ok(())
            },
        )
        .unwrap();
}

/// A pattern that matches lines also names the source files the answer does not show
/// whose file name it matches (an agent grepping `util` learns of `util.tsx`), but only a
/// few: a name shared by more files is a common word, not a pointer, and names nothing.
#[test]
fn a_source_file_named_by_the_pattern_but_not_shown_is_named() {
    let (_dir, root) = repo();
    let util = search(&root, GrepArgs::new("util"));
    assert_eq!(located(&util), ["src/app.ts:1"]);
    assert_eq!(util.named_files, ["src/util.tsx"]);
    assert!(
        util.render_text()
            .contains("named so, lines not shown: src/util.tsx\n"),
        "{}",
        util.render_text()
    );
    // A file whose lines are shown is not named again.
    let helper = search(
        &root,
        GrepArgs {
            regex: true,
            ..GrepArgs::new("tsx|helper")
        },
    );
    assert!(helper.named_files.is_empty(), "{:?}", helper.named_files);

    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "main.py", "import load\n");
    for i in 0..grep::NAMED_FILES_SHOWN + 1 {
        write(dir.path(), &format!("load_{i}.py"), "x = 1\n");
    }
    write(dir.path(), "tests/load_test.py", "y = 2\n");
    let many = RepoRoot::new(dir.path()).unwrap();
    let common = search(&many, GrepArgs::new("load"));
    assert_eq!(located(&common), ["main.py:1"]);
    assert!(common.named_files.is_empty(), "{:?}", common.named_files);
    std::fs::remove_file(dir.path().join("load_0.py")).unwrap();
    let few = search(&many, GrepArgs::new("load"));
    assert_eq!(
        few.named_files,
        (1..=grep::NAMED_FILES_SHOWN)
            .map(|i| format!("load_{i}.py"))
            .collect::<Vec<_>>(),
        "source files only, in path order"
    );
}
