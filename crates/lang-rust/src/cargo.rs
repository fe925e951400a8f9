//! What resolution reads of `Cargo.toml` files: every package (its directory, crate name,
//! library root and declared targets, renamed dependencies) and which packages are members
//! of a workspace.
//!
//! A manifest that does not parse, a workspace member pattern that is not a glob or
//! matches no package become diagnostics; the rest of the configuration still holds.

use sightline_lang::path;
use sightline_lang::{ConfigDiagnostic, LanguageConfig};
use toml::{Table, Value};

/// The manifest file name Cargo reads.
pub(crate) const MANIFEST: &str = "Cargo.toml";

/// One package: a directory holding a `Cargo.toml` with a `[package]` table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Package {
    /// The package's directory (repo-relative, "" for the root).
    pub dir: String,
    /// The name other crates use for its library: `[lib] name`, else the package name,
    /// with `-` read as `_`.
    pub crate_name: String,
    /// The library root: `[lib] path`, else `src/lib.rs` (repo-relative; it may not exist).
    pub lib: String,
    /// The roots of its declared binary, test, example and bench targets (repo-relative).
    pub targets: Vec<String>,
    /// Dependencies used under another name (`key = { package = "name" }`): (the name
    /// this package's code uses, the crate name of the package it means).
    pub renames: Vec<(String, String)>,
    /// Whether it belongs to a workspace (a workspace's root package, or a package its
    /// `members` list), which wins over a package of the same name that does not (a test
    /// fixture, a vendored copy).
    pub member: bool,
}

/// Every package of the repository, from its `Cargo.toml` files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CargoConfig {
    /// Packages sorted by directory.
    packages: Vec<Package>,
    diagnostics: Vec<ConfigDiagnostic>,
}

impl LanguageConfig for CargoConfig {
    fn diagnostics(&self) -> &[ConfigDiagnostic] {
        &self.diagnostics
    }
}

/// A workspace's member patterns, as globs over package directories.
struct Workspace {
    file: String,
    members: Vec<globset::GlobMatcher>,
    exclude: Vec<String>,
    /// Each member pattern as written, to report the ones that match no package.
    patterns: Vec<String>,
}

impl CargoConfig {
    /// Reads `manifests` (repo-relative paths of `Cargo.toml` files, sorted) through `read`.
    pub fn new(manifests: &[&str], read: &dyn Fn(&str) -> Option<String>) -> CargoConfig {
        let mut config = CargoConfig::default();
        let mut workspaces: Vec<Workspace> = Vec::new();
        for &file in manifests {
            if path::file_name(file) != MANIFEST {
                continue;
            }
            let Some(text) = read(file) else {
                continue;
            };
            let table: Table = match text.parse() {
                Ok(t) => t,
                Err(e) => {
                    config.diagnose(file, "malformed toml", first_line(&e.to_string()));
                    continue;
                }
            };
            let dir = path::parent(file);
            if let Some(ws) = table.get("workspace").and_then(Value::as_table) {
                workspaces.push(config.workspace(file, ws));
            }
            if let Some(package) = config.package(file, dir, &table) {
                config.packages.push(package);
            }
        }
        config.packages.sort_by(|a, b| a.dir.cmp(&b.dir));
        for ws in &workspaces {
            let root = path::parent(&ws.file);
            let mut matched = vec![false; ws.members.len()];
            for p in config.packages.iter_mut() {
                let Some(rel) = relative(&p.dir, root) else {
                    continue;
                };
                if ws
                    .exclude
                    .iter()
                    .any(|e| rel == e || rel.starts_with(&format!("{e}/")))
                {
                    continue;
                }
                let hits: Vec<usize> = (0..ws.members.len())
                    .filter(|&i| ws.members[i].is_match(rel))
                    .collect();
                for &i in &hits {
                    matched[i] = true;
                }
                p.member |= rel.is_empty() || !hits.is_empty();
            }
            for (pattern, hit) in ws.patterns.iter().zip(matched) {
                if !hit {
                    let message = format!("workspace member `{pattern}` matches no package");
                    config.diagnose(&ws.file, "missing member", message);
                }
            }
        }
        config
    }

    /// The packages, sorted by directory.
    pub fn packages(&self) -> &[Package] {
        &self.packages
    }

    /// The package whose directory holds `file` most closely.
    pub fn package_of(&self, file: &str) -> Option<&Package> {
        self.packages
            .iter()
            .filter(|p| relative(file, &p.dir).is_some())
            .max_by_key(|p| p.dir.len())
    }

