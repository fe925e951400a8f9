//! Rust import resolution: which file a `use` path or a `mod` declaration leads to.
//!
//! A path starts from the importing file's place in its crate ([`crate::layout`]):
//! `crate::` at its crate root, `self::` at its own module, each `super::` one module up,
//! a leading name at a child module of the importing file's module when one exists, else
//! at the library of the workspace package of that crate name (a renamed dependency
//! first), else outside the repository. It then walks module by module (`a/b.rs` or
//! `a/b/mod.rs` under the root's directory) as far as modules exist, and resolves to the
//! deepest module's file: the module that declares the item the path ends with (a path
//! that stays in the importing file resolves with no file to link, as a
//! [`Resolution::Package`] without files). The `::self` form must walk the whole path.
//! `mod x;` resolves beside the declaring module (`x.rs` or `x/mod.rs` in its directory
//! for modules), or to its `#[path]`.

use sightline_lang::path;
use sightline_lang::{FileSet, Resolution};

use crate::cargo::CargoConfig;
use crate::layout::{self, Place, module_file};
use crate::specifier::{self, Specifier};

/// Resolves `specifier` (as the extractor wrote it) imported by the file `importer`.
pub(crate) fn resolve(
    config: &CargoConfig,
    files: &dyn FileSet,
    importer: &str,
    specifier: &str,
) -> Resolution {
    let Some(spec) = specifier::parse(specifier) else {
        return Resolution::Unresolved;
    };
    let place = layout::locate(config, files, importer);
    match spec {
        Specifier::Mod { inline, name, path } => {
            resolve_mod(files, importer, &place, &inline, name, path)
        }
        Specifier::Path { segments, module } => {
            resolve_path(config, files, importer, &place, &segments, module)
        }
    }
}

/// `mod name;` inside the inline modules `inline` of `importer`.
fn resolve_mod(
    files: &dyn FileSet,
    importer: &str,
    place: &Place<'_>,
    inline: &[&str],
    name: &str,
    attribute: Option<&str>,
) -> Resolution {
    let mut dir = place.children_dir.clone();
    for m in inline {
        dir = match path::join(&dir, m) {
            Some(d) => d,
            None => return Resolution::Unresolved,
        };
    }
    let found = match attribute {
        // `#[path]` is relative to the file's directory, or to the inline module's.
        Some(p) if inline.is_empty() => path::join(path::parent(importer), p),
        Some(p) => path::join(&dir, p),
        None => module_file(files, &dir, name),
    };
    match found {
        Some(f) if files.contains(&f) => Resolution::File(f),
        _ => Resolution::Unresolved,
    }
}

/// Where a walk starts: a module's directory, its module path there, and its file.
struct Start {
    dir: String,
    module: Vec<String>,
    file: Option<String>,
}

/// A `use` path of `segments`; `module`: the whole path must be a module.
fn resolve_path(
    config: &CargoConfig,
    files: &dyn FileSet,
    importer: &str,
    place: &Place<'_>,
    segments: &[&str],
    module: bool,
) -> Resolution {
    let Some((&first, rest)) = segments.split_first() else {
        return Resolution::Unresolved;
    };
    let own_module = || Start {
        dir: place.root_dir.clone(),
        module: place.module.clone(),
        file: Some(importer.to_owned()),
    };
    let (start, rest) = match first {
        "crate" => (crate_root(place), rest),
        "self" => (own_module(), rest),
        "super" => {
            let ups = segments.iter().take_while(|s| **s == "super").count();
            if ups > place.module.len() {
                return Resolution::Unresolved;
            }
            let mut module = place.module.clone();
            module.truncate(module.len() - ups);
            let file = module_of(files, place, &module);
            let start = Start {
                dir: place.root_dir.clone(),
                module,
                file,
            };
            (start, &segments[ups..])
        }
        // `::name`: an external crate by that name.
        "" => {
            let Some((&name, rest)) = rest.split_first() else {
                return Resolution::Unresolved;
            };
            match crate_start(config, files, place, name) {
                Some(Ok(start)) => (start, rest),
                Some(Err(unresolved)) => return unresolved,
                None => return Resolution::External,
            }
        }
        name => match module_file(files, &place.children_dir, name) {
            // A child module of the importing file's module.
            Some(file) => {
                let mut module = place.module.clone();
                module.push(name.to_owned());
                let start = Start {
                    dir: place.root_dir.clone(),
                    module,
                    file: Some(file),
                };
                (start, rest)
            }
            None => match crate_start(config, files, place, name) {
                Some(Ok(start)) => (start, rest),
                Some(Err(unresolved)) => return unresolved,
                None => return Resolution::External,
            },
        },
    };
    match walk(files, start, rest, module) {
        // The path names the importing file's own items (`use self::Mode::*`): resolved,
        // with no other file to link (the file's own declarations bind those names).
        Resolution::File(f) if f == importer => Resolution::Package {
            dir: path::parent(importer).to_owned(),
            files: Vec::new(),
        },
        found => found,
    }
}

