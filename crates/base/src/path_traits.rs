//! Traits of a file derived from its path alone, from conventions that hold across
//! ecosystems (test directories and infixes, vendored and build-output directories,
//! documentation and example trees, configuration files). A language's own conventions
//! (its test-file names, its declaration-only files) are added by the stage that knows
//! the languages; this crate knows none.

use serde::{Deserialize, Serialize};

/// What a file's path says about it, by convention alone.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct PathTraits {
    /// Under a test directory or with a test/spec suffix.
    pub test: bool,
    /// Under a vendored or installed-dependency directory.
    pub vendored: bool,
    /// Build output or a generated/minified file.
    pub generated: bool,
    /// Documentation, examples, demos or stories.
    pub docs_or_example: bool,
    /// A configuration file (`*.config.*`, `*rc.js`, a root-level `.json`).
    pub config: bool,
    /// A declaration-only file (type declarations, stubs), by its language's conventions.
    pub declaration_only: bool,
}

impl PathTraits {
    /// Classifies a repo-relative, forward-slash path by the conventions that hold across
    /// ecosystems alone.
    pub fn of(path: &str) -> PathTraits {
        let lower = path.to_ascii_lowercase();
        let segments: Vec<&str> = lower.split('/').collect();
        let (dirs, file) = segments.split_at(segments.len().saturating_sub(1));
        let file = file.first().copied().unwrap_or("");
        let dir_is = |names: &[&str]| dirs.iter().any(|d| names.contains(d));
        // `docs_src`, `examples-app`: a directory named by its first word.
        let dir_or_prefix_is = |names: &[&str]| {
            dirs.iter().any(|d| {
                names.contains(d) || names.contains(&d.split(['_', '-']).next().unwrap_or(d))
            })
        };
        // `a.test.ts`, `a.spec.tsx`-style infixes.
        let stem_parts: Vec<&str> = file.split('.').collect();
        let dotted = |names: &[&str]| stem_parts.iter().skip(1).any(|p| names.contains(p));
        PathTraits {
            // guard: allow(lexicon) reason: conventional test, vendor and build-output directory names, matched against path segments
            test: dir_is(&[
                "test",
                "tests",
                "__tests__",
                "spec",
                "specs",
                "e2e",
                "__mocks__",
                "fixtures",
                "testdata",
            ]) || dotted(&["test", "spec", "e2e", "bench"]),
            vendored: dir_is(&["vendor", "vendored", "third_party", "third-party"]),
            generated: dir_is(&[
                "dist",
                "build",
                "out",
                "generated",
                "__generated__",
                "coverage",
            ]) || dotted(&["generated", "gen", "min"]),
            // guard: allow(lexicon) reason: conventional docs/example directory names, matched against path segments
            docs_or_example: dir_or_prefix_is(&[
                "docs",
                "doc",
                "example",
                "examples",
                "demo",
                "demos",
                "sample",
                "samples",
                "playground",
                "stories",
                "storybook",
            ]) || dotted(&["stories", "story"]),
            config: dotted(&["config", "conf"])
                || file.ends_with("rc.js")
                || file.ends_with("rc.cjs")
                || (file.ends_with(".json") && dirs.is_empty()),
            declaration_only: false,
        }
    }

    /// Whether the file is something a query should only get when it asks for it.
    pub fn is_secondary(&self) -> bool {
        self.test || self.vendored || self.generated || self.docs_or_example
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classifies_conventional_paths() {
        assert!(PathTraits::of("src/a.test.ts").test);
        assert!(PathTraits::of("src/__tests__/a.ts").test);
        assert!(!PathTraits::of("src/attest.ts").test);
        assert!(PathTraits::of("examples/basic/main.ts").docs_or_example);
        assert!(PathTraits::of("dist/x.js").generated);
        assert!(!PathTraits::of("src/state/store.ts").is_secondary());
    }

    #[test]
    fn a_directory_named_by_a_docs_or_example_first_word_is_secondary() {
        assert!(PathTraits::of("docs_src/tutorial/app.py").docs_or_example);
        assert!(PathTraits::of("examples-app/src/main.ts").docs_or_example);
        assert!(!PathTraits::of("src/docstring/parse.py").docs_or_example);
        assert!(!PathTraits::of("src/documents/store.ts").docs_or_example);
        // Only directories: a file's own name is not a directory.
        assert!(!PathTraits::of("src/docs_index.py").docs_or_example);
    }
}