    /// The package whose library the crate name `name` means to code in `from` (a
    /// dependency renamed by `from`, else a package of that crate name, workspace members
    /// first).
    pub fn crate_named(&self, from: Option<&Package>, name: &str) -> Option<&Package> {
        let name = from
            .and_then(|p| p.renames.iter().find(|(local, _)| local == name))
            .map_or(name, |(_, target)| target.as_str());
        let mut named = self.packages.iter().filter(|p| p.crate_name == name);
        let first = named.next()?;
        match first.member {
            true => Some(first),
            false => Some(named.find(|p| p.member).unwrap_or(first)),
        }
    }

    fn diagnose(&mut self, file: &str, reason: &str, message: String) {
        self.diagnostics.push(ConfigDiagnostic {
            file: file.to_owned(),
            reason: reason.to_owned(),
            message,
        });
    }

    fn workspace(&mut self, file: &str, ws: &Table) -> Workspace {
        let strings = |key: &str| -> Vec<String> {
            ws.get(key)
                .and_then(Value::as_array)
                .map(|a| {
                    a.iter()
                        .filter_map(Value::as_str)
                        .map(|s| s.trim_end_matches('/').to_owned())
                        .collect()
                })
                .unwrap_or_default()
        };
        let mut members = Vec::new();
        let mut patterns = Vec::new();
        for pattern in strings("members") {
            let normalized = path::join("", &pattern).unwrap_or_default();
            match globset::GlobBuilder::new(&normalized)
                .literal_separator(true)
                .build()
            {
                Ok(glob) => {
                    members.push(glob.compile_matcher());
                    patterns.push(pattern);
                }
                Err(e) => {
                    let message = format!("workspace member `{pattern}`: {e}");
                    self.diagnose(file, "bad member pattern", message);
                }
            }
        }
        let exclude = strings("exclude")
            .iter()
            .filter_map(|e| path::join("", e))
            .collect();
        Workspace {
            file: file.to_owned(),
            members,
            exclude,
            patterns,
        }
    }

    fn package(&mut self, file: &str, dir: &str, table: &Table) -> Option<Package> {
        let package = table.get("package").and_then(Value::as_table)?;
        let Some(name) = package.get("name").and_then(Value::as_str) else {
            self.diagnose(file, "unnamed package", "[package] has no name".to_owned());
            return None;
        };
        let lib = table.get("lib").and_then(Value::as_table);
        let crate_name = lib
            .and_then(|l| l.get("name"))
            .and_then(Value::as_str)
            .unwrap_or(name)
            .replace('-', "_");
        let within = |p: &str| path::join(dir, p);
        let lib = lib
            .and_then(|l| l.get("path"))
            .and_then(Value::as_str)
            .and_then(within)
            .or_else(|| within("src/lib.rs"))
            .unwrap_or_default();
        let mut targets = Vec::new();
        for kind in ["bin", "test", "example", "bench"] {
            let Some(list) = table.get(kind).and_then(Value::as_array) else {
                continue;
            };
            targets.extend(
                list.iter()
                    .filter_map(|t| t.get("path")?.as_str())
                    .filter_map(within),
            );
        }
        targets.sort();
        targets.dedup();
        Some(Package {
            dir: dir.to_owned(),
            crate_name,
            lib,
            targets,
            renames: renames(table),
            member: false,
        })
    }
}

/// `key = { package = "name" }` entries of every dependency table (`[dependencies]`,
/// `[dev-dependencies]`, `[build-dependencies]`, and the same under `[target.*]`).
fn renames(table: &Table) -> Vec<(String, String)> {
    let kinds = ["dependencies", "dev-dependencies", "build-dependencies"];
    let per_target = table
        .get("target")
        .and_then(Value::as_table)
        .into_iter()
        .flat_map(|targets| targets.values().filter_map(Value::as_table));
    let mut out: Vec<(String, String)> = std::iter::once(table)
        .chain(per_target)
        .flat_map(|t| kinds.iter().filter_map(|k| t.get(*k)?.as_table()))
        .flat_map(|deps| deps.iter())
        .filter_map(|(key, spec)| {
            let package = spec.get("package")?.as_str()?;
            Some((key.replace('-', "_"), package.replace('-', "_")))
        })
        .collect();
    out.sort();
    out.dedup();
    out
}

