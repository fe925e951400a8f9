//! Lexical operations on repo-relative paths (forward slashes, no leading `./`, the root
//! is the empty string). Nothing here touches the filesystem.

/// The directory holding `path` (`""` for a top-level file).
pub fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..i])
}

/// Joins `rel` onto the directory `dir` and normalizes `.` and `..`.
///
/// Returns `None` when the result would leave the repository root, which is how a
/// specifier such as `../../outside` becomes `Unresolved` instead of escaping. A leading
/// `/` in `rel` is treated as relative: callers reject absolute specifiers earlier.
pub fn join(dir: &str, rel: &str) -> Option<String> {
    let mut parts: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
    for seg in rel.split('/') {
        match seg {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            _ => parts.push(seg),
        }
    }
    Some(parts.join("/"))
}

/// The ancestors of `dir`, nearest first, ending with the root `""`.
pub fn ancestors(dir: &str) -> impl Iterator<Item = &str> {
    let mut next = Some(dir);
    std::iter::from_fn(move || {
        let cur = next?;
        next = if cur.is_empty() {
            None
        } else {
            Some(parent(cur))
        };
        Some(cur)
    })
}

/// The file name of `path` (its last segment).
pub fn file_name(path: &str) -> &str {
    path.rfind('/').map_or(path, |i| &path[i + 1..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parent_of_top_level_is_root() {
        assert_eq!(parent("a.ts"), "");
        assert_eq!(parent("src/a.ts"), "src");
    }

    #[test]
    fn join_normalizes_and_refuses_to_escape() {
        assert_eq!(join("src/a", "./b").as_deref(), Some("src/a/b"));
        assert_eq!(join("src/a", "../b/./c").as_deref(), Some("src/b/c"));
        assert_eq!(join("", "x//y/").as_deref(), Some("x/y"));
        assert_eq!(join("src", "../..").as_deref(), None);
        assert_eq!(join("", "..").as_deref(), None);
        assert_eq!(join("src", "..").as_deref(), Some(""));
    }

    #[test]
    fn ancestors_end_at_root() {
        assert_eq!(ancestors("a/b").collect::<Vec<_>>(), vec!["a/b", "a", ""]);
        assert_eq!(ancestors("").collect::<Vec<_>>(), vec![""]);
    }

    #[test]
    fn file_name_is_last_segment() {
        assert_eq!(file_name("a/b/tsconfig.json"), "tsconfig.json");
        assert_eq!(file_name("x"), "x");
    }
}
