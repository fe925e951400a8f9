//! What Java's build files say about the layout: the modules of a multi-module build
//! (Maven `<modules>`, Gradle `include` in `settings.gradle(.kts)`) and source roots that
//! differ from the conventional `src/<set>/java` (Maven `<sourceDirectory>`,
//! `<testSourceDirectory>` and build-helper `<sources>`; Gradle `srcDir`/`srcDirs`).
//!
//! Maven's POM is read with an XML parser; Gradle's scripts are programs (Groovy or
//! Kotlin), so only their literal forms are read: string arguments of `include(…)`,
//! `project(":x").projectDir = file("…")` and `srcDir(s)`. Paths holding a property
//! (`${…}`, `$buildDir`) other than the module's own base directory are skipped.

use sightline_lang::{ConfigDiagnostic, path};

/// What one build file declares, with paths relative to the repository root.
#[derive(Debug, Default, PartialEq, Eq)]
pub(crate) struct Declared {
    /// Module directories (a Maven module, a Gradle project).
    pub modules: Vec<String>,
    /// Source roots, with whether they hold tests.
    pub roots: Vec<(String, bool)>,
    /// Problems met reading the file.
    pub diagnostics: Vec<ConfigDiagnostic>,
}

/// Whether a file name is one of the build files [`read`] understands.
pub(crate) fn is_build_file(name: &str) -> bool {
    name == "pom.xml" || is_gradle_script(name)
}

fn is_gradle_script(name: &str) -> bool {
    let stem = name
        .strip_suffix(".gradle.kts")
        .or_else(|| name.strip_suffix(".gradle"));
    matches!(stem, Some("build" | "settings"))
}

/// What the build file at `file` (repo-relative) with text `text` declares.
pub(crate) fn read(file: &str, text: &str) -> Declared {
    let dir = path::parent(file);
    let name = path::file_name(file);
    let mut out = Declared::default();
    if name == "pom.xml" {
        read_pom(file, dir, text, &mut out);
    } else if name.starts_with("settings") {
        read_gradle_settings(dir, text, &mut out);
    } else {
        read_gradle_build(dir, text, &mut out);
    }
    out
}

fn diagnostic(file: &str, reason: &str, message: String) -> ConfigDiagnostic {
    ConfigDiagnostic {
        file: file.to_owned(),
        reason: reason.to_owned(),
        message,
    }
}

/// A path written in a build file, relative to `dir`; `None` when it holds a property
/// other than the base directory, or leaves the repository.
fn declared_path(dir: &str, raw: &str) -> Option<String> {
    let raw = raw.trim();
    let raw = [
        "${project.basedir}",
        "${basedir}",
        "$projectDir",
        "${projectDir}",
    ]
    .iter()
    .find_map(|base| raw.strip_prefix(base))
    .map_or(raw, |rest| rest.trim_start_matches('/'));
    if raw.is_empty() || raw.contains('$') || raw.starts_with('/') || raw.contains('\\') {
        return None;
    }
    path::join(dir, raw)
}

/// The project's name: a `pom.xml`'s own `artifactId` (not its parent's), a Gradle
/// settings script's `rootProject.name`.
pub(crate) fn project_name(file: &str, text: &str) -> Option<String> {
    if file == "pom.xml" {
        let options = roxmltree::ParsingOptions {
            allow_dtd: true,
            ..roxmltree::ParsingOptions::default()
        };
        let doc = roxmltree::Document::parse_with_options(text, options).ok()?;
        let artifact = doc
            .root_element()
            .children()
            .find(|n| n.has_tag_name("artifactId"))?;
        return artifact.text().map(str::to_owned);
    }
    if !file.starts_with("settings.gradle") {
        return None;
    }
    let code = strip_comments(text);
    code.lines()
        .filter_map(|line| line.trim_start().strip_prefix("rootProject.name"))
        .find_map(|rest| quoted(rest).first().map(|name| (*name).to_owned()))
}

// ---- Maven ----

fn read_pom(file: &str, dir: &str, text: &str, out: &mut Declared) {
    let options = roxmltree::ParsingOptions {
        allow_dtd: true,
        ..roxmltree::ParsingOptions::default()
    };
    let doc = match roxmltree::Document::parse_with_options(text, options) {
        Ok(doc) => doc,
        Err(e) => {
            out.diagnostics
                .push(diagnostic(file, "malformed xml", format!("not read: {e}")));
            return;
        }
    };
    for node in doc.descendants().filter(|n| n.is_element()) {
        let parent = node.parent_element().map(|p| p.tag_name().name());
        let value = || node.text().and_then(|t| declared_path(dir, t));
        match (node.tag_name().name(), parent) {
            ("module", Some("modules")) => out.modules.extend(value()),
            ("sourceDirectory", _) => out.roots.extend(value().map(|r| (r, false))),
            ("testSourceDirectory", _) => out.roots.extend(value().map(|r| (r, true))),
            // build-helper-maven-plugin's `add-source` and `add-test-source` goals.
            ("source", Some("sources")) => {
                let test = node
                    .ancestors()
                    .filter(|a| a.has_tag_name("execution"))
                    .flat_map(|e| e.descendants())
                    .any(|g| g.has_tag_name("goal") && g.text() == Some("add-test-source"));
                out.roots.extend(value().map(|r| (r, test)));
            }
            _ => {}
        }
    }
}

