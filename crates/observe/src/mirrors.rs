//! Mirror trees: a directory whose files repeat a sibling directory's relative paths (a
//! generated copy for another runtime, a vendored build). Detected from the file set alone:
//! two sibling directories sharing many relative paths are a tree and its mirror, and the
//! one holding fewer files (the copy leaves out tests and tooling) is the mirror. Twins must
//! also declare nearly the same names, so sibling implementations that merely share file
//! names (one directory per backend) are not mistaken for copies.

use std::collections::HashSet;

use rustc_hash::FxHashMap as HashMap;
use std::sync::Arc;

use crate::db::{Db, Workspace};
use crate::walk::FileRole;

/// Fewest shared relative paths that make two sibling directories a tree and its mirror.
const MIN_SHARED: usize = 5;
/// Share of the smaller directory's files that must have a twin.
const MIN_SHARED_RATIO: f64 = 0.5;

/// Indices (into the workspace's files) of source files that live in a mirror tree and
/// have a twin in the original. Reads the candidate pairs ([`mirror_candidates`], from
/// the paths alone) and the top-level names of the files in them, so an edit re-runs it
/// only when it changes such a file's shape, and then compares names, not paths.
#[salsa::tracked(returns(clone))]
pub(crate) fn mirror_files(db: &dyn Db, ws: Workspace) -> Arc<HashSet<u32>> {
    let candidates = mirror_candidates(db, ws);
    let files = ws.files(db);
    // A file is compared with each of its twins: its names are collected once.
    let memo: std::cell::RefCell<HashMap<u32, Arc<HashSet<String>>>> = Default::default();
    let names = |i: u32| -> Arc<HashSet<String>> {
        if let Some(known) = memo.borrow().get(&i) {
            return known.clone();
        }
        let shape = crate::db::file_shape(db, files[i as usize]);
        let names: Arc<HashSet<String>> = Arc::new(
            shape
                .decls()
                .iter()
                .filter(|d| d.parent.is_none())
                .map(|d| d.name.clone())
                .collect(),
        );
        memo.borrow_mut().insert(i, names.clone());
        names
    };
    let alike = |a: u32, b: u32| {
        let (na, nb) = (names(a), names(b));
        let union = na.union(&nb).count();
        union == 0 || na.intersection(&nb).count() as f64 >= MIN_NAME_OVERLAP * union as f64
    };
    Arc::new(mirrors_among(&candidates, &alike))
}

/// The sibling directories whose shared relative paths could make them a tree and its
/// mirror, with those paths' file pairs: [`find_mirrors`] before any twin is compared.
///
/// Workspace-wide hazard: reads every path, so it re-runs when a file is added or
/// removed; no edit re-runs it.
#[salsa::tracked(returns(clone))]
pub(crate) fn mirror_candidates(db: &dyn Db, ws: Workspace) -> Arc<Vec<SiblingTwins>> {
    let paths: Vec<(u32, &str)> = ws
        .files(db)
        .iter()
        .enumerate()
        .filter(|(_, f)| matches!(f.role(db), FileRole::Source(_)))
        .map(|(i, f)| (i as u32, f.path(db).as_str()))
        .collect();
    Arc::new(sibling_twins(&paths))
}

/// Share of top-level declaration names twins must have in common.
const MIN_NAME_OVERLAP: f64 = 0.8;

/// The last segment of a path.
fn file_name(path: &str) -> &str {
    path.rsplit_once('/').map_or(path, |(_, name)| name)
}

