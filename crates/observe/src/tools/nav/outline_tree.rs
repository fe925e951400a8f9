//! The tree view of a directory too large to outline file by file: its directories with
//! their source-file counts, the ones holding the most primary code opened first, within
//! a line limit — what `ls` gives an agent to orient itself, without the declarations of
//! the first files in path order (which, at a repository's root, are usually an examples
//! or tooling tree).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Most lines a tree shows (fewer when the caller's `max_entries` is lower): about what
/// `ls` prints, a directory opened only where that is cheap; `outline DIR` opens the rest.
pub const TREE_LINES: usize = 8;
/// Most file names listed for an opened subdirectory's own files.
pub const NAMES_PER_LINE: usize = 5;
/// Most file names listed for the outlined directory's own files: the names `ls` would
/// print first, which the outline shows instead of their declarations.
pub const OWN_NAMES: usize = 30;

/// One directory of a tree, in depth-first order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutlineDir {
    /// Repository-relative directory path, ending in `/`.
    pub path: String,
    /// How many opened directories hold it (0 directly under the outlined one).
    pub depth: u32,
    /// Source files under it, at any depth.
    pub files: usize,
    /// Of them, tests, examples, generated or vendored files.
    pub secondary: usize,
    /// Whether its subdirectories follow (at `depth + 1`).
    pub opened: bool,
    /// When opened: how many source files are directly in it.
    pub own_files: usize,
    /// When opened: the first [`NAMES_PER_LINE`] names of its own primary files.
    pub own_names: Vec<String>,
    /// When opened: how many of its own files are secondary (counted, not named).
    #[serde(default)]
    pub own_secondary: usize,
}

/// A directory tree to show: the outlined directory's own files, then its directories.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutlineTree {
    /// How many source files are directly in the outlined directory.
    pub own_files: usize,
    /// The first [`OWN_NAMES`] names of its primary files (not tests, examples,
    /// generated or vendored); secondary ones are counted, not named: the header already
    /// says what secondary means, and a root of Go tests beside their sources would
    /// otherwise spend a line on `x_test.go` names an agent rarely wants.
    pub own_names: Vec<String>,
    /// How many of its own files are secondary.
    #[serde(default)]
    pub own_secondary: usize,
    /// Its directories, depth first.
    pub dirs: Vec<OutlineDir>,
}

impl OutlineTree {
    /// Source files counted in the tree: each exactly once.
    pub fn files(&self) -> usize {
        self.own_files
            + self
                .dirs
                .iter()
                .filter(|d| d.depth == 0)
                .map(|d| d.files)
                .sum::<usize>()
    }

    /// Whether a directory shown has content not shown (it is not opened).
    pub fn folded(&self) -> bool {
        self.dirs.iter().any(|d| !d.opened)
    }

    /// Lines the tree renders to.
    pub fn lines(&self) -> usize {
        usize::from(self.own_files > 0)
            + self
                .dirs
                .iter()
                .map(|d| 1 + usize::from(d.opened && d.own_files > 0))
                .sum::<usize>()
    }
}

/// Counts of one directory.
#[derive(Default)]
struct Node {
    files: usize,
    secondary: usize,
    /// Direct subdirectories' paths, sorted.
    dirs: Vec<String>,
    /// Own source files' names, in the order given, each with whether it is secondary.
    own: Vec<(String, bool)>,
}

