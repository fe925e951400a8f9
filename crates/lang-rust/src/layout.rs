//! Where a file sits in its crate's module tree, by Cargo's layout conventions: which
//! crate root it hangs from (a library, a binary, a test, example or bench target, a
//! build script), the directory that root's modules live in, and the file's module path.
//!
//! The tree is read from paths alone: `a/b.rs` and `a/b/mod.rs` are the module `a::b` of
//! the root whose directory holds `a/`. A module placed elsewhere by `#[path]` is reached
//! from its `mod` declaration but not by `use` paths.

use sightline_lang::FileSet;
use sightline_lang::path;

use crate::cargo::{CargoConfig, Package, relative};

/// Directories of a package whose files are each the root of a target of their own
/// (integration tests, examples, benchmarks); a subdirectory is one target rooted at its
/// `main.rs`.
const TARGET_DIRS: [&str; 3] = ["tests", "examples", "benches"];
/// Where binaries are discovered in a package.
const BIN_DIR: &str = "src/bin";

/// A file's place in its crate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Place<'c> {
    /// The package holding the file, if any.
    pub package: Option<&'c Package>,
    /// The crate root's file (`src/lib.rs`, a target's file), when one is known.
    pub root: Option<String>,
    /// The directory the root's modules live in.
    pub root_dir: String,
    /// The file's module path below the root (empty for the root itself).
    pub module: Vec<String>,
    /// The directory the file's own out-of-line modules live in.
    pub children_dir: String,
}

/// Locates `file` (repo-relative) in its crate.
pub(crate) fn locate<'c>(config: &'c CargoConfig, files: &dyn FileSet, file: &str) -> Place<'c> {
    let package = config.package_of(file);
    let (root, root_dir) = crate_root(package, files, file);
    let own_root = root.as_deref() == Some(file);
    let stem = stem(file);
    let module = match own_root {
        true => Vec::new(),
        false => module_path(&root_dir, file),
    };
    let children_dir = match own_root || stem == "mod" {
        true => path::parent(file).to_owned(),
        false => path::join(path::parent(file), stem).unwrap_or_default(),
    };
    Place {
        package,
        root,
        root_dir,
        module,
        children_dir,
    }
}

/// The root file and module directory of the crate `file` belongs to.
fn crate_root(
    package: Option<&Package>,
    files: &dyn FileSet,
    file: &str,
) -> (Option<String>, String) {
    let own = |f: &str| (Some(f.to_owned()), path::parent(f).to_owned());
    let Some(package) = package else {
        return own(file);
    };
    if file == package.lib || package.targets.iter().any(|t| t == file) {
        return own(file);
    }
    let rel = relative(file, &package.dir).unwrap_or(file);
    let inside = |dir: &str| path::join(&package.dir, dir).unwrap_or_default();
    // Targets discovered by directory: `tests/x.rs`, `tests/x/main.rs`, `src/bin/…`.
    for dir in TARGET_DIRS.iter().copied().chain([BIN_DIR]) {
        let Some(below) = relative(rel, dir) else {
            continue;
        };
        let mut parts = below.split('/');
        let (first, rest) = (parts.next().unwrap_or(""), parts.next());
        let base = inside(dir);
        return match rest {
            None => own(file),
            Some(_) => {
                let target = format!("{base}/{first}/main.rs");
                match files.contains(&target) {
                    true => (Some(target), format!("{base}/{first}")),
                    // A directory of modules several targets share (`tests/common/`).
                    false => (None, base),
                }
            }
        };
    }
    if rel == "build.rs" {
        return own(file);
    }
    // The library and `src/main.rs` (and declared targets) root the modules of their
    // directory; the deepest one holding the file wins, the library over `main.rs`.
    let main = inside("src/main.rs");
    if file == main {
        return own(file);
    }
    let roots = std::iter::once(&package.lib)
        .chain(std::iter::once(&main))
        .chain(&package.targets);
    let holding = roots
        .filter(|r| relative(file, path::parent(r)).is_some())
        .max_by_key(|r| path::parent(r).len());
    let Some(holding) = holding else {
        return own(file);
    };
    let dir = path::parent(holding).to_owned();
    let root = match dir == path::parent(&package.lib) {
        true if files.contains(&package.lib) => Some(package.lib.clone()),
        true if dir == path::parent(&main) && files.contains(&main) => Some(main),
        _ => files.contains(holding).then(|| holding.clone()),
    };
    (root, dir)
}

