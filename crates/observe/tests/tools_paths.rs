//! Repository-root safety: accepted spellings, every refusal, and a property test that no
//! accepted path ever lands outside the canonical root.

use std::fs;
use std::path::Path;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestRunner};
use sightline_observe::paths::{PathError, RepoRoot, to_rel};
use tempfile::TempDir;

/// `outside/secret.txt` next to `repo/`, which holds `src/main.ts`, `docs/`, and (on Unix)
/// `link_out -> ../outside`, `loop_a <-> loop_b`, `link_in -> src`.
struct Fixture {
    _dir: TempDir,
    root: RepoRoot,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let repo = dir.path().join("repo");
    let outside = dir.path().join("outside");
    fs::create_dir_all(repo.join("src")).unwrap();
    fs::create_dir_all(repo.join("docs")).unwrap();
    fs::create_dir_all(&outside).unwrap();
    fs::write(repo.join("src/main.ts"), "export const a = 1;\n").unwrap();
    fs::write(repo.join("README.md"), "# readme\n").unwrap();
    fs::write(repo.join("é.ts"), "unicode\n").unwrap();
    fs::write(outside.join("secret.txt"), "secret\n").unwrap();
    #[cfg(unix)]
    {
        use std::os::unix::fs::symlink;
        symlink(&outside, repo.join("link_out")).unwrap();
        symlink(outside.join("secret.txt"), repo.join("file_out")).unwrap();
        symlink("loop_b", repo.join("loop_a")).unwrap();
        symlink("loop_a", repo.join("loop_b")).unwrap();
        symlink("src", repo.join("link_in")).unwrap();
    }
    let root = RepoRoot::new(&repo).unwrap();
    Fixture { _dir: dir, root }
}

#[test]
fn root_must_exist_and_be_a_directory() {
    let fx = fixture();
    let missing = fx.root.canonical().join("nope");
    assert!(matches!(
        RepoRoot::new(&missing),
        Err(PathError::RootUnavailable { .. })
    ));
    let file = fx.root.canonical().join("README.md");
    let err = RepoRoot::new(&file).unwrap_err();
    assert!(matches!(err, PathError::RootNotADirectory { .. }));
    assert!(err.to_string().contains("README.md"));
}

#[test]
fn accepts_common_spellings() {
    let fx = fixture();
    for input in ["", ".", "./", ".\\", "./."] {
        let p = fx.root.resolve(input).unwrap();
        assert!(p.is_root(), "{input:?}");
        assert_eq!(p.rel(), "");
        assert_eq!(p.to_string(), ".");
        assert_eq!(p.abs(), fx.root.canonical());
    }
    for input in [
        "src/main.ts",
        "./src/main.ts",
        "src\\main.ts",
        ".\\src\\main.ts",
        "src//main.ts",
        "src/./main.ts",
        "src/main.ts/",
    ] {
        let p = fx.root.resolve(input).unwrap();
        assert_eq!(p.rel(), "src/main.ts", "{input:?}");
        assert_eq!(p.to_string(), "src/main.ts");
        assert_eq!(p.abs(), fx.root.canonical().join("src").join("main.ts"));
    }
    assert_eq!(fx.root.resolve("é.ts").unwrap().rel(), "é.ts");
}

#[test]
fn refuses_absolute_paths() {
    let fx = fixture();
    for input in [
        "/etc/passwd",
        "\\x",
        "C:\\x",
        "c:/x",
        "C:",
        "\\\\server\\share",
    ] {
        let err = fx.root.resolve(input).unwrap_err();
        assert!(
            matches!(&err, PathError::Absolute { input: i } if i == input),
            "{input:?}: {err}"
        );
        assert!(err.to_string().contains(input));
    }
}

#[test]
fn refuses_every_parent_component() {
    let fx = fixture();
    for input in [
        "..",
        "../x",
        "src/..",
        "src/../src/main.ts",
        "a\\..\\b",
        "./..",
    ] {
        let err = fx.root.resolve(input).unwrap_err();
        assert!(
            matches!(&err, PathError::ParentComponent { input: i } if i == input),
            "{input:?}: {err}"
        );
        assert!(err.to_string().contains("`..`"));
    }
}

#[test]
fn refuses_nul_bytes_and_missing_paths() {
    let fx = fixture();
    assert!(matches!(
        fx.root.resolve("src/main.ts\0"),
        Err(PathError::NulByte { .. })
    ));
    let err = fx.root.resolve("src/nope.ts").unwrap_err();
    assert!(matches!(err, PathError::NotFound { .. }));
    assert!(err.to_string().contains("src/nope.ts"));
}