/// The tree of `files` (repository-relative paths, sorted, each with whether it is
/// secondary) under `base` (a directory path ending in `/`, or empty) in at most
/// `max_lines` lines — or, when the directories right under `base` need more, those.
///
/// A directory with subdirectories is opened (its subdirectories and a line of its own
/// files' names shown under it) while its lines fit, the one with the most primary (not
/// secondary) files first; a directory whose only content is one subdirectory is shown
/// as that subdirectory (`src/main/java/org/`).
pub(crate) fn tree(files: &[(&str, bool)], base: &str, max_lines: usize) -> OutlineTree {
    let nodes = nodes(files, base);
    let Some(root) = nodes.get(base) else {
        return OutlineTree::default();
    };
    let children = |dir: &str| -> Vec<String> {
        nodes[dir]
            .dirs
            .iter()
            .map(|d| chain_end(&nodes, d))
            .collect()
    };
    let mut lines = usize::from(!root.own.is_empty()) + root.dirs.len();
    let mut closed: Vec<String> = children(base);
    let mut open: Vec<String> = Vec::new();
    let primary = |d: &str| nodes[d].files - nodes[d].secondary;
    let cost = |d: &str| nodes[d].dirs.len() + usize::from(!nodes[d].own.is_empty());
    loop {
        // The most primary code first; its path breaks ties, so the tree is deterministic.
        let fits = closed
            .iter()
            .enumerate()
            .filter(|(_, d)| !nodes[d.as_str()].dirs.is_empty() && primary(d) > 0)
            .filter(|(_, d)| lines + cost(d) <= max_lines)
            .max_by(|(_, a), (_, b)| primary(a).cmp(&primary(b)).then_with(|| b.cmp(a)))
            .map(|(i, _)| i);
        let Some(i) = fits else { break };
        let dir = closed.swap_remove(i);
        lines += cost(&dir);
        closed.extend(children(&dir));
        open.push(dir);
    }
    let mut out = OutlineTree {
        own_files: root.own.len(),
        own_names: primary_names(&root.own, OWN_NAMES),
        own_secondary: secondary_count(&root.own),
        dirs: Vec::new(),
    };
    walk(&nodes, &open, &children(base), 0, &mut out.dirs, &children);
    out
}

/// Appends `dirs` and, under each opened one, its subdirectories, depth first.
fn walk(
    nodes: &BTreeMap<String, Node>,
    open: &[String],
    dirs: &[String],
    depth: u32,
    out: &mut Vec<OutlineDir>,
    children: &dyn Fn(&str) -> Vec<String>,
) {
    for d in dirs {
        let n = &nodes[d];
        let opened = open.contains(d);
        out.push(OutlineDir {
            path: d.clone(),
            depth,
            files: n.files,
            secondary: n.secondary,
            opened,
            own_files: if opened { n.own.len() } else { 0 },
            own_names: match opened {
                true => primary_names(&n.own, NAMES_PER_LINE),
                false => Vec::new(),
            },
            own_secondary: if opened { secondary_count(&n.own) } else { 0 },
        });
        if opened {
            walk(nodes, open, &children(d), depth + 1, out, children);
        }
    }
}

/// Every directory at or under `base` with its counts, subdirectories and own files.
fn nodes(files: &[(&str, bool)], base: &str) -> BTreeMap<String, Node> {
    let mut nodes: BTreeMap<String, Node> = BTreeMap::new();
    for &(path, secondary) in files {
        let Some(rel) = path.strip_prefix(base) else {
            continue;
        };
        let mut dir = base.to_owned();
        let mut parts = rel.split('/').peekable();
        while let Some(part) = parts.next() {
            let node = nodes.entry(dir.clone()).or_default();
            node.files += 1;
            node.secondary += usize::from(secondary);
            if parts.peek().is_none() {
                node.own.push((part.to_owned(), secondary));
                break;
            }
            let child = format!("{dir}{part}/");
            if let Err(at) = node.dirs.binary_search(&child) {
                node.dirs.insert(at, child.clone());
            }
            dir = child;
        }
    }
    nodes
}

/// The first `max` names of `own`'s primary files, in the order given.
fn primary_names(own: &[(String, bool)], max: usize) -> Vec<String> {
    own.iter()
        .filter(|(_, secondary)| !secondary)
        .take(max)
        .map(|(n, _)| n.clone())
        .collect()
}

/// How many of `own` are secondary.
fn secondary_count(own: &[(String, bool)]) -> usize {
    own.iter().filter(|(_, secondary)| *secondary).count()
}