/// The module path of `file` below the directory `root_dir`: its directories and its
/// stem (`a/b.rs` → `a::b`), a `mod.rs` named by its directory (`a/mod.rs` → `a`).
fn module_path(root_dir: &str, file: &str) -> Vec<String> {
    let rel = relative(file, root_dir).unwrap_or(file);
    let mut segments: Vec<String> = rel.split('/').map(str::to_owned).collect();
    let last = segments.pop().unwrap_or_default();
    let stem = last.strip_suffix(".rs").unwrap_or(&last);
    if stem != "mod" {
        segments.push(stem.to_owned());
    }
    segments
}

/// The file name of `file` without `.rs`.
fn stem(file: &str) -> &str {
    let name = path::file_name(file);
    name.strip_suffix(".rs").unwrap_or(name)
}

/// The file of module `name` in directory `dir`: `dir/name.rs`, else `dir/name/mod.rs`.
pub(crate) fn module_file(files: &dyn FileSet, dir: &str, name: &str) -> Option<String> {
    let base = path::join(dir, name)?;
    let flat = format!("{base}.rs");
    if files.contains(&flat) {
        return Some(flat);
    }
    let nested = format!("{base}/mod.rs");
    files.contains(&nested).then_some(nested)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    fn files(paths: &[&str]) -> BTreeSet<String> {
        paths.iter().map(|p| p.to_string()).collect()
    }

    fn config(manifests: &[(&str, &str)]) -> CargoConfig {
        let paths: Vec<&str> = manifests.iter().map(|(p, _)| *p).collect();
        CargoConfig::new(&paths, &|p| {
            manifests
                .iter()
                .find(|(m, _)| *m == p)
                .map(|(_, t)| t.to_string())
        })
    }

    #[test]
    fn library_modules_hang_from_the_library_root() {
        let c = config(&[("Cargo.toml", "[package]\nname = \"p\"\n")]);
        let set = files(&[
            "src/lib.rs",
            "src/main.rs",
            "src/a.rs",
            "src/a/b.rs",
            "src/c/mod.rs",
        ]);
        let at = |f: &str| locate(&c, &set, f);
        assert_eq!(at("src/lib.rs").module, Vec::<String>::new());
        assert_eq!(at("src/lib.rs").children_dir, "src");
        assert_eq!(at("src/a/b.rs").module, ["a", "b"]);
        assert_eq!(at("src/a/b.rs").root.as_deref(), Some("src/lib.rs"));
        assert_eq!(at("src/a.rs").children_dir, "src/a");
        assert_eq!(at("src/c/mod.rs").module, ["c"]);
        assert_eq!(at("src/c/mod.rs").children_dir, "src/c");
        assert_eq!(at("src/main.rs").root.as_deref(), Some("src/main.rs"));
    }

    #[test]
    fn targets_by_directory_are_their_own_roots() {
        let c = config(&[("p/Cargo.toml", "[package]\nname = \"p\"\n")]);
        let set = files(&[
            "p/tests/it.rs",
            "p/tests/common/mod.rs",
            "p/src/bin/tool/main.rs",
            "p/src/bin/tool/args.rs",
            "p/src/bin/one.rs",
            "p/build.rs",
        ]);
        let at = |f: &str| locate(&c, &set, f);
        assert_eq!(at("p/tests/it.rs").root.as_deref(), Some("p/tests/it.rs"));
        let common = at("p/tests/common/mod.rs");
        assert_eq!((common.root, common.root_dir.as_str()), (None, "p/tests"));
        assert_eq!(common.module, ["common"]);
        let args = at("p/src/bin/tool/args.rs");
        assert_eq!(args.root.as_deref(), Some("p/src/bin/tool/main.rs"));
        assert_eq!(args.module, ["args"]);
        assert_eq!(at("p/src/bin/one.rs").module, Vec::<String>::new());
        assert_eq!(at("p/build.rs").root.as_deref(), Some("p/build.rs"));
    }

    #[test]
    fn a_declared_library_path_roots_its_directory() {
        let c = config(&[(
            "Cargo.toml",
            "[package]\nname = \"p\"\n[lib]\npath = \"lib.rs\"\n",
        )]);
        let set = files(&["lib.rs", "walk.rs", "walk/dir.rs"]);
        let walk = locate(&c, &set, "walk/dir.rs");
        assert_eq!(walk.root.as_deref(), Some("lib.rs"));
        assert_eq!(walk.module, ["walk", "dir"]);
    }

    #[test]
    fn files_outside_any_package_are_roots_of_their_own() {
        let c = CargoConfig::default();
        let set = files(&["scripts/gen.rs"]);
        let place = locate(&c, &set, "scripts/gen.rs");
        assert_eq!(place.root.as_deref(), Some("scripts/gen.rs"));
        assert_eq!(place.children_dir, "scripts");
    }
}
