//! Java's configuration: where each package's files are.
//!
//! A package is a directory below a source root, named by its path from the root. Roots
//! come, in this order of authority, from:
//! 1. the build files (`pom.xml` source directories, Gradle `srcDir(s)`), relative to the
//!    module they configure;
//! 2. the Maven/Gradle convention, found in the paths themselves: every `src/<set>/java`
//!    directory holding Java files, at any depth (so every module of a multi-module build,
//!    whether or not a build file lists it);
//! 3. for a directory under no root, every package its path could end with: a file
//!    declaring `package a.b;` in `x/y/a/b` puts the root at `x/y`, so `x/y/a/b` is
//!    registered as the package `b`, `a.b`, `y.a.b` and `x.y.a.b`, and an import picks the
//!    one it names (these inferred places count only when no root holds the package).
//!
//! Modules (the directories of Maven modules and Gradle projects the build files list,
//! and every directory holding a build file) tell which files belong together: an import
//! prefers its own module's files, and files outside test source sets do not see test
//! sets' files, as their compiler does not.

use std::collections::{BTreeSet, HashMap, HashSet};

use sightline_lang::{ConfigDiagnostic, ConfigInput, LanguageConfig, path};

use crate::layout;
use crate::manifest;

/// One directory holding a package's files.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct PackageDir {
    /// Found by its path's suffix alone (no root holds it): used only when no root does.
    pub inferred: bool,
    /// In a test source set: seen only by files of test sets.
    pub test: bool,
    /// The directory (repo-relative).
    pub dir: String,
    /// The module it belongs to ("" for the top).
    pub module: String,
}

/// Where Java packages are in the repository, from its build files and Java paths. Equal
/// whenever the set of directories holding Java files, the roots and the modules are, so
/// a Java file added beside others re-resolves nothing.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JavaConfig {
    /// Source roots (repo-relative), sorted, with whether each holds tests.
    roots: Vec<(String, bool)>,
    /// Module directories, "" excluded.
    modules: HashSet<String>,
    /// Each package name's directories, in order of preference.
    pub(crate) packages: HashMap<String, Vec<PackageDir>>,
    diagnostics: Vec<ConfigDiagnostic>,
}

impl LanguageConfig for JavaConfig {
    fn diagnostics(&self) -> &[ConfigDiagnostic] {
        &self.diagnostics
    }
}

/// The module and source set an import is written in.
pub(crate) struct Importer<'a> {
    pub module: &'a str,
    pub test: bool,
}

impl JavaConfig {
    /// The configuration of a repository whose Java build files are `manifests` (read
    /// through `read`) and whose Java sources are `sources` (repo-relative paths).
    pub fn new(input: &ConfigInput<'_>) -> JavaConfig {
        let mut config = JavaConfig::default();
        let java_dirs: BTreeSet<&str> = input
            .sources
            .iter()
            .filter(|s| s.ends_with(".java"))
            .map(|s| path::parent(s))
            .collect();
        let exists = |dir: &str| {
            let prefix = format!("{dir}/");
            dir.is_empty()
                || java_dirs
                    .iter()
                    .chain(input.manifests)
                    .any(|p| *p == dir || p.starts_with(&prefix))
        };
        let mut roots: BTreeSet<(String, bool)> = BTreeSet::new();
        for &file in input.manifests {
            if !manifest::is_build_file(path::file_name(file)) {
                continue;
            }
            let dir = path::parent(file);
            if !dir.is_empty() {
                config.modules.insert(dir.to_owned());
            }
            let Some(text) = (input.read)(file) else {
                continue;
            };
            let declared = manifest::read(file, &text);
            for module in declared.modules {
                if exists(&module) {
                    config.modules.insert(module);
                } else {
                    config.diagnostics.push(ConfigDiagnostic {
                        file: file.to_owned(),
                        reason: "missing module".to_owned(),
                        message: format!("module `{module}` holds no Java file or build file"),
                    });
                }
            }
            roots.extend(declared.roots);
            config.diagnostics.extend(declared.diagnostics);
        }
        for dir in &java_dirs {
            if let Some(set) = layout::source_set(dir) {
                roots.insert((set.root.to_owned(), set.is_test()));
            }
        }
        // A root that holds no Java file is no root (a resource directory, a typo).
        roots.retain(|(root, _)| {
            let prefix = format!("{root}/");
            java_dirs
                .iter()
                .any(|d| d == root || d.starts_with(&prefix))
        });
        config.roots = roots.into_iter().collect();
        config.roots.dedup_by(|a, b| a.0 == b.0);
        for dir in &java_dirs {
            config.register(dir);
        }
        for dirs in config.packages.values_mut() {
            dirs.sort();
        }
        config
    }

    /// Registers a directory holding Java files under its package, or (under no root)
    /// under every package its path could end with.
    fn register(&mut self, dir: &str) {
        let module = self.module_of(dir).to_owned();
        match self.root_of(dir) {
            Some((root, test)) => {
                let rel = match dir.len() > root.len() {
                    true => &dir[root.len() + 1..],
                    false => "",
                };
                if let Some(package) = package_name(rel) {
                    let entry = PackageDir {
                        inferred: false,
                        test,
                        dir: dir.to_owned(),
                        module,
                    };
                    self.packages.entry(package).or_default().push(entry);
                }
            }
            None => {
                let test = layout::in_test_source_set(&format!("{dir}/"));
                let segments: Vec<&str> = dir.split('/').filter(|s| !s.is_empty()).collect();
                for start in (0..segments.len()).rev() {
                    let Some(package) = package_name(&segments[start..].join("/")) else {
                        break;
                    };
                    self.packages.entry(package).or_default().push(PackageDir {
                        inferred: true,
                        test,
                        dir: dir.to_owned(),
                        module: module.clone(),
                    });
                }
            }
        }
    }

