//! A `path` and `glob` that select no file at all. Said apart from "no line matched" so the
//! caller fixes the scope rather than the pattern: a bare `no matches` after a glob that
//! selected nothing reads as "the code has no such line", and agents went on from there.

use serde::{Deserialize, Serialize};

/// The scope of a search or listing held no file to look at.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct EmptyScope {
    /// The directory searched or listed, repository-relative (`.` for the root).
    pub path: String,
    /// The `glob` argument as given; `None` when there was none.
    pub glob: Option<String>,
    /// Files under `path` (within `depth` levels when set) before the glob was applied:
    /// many say the glob is wrong, none that the directory is.
    pub files: usize,
    /// The levels a listing descended, when it stopped short of the deepest it may go.
    pub depth: Option<usize>,
    /// The paths a `path` argument listed (`src/ lib/a.go`), which `glob` narrowed to no
    /// file; `path` is then the root and `files` every file under it.
    #[serde(default)]
    pub listed: Option<String>,
}

impl EmptyScope {
    /// One line: `no file matches glob `**/*.zsh` under src (it holds 120 files)`.
    pub fn describe(&self) -> String {
        let holds = match self.files {
            0 => "no file".to_owned(),
            1 => "1 file".to_owned(),
            n => format!("{n} files"),
        };
        let within = self
            .depth
            .map(|d| format!(" within {d} levels"))
            .unwrap_or_default();
        let (place, holder) = match (self.listed.as_deref(), self.path.as_str()) {
            (Some(listed), _) => (
                format!(" under `{}`", crate::escape::inline(listed)),
                "the repository".to_owned(),
            ),
            (None, "." | "") => (String::new(), "the repository".to_owned()),
            (None, path) => (
                format!(" under {}", crate::escape::inline(path)),
                "it".to_owned(),
            ),
        };
        let what = match &self.glob {
            Some(glob) => format!("no file matches glob `{}`", crate::escape::inline(glob)),
            None => "no file to search".to_owned(),
        };
        format!("{what}{place} ({holder} holds {holds}{within})")
    }
}

#[cfg(test)]
mod tests {
    use super::EmptyScope;

    fn scope(path: &str, glob: Option<&str>, files: usize, depth: Option<usize>) -> String {
        EmptyScope {
            path: path.to_owned(),
            glob: glob.map(str::to_owned),
            files,
            depth,
            listed: None,
        }
        .describe()
    }

    #[test]
    fn one_line_names_the_glob_the_place_and_what_it_holds() {
        let lines = [
            scope("crates/core", Some("**/*.zsh"), 120, None),
            scope(".", Some("*.zsh !x"), 1, None),
            scope("docs", Some("*.md"), 0, Some(2)),
            scope("empty", None, 0, None),
        ];
        insta::assert_snapshot!(lines.join("\n"), @r"
        no file matches glob `**/*.zsh` under crates/core (it holds 120 files)
        no file matches glob `*.zsh !x` (the repository holds 1 file)
        no file matches glob `*.md` under docs (it holds no file within 2 levels)
        no file to search under empty (it holds no file)
        ");
        for line in &lines {
            assert!(!line.contains('\n'));
        }
    }
}
