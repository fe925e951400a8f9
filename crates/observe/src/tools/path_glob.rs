//! The `glob` argument of `grep` and `list_files`: globset syntax (`*` and `?` within one
//! path segment, `**` across segments, `{a,b}` alternatives, `[abc]` classes), matched
//! case-sensitively against repository-relative paths.
//!
//! - A glob without `/` (`*.ts`, `tsconfig*.json`) matches a file name at any depth.
//! - A glob with `/` matches the whole repository-relative path (`src/**/*.ts`). A leading
//!   `./` or `/` means the repository root and is dropped; a trailing `/` means everything
//!   below (`src/` is `src/**`).
//! - With a `path` argument, a glob that already starts with that path is used as it is;
//!   otherwise it is also tried relative to `path`. So `packages/foo*/src/**/*.ts` with
//!   `path: "packages"` and `foo*/src/**/*.ts` with the same path select the same files.

use globset::{Glob, GlobBuilder, GlobMatcher};

use super::error::ToolError;

/// A compiled `glob` argument.
#[derive(Debug)]
pub(crate) struct PathGlob {
    /// Matchers tried in turn: the glob as written and, under a `path`, the glob below it.
    matchers: Vec<GlobMatcher>,
    /// The glob has no `/`: test the file name only.
    name_only: bool,
}

impl PathGlob {
    /// Compiles `glob` for a search under `base` (repository-relative, empty for the
    /// root).
    pub(crate) fn new(glob: &str, base: &str) -> Result<PathGlob, ToolError> {
        let trimmed = glob.trim();
        let mut pattern = trimmed
            .strip_prefix("./")
            .or_else(|| trimmed.strip_prefix('/'))
            .unwrap_or(trimmed)
            .to_owned();
        if pattern.is_empty() {
            return Err(ToolError::InvalidGlob {
                glob: glob.to_owned(),
                message: "empty glob".to_owned(),
            });
        }
        if pattern.ends_with('/') {
            pattern.push_str("**");
        }
        let name_only = !pattern.contains('/');
        let mut matchers = vec![compile(glob, &pattern)?];
        let base = base.trim_matches('/');
        if !name_only && !base.is_empty() && !starts_with_dir(&pattern, base) {
            matchers.push(compile(glob, &format!("{base}/{pattern}"))?);
        }
        Ok(PathGlob {
            matchers,
            name_only,
        })
    }

    /// Whether the file at repository-relative `rel` is selected.
    pub(crate) fn is_match(&self, rel: &str) -> bool {
        let subject = if self.name_only {
            rel.rsplit('/').next().unwrap_or(rel)
        } else {
            rel
        };
        self.matchers.iter().any(|m| m.is_match(subject))
    }
}

/// `pattern` begins with the directory `dir` as whole segments (`packages/x` does,
/// `packagesx/y` does not).
fn starts_with_dir(pattern: &str, dir: &str) -> bool {
    pattern
        .strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
}

fn compile(original: &str, pattern: &str) -> Result<GlobMatcher, ToolError> {
    let glob: Glob = GlobBuilder::new(pattern)
        // `*` stays within one segment; only `**` crosses `/`.
        .literal_separator(true)
        // `\*` escapes a metacharacter, as in shells.
        .backslash_escape(true)
        .build()
        .map_err(|e| ToolError::InvalidGlob {
            glob: original.to_owned(),
            message: e.kind().to_string(),
        })?;
    Ok(glob.compile_matcher())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn selects(glob: &str, base: &str, rel: &str) -> bool {
        PathGlob::new(glob, base).unwrap().is_match(rel)
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
    fn empty_and_malformed_globs_are_refused() {
        assert!(PathGlob::new("", "").is_err());
        assert!(PathGlob::new("./", "").is_err());
        assert!(PathGlob::new("src/[", "").is_err());
    }
}