/// Walks `rest` module by module from `start`.
fn walk(files: &dyn FileSet, start: Start, rest: &[&str], module: bool) -> Resolution {
    let Start {
        dir,
        module: mut path,
        mut file,
    } = start;
    let mut consumed = 0;
    for segment in rest {
        let parent = match path::join(&dir, &path.join("/")) {
            Some(d) => d,
            None => break,
        };
        match module_file(files, &parent, segment) {
            Some(f) => {
                file = Some(f);
                path.push((*segment).to_owned());
                consumed += 1;
            }
            None => break,
        }
    }
    match file {
        Some(f) if !module || consumed == rest.len() => Resolution::File(f),
        _ => Resolution::Unresolved,
    }
}

/// The crate root of the importing file's crate.
fn crate_root(place: &Place<'_>) -> Start {
    Start {
        dir: place.root_dir.clone(),
        module: Vec::new(),
        file: place.root.clone(),
    }
}

/// The file of `module` in the importing file's crate: the root for the empty path.
fn module_of(files: &dyn FileSet, place: &Place<'_>, module: &[String]) -> Option<String> {
    let Some((last, parents)) = module.split_last() else {
        return place.root.clone();
    };
    let dir = path::join(&place.root_dir, &parents.join("/"))?;
    module_file(files, &dir, last)
}

