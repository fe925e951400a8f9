//! Configuration files (JSON, TOML, YAML, dotfiles) are as reachable through the tools as
//! source files: grep finds text in them, read_file reads them, list_files shows them.

use std::fs;
use std::path::Path;

use sightline_observe::paths::RepoRoot;
use sightline_observe::tools::grep::{self, GrepArgs};
use sightline_observe::tools::list_files::{self, ListFilesArgs};
use sightline_observe::tools::read_file::{self, ReadFileArgs};

fn write(root: &Path, rel: &str, contents: &str) {
    let path = root.join(rel);
    fs::create_dir_all(path.parent().unwrap()).unwrap();
    fs::write(path, contents).unwrap();
}

const CONFIGS: [&str; 6] = [
    "packages/web/tsconfig.json",
    "packages/web/package.json",
    "tools/pyproject.toml",
    ".github/workflows/ci.yml",
    "deploy/values.yaml",
    ".eslintrc.json",
];

#[test]
fn config_files_are_searched_read_and_listed() {
    let dir = tempfile::tempdir().unwrap();
    for (i, rel) in CONFIGS.iter().enumerate() {
        write(
            dir.path(),
            rel,
            &format!("first\nsetting_{i} = \"strictMode\"\n"),
        );
    }
    write(
        dir.path(),
        "src/main.ts",
        "export const strictMode = true;\n",
    );
    let root = RepoRoot::new(dir.path()).unwrap();

    // Next to a source file's match they fold to one count each, named; `secondary: true`
    // prints their lines.
    let folded = grep::run(&root, &GrepArgs::new("strictmode")).unwrap();
    let shown: Vec<&str> = folded.matches.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(shown, ["src/main.ts"]);
    let mut named: Vec<&str> = folded.folded.iter().map(|f| f.path.as_str()).collect();
    named.sort_unstable();
    let mut configs = CONFIGS.to_vec();
    configs.sort_unstable();
    assert_eq!(named, configs);
    let found = grep::run(
        &root,
        &GrepArgs {
            secondary: true,
            ..GrepArgs::new("strictmode")
        },
    )
    .unwrap();
    let mut paths: Vec<&str> = found.matches.iter().map(|m| m.path.as_str()).collect();
    paths.sort_unstable();
    let mut expected: Vec<&str> = CONFIGS.to_vec();
    expected.push("src/main.ts");
    expected.sort_unstable();
    assert_eq!(paths, expected);
    assert!(
        found
            .matches
            .iter()
            .all(|m| m.path == "src/main.ts" || m.line == 2)
    );

    for rel in CONFIGS {
        let read = read_file::run(&root, &ReadFileArgs::new(rel)).unwrap();
        assert_eq!(read.total_lines, 2, "{rel}");
        assert!(read.text.contains("strictMode"), "{rel}");
    }

    let listing = list_files::run(
        &root,
        &ListFilesArgs {
            depth: Some(3),
            ..ListFilesArgs::default()
        },
    )
    .unwrap();
    for rel in CONFIGS {
        assert!(
            listing.entries.iter().any(|e| e.path == rel),
            "{rel} not listed: {}",
            listing.render_text()
        );
    }
    // A glob names them without listing anything else.
    let json = list_files::run(
        &root,
        &ListFilesArgs {
            glob: Some("*.json".into()),
            ..ListFilesArgs::default()
        },
    )
    .unwrap();
    let files: Vec<&str> = json
        .entries
        .iter()
        .filter(|e| e.kind == list_files::EntryKind::File)
        .map(|e| e.path.as_str())
        .collect();
    assert_eq!(
        files,
        [
            ".eslintrc.json",
            "packages/web/package.json",
            "packages/web/tsconfig.json"
        ]
    );
}