// ---- Gradle ----

/// The string literals of a script's statements after the word `keyword`, statement by
/// statement: the arguments of `include("a", "b")`, `include 'a', 'b'` and their
/// multi-line forms.
fn string_arguments<'a>(text: &'a str, keyword: &str) -> Vec<Vec<&'a str>> {
    let code = strip_comments(text);
    let mut out = Vec::new();
    let mut search = 0;
    while let Some(found) = code[search..].find(keyword) {
        let start = search + found;
        let end = start + keyword.len();
        search = end;
        let before = code[..start].chars().next_back();
        let after = code[end..].chars().next();
        let word_start = before.is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
        let word_end = after.is_some_and(|c| c == '(' || c == ' ' || c == '\t' || c == '=');
        if !(word_start && word_end) {
            continue;
        }
        let (args, consumed) = literals_from(&code[end..]);
        search = end + consumed;
        out.push(
            args.into_iter()
                .map(|(s, e)| &text[end + s..end + e])
                .collect(),
        );
    }
    out
}

/// The string literals at the start of `code` (after optional `(`, `=`, `[` or
/// `listOf(`), separated by commas, spaces and line breaks; as byte ranges of their
/// contents, with how many bytes were read.
fn literals_from(code: &str) -> (Vec<(usize, usize)>, usize) {
    let bytes = code.as_bytes();
    let mut i = 0;
    let mut out = Vec::new();
    loop {
        while i < bytes.len() && matches!(bytes[i], b' ' | b'\t' | b'(' | b'=' | b'[' | b',') {
            i += 1;
        }
        if code[i..].starts_with("listOf(") || code[i..].starts_with("files(") {
            i += code[i..].find('(').map_or(0, |p| p + 1);
            continue;
        }
        // A line break ends the statement unless the list goes on (after `(`, `,` or `[`).
        if i < bytes.len() && matches!(bytes[i], b'\n' | b'\r') {
            let continues = code[..i].trim_end().ends_with(['(', ',', '[', '=']);
            if !continues {
                return (out, i);
            }
            i += 1;
            continue;
        }
        match bytes.get(i) {
            Some(&q @ (b'"' | b'\'')) => {
                let Some(len) = code[i + 1..].find([q as char, '\n']) else {
                    return (out, code.len());
                };
                out.push((i + 1, i + 1 + len));
                i += len + 2;
            }
            _ => return (out, i),
        }
    }
}

/// `text` with `//` and `/* */` comments blanked out (same length, so offsets hold).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut chars = text.char_indices().peekable();
    let mut quote: Option<char> = None;
    while let Some((_, c)) = chars.next() {
        match quote {
            Some(q) => {
                if c == q || c == '\n' {
                    quote = None;
                }
                out.push(c);
            }
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                out.push(c);
            }
            None if c == '/' && chars.peek().is_some_and(|(_, n)| *n == '/') => {
                out.push(' ');
                for (_, n) in chars.by_ref() {
                    if n == '\n' {
                        out.push('\n');
                        break;
                    }
                    out.extend(std::iter::repeat_n(' ', n.len_utf8()));
                }
            }
            None if c == '/' && chars.peek().is_some_and(|(_, n)| *n == '*') => {
                out.push(' ');
                let mut last = ' ';
                for (_, n) in chars.by_ref() {
                    out.extend(std::iter::repeat_n(
                        if n == '\n' { '\n' } else { ' ' },
                        if n == '\n' { 1 } else { n.len_utf8() },
                    ));
                    if last == '*' && n == '/' {
                        break;
                    }
                    last = n;
                }
            }
            None => out.push(c),
        }
    }
    out
}

/// `include(":a", "b:c")` (each a project directory, `:` separated) and
/// `project(":a").projectDir = file("dir")` remapping one.
fn read_gradle_settings(dir: &str, text: &str, out: &mut Declared) {
    let mut remapped: Vec<(String, String)> = Vec::new();
    let code = strip_comments(text);
    for line in code.lines() {
        let Some(rest) = line.trim_start().strip_prefix("project(") else {
            continue;
        };
        if !line.contains("projectDir") {
            continue;
        }
        let literals = quoted(rest);
        if let (Some(project), Some(target)) = (literals.first(), literals.last())
            && literals.len() >= 2
            && let Some(target) = declared_path(dir, target)
        {
            remapped.push((project_dir(project), target));
        }
    }
    for args in string_arguments(text, "include") {
        for project in args {
            let rel = project_dir(project);
            if rel.is_empty() {
                continue;
            }
            let target = match remapped.iter().find(|(p, _)| *p == rel) {
                Some((_, target)) => Some(target.clone()),
                None => path::join(dir, &rel),
            };
            out.modules.extend(target);
        }
    }
}