/// The library root of the crate the importing file knows as `name`: `None` when no
/// package of the repository is that crate (it is external), `Err` when one is but its
/// library is not indexed.
fn crate_start(
    config: &CargoConfig,
    files: &dyn FileSet,
    place: &Place<'_>,
    name: &str,
) -> Option<Result<Start, Resolution>> {
    let package = config.crate_named(place.package, name)?;
    if !files.contains(&package.lib) {
        return Some(Err(Resolution::Unresolved));
    }
    Some(Ok(Start {
        dir: path::parent(&package.lib).to_owned(),
        module: Vec::new(),
        file: Some(package.lib.clone()),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::BTreeSet;

    struct Repo {
        config: CargoConfig,
        files: BTreeSet<String>,
    }

    impl Repo {
        fn new(manifests: &[(&str, &str)], sources: &[&str]) -> Repo {
            let paths: Vec<&str> = manifests.iter().map(|(p, _)| *p).collect();
            let config = CargoConfig::new(&paths, &|p| {
                manifests
                    .iter()
                    .find(|(m, _)| *m == p)
                    .map(|(_, t)| t.to_string())
            });
            Repo {
                config,
                files: sources.iter().map(|s| s.to_string()).collect(),
            }
        }

        fn at(&self, importer: &str, specifier: &str) -> Resolution {
            resolve(&self.config, &self.files, importer, specifier)
        }
    }

    fn file(p: &str) -> Resolution {
        Resolution::File(p.to_owned())
    }

    /// A path that stays in the importing file: resolved, nothing to link.
    fn own(p: &str) -> Resolution {
        Resolution::Package {
            dir: sightline_lang::path::parent(p).to_owned(),
            files: Vec::new(),
        }
    }

    fn workspace() -> Repo {
        Repo::new(
            &[
                ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
                ("crates/core/Cargo.toml", "[package]\nname = \"app-core\"\n"),
                (
                    "crates/cli/Cargo.toml",
                    "[package]\nname = \"cli\"\n[dependencies]\nengine = { package = \"app-core\", path = \"../core\" }\n",
                ),
            ],
            &[
                "crates/core/src/lib.rs",
                "crates/core/src/store.rs",
                "crates/core/src/store/disk.rs",
                "crates/core/src/net/mod.rs",
                "crates/core/src/net/http.rs",
                "crates/core/src/inner/gen.rs",
                "crates/core/tests/it.rs",
                "crates/cli/src/main.rs",
                "crates/cli/src/args.rs",
                "crates/cli/src/args/parse.rs",
            ],
        )
    }

    #[test]
    fn crate_paths_walk_the_module_tree_to_the_declaring_module() {
        let r = workspace();
        let from = "crates/core/src/net/http.rs";
        assert_eq!(
            r.at(from, "crate::store::Store"),
            file("crates/core/src/store.rs")
        );
        assert_eq!(
            r.at(from, "crate::store::disk::Disk"),
            file("crates/core/src/store/disk.rs")
        );
        assert_eq!(
            r.at(from, "crate::store::disk"),
            file("crates/core/src/store/disk.rs")
        );
        assert_eq!(r.at(from, "crate::Thing"), file("crates/core/src/lib.rs"));
        assert_eq!(
            r.at(from, "crate::net::self"),
            file("crates/core/src/net/mod.rs")
        );
    }

    #[test]
    fn the_module_form_must_name_a_module() {
        let r = workspace();
        let from = "crates/core/src/lib.rs";
        assert_eq!(
            r.at(from, "crate::store::Store::self"),
            Resolution::Unresolved
        );
        assert_eq!(
            r.at(from, "crate::store::self"),
            file("crates/core/src/store.rs")
        );
    }

    #[test]
    fn relative_paths_start_at_the_importing_module() {
        let r = workspace();
        let disk = "crates/core/src/store/disk.rs";
        assert_eq!(r.at(disk, "super::Store"), file("crates/core/src/store.rs"));
        assert_eq!(
            r.at(disk, "super::super::net::http"),
            file("crates/core/src/net/http.rs")
        );
        assert_eq!(r.at(disk, "super::super::store::disk::X"), own(disk));
        assert_eq!(r.at(disk, "self::Inner"), own(disk));
        assert_eq!(
            r.at("crates/core/src/lib.rs", "super::x"),
            Resolution::Unresolved
        );
        // A leading name is a child module before it is a crate.
        assert_eq!(
            r.at("crates/core/src/lib.rs", "store::Store"),
            file("crates/core/src/store.rs")
        );
        assert_eq!(
            r.at("crates/core/src/store.rs", "disk::Disk"),
            file("crates/core/src/store/disk.rs")
        );
    }

    #[test]
    fn other_crates_are_reached_by_name_and_rename() {
        let r = workspace();
        let main = "crates/cli/src/main.rs";
        assert_eq!(
            r.at(main, "app_core::store::Store"),
            file("crates/core/src/store.rs")
        );
        assert_eq!(
            r.at(main, "engine::net::http::get"),
            file("crates/core/src/net/http.rs")
        );
        assert_eq!(
            r.at(main, "::app_core::Thing"),
            file("crates/core/src/lib.rs")
        );
        assert_eq!(
            r.at(main, "std::collections::HashMap"),
            Resolution::External
        );
        assert_eq!(
            r.at(main, "cli::x"),
            Resolution::Unresolved,
            "a binary has no library"
        );
        assert_eq!(
            r.at("crates/core/tests/it.rs", "app_core::store::Store"),
            file("crates/core/src/store.rs")
        );
    }

    #[test]
    fn mod_declarations_resolve_beside_their_module() {
        let r = workspace();
        assert_eq!(
            r.at("crates/cli/src/main.rs", "mod args"),
            file("crates/cli/src/args.rs")
        );
        assert_eq!(
            r.at("crates/cli/src/args.rs", "mod parse"),
            file("crates/cli/src/args/parse.rs")
        );
        assert_eq!(
            r.at("crates/core/src/lib.rs", "mod net"),
            file("crates/core/src/net/mod.rs")
        );
        assert_eq!(
            r.at("crates/core/src/net/mod.rs", "mod http"),
            file("crates/core/src/net/http.rs")
        );
        assert_eq!(
            r.at("crates/core/src/lib.rs", "mod gone"),
            Resolution::Unresolved
        );
        assert_eq!(
            r.at("crates/core/src/lib.rs", "mod inner::g = gen.rs"),
            file("crates/core/src/inner/gen.rs")
        );
        assert_eq!(
            r.at("crates/core/src/lib.rs", "mod h = net/http.rs"),
            file("crates/core/src/net/http.rs")
        );
        assert_eq!(
            r.at("crates/core/src/lib.rs", "mod h = ../../../../x.rs"),
            Resolution::Unresolved
        );
    }

    #[test]
    fn malformed_specifiers_are_unresolved() {
        let r = workspace();
        for bad in ["", "a::::b", "mod "] {
            assert_eq!(r.at("crates/core/src/lib.rs", bad), Resolution::Unresolved);
        }
    }
}