/// The files sharing one (parent directory, path below a child of it): one, inline, or
/// several.
enum Twins<'a> {
    One((&'a str, u32)),
    Many(Vec<(&'a str, u32)>),
}

impl<'a> Twins<'a> {
    fn push(&mut self, entry: (&'a str, u32)) {
        match self {
            Twins::One(first) => *self = Twins::Many(vec![*first, entry]),
            Twins::Many(all) => all.push(entry),
        }
    }
}

/// Two sibling directories as (parent, a, b), with a < b.
type SiblingPair<'a> = (&'a str, &'a str, &'a str);

/// Two sibling directories that share relative paths, as [`sibling_twins`] finds them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct SiblingTwins {
    /// How many files each directory holds.
    size_a: usize,
    size_b: usize,
    /// The files sharing a relative path, as (file in a, file in b).
    pairs: Vec<(u32, u32)>,
}

/// `alike(a, b)` tells whether two files with the same relative path are copies. (The
/// queries split this in two: [`mirror_candidates`] and [`mirror_files`].)
#[cfg(test)]
pub(crate) fn find_mirrors(
    paths: &[(u32, &str)],
    alike: &dyn Fn(u32, u32) -> bool,
) -> HashSet<u32> {
    mirrors_among(&sibling_twins(paths), alike)
}

/// The mirror files among `twins`: in each pair of directories, the twins that `alike`
/// accepts must be many enough, and the directory holding fewer files is the mirror.
fn mirrors_among(twins: &[SiblingTwins], alike: &dyn Fn(u32, u32) -> bool) -> HashSet<u32> {
    let mut mirrors = HashSet::new();
    for t in twins {
        let pairs: Vec<(u32, u32)> = t
            .pairs
            .iter()
            .copied()
            .filter(|&(a, b)| alike(a, b))
            .collect();
        if !enough_shared(pairs.len(), t.size_a, t.size_b) {
            continue;
        }
        let b_is_mirror = t.size_b < t.size_a;
        for (fa, fb) in pairs {
            mirrors.insert(if b_is_mirror { fb } else { fa });
        }
    }
    mirrors
}

/// Whether `shared` twins make directories of these sizes a tree and its mirror.
fn enough_shared(shared: usize, size_a: usize, size_b: usize) -> bool {
    shared >= MIN_SHARED
        && shared as f64 >= MIN_SHARED_RATIO * size_a.min(size_b) as f64
        && size_a != size_b
}

/// Every pair of sibling directories sharing enough relative paths to be a tree and its
/// mirror should all their twins prove alike, from the paths alone.
fn sibling_twins(paths: &[(u32, &str)]) -> Vec<SiblingTwins> {
    // Twins share their file name, so a file whose name no other file has only counts
    // toward its directories' sizes, which are looked up for the few compared directories
    // at the end. Keys are slices of the paths themselves, and a key seen once holds its
    // entry inline: this runs after every added or removed file.
    let mut name_counts: HashMap<&str, u32> = HashMap::default();
    for &(_, path) in paths {
        *name_counts.entry(file_name(path)).or_default() += 1;
    }
    // (parent dir, path below the child) -> [(child dir, file index)]
    let mut twins: HashMap<(&str, &str), Twins<'_>> = HashMap::default();
    for &(index, path) in paths {
        if name_counts.get(file_name(path)).copied().unwrap_or(0) < 2 {
            continue;
        }
        // Each directory segment `child` of the path, with what comes before and after it.
        let mut start = 0;
        while let Some(len) = path[start..].find('/') {
            let end = start + len;
            let parent = &path[..start.saturating_sub(1)];
            let child = &path[start..end];
            let rest = &path[end + 1..];
            match twins.entry((parent, rest)) {
                std::collections::hash_map::Entry::Vacant(v) => {
                    v.insert(Twins::One((child, index)));
                }
                std::collections::hash_map::Entry::Occupied(mut o) => {
                    o.get_mut().push((child, index))
                }
            }
            start = end + 1;
        }
    }
    // (parent, dir a, dir b) -> shared relative paths, with a < b.
    let mut shared: HashMap<SiblingPair<'_>, Vec<(u32, u32)>> = HashMap::default();
    for ((parent, _), group) in &twins {
        let Twins::Many(group) = group else {
            continue;
        };
        if group.len() > 8 {
            continue;
        }
        for (i, (a, fa)) in group.iter().enumerate() {
            for (b, fb) in &group[i + 1..] {
                let (a, b, fa, fb) = if a < b {
                    (a, b, *fa, *fb)
                } else {
                    (b, a, *fb, *fa)
                };
                shared.entry((parent, a, b)).or_default().push((fa, fb));
            }
        }
    }
    // The number of files under a directory: the run of sorted paths below it.
    let mut sorted: Vec<&str> = paths.iter().map(|&(_, p)| p).collect();
    if !sorted.is_sorted() {
        sorted.sort_unstable();
    }
    let size = |parent: &str, child: &str| -> usize {
        let prefix = if parent.is_empty() {
            format!("{child}/")
        } else {
            format!("{parent}/{child}/")
        };
        let first = sorted.partition_point(|p| *p < prefix.as_str());
        sorted[first..].partition_point(|p| p.starts_with(prefix.as_str()))
    };
    let mut twins: Vec<SiblingTwins> = shared
        .into_iter()
        .filter(|(_, pairs)| pairs.len() >= MIN_SHARED)
        .map(|((parent, a, b), pairs)| SiblingTwins {
            size_a: size(parent, a),
            size_b: size(parent, b),
            pairs,
        })
        .filter(|t| enough_shared(t.pairs.len(), t.size_a, t.size_b))
        .collect();
    // In file order, so the same paths give the same list.
    twins.sort_unstable_by_key(|t| t.pairs.first().copied());
    twins
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// The definition, spelled out: every (parent, child) size counted, every file grouped.
    fn reference(paths: &[(u32, &str)], alike: &dyn Fn(u32, u32) -> bool) -> HashSet<u32> {
        let mut sizes: HashMap<(String, String), usize> = HashMap::default();
        let mut twins: HashMap<(String, String), Vec<(String, u32)>> = HashMap::default();
        for &(index, path) in paths {
            let segments: Vec<&str> = path.split('/').collect();
            for i in 0..segments.len().saturating_sub(1) {
                let parent = segments[..i].join("/");
                let child = segments[i].to_owned();
                let rest = segments[i + 1..].join("/");
                *sizes.entry((parent.clone(), child.clone())).or_default() += 1;
                twins
                    .entry((parent, rest))
                    .or_default()
                    .push((child, index));
            }
        }
        let mut shared: HashMap<(String, String, String), Vec<(u32, u32)>> = HashMap::default();
        for ((parent, _), group) in &twins {
            if group.len() < 2 || group.len() > 8 {
                continue;
            }
            for (i, (a, fa)) in group.iter().enumerate() {
                for (b, fb) in &group[i + 1..] {
                    let (a, b, fa, fb) = if a < b {
                        (a, b, *fa, *fb)
                    } else {
                        (b, a, *fb, *fa)
                    };
                    if alike(fa, fb) {
                        let key = (parent.clone(), a.clone(), b.clone());
                        shared.entry(key).or_default().push((fa, fb));
                    }
                }
            }
        }
        let mut mirrors = HashSet::new();
        for ((parent, a, b), pairs) in shared {
            let size_a = sizes[&(parent.clone(), a)];
            let size_b = sizes[&(parent, b)];
            if pairs.len() < MIN_SHARED
                || (pairs.len() as f64) < MIN_SHARED_RATIO * size_a.min(size_b) as f64
                || size_a == size_b
            {
                continue;
            }
            for (fa, fb) in pairs {
                mirrors.insert(if size_b < size_a { fb } else { fa });
            }
        }
        mirrors
    }

    proptest! {
        #[test]
        fn finds_what_the_definition_finds(
            paths in proptest::collection::btree_set(
                (
                    proptest::sample::select(&["src", "copy", "src/a", "copy/a", "lib/copy", "lib/src", "b"][..]),
                    proptest::sample::select(&["x.ts", "y.ts", "z.ts", "index.ts", "w.ts", "v.ts", "u.ts", "t.ts"][..]),
                ),
                0..50,
            ),
            unlike in proptest::collection::vec(0u32..50, 0..3),
        ) {
            let paths: Vec<String> = paths.into_iter().map(|(dir, name)| format!("{dir}/{name}")).collect();
            let refs: Vec<(u32, &str)> =
                paths.iter().enumerate().map(|(i, p)| (i as u32, p.as_str())).collect();
            let alike = |a: u32, b: u32| !unlike.contains(&a) && !unlike.contains(&b);
            prop_assert_eq!(find_mirrors(&refs, &alike), reference(&refs, &alike));
        }
    }

    #[test]
    fn the_smaller_twin_tree_is_the_mirror() {
        let mut paths = Vec::new();
        let names = ["a", "b", "c", "d", "e", "f"];
        for (i, n) in names.iter().enumerate() {
            paths.push((i as u32, format!("src/{n}.ts")));
            paths.push((100 + i as u32, format!("copy/{n}.ts")));
            paths.push((200 + i as u32, format!("src/{n}.test.ts")));
        }
        paths.push((300, "src/only.ts".to_owned()));
        let refs: Vec<(u32, &str)> = paths.iter().map(|(i, p)| (*i, p.as_str())).collect();
        let mirrors = find_mirrors(&refs, &|_, _| true);
        assert_eq!(mirrors.len(), 6);
        assert!(mirrors.iter().all(|&i| (100..106).contains(&i)));
    }

    #[test]
    fn unrelated_directories_are_not_mirrors() {
        let paths = [
            (0, "src/a/index.ts"),
            (1, "src/b/index.ts"),
            (2, "lib/x.ts"),
            (3, "src/c/index.ts"),
        ];
        assert!(find_mirrors(&paths, &|_, _| true).is_empty());
        let many: Vec<(u32, String)> = (0..12)
            .flat_map(|i| [(i, format!("a/f{i}.ts")), (100 + i, format!("b/f{i}.ts"))])
            .chain([(50, "a/extra.ts".to_owned())])
            .collect();
        let refs: Vec<(u32, &str)> = many.iter().map(|(i, p)| (*i, p.as_str())).collect();
        assert!(
            find_mirrors(&refs, &|_, _| false).is_empty(),
            "different contents are not copies"
        );
    }
}
