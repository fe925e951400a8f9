use proptest::prelude::*;

use super::*;

fn selects(glob: &str, base: &str, rel: &str) -> bool {
    PathGlob::new(glob, base).unwrap().is_match(rel)
}

fn refusal(glob: &str) -> String {
    match PathGlob::new(glob, "") {
        Err(ToolError::InvalidGlob { message, .. }) => message,
        other => panic!("{glob}: {other:?}"),
    }
}

#[test]
fn segments_alternatives_and_classes_follow_globset() {
    assert!(selects("*.ts", "", "a/b/c.ts"));
    assert!(!selects("src/*.ts", "", "src/deep/c.ts"));
    assert!(selects("src/**/*.ts", "", "src/c.ts"));
    assert!(selects("src/**/*.ts", "", "src/deep/c.ts"));
    assert!(selects("**/*.{ts,tsx}", "", "x.tsx"));
    assert!(selects("{src,lib}/*.ts", "", "lib/a.ts"));
    assert!(selects("file[0-9].ts", "", "dir/file7.ts"));
    assert!(!selects("*.TS", "", "a.ts"));
    assert!(selects("src/", "", "src/deep/a.ts"));
    assert!(selects("./src/*.ts", "", "src/a.ts"));
    assert!(selects("/src/*.ts", "", "src/a.ts"));
}

#[test]
fn a_glob_under_path_is_read_either_way() {
    assert!(selects("pkg/a*/src/*.ts", "pkg", "pkg/ab/src/x.ts"));
    assert!(selects("a*/src/*.ts", "pkg", "pkg/ab/src/x.ts"));
    assert!(selects("a*/src/*.ts", "pkg/", "pkg/ab/src/x.ts"));
    // `pkgs/...` does not start with the directory `pkg`.
    assert!(selects("s/*.ts", "pkg", "pkg/s/x.ts"));
}

#[test]
fn several_globs_select_any_positive_one() {
    let glob = "*.ts  src/**/*.py\t*.md";
    assert!(selects(glob, "", "a/b.ts"));
    assert!(selects(glob, "", "src/x/c.py"));
    assert!(selects(glob, "", "README.md"));
    assert!(!selects(glob, "", "lib/c.py"));
    assert!(!selects(glob, "", "a/b.js"));
}

#[test]
fn a_bang_glob_excludes_files_and_the_directories_it_matches() {
    // Only exclusions: every other file is selected.
    assert!(selects("!**/tests/**", "", "src/lib.rs"));
    assert!(!selects("!**/tests/**", "", "crates/a/tests/t.rs"));
    assert!(selects("*.rs !**/tests/**", "", "crates/a/src/lib.rs"));
    assert!(!selects("*.rs !**/tests/**", "", "crates/a/tests/t.rs"));
    assert!(!selects("*.rs !**/tests/**", "", "crates/a/src/lib.ts"));
    // A directory's name or path prunes what is below it, as rg prunes it.
    assert!(!selects("!tests", "", "crates/a/tests/deep/t.rs"));
    assert!(!selects("!test*", "", "test_util/x.rs"));
    assert!(!selects("!src/gen", "", "src/gen/a.rs"));
    assert!(selects("!src/gen", "", "src/general.rs"));
    // Relative to `path` like a positive glob; `path` itself is never excluded.
    assert!(!selects("!gen/", "src", "src/gen/a.rs"));
    assert!(selects("!tests", "crates/tests", "crates/tests/a.rs"));
    assert!(!selects(
        "!tests",
        "crates/tests",
        "crates/tests/b/tests/a.rs"
    ));
    // `\!` is a literal `!`.
    assert!(selects("\\!keep.txt", "", "a/!keep.txt"));
}

#[test]
fn empty_malformed_and_bare_bang_globs_are_refused() {
    assert_eq!(refusal(""), "empty glob");
    assert_eq!(refusal(" \t "), "empty glob");
    assert_eq!(refusal("./"), "empty glob");
    assert!(PathGlob::new("src/[", "").is_err());
    for bare in ["!", "*.ts !", "! *.ts"] {
        assert!(refusal(bare).contains("`!` must be followed"), "{bare}");
    }
    // With several globs the one at fault is named.
    let split = refusal("*.{ts, tsx}");
    assert!(
        split.starts_with("`*.{ts,`: ") && split.contains("separated by whitespace"),
        "{split}"
    );
}

/// Globs over a two-letter alphabet, so that they often match the generated paths.
fn glob() -> impl Strategy<Value = String> {
    let segment = prop_oneof![
        Just("a".to_owned()),
        Just("b".to_owned()),
        Just("*".to_owned()),
        Just("a*".to_owned()),
        Just("{a,b}".to_owned()),
        Just("*.rs".to_owned()),
        Just("**".to_owned()),
    ];
    proptest::collection::vec(segment, 1..4).prop_map(|s| s.join("/"))
}

fn path() -> impl Strategy<Value = String> {
    let segment = prop_oneof![Just("a"), Just("b"), Just("ab")];
    (
        proptest::collection::vec(segment, 0..4),
        "[ab]{1,2}(\\.rs)?",
    )
        .prop_map(|(dirs, file)| {
            dirs.into_iter()
                .chain([file.as_str()])
                .collect::<Vec<_>>()
                .join("/")
        })
}

proptest! {
    /// Adding `!Y` never adds a file: `X !Y` selects a subset of what `X` selects, and
    /// never a file `Y` selects.
    #[test]
    fn a_negative_glob_never_adds_a_file(
        x in proptest::collection::vec((any::<bool>(), glob()), 1..3),
        y in glob(),
        base in prop_oneof![Just(""), Just("a"), Just("a/b")],
        rel in path(),
    ) {
        let x: Vec<String> = x
            .into_iter()
            .map(|(negated, g)| if negated { format!("!{g}") } else { g })
            .collect();
        let x = x.join(" ");
        let with = PathGlob::new(&format!("{x} !{y}"), base).unwrap();
        let without = PathGlob::new(&x, base).unwrap();
        let y_alone = PathGlob::new(&y, base).unwrap();
        if with.is_match(&rel) {
            prop_assert!(without.is_match(&rel));
            prop_assert!(!y_alone.is_match(&rel));
        }
    }

    /// Several globs select the union of what each selects alone.
    #[test]
    fn several_positive_globs_select_the_union(
        globs in proptest::collection::vec(glob(), 1..4),
        base in prop_oneof![Just(""), Just("a")],
        rel in path(),
    ) {
        let all = PathGlob::new(&globs.join(" "), base).unwrap();
        let any = globs.iter().any(|g| PathGlob::new(g, base).unwrap().is_match(&rel));
        prop_assert_eq!(all.is_match(&rel), any);
    }
}