/// `path` relative to the directory `dir` ("" when equal), if it lies inside it.
pub(crate) fn relative<'p>(path: &'p str, dir: &str) -> Option<&'p str> {
    if dir.is_empty() {
        return Some(path);
    }
    match path.strip_prefix(dir)? {
        "" => Some(""),
        rest => rest.strip_prefix('/'),
    }
}

fn first_line(message: &str) -> String {
    message.lines().next().unwrap_or("").to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn config(files: &[(&str, &str)]) -> CargoConfig {
        let texts: HashMap<&str, &str> = files.iter().copied().collect();
        let mut paths: Vec<&str> = files.iter().map(|(p, _)| *p).collect();
        paths.sort();
        CargoConfig::new(&paths, &|p| texts.get(p).map(|t| t.to_string()))
    }

    #[test]
    fn packages_take_their_crate_names_and_library_roots() {
        let c = config(&[
            ("Cargo.toml", "[package]\nname = \"top-level\"\n"),
            (
                "crates/core/Cargo.toml",
                "[package]\nname = \"my-core\"\n[lib]\npath = \"lib.rs\"\n",
            ),
            (
                "crates/cli/Cargo.toml",
                "[package]\nname = \"cli\"\n[lib]\nname = \"cli_lib\"\n[[bin]]\nname = \"x\"\npath = \"main.rs\"\n",
            ),
        ]);
        let names: Vec<(&str, &str)> = c
            .packages()
            .iter()
            .map(|p| (p.crate_name.as_str(), p.lib.as_str()))
            .collect();
        assert_eq!(
            names,
            [
                ("top_level", "src/lib.rs"),
                ("cli_lib", "crates/cli/src/lib.rs"),
                ("my_core", "crates/core/lib.rs"),
            ]
        );
        assert_eq!(c.packages()[1].targets, ["crates/cli/main.rs"]);
        assert_eq!(
            c.package_of("crates/core/x/y.rs").unwrap().crate_name,
            "my_core"
        );
        assert_eq!(c.package_of("src/a.rs").unwrap().crate_name, "top_level");
        assert!(c.diagnostics().is_empty());
    }

    #[test]
    fn workspace_members_take_globs_and_win_over_namesakes() {
        let c = config(&[
            (
                "Cargo.toml",
                "[workspace]\nmembers = [\"crates/*\", \"tools/gone\"]\nexclude = [\"crates/skip\"]\n",
            ),
            ("crates/a/Cargo.toml", "[package]\nname = \"a\"\n"),
            ("crates/skip/Cargo.toml", "[package]\nname = \"skip\"\n"),
            ("fixtures/a/Cargo.toml", "[package]\nname = \"a\"\n"),
        ]);
        let members: Vec<(&str, bool)> = c
            .packages()
            .iter()
            .map(|p| (p.dir.as_str(), p.member))
            .collect();
        assert_eq!(
            members,
            [
                ("crates/a", true),
                ("crates/skip", false),
                ("fixtures/a", false)
            ]
        );
        assert_eq!(c.crate_named(None, "a").unwrap().dir, "crates/a");
        let reasons: Vec<&str> = c.diagnostics().iter().map(|d| d.reason.as_str()).collect();
        assert_eq!(reasons, ["missing member"]);
    }

    #[test]
    fn renamed_dependencies_resolve_to_their_package() {
        let c = config(&[
            (
                "app/Cargo.toml",
                "[package]\nname = \"app\"\n[dependencies]\nshort = { package = \"long-name\", path = \"../long\" }\n",
            ),
            ("long/Cargo.toml", "[package]\nname = \"long-name\"\n"),
        ]);
        let app = c.package_of("app/src/main.rs");
        assert_eq!(c.crate_named(app, "short").unwrap().dir, "long");
        assert!(c.crate_named(None, "short").is_none());
    }

    #[test]
    fn malformed_manifests_are_diagnosed_and_skipped() {
        let c = config(&[
            ("Cargo.toml", "[package\nname = 1"),
            ("b/Cargo.toml", "[package]\nversion = \"1\"\n"),
            ("c/Cargo.toml", "[package]\nname = \"c\"\n"),
        ]);
        let reasons: Vec<&str> = c.diagnostics().iter().map(|d| d.reason.as_str()).collect();
        assert_eq!(reasons, ["malformed toml", "unnamed package"]);
        assert_eq!(c.packages().len(), 1);
    }
}
