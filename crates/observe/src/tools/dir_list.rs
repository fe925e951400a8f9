//! A list of files with a short label each, a directory printed once for its consecutive
//! files (`src/a/: x.ts 2, y.ts 1`), so a long shared path is not repeated per file:
//! `grep`'s files-only and folded listings and `explore_code`'s further files.

use crate::escape::inline;

/// One line per run of consecutive `items` in one directory: `dir/: name label, name
/// label`; an item alone in its directory among its neighbours (or at the root) is
/// `path{alone}label`. `label` may be empty (the name alone is printed then). Paths are
/// escaped for one line of text ([`inline`]).
pub(crate) fn dir_lines<T>(
    items: &[T],
    path: impl Fn(&T) -> &str,
    label: impl Fn(&T) -> String,
    alone: &str,
) -> Vec<String> {
    let with = |name: &str, label: String, sep: &str| match label.is_empty() {
        true => inline(name),
        false => format!("{}{sep}{label}", inline(name)),
    };
    let mut lines = Vec::new();
    let mut rest = items;
    while let Some(first) = rest.first() {
        let dir = parent(path(first));
        let same_dir = rest.iter().take_while(|f| parent(path(f)) == dir).count();
        let (group, tail) = rest.split_at(same_dir);
        if group.len() == 1 || dir.is_empty() {
            lines.extend(group.iter().map(|f| with(path(f), label(f), alone)));
        } else {
            let names: Vec<String> = group
                .iter()
                .map(|f| with(&path(f)[dir.len()..], label(f), " "))
                .collect();
            lines.push(format!("{}: {}", inline(dir), names.join(", ")));
        }
        rest = tail;
    }
    lines
}

/// `items` with each directory's items gathered at its first item's place, order kept
/// otherwise: a ranked list keeps its directories in the order of their best item.
pub(crate) fn gather_by_dir<T>(items: &[T], path: impl Fn(&T) -> &str) -> Vec<&T> {
    let mut dirs: Vec<(&str, Vec<&T>)> = Vec::new();
    for item in items {
        let dir = parent(path(item));
        match dirs.iter_mut().find(|(d, _)| *d == dir) {
            Some((_, members)) => members.push(item),
            None => dirs.push((dir, vec![item])),
        }
    }
    dirs.into_iter().flat_map(|(_, members)| members).collect()
}

/// `path`'s directory with its trailing `/` (empty at the repository's root).
fn parent(path: &str) -> &str {
    path.rfind('/').map_or("", |i| &path[..=i])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(paths: &[&str]) -> Vec<String> {
        dir_lines(paths, |p| p, |p| p.len().to_string(), ": ")
    }

    #[test]
    fn a_directory_is_printed_once_for_its_consecutive_files() {
        assert_eq!(
            lines(&["a.ts", "src/x/b.ts", "src/x/cc.ts", "src/y.ts"]),
            ["a.ts: 4", "src/x/: b.ts 10, cc.ts 11", "src/y.ts: 8"]
        );
    }

    #[test]
    fn gathering_keeps_each_directory_at_its_best_item() {
        let ranked = ["s/a.ts", "t/b.ts", "s/c.ts", "d.ts"];
        let gathered: Vec<&&str> = gather_by_dir(&ranked, |p| p);
        assert_eq!(gathered, [&"s/a.ts", &"s/c.ts", &"t/b.ts", &"d.ts"]);
    }
}
