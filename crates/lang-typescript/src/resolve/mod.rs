//! Node/TypeScript module resolution: which file of the index an import specifier names.
//!
//! A pure function of the file set and the text of its `tsconfig*.json` and
//! `package.json` files. The configuration is parsed once ([`ScriptConfig`], a function
//! of the manifests alone); the file set is only asked whether a candidate path exists
//! ([`FileSet`]), so the pipeline can answer per directory and a resolution depends on the
//! directories it probed. A resolution depends on the importing file's directory alone.
//!
//! Rules, in the order they apply:
//! - relative specifiers (`./a`, `../b`) against the importing file's directory;
//! - `#name` against the nearest `package.json` `imports`;
//! - bare specifiers through the nearest ancestor `tsconfig.json` (`paths`, then
//!   `baseUrl`), then workspace packages by `package.json` `name`; anything else is an
//!   external package.
//!
//! A candidate path becomes a file by extension probing (see `probe`) or, for a
//! directory, its `package.json` entries and `index.*` files. No result ever leaves the
//! root: paths that would climb above it resolve to nothing.

mod diagnostic;
mod jsonc;
mod package;
mod pattern;
mod probe;
mod specifier;
#[cfg(test)]
mod tests;
mod tsconfig;

pub use diagnostic::{DiagnosticKind, ResolveDiagnostic};

use package::PackageJson;
use probe::Probe;
use sightline_lang::path;
use sightline_lang::{ConfigDiagnostic, FileSet, LanguageConfig, Resolution};
use specifier::Specifier;
use std::collections::{HashMap, HashSet};
use tsconfig::TsConfig;

/// What resolution reads of the configuration files (`package.json`, `tsconfig*.json`):
/// a function of their paths and texts alone, so adding or removing a source file never
/// changes it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScriptConfig {
    /// Parsed `package.json` files by the directory that holds them.
    packages: HashMap<String, PackageJson>,
    /// Effective settings of every indexed `tsconfig.json`, by its directory.
    tsconfigs: HashMap<String, TsConfig>,
    /// Workspace package name → the directory holding its `package.json`.
    workspace: HashMap<String, String>,
    diagnostics: Vec<ResolveDiagnostic>,
    /// `diagnostics` as the pipeline counts them.
    reported: Vec<ConfigDiagnostic>,
}

impl LanguageConfig for ScriptConfig {
    fn diagnostics(&self) -> &[ConfigDiagnostic] {
        &self.reported
    }
}

impl ScriptConfig {
    /// `files`: repo-relative paths, of which only the configuration files are read (any
    /// others are ignored). `read`: the text of a repo-relative file, `None` if unreadable.
    pub fn new(files: &[&str], read: &dyn Fn(&str) -> Option<String>) -> ScriptConfig {
        // Sorted so that diagnostics and "first one wins" choices are deterministic.
        let mut sorted: Vec<&str> = files.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let mut diagnostics = Vec::new();

        let mut packages = HashMap::new();
        let mut workspace: HashMap<String, String> = HashMap::new();
        for &file in sorted
            .iter()
            .filter(|f| path::file_name(f) == "package.json")
        {
            let Some(text) = read(file) else {
                diagnostics.push(ResolveDiagnostic::new(file, DiagnosticKind::Unreadable));
                continue;
            };
            let pkg = PackageJson::parse(file, &text, &mut diagnostics);
            let dir = path::parent(file).to_string();
            // Vendored copies under node_modules are external packages, not the workspace.
            let vendored = file.starts_with("node_modules/") || file.contains("/node_modules/");
            if let Some(name) = pkg.name.as_ref().filter(|_| !vendored) {
                claim_name(&mut workspace, name, &dir, file, &mut diagnostics);
            }
            packages.insert(dir, pkg);
        }

        let mut loader = tsconfig::Loader::new(read);
        let mut tsconfigs = HashMap::new();
        for &file in sorted
            .iter()
            .filter(|f| path::file_name(f) == "tsconfig.json")
        {
            tsconfigs.insert(path::parent(file).to_string(), loader.load(file));
        }
        diagnostics.append(&mut loader.diagnostics);
        dedup_in_order(&mut diagnostics);
        let reported = diagnostics
            .iter()
            .map(ResolveDiagnostic::reported)
            .collect();
        ScriptConfig {
            packages,
            tsconfigs,
            workspace,
            diagnostics,
            reported,
        }
    }

    /// Problems met while reading configuration (malformed JSON, `extends` cycles, …).
    pub fn problems(&self) -> &[ResolveDiagnostic] {
        &self.diagnostics
    }
}

/// One resolution's view of the workspace: its configuration and its file set.
pub struct Resolver<'a> {
    config: &'a ScriptConfig,
    files: &'a dyn FileSet,
}