#[cfg(unix)]
#[test]
fn symlinks_are_checked_after_resolution() {
    let fx = fixture();
    for input in ["link_out", "link_out/secret.txt", "file_out"] {
        let err = fx.root.resolve(input).unwrap_err();
        assert!(
            matches!(&err, PathError::OutsideRoot { input: i } if i == input),
            "{input:?}: {err}"
        );
    }
    for input in ["loop_a", "loop_b/x"] {
        let err = fx.root.resolve(input).unwrap_err();
        assert!(
            matches!(err, PathError::SymlinkLoop { .. }),
            "{input:?}: {err}"
        );
    }
    // A link that stays inside resolves to its canonical target.
    let p = fx.root.resolve("link_in/main.ts").unwrap();
    assert_eq!(p.rel(), "src/main.ts");
    assert_eq!(fx.root.resolve("link_in").unwrap().rel(), "src");
}

#[test]
fn to_rel_only_maps_paths_under_the_root() {
    let fx = fixture();
    let canonical = fx.root.canonical();
    assert_eq!(to_rel(&fx.root, canonical).as_deref(), Some(""));
    assert_eq!(
        to_rel(&fx.root, &canonical.join("src").join("main.ts")).as_deref(),
        Some("src/main.ts")
    );
    assert_eq!(to_rel(&fx.root, Path::new("/")), None);
    assert_eq!(
        to_rel(&fx.root, &canonical.join("..").join("outside")),
        None
    );
}

fn path_input() -> impl Strategy<Value = String> {
    let segment = prop_oneof![
        Just("a".to_string()),
        Just("..".to_string()),
        Just(".".to_string()),
        Just("/".to_string()),
        Just("\\".to_string()),
        Just("src".to_string()),
        Just("main.ts".to_string()),
        Just("link_out".to_string()),
        Just("link_in".to_string()),
        Just("file_out".to_string()),
        Just("loop_a".to_string()),
        Just("secret.txt".to_string()),
        Just("outside".to_string()),
        Just("é.ts".to_string()),
        Just("\0".to_string()),
        Just("C:".to_string()),
        "\\PC{0,3}",
    ];
    prop::collection::vec(segment, 0..8).prop_map(|parts| parts.concat())
}

#[test]
fn accepted_paths_never_leave_the_root() {
    let fx = fixture();
    let canonical = fx.root.canonical().to_path_buf();
    let mut runner = TestRunner::new(Config {
        cases: 2000,
        failure_persistence: None,
        ..Config::default()
    });
    // Count acceptances so the property cannot pass vacuously.
    let accepted = std::cell::Cell::new(0usize);
    runner
        .run(&path_input(), |input| {
            if let Ok(p) = fx.root.resolve(&input) {
                accepted.set(accepted.get() + 1);
                prop_assert!(p.abs().starts_with(&canonical), "{input:?} -> {p:?}");
                prop_assert!(!p.rel().contains('\\') && !p.rel().starts_with("./"));
                let rejoined = if p.rel().is_empty() {
                    canonical.clone()
                } else {
                    canonical.join(p.rel())
                };
                prop_assert_eq!(rejoined.as_path(), p.abs());
            }
            Ok(())
        })
        .unwrap();
    assert!(
        accepted.get() > 20,
        "only {} inputs accepted",
        accepted.get()
    );
}

#[test]
fn version_control_metadata_is_refused_however_it_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    for vcs in [".git", "sub/.git", ".hg", ".svn"] {
        std::fs::create_dir_all(root.join(vcs)).unwrap();
        std::fs::write(root.join(vcs).join("config"), "token = secret\n").unwrap();
    }
    std::fs::write(root.join("a.ts"), "export const a = 1;\n").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink(root.join(".git"), root.join("link")).unwrap();
    let repo = sightline_observe::paths::RepoRoot::new(root).unwrap();
    let mut refused = vec![
        ".git",
        ".git/config",
        "./.git/config",
        "sub/.git/config",
        ".hg/config",
        ".svn/config",
    ];
    if cfg!(unix) {
        refused.push("link/config");
    }
    for p in refused {
        let err = repo.resolve(p).unwrap_err();
        assert!(
            matches!(err, sightline_observe::paths::PathError::VcsInternal { .. }),
            "{p}: {err}"
        );
    }
    assert!(repo.resolve("a.ts").is_ok());
}