/// `dir`, or the deepest directory reached from it through directories whose only content
/// is one subdirectory.
fn chain_end(nodes: &BTreeMap<String, Node>, dir: &str) -> String {
    let mut at = dir.to_owned();
    while let Some(n) = nodes.get(&at)
        && n.own.is_empty()
        && n.dirs.len() == 1
    {
        at = n.dirs[0].clone();
    }
    at
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn shown(t: &OutlineTree) -> Vec<String> {
        let mut out = vec![format!("own {}", t.own_names.join(","))];
        for d in &t.dirs {
            out.push(format!(
                "{}{} {}/{}{}",
                "  ".repeat(d.depth as usize),
                d.path,
                d.files,
                d.secondary,
                match d.opened {
                    true => format!(" own {}", d.own_names.join(",")),
                    false => String::new(),
                }
            ));
        }
        out
    }

    const FILES: [(&str, bool); 8] = [
        ("a.ts", false),
        ("examples/x/1.ts", true),
        ("examples/x/2.ts", true),
        ("examples/y/3.ts", true),
        ("src/main/pkg/core.ts", false),
        ("src/main/pkg/sub/deep.ts", false),
        ("src/main/pkg/sub/deeper.ts", false),
        ("tools/t.ts", false),
    ];

    #[test]
    fn the_directory_with_most_primary_files_opens_first_and_chains_fold() {
        assert_eq!(
            shown(&tree(&FILES, "", 4)),
            [
                "own a.ts",
                "examples/ 3/3",
                "src/main/pkg/ 3/0",
                "tools/ 1/0"
            ],
            "the base's directories always show; opening src/main/pkg/ would take two more lines"
        );
        assert_eq!(
            shown(&tree(&FILES, "", 10)),
            [
                "own a.ts",
                "examples/ 3/3",
                "src/main/pkg/ 3/0 own core.ts",
                "  src/main/pkg/sub/ 2/0",
                "tools/ 1/0"
            ],
            "a directory of files only, or of secondary files only, stays closed"
        );
    }

    #[test]
    fn own_files_name_primary_files_and_count_secondary_ones() {
        let files = [
            ("a.test.ts", true),
            ("b.ts", false),
            ("c.spec.ts", true),
            ("d.ts", false),
        ];
        let t = tree(&files, "", 4);
        assert_eq!(t.own_names, ["b.ts", "d.ts"]);
        assert_eq!((t.own_files, t.own_secondary), (4, 2));
        assert_eq!(
            primary_names(&[("x".into(), true), ("y".into(), false)], 1),
            ["y"],
            "a cut keeps the primary name"
        );
    }

    #[test]
    fn a_subdirectory_tree_starts_at_its_base() {
        let t = tree(&FILES, "src/main/", 10);
        assert_eq!(t.own_files, 0);
        assert_eq!(t.dirs[0].path, "src/main/pkg/");
        assert_eq!(t.files(), 3);
    }

    proptest! {
        /// The tree keeps within its lines (or the base's own, when those alone exceed
        /// them), and every source file is counted exactly once.
        #[test]
        fn every_file_is_counted_once_within_the_limit(
            raw in proptest::collection::btree_map("[ab]{1,2}(/[ab]{1,2}){0,3}", any::<bool>(), 1..40),
            max_lines in 0usize..12,
        ) {
            let owned: Vec<(String, bool)> = raw
                .into_iter()
                .map(|(p, s)| (format!("{p}.ts"), s))
                .collect();
            let files: Vec<(&str, bool)> = owned.iter().map(|(p, s)| (p.as_str(), *s)).collect();
            let t = tree(&files, "", max_lines);
            let least = tree(&files, "", 0).lines();
            prop_assert!(t.lines() <= max_lines.max(least));
            prop_assert_eq!(t.files(), files.len());
            let opened_sum: usize = t
                .dirs
                .iter()
                .filter(|d| d.opened)
                .map(|d| {
                    d.own_files
                        + t.dirs
                            .iter()
                            .filter(|c| c.depth == d.depth + 1 && c.path.starts_with(&d.path))
                            .map(|c| c.files)
                            .sum::<usize>()
                })
                .zip(t.dirs.iter().filter(|d| d.opened).map(|d| d.files))
                .filter(|(sum, files)| sum != files)
                .count();
            prop_assert_eq!(opened_sum, 0, "an opened directory's count is its own files and its subdirectories'");
        }
    }
}
