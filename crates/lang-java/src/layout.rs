//! Java's path conventions, from paths alone: Maven and Gradle source sets
//! (`<module>/src/<set>/java/<package path>/<Type>.java`), test source sets and test file
//! names.

use sightline_lang::path;

/// A path that runs through a conventional source root `src/<set>/java`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct SourceSet<'a> {
    /// The source root (`core/src/main/java`).
    pub root: &'a str,
    /// The module holding it: the directory before `src` ("" at the top).
    pub module: &'a str,
    /// The set's name (`main`, `test`, `testFixtures`).
    pub set: &'a str,
    /// The rest of the path below the root ("" for the root itself).
    pub rest: &'a str,
}

impl SourceSet<'_> {
    /// Whether the set holds tests (`test`, `integrationTest`, `testFixtures`): Gradle
    /// names every test source set after what it tests, with `test` in the name.
    pub fn is_test(&self) -> bool {
        is_test_set(self.set)
    }
}

/// Whether a source set's name says it holds tests.
pub(crate) fn is_test_set(set: &str) -> bool {
    set.to_ascii_lowercase().contains("test")
}

/// The conventional source set `path` (a file or a directory, repo-relative) lies in,
/// if any: the outermost `src/<set>/java` on it.
pub(crate) fn source_set(p: &str) -> Option<SourceSet<'_>> {
    let mut offset = 0;
    let segments: Vec<&str> = p.split('/').collect();
    for (i, segment) in segments.iter().enumerate() {
        if *segment == "src" && segments.get(i + 2) == Some(&"java") {
            let set = segments[i + 1];
            let root_end = offset + "src/".len() + set.len() + "/java".len();
            let module = p[..offset].trim_end_matches('/');
            let rest = p.get(root_end + 1..).unwrap_or("");
            return Some(SourceSet {
                root: &p[..root_end],
                module,
                set,
                rest,
            });
        }
        offset += segment.len() + 1;
    }
    None
}

/// Whether a path lies in a test source set (`src/test/`, `src/integrationTest/`, …).
pub(crate) fn in_test_source_set(p: &str) -> bool {
    let mut segments = p.split('/').peekable();
    while let Some(segment) = segments.next() {
        if segment == "src"
            && let Some(set) = segments.peek()
            && is_test_set(set)
        {
            return true;
        }
    }
    false
}

/// Whether a file name is a test class by the names Maven's and Gradle's test runners
/// pick up: `Test*`, `*Test`, `*Tests`, `*TestCase` (Surefire), `*IT`, `*ITCase`
/// (Failsafe). `Test` as a prefix must start a word (`TestParser`, not `Testable`).
pub(crate) fn is_test_class_file(file_name: &str) -> bool {
    let Some(stem) = file_name.strip_suffix(".java") else {
        return false;
    };
    let suffixes = ["Test", "Tests", "TestCase", "IT", "ITCase"];
    if suffixes
        .iter()
        .any(|s| stem.ends_with(s) && stem.len() > s.len())
    {
        return true;
    }
    match stem.strip_prefix("Test") {
        Some(rest) => rest.starts_with(|c: char| c.is_uppercase()),
        None => false,
    }
}

/// The package key of a file: files with the same key are one package. A file in a
/// conventional source set belongs to its module's package of that path, whatever the set
/// (a test in `src/test/java/a/b` sees `src/main/java/a/b`'s types, as the compiler does);
/// any other file to its directory.
pub(crate) fn package_key(file: &str) -> String {
    let dir = path::parent(file);
    match source_set(dir) {
        Some(set) => format!("{}\u{1f}{}", set.module, set.rest),
        None => dir.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn source_sets_are_found_at_any_depth() {
        let s = source_set("core/src/main/java/a/b/C.java").unwrap();
        assert_eq!(
            (s.root, s.module, s.set, s.rest),
            ("core/src/main/java", "core", "main", "a/b/C.java")
        );
        let s = source_set("src/test/java").unwrap();
        assert_eq!((s.root, s.module, s.rest), ("src/test/java", "", ""));
        assert!(s.is_test());
        assert!(source_set("src/main/resources/a.txt").is_none());
        assert!(source_set("lib/a/B.java").is_none());
    }

    #[test]
    fn test_sets_and_test_class_names() {
        assert!(in_test_source_set("m/src/test/java/a/B.java"));
        assert!(in_test_source_set("src/integrationTest/java/a/B.java"));
        assert!(in_test_source_set("src/testFixtures/java/a/B.java"));
        assert!(!in_test_source_set("src/main/java/test/B.java"));
        for name in [
            "ParserTest.java",
            "ParserTests.java",
            "ParserIT.java",
            "TestParser.java",
            "ParserTestCase.java",
        ] {
            assert!(is_test_class_file(name), "{name}");
        }
        for name in [
            "Testable.java",
            "Test.java",
            "Latest.java",
            "Contest.kt",
            "IT.java",
        ] {
            assert!(!is_test_class_file(name), "{name}");
        }
    }

    #[test]
    fn a_module_s_main_and_test_sets_share_their_packages() {
        assert_eq!(
            package_key("m/src/main/java/a/b/C.java"),
            package_key("m/src/test/java/a/b/CTest.java")
        );
        assert_ne!(
            package_key("m/src/main/java/a/b/C.java"),
            package_key("n/src/main/java/a/b/C.java")
        );
        assert_eq!(package_key("lib/a/B.java"), "lib/a");
    }
}
