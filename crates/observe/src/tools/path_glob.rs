//! The `glob` argument of `grep` and `list_files`, read the way agents write rg's
//! `-g`: globset syntax (`*` and `?` within one path segment, `**` across segments, `{a,b}`
//! alternatives, `[abc]` classes), matched case-sensitively against repository-relative
//! paths.
//!
//! - The argument may hold several globs separated by whitespace (`*.ts !**/test/**`); a
//!   glob cannot itself contain whitespace. A glob starting with `!` excludes. A file is
//!   selected when it matches at least one positive glob (or there is none) and no `!`
//!   glob. An excluding glob also excludes everything below a directory it matches (below
//!   `path`), as rg prunes such a directory: `!tests` or `!src/gen` leave out their
//!   files. `\!` is a literal `!`.
//! - A glob without `/` (`*.ts`, `tsconfig*.json`) matches a file name at any depth.
//! - A glob with `/` matches the whole repository-relative path (`src/**/*.ts`). A leading
//!   `./` or `/` means the repository root and is dropped; a trailing `/` means everything
//!   below (`src/` is `src/**`).
//! - With a `path` argument, a glob that already starts with that path is used as it is;
//!   otherwise it is also tried relative to `path`. So `packages/foo*/src/**/*.ts` with
//!   `path: "packages"` and `foo*/src/**/*.ts` with the same path select the same files.

use globset::{Glob, GlobBuilder, GlobMatcher};

use super::error::ToolError;

/// A compiled `glob` argument: the globs that select and the globs that exclude.
#[derive(Debug)]
pub(crate) struct PathGlob {
    /// Empty: every file is a candidate.
    include: Vec<OneGlob>,
    exclude: Vec<OneGlob>,
    /// The `path` the search runs under (repository-relative, no `/` at either end):
    /// directories at or above it are never excluded, since the caller named them.
    base: String,
    /// Another glob a file must match as well: the paths a `path` argument listed, with a
    /// `glob` beside them.
    also: Option<Box<PathGlob>>,
}

/// One glob of the argument.
#[derive(Debug)]
struct OneGlob {
    /// Matchers tried in turn: the glob as written and, under a `path`, the glob below it.
    matchers: Vec<GlobMatcher>,
    /// The glob has no `/`: test the last path segment only.
    name_only: bool,
}

impl PathGlob {
    /// Compiles the `glob` argument for a search under `base` (repository-relative, empty
    /// for the root).
    pub(crate) fn new(glob: &str, base: &str) -> Result<PathGlob, ToolError> {
        let base = base.trim_matches('/');
        let refuse = |message: String| ToolError::InvalidGlob {
            glob: glob.to_owned(),
            message,
        };
        let several = glob.split_whitespace().nth(1).is_some();
        let (mut include, mut exclude) = (Vec::new(), Vec::new());
        for token in glob.split_whitespace() {
            let (negated, pattern) = match token.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, token),
            };
            if negated && pattern.is_empty() {
                return Err(refuse(
                    "`!` must be followed by the glob it excludes, as in `!**/tests/**`".into(),
                ));
            }
            let one = OneGlob::new(pattern, base).map_err(|message| {
                // Name the glob at fault when there are several, and how they are split:
                // `*.{ts, tsx}` fails as `*.{ts,`.
                refuse(match several {
                    true => format!("`{token}`: {message} (globs are separated by whitespace)"),
                    false => message,
                })
            })?;
            match negated {
                true => exclude.push(one),
                false => include.push(one),
            }
        }
        if include.is_empty() && exclude.is_empty() {
            return Err(refuse("empty glob".into()));
        }
        Ok(PathGlob {
            include,
            exclude,
            base: base.to_owned(),
            also: None,
        })
    }

    /// Selects what both `self` and `other` select.
    pub(crate) fn and(mut self, other: PathGlob) -> PathGlob {
        self.also = Some(Box::new(other));
        self
    }

    /// Whether the file at repository-relative `rel` is selected.
    pub(crate) fn is_match(&self, rel: &str) -> bool {
        let included = self.include.is_empty() || self.include.iter().any(|g| g.is_match(rel));
        included
            && !self
                .exclude
                .iter()
                .any(|g| g.is_match(rel) || dirs_below(rel, &self.base).any(|dir| g.is_match(dir)))
            && self.also.as_ref().is_none_or(|also| also.is_match(rel))
    }
}

impl OneGlob {
    /// Compiles one glob (without its `!`); the error is the parser's reason.
    fn new(glob: &str, base: &str) -> Result<OneGlob, String> {
        let mut pattern = glob
            .strip_prefix("./")
            .or_else(|| glob.strip_prefix('/'))
            .unwrap_or(glob)
            .to_owned();
        if pattern.is_empty() {
            return Err("empty glob".to_owned());
        }
        if pattern.ends_with('/') {
            pattern.push_str("**");
        }
        let name_only = !pattern.contains('/');
        let mut matchers = vec![compile(&pattern)?];
        if !name_only && !base.is_empty() && !starts_with_dir(&pattern, base) {
            matchers.push(compile(&format!("{base}/{pattern}"))?);
        }
        Ok(OneGlob {
            matchers,
            name_only,
        })
    }

    fn is_match(&self, rel: &str) -> bool {
        let subject = if self.name_only {
            rel.rsplit('/').next().unwrap_or(rel)
        } else {
            rel
        };
        self.matchers.iter().any(|m| m.is_match(subject))
    }
}

/// The directories above the file `rel` that lie below `base`, shallowest first
/// (`a/b/c.ts` under `a`: `a/b`).
fn dirs_below<'a>(rel: &'a str, base: &str) -> impl Iterator<Item = &'a str> {
    let start = match base.is_empty() {
        true => 0,
        false if starts_with_dir(rel, base) => base.len() + 1,
        false => 0,
    };
    rel[start..]
        .match_indices('/')
        .map(move |(at, _)| &rel[..start + at])
}

/// `pattern` begins with the directory `dir` as whole segments (`packages/x` does,
/// `packagesx/y` does not).
fn starts_with_dir(pattern: &str, dir: &str) -> bool {
    pattern
        .strip_prefix(dir)
        .is_some_and(|rest| rest.starts_with('/'))
}

fn compile(pattern: &str) -> Result<GlobMatcher, String> {
    let glob: Glob = GlobBuilder::new(pattern)
        // `*` stays within one segment; only `**` crosses `/`.
        .literal_separator(true)
        // `\*` escapes a metacharacter, as in shells.
        .backslash_escape(true)
        .build()
        .map_err(|e| e.kind().to_string())?;
    Ok(glob.compile_matcher())
}

#[cfg(test)]
mod tests;
