//! The `sightline` binary end to end on the fixture project: reports per intent, and precise
//! errors on bad input.

use std::path::PathBuf;
use std::process::Command;

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app")
}

fn sightline(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_sightline"))
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run sightline");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn explore_reports_for_each_intent() {
    let root = fixture();
    let root = root.to_str().unwrap();
    for intent in ["explain", "locate", "edit", "debug"] {
        let (code, stdout, stderr) = sightline(&[
            "explore",
            "save a record through the store",
            root,
            "--intent",
            intent,
            "--no-cache",
        ]);
        assert_eq!(code, 0, "{stderr}");
        assert!(stdout.len() <= 2500, "{} chars", stdout.len());
        insta::assert_snapshot!(format!("explore_{intent}"), stdout);
    }
}

#[test]
fn every_cited_path_exists() {
    let root = fixture();
    let (code, stdout, stderr) = sightline(&[
        "explore",
        "shape area",
        root.to_str().unwrap(),
        "--json",
        "--no-cache",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    for place in v["report"]["primary"].as_array().unwrap() {
        let path = place["path"].as_str().unwrap();
        assert!(root.join(path).is_file(), "{path}");
    }
}

#[test]
fn bad_input_gets_a_precise_error_and_no_backtrace() {
    let (code, _, stderr) = sightline(&["explore", "x", "/definitely/not/here", "--no-cache"]);
    assert_eq!(code, 1);
    assert!(
        stderr.starts_with("error: cannot index /definitely/not/here"),
        "{stderr}"
    );
    assert!(!stderr.contains("backtrace"), "{stderr}");

    let root = fixture();
    let (code, _, stderr) = sightline(&["explore", "  ", root.to_str().unwrap(), "--no-cache"]);
    assert_eq!(code, 1);
    assert!(stderr.contains("query"), "{stderr}");

    let (code, _, stderr) =
        sightline(&["explore", "x", root.to_str().unwrap(), "--intent", "maybe"]);
    assert_eq!(code, 2);
    assert!(stderr.contains("unknown intent `maybe`"), "{stderr}");
}

#[test]
fn index_summarises_what_it_saw() {
    let root = fixture();
    let (code, stdout, stderr) =
        sightline(&["index", root.to_str().unwrap(), "--json", "--no-cache"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert!(v["source_files"].as_u64().unwrap() > 10);
    assert_eq!(v["imports_unresolved"].as_u64(), Some(0));
    assert!(v["declarations"].as_u64().unwrap() > 0);
}

#[test]
fn a_repository_without_supported_sources_gets_a_language_neutral_note() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("notes.md"), "# notes\n").unwrap();
    let (_, _, stderr) = sightline(&["explore", "x", dir.path().to_str().unwrap(), "--no-cache"]);
    assert!(stderr.contains("no source files were indexed"), "{stderr}");
    assert!(stderr.contains("python"), "{stderr}");
    assert!(!stderr.contains("no TypeScript or JavaScript"), "{stderr}");
}

/// A tree whose code is in languages no registered language reads: the index counts those
/// files by type, and an answer that found nothing says so rather than claiming no code
/// mentions the query.
#[test]
fn files_in_languages_not_indexed_are_counted_and_named_when_nothing_is_found() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("src")).unwrap();
    for i in 0..3 {
        std::fs::write(
            dir.path().join(format!("src/m{i}.lua")),
            "function retry_failed_requests() end\n",
        )
        .unwrap();
    }
    std::fs::write(dir.path().join("app.py"), "def serve():\n    pass\n").unwrap();
    let root = dir.path().to_str().unwrap();
    let (code, stdout, stderr) = sightline(&["index", root, "--json", "--no-cache"]);
    assert_eq!(code, 0, "{stderr}");
    let v: serde_json::Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(
        v["not_indexed_languages"]["lua"].as_u64(),
        Some(3),
        "{stdout}"
    );
    let (_, text, _) = sightline(&["index", root, "--no-cache"]);
    assert!(
        text.contains("3 files in languages not indexed: lua 3"),
        "{text}"
    );
    let (code, stdout, stderr) =
        sightline(&["explore", "retry failed requests", root, "--no-cache"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        stdout.contains("3 files in languages not indexed: lua 3"),
        "{stdout}"
    );
    assert!(
        !stdout.contains("no code in the repository mentions"),
        "{stdout}"
    );
}

#[test]
fn explore_answers_on_a_python_project() {
    let root =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/python_app");
    let (code, stdout, stderr) = sightline(&[
        "explore",
        "cart checkout pricing",
        root.to_str().unwrap(),
        "--no-cache",
    ]);
    assert_eq!(code, 0, "{stderr}");
    assert!(!stderr.contains("no source files"), "{stderr}");
    assert!(stdout.contains("src/shop/"), "{stdout}");
}

/// The navigation commands print one line per hit; a miss names the nearest names and
/// still succeeds (it is an answer); a path outside the index is an error naming near ones.
#[test]
fn navigation_commands_answer_in_one_line_per_hit() {
    let root = fixture();
    let root = root.to_str().unwrap();
    let (code, def, stderr) = sightline(&["definition", "RecordStore.save", root, "--no-cache"]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(def.lines().count(), 1, "{def}");
    assert!(
        def.starts_with("src/state/recordStore.ts:28-33 method RecordStore.save"),
        "{def}"
    );
    let (code, refs, stderr) = sightline(&["refs", "postRecord", root, "--no-cache"]);
    assert_eq!(code, 0, "{stderr}");
    assert!(
        refs.contains("## src/state/recordStore.ts\n29 RecordStore.save:"),
        "{refs}"
    );
    let (code, calls, _) = sightline(&["refs", "handleSave", root, "--callees", "--no-cache"]);
    assert_eq!(code, 0);
    assert!(
        calls.starts_with("src/handlers/save.ts:19-22 function handleSave uses:")
            && calls.contains("\n20 :7-16 function validateDraft\n"),
        "{calls}"
    );
    let args = [
        "refs",
        "handleSave",
        root,
        "--callees",
        "--depth",
        "3",
        "--no-cache",
    ];
    let (code, tree, _) = sightline(&args);
    assert_eq!(code, 0);
    assert!(
        tree.contains("\n21 src/state/recordStore.ts:28-33 method RecordStore.save\n  29 src/api/client.ts:34-37 function postRecord\n"),
        "{tree}"
    );
    let (code, outline, _) =
        sightline(&["outline", "src/state/recordStore.ts", root, "--no-cache"]);
    assert_eq!(code, 0);
    assert!(outline.contains("\n  28-33 method save\n"), "{outline}");
    let (code, miss, _) = sightline(&["def", "RecordStroe", root, "--no-cache"]);
    assert_eq!(code, 0);
    assert!(miss.contains("nearest: RecordStore"), "{miss}");
    let (code, _, stderr) = sightline(&["outline", "src/shape", root, "--no-cache"]);
    assert_ne!(code, 0);
    assert!(stderr.contains("src/shapes"), "{stderr}");
}

/// The one-call report sized to its ranking: a decisive query (it names one class) cites
/// that place and names no runners-up; a diffuse one (common words) names, after its
/// places, the ranking's next files on one `also:` line.
#[test]
fn explore_names_runners_up_only_when_the_ranking_is_not_decisive() {
    let root = fixture();
    let root = root.to_str().unwrap();
    for (name, query) in [("decisive", "RecordStore"), ("diffuse", "render row list")] {
        let (code, stdout, stderr) = sightline(&["explore", query, root, "--no-cache"]);
        assert_eq!(code, 0, "{stderr}");
        let decisive = stdout.starts_with("confidence: high");
        assert_eq!(decisive, name == "decisive", "{stdout}");
        assert_eq!(stdout.contains("\nalso: "), !decisive, "{stdout}");
        insta::assert_snapshot!(format!("explore_{name}"), stdout);
    }
}