    /// The innermost root holding `dir`, with whether it holds tests.
    fn root_of(&self, dir: &str) -> Option<(&str, bool)> {
        self.roots
            .iter()
            .filter(|(root, _)| {
                dir == root
                    || (dir.starts_with(root.as_str())
                        && dir.as_bytes().get(root.len()) == Some(&b'/'))
            })
            .max_by_key(|(root, _)| root.len())
            .map(|(root, test)| (root.as_str(), *test))
    }

    /// The innermost module holding `dir` ("" for the top).
    fn module_of<'a>(&self, dir: &'a str) -> &'a str {
        path::ancestors(dir)
            .find(|d| self.modules.contains(*d))
            .unwrap_or("")
    }

    /// The module and test-ness of an import written in a file of `dir`.
    pub(crate) fn importer<'a>(&self, dir: &'a str) -> Importer<'a> {
        let test = match self.root_of(dir) {
            Some((_, test)) => test,
            None => layout::in_test_source_set(&format!("{dir}/")),
        };
        Importer {
            module: self.module_of(dir),
            test,
        }
    }

    /// The source roots, sorted, with whether each holds tests.
    pub fn roots(&self) -> &[(String, bool)] {
        &self.roots
    }

    /// The directories of `package` an importer sees, most likely first: roots' before
    /// inferred ones (which count only when no root holds the package), its own module's
    /// first, main sets before test sets (seen by tests only).
    pub(crate) fn package_dirs<'a>(
        &'a self,
        importer: &Importer<'_>,
        package: &str,
    ) -> Vec<&'a str> {
        let Some(dirs) = self.packages.get(package) else {
            return Vec::new();
        };
        let rooted = dirs.iter().any(|d| !d.inferred);
        let mut visible: Vec<&PackageDir> = dirs
            .iter()
            .filter(|d| !(rooted && d.inferred) && (importer.test || !d.test))
            .collect();
        visible.sort_by_key(|d| (d.module != importer.module, d.test));
        visible.into_iter().map(|d| d.dir.as_str()).collect()
    }

    /// Whether some directory is known as `package`.
    pub(crate) fn knows_package(&self, package: &str) -> bool {
        self.packages.contains_key(package)
    }
}

/// The package a directory path below a root names (`a/b` → `a.b`, "" → ""); `None`
/// when a segment is no Java identifier (`my-module`).
fn package_name(rel: &str) -> Option<String> {
    if rel.is_empty() {
        return Some(String::new());
    }
    rel.split('/')
        .all(crate::resolve::is_identifier)
        .then(|| rel.replace('/', "."))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(files: &[&str], manifests: &[(&str, &str)]) -> JavaConfig {
        let names: Vec<&str> = manifests.iter().map(|(n, _)| *n).collect();
        let read = |p: &str| {
            manifests
                .iter()
                .find(|(n, _)| *n == p)
                .map(|(_, t)| t.to_string())
        };
        JavaConfig::new(&ConfigInput {
            manifests: &names,
            sources: files,
            read: &read,
        })
    }

    #[test]
    fn conventional_declared_and_inferred_roots() {
        let c = config(
            &[
                "core/src/main/java/a/b/C.java",
                "core/src/test/java/a/b/CTest.java",
                "legacy/src/x/Y.java",
                "odd/org/p/Q.java",
            ],
            &[(
                "legacy/pom.xml",
                "<project><build><sourceDirectory>src</sourceDirectory></build></project>",
            )],
        );
        assert_eq!(
            c.roots(),
            [
                ("core/src/main/java".to_owned(), false),
                ("core/src/test/java".to_owned(), true),
                ("legacy/src".to_owned(), false),
            ]
        );
        let main = c.importer("core/src/main/java/a");
        assert_eq!(c.package_dirs(&main, "a.b"), ["core/src/main/java/a/b"]);
        let test = c.importer("core/src/test/java/a");
        assert_eq!(
            c.package_dirs(&test, "a.b"),
            ["core/src/main/java/a/b", "core/src/test/java/a/b"]
        );
        assert_eq!(c.package_dirs(&main, "x"), ["legacy/src/x"]);
        // Under no root: any suffix of the path.
        assert_eq!(c.package_dirs(&main, "org.p"), ["odd/org/p"]);
        assert_eq!(c.package_dirs(&main, "p"), ["odd/org/p"]);
        assert!(c.package_dirs(&main, "odd.org").is_empty());
    }

    #[test]
    fn an_importer_prefers_its_own_module() {
        let c = config(
            &["a/src/main/java/p/X.java", "b/src/main/java/p/X.java"],
            &[("settings.gradle", "include 'a', 'b', 'gone'")],
        );
        assert_eq!(
            c.package_dirs(&c.importer("b/src/main/java/q"), "p"),
            ["b/src/main/java/p", "a/src/main/java/p"]
        );
        assert_eq!(c.diagnostics().len(), 1);
        assert_eq!(c.diagnostics()[0].reason, "missing module");
    }
}