/// A Gradle project path (`:a:b`) as a directory (`a/b`).
fn project_dir(project: &str) -> String {
    project
        .trim_start_matches(':')
        .split(':')
        .filter(|s| !s.is_empty())
        .collect::<Vec<_>>()
        .join("/")
}

/// The double- or single-quoted strings of a line.
fn quoted(line: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut rest = line;
    while let Some(start) = rest.find(['"', '\'']) {
        let q = rest.as_bytes()[start] as char;
        let Some(len) = rest[start + 1..].find(q) else {
            break;
        };
        out.push(&rest[start + 1..start + 1 + len]);
        rest = &rest[start + len + 2..];
    }
    out
}

/// `srcDir("x")`, `srcDirs = ['a', 'b']`, `setSrcDirs(listOf("a"))`: source roots of a
/// project's source sets (any set: resource directories are dropped later, as holding no
/// Java file).
fn read_gradle_build(dir: &str, text: &str, out: &mut Declared) {
    for keyword in ["srcDir", "srcDirs", "setSrcDirs"] {
        for args in string_arguments(text, keyword) {
            for raw in args {
                if let Some(root) = declared_path(dir, raw) {
                    let test = crate::layout::in_test_source_set(&format!("{root}/"))
                        || root.split('/').any(|s| s == "test");
                    out.roots.push((root, test));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_project_name_of_a_pom_and_a_settings_script() {
        let pom = "<project><parent><artifactId>p</artifactId></parent>\n<artifactId>core</artifactId></project>";
        assert_eq!(project_name("pom.xml", pom).as_deref(), Some("core"));
        let kts = "// rootProject.name = \"old\"\nrootProject.name = \"ledger\"\ninclude(\"a\")\n";
        assert_eq!(
            project_name("settings.gradle.kts", kts).as_deref(),
            Some("ledger")
        );
        assert_eq!(
            project_name("settings.gradle", "rootProject.name = 'parser'").as_deref(),
            Some("parser")
        );
        assert_eq!(project_name("build.gradle", "rootProject.name = 'x'"), None);
        assert_eq!(project_name("pom.xml", "<project"), None);
    }

    #[test]
    fn pom_modules_and_source_directories() {
        let pom = r#"<?xml version="1.0"?>
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modules>
    <module>core</module>
    <module>ext/extra</module>
  </modules>
  <build>
    <sourceDirectory>${project.basedir}/src</sourceDirectory>
    <testSourceDirectory>tests</testSourceDirectory>
    <plugins><plugin><executions><execution>
      <goals><goal>add-source</goal></goals>
      <configuration><sources><source>target/generated</source><source>${gen}</source></sources></configuration>
    </execution></executions></plugin></plugins>
  </build>
</project>"#;
        let d = read("parent/pom.xml", pom);
        assert_eq!(d.modules, ["parent/core", "parent/ext/extra"]);
        assert_eq!(
            d.roots,
            [
                ("parent/src".to_owned(), false),
                ("parent/tests".to_owned(), true),
                ("parent/target/generated".to_owned(), false)
            ]
        );
        assert!(d.diagnostics.is_empty());
    }

    #[test]
    fn a_malformed_pom_is_a_diagnostic() {
        let d = read("pom.xml", "<project><modules></project>");
        assert_eq!(d.diagnostics.len(), 1);
        assert_eq!(d.diagnostics[0].reason, "malformed xml");
        assert!(d.modules.is_empty());
    }

    #[test]
    fn gradle_settings_includes_in_both_dialects() {
        let kts = "rootProject.name = \"x\"\ninclude(\"core\")\n// include(\"commented\")\ninclude(\n    \"ext:a\",\n    \"ext:b\",\n)\nincludeBuild(\"tools\")\n";
        assert_eq!(
            read("settings.gradle.kts", kts).modules,
            ["core", "ext/a", "ext/b"]
        );
        let groovy =
            "include ':app', ':lib:util'\nproject(':app').projectDir = file('apps/main')\n";
        assert_eq!(
            read("settings.gradle", groovy).modules,
            ["apps/main", "lib/util"]
        );
    }

    #[test]
    fn gradle_source_dirs() {
        let build = "sourceSets {\n  main { java { srcDirs = ['src', \"$buildDir/gen\"] } }\n  test { java.srcDir(\"test\") }\n}\n";
        assert_eq!(
            read("m/build.gradle", build).roots,
            [("m/test".to_owned(), true), ("m/src".to_owned(), false)]
        );
    }

    #[test]
    fn hostile_scripts_do_not_panic() {
        for text in [
            "include",
            "include(",
            "include('",
            "srcDirs = [\"",
            "/* include 'a'",
            "é include 'é'",
        ] {
            let _ = read("settings.gradle", text);
            let _ = read("build.gradle.kts", text);
            let _ = read("pom.xml", text);
        }
    }
}