impl<'a> Resolver<'a> {
    /// A view over `config` and `files`.
    pub fn new(config: &'a ScriptConfig, files: &'a dyn FileSet) -> Resolver<'a> {
        Resolver { config, files }
    }

    fn probe(&self) -> Probe<'_> {
        Probe::new(self.files, &self.config.packages)
    }

    /// Node/TypeScript resolution of `specifier` as written in a file of directory `dir`.
    pub fn resolve(&self, dir: &str, specifier: &str) -> Resolution {
        let found = match specifier::classify(specifier) {
            Specifier::Relative(spec) => {
                path::join(dir, spec).and_then(|p| self.probe().file_or_dir(&p))
            }
            Specifier::PackageImport(spec) => self.package_import(dir, spec),
            Specifier::Bare(spec) => match self.bare(dir, spec) {
                Some(found) => Some(found),
                None if self.is_claimed(dir, spec) => return Resolution::Unresolved,
                None => return Resolution::External,
            },
            Specifier::Scheme => return Resolution::External,
            Specifier::Invalid => None,
        };
        found.map_or(Resolution::Unresolved, Resolution::File)
    }

    /// `#name` through the nearest `package.json` that declares `imports`.
    fn package_import(&self, dir: &str, spec: &str) -> Option<String> {
        let probe = self.probe();
        let (pkg_dir, pkg) = path::ancestors(dir).find_map(|d| {
            probe
                .package(d)
                .filter(|p| !p.imports.is_empty())
                .map(|p| (d, p))
        })?;
        let targets = pkg.imports.lookup(spec)?;
        targets
            .iter()
            .find_map(|t| probe.package_target(pkg_dir, t, 1))
    }

    /// A bare specifier: tsconfig `paths`, `baseUrl`, then workspace packages.
    fn bare(&self, dir: &str, spec: &str) -> Option<String> {
        let probe = self.probe();
        if let Some(config) = self.nearest_tsconfig(dir) {
            let from_paths = config.paths.lookup(spec).and_then(|targets| {
                targets.iter().find_map(|t| {
                    path::join(&config.paths_base, t).and_then(|p| probe.file_or_dir(&p))
                })
            });
            if from_paths.is_some() {
                return from_paths;
            }
            // TypeScript falls through to `baseUrl` and packages when `paths` misses.
            let from_base = config
                .base_url
                .as_deref()
                .and_then(|base| path::join(base, spec));
            if let Some(found) = from_base.and_then(|p| probe.file_or_dir(&p)) {
                return Some(found);
            }
        }
        self.workspace_package(spec)
    }

    /// `name` or `name/sub` of a workspace package.
    fn workspace_package(&self, spec: &str) -> Option<String> {
        let probe = self.probe();
        let (name, sub) = specifier::split_package(spec)?;
        let pkg_dir = self.config.workspace.get(name)?;
        if sub.is_empty() {
            return probe.package_entry(pkg_dir);
        }
        let pkg = probe.package(pkg_dir)?;
        let from_exports = pkg
            .subpaths
            .lookup(&format!("./{sub}"))
            .and_then(|targets| {
                targets
                    .iter()
                    .find_map(|t| probe.package_target(pkg_dir, t, 1))
            });
        // Lenient where Node is strict: a subpath `exports` does not list is still
        // looked up inside the package, since the question is "which file is meant".
        from_exports
            .or_else(|| path::join(pkg_dir, sub).and_then(|p| probe.file_or_dir(&p)))
            .or_else(|| {
                path::join(pkg_dir, &format!("src/{sub}")).and_then(|p| probe.file_or_dir(&p))
            })
    }

    /// Whether a bare specifier that found no file still names something of this
    /// repository (a workspace package, or an alias with a real prefix such as `@app/*`),
    /// so that it is a broken in-repo import rather than an external package.
    fn is_claimed(&self, dir: &str, spec: &str) -> bool {
        let by_package = specifier::split_package(spec)
            .is_some_and(|(name, _)| self.config.workspace.contains_key(name));
        by_package
            || self
                .nearest_tsconfig(dir)
                .is_some_and(|c| c.paths.matches_with_prefix(spec))
    }

    /// The config of the nearest ancestor directory holding a `tsconfig.json`.
    fn nearest_tsconfig(&self, dir: &str) -> Option<&TsConfig> {
        path::ancestors(dir).find_map(|d| self.config.tsconfigs.get(d))
    }
}

/// Records `name → dir`; on a clash the first claimant (in sorted path order) keeps it.
fn claim_name(
    workspace: &mut HashMap<String, String>,
    name: &str,
    dir: &str,
    file: &str,
    diagnostics: &mut Vec<ResolveDiagnostic>,
) {
    match workspace.get(name) {
        Some(kept) => {
            let kept = path::join(kept, "package.json").unwrap_or_default();
            let kind = DiagnosticKind::DuplicatePackageName {
                name: name.to_string(),
                kept,
            };
            diagnostics.push(ResolveDiagnostic::new(file, kind));
        }
        None => {
            workspace.insert(name.to_string(), dir.to_string());
        }
    }
}

fn dedup_in_order(diagnostics: &mut Vec<ResolveDiagnostic>) {
    let mut seen = HashSet::new();
    diagnostics.retain(|d| seen.insert(d.clone()));
}
