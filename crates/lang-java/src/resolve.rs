//! Java import resolution: which indexed file or package an `import` names.
//!
//! - `a.b.C` is the type `C` of package `a.b`: the file `C.java` in a directory of that
//!   package ([`JavaConfig`]). A nested type (`a.b.C.Inner`) and a static member
//!   (`a.b.C.m`) live in their outer type's file, so every split of the name into a
//!   package and a type is tried, longest package first.
//! - `a.b.*` is the package `a.b`: every Java file of its directories (a
//!   [`Resolution::Package`]); when no package has that name, the type `a.b` (whose
//!   nested types `import a.b.*` brings in, and whose members `import static a.b.*`).
//! - A name none of whose prefixes is a package of the repository is external (the JDK, a
//!   dependency); one whose package is the repository's but whose type has no file (a
//!   generated class) is unresolved.

use sightline_lang::{FileSet, Resolution};

use crate::config::{Importer, JavaConfig};

/// Files of a package directory that declare no type: its documentation and annotations
/// (`package-info.java`), a module's descriptor (`module-info.java`).
const NO_TYPE_FILES: [&str; 2] = ["package-info.java", "module-info.java"];

impl JavaConfig {
    /// Resolves `specifier` (`a.b.C`, `a.b.*`, the static `a.b.C.m`) as written in a file
    /// of directory `dir`, asking `files` which candidate files exist. Only directories the
    /// configuration knows to hold Java files are asked about.
    pub fn resolve_in(&self, files: &dyn FileSet, dir: &str, specifier: &str) -> Resolution {
        let (name, on_demand) = match specifier.strip_suffix(".*") {
            Some(name) => (name, true),
            None => (specifier, false),
        };
        let segments: Vec<&str> = name.split('.').collect();
        if !segments.iter().all(|s| is_identifier(s)) {
            return Resolution::Unresolved;
        }
        let importer = self.importer(dir);
        if on_demand && let Some(package) = self.package(files, &importer, name) {
            return package;
        }
        for split in (1..segments.len()).rev() {
            let package = segments[..split].join(".");
            let type_file = format!("{}.java", segments[split]);
            for candidate_dir in self.package_dirs(&importer, &package) {
                let candidate = format!("{candidate_dir}/{type_file}");
                if files.contains(&candidate) {
                    return Resolution::File(candidate);
                }
            }
        }
        let own = (1..=segments.len()).any(|n| self.knows_package(&segments[..n].join(".")));
        match own {
            true => Resolution::Unresolved,
            false => Resolution::External,
        }
    }

    /// The package `name` as an importer sees it: every Java file of its directories.
    fn package(
        &self,
        files: &dyn FileSet,
        importer: &Importer<'_>,
        name: &str,
    ) -> Option<Resolution> {
        let dirs = self.package_dirs(importer, name);
        let first = dirs.first()?;
        let mut listed = Vec::new();
        for dir in &dirs {
            for file in files.list(dir) {
                if file.ends_with(".java") && !NO_TYPE_FILES.contains(&file.as_str()) {
                    listed.push(match dir.is_empty() {
                        true => file,
                        false => format!("{dir}/{file}"),
                    });
                }
            }
        }
        listed.sort();
        Some(Resolution::Package {
            dir: (*first).to_owned(),
            files: listed,
        })
    }
}

/// Whether `s` is a Java identifier (letters, digits, `_` and `$`, not starting with a
/// digit).
pub(crate) fn is_identifier(s: &str) -> bool {
    !s.is_empty()
        && !s.starts_with(|c: char| c.is_ascii_digit())
        && s.chars()
            .all(|c| c == '_' || c == '$' || c.is_alphanumeric())
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use sightline_lang::ConfigInput;

    use super::*;

    fn setup(files: &[&str]) -> (JavaConfig, BTreeSet<String>) {
        let config = JavaConfig::new(&ConfigInput {
            manifests: &[],
            sources: files,
            read: &|_| None,
        });
        (config, files.iter().map(|f| f.to_string()).collect())
    }

    const FILES: [&str; 6] = [
        "src/main/java/org/app/Main.java",
        "src/main/java/org/app/util/Strings.java",
        "src/main/java/org/app/util/Lists.java",
        "src/main/java/org/app/util/package-info.java",
        "src/test/java/org/app/util/StringsTest.java",
        "src/test/java/org/app/Fixtures.java",
    ];

    #[test]
    fn single_type_nested_and_static_imports_reach_the_type_s_file() {
        let (c, set) = setup(&FILES);
        let from = "src/main/java/org/app";
        let strings = Resolution::File("src/main/java/org/app/util/Strings.java".into());
        assert_eq!(c.resolve_in(&set, from, "org.app.util.Strings"), strings);
        assert_eq!(
            c.resolve_in(&set, from, "org.app.util.Strings.Inner"),
            strings
        );
        assert_eq!(
            c.resolve_in(&set, from, "org.app.util.Strings.isBlank"),
            strings
        );
        assert_eq!(c.resolve_in(&set, from, "org.app.util.Strings.*"), strings);
    }

    #[test]
    fn on_demand_imports_reach_the_package_s_type_files() {
        let (c, set) = setup(&FILES);
        let main = c.resolve_in(&set, "src/main/java/org/app", "org.app.util.*");
        assert_eq!(
            main,
            Resolution::Package {
                dir: "src/main/java/org/app/util".into(),
                files: vec![
                    "src/main/java/org/app/util/Lists.java".into(),
                    "src/main/java/org/app/util/Strings.java".into(),
                ],
            }
        );
        // A test sees the test set's part of the package too.
        let test = c.resolve_in(&set, "src/test/java/org/app", "org.app.util.*");
        assert_eq!(test.files().len(), 3);
    }

    #[test]
    fn main_code_does_not_see_test_code() {
        let (c, set) = setup(&FILES);
        assert_eq!(
            c.resolve_in(&set, "src/main/java/org/app", "org.app.Fixtures"),
            Resolution::Unresolved
        );
        assert_eq!(
            c.resolve_in(&set, "src/test/java/org/app", "org.app.Fixtures"),
            Resolution::File("src/test/java/org/app/Fixtures.java".into())
        );
    }

    #[test]
    fn external_and_unresolved_names() {
        let (c, set) = setup(&FILES);
        let from = "src/main/java/org/app";
        assert_eq!(
            c.resolve_in(&set, from, "java.util.List"),
            Resolution::External
        );
        assert_eq!(
            c.resolve_in(&set, from, "java.util.*"),
            Resolution::External
        );
        assert_eq!(
            c.resolve_in(&set, from, "org.app.util.Generated"),
            Resolution::Unresolved
        );
        assert_eq!(c.resolve_in(&set, from, "org..app"), Resolution::Unresolved);
        assert_eq!(c.resolve_in(&set, from, ""), Resolution::Unresolved);
        assert_eq!(c.resolve_in(&set, from, ".*"), Resolution::Unresolved);
    }

    #[test]
    fn packages_under_no_root_are_found_by_their_path() {
        let files = ["lib/com/x/A.java", "lib/com/x/y/B.java"];
        let (c, set) = setup(&files);
        assert_eq!(
            c.resolve_in(&set, "lib/com/x", "com.x.y.B"),
            Resolution::File("lib/com/x/y/B.java".into())
        );
        assert_eq!(
            c.resolve_in(&set, "lib/com/x/y", "com.x.*").files().len(),
            1
        );
    }
}
