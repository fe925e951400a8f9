//! A tiny line-based language for the pipeline's tests (`.toy` files): no grammar, one
//! statement per line, and packages instead of files, so the hooks a package-based
//! language needs (package imports, same-package visibility, declarations attached to a
//! type declared elsewhere) run end to end without a real one. It is also the shortest
//! complete example of a [`Language`].
//!
//! ```text
//! import a/b          a package import: every `.toy` file of directory a/b, bound as `b`
//! import a/b as x     the same, bound as `x`
//! import a/b.*        a glob import: every name a/b exports is in scope
//! func Name           a function (exported when capitalised); later calls are inside it
//! type Name           a struct
//! method Type.Name    a method attached to `Type`, declared in any file of the package
//! call name           a call of `name`, `ns.name` or `Type.name` in the current function
//! ```
//!
//! A package is a directory: the files of one directory see each other's top-level
//! declarations without importing them. An import names a directory from the root; one
//! holding no `.toy` file is external when its path has a `.` (a host name), else
//! unresolved.

use crate::{
    ByteRange, DeclKind, Declaration, Dialect, FileFacts, Import, Language, LineRange, Resolution,
    ResolveCx, Usage, UsageKind,
};

/// The test language; see the module doc.
pub struct Toy;

impl Language for Toy {
    fn name(&self) -> &'static str {
        "toy"
    }

    fn facts_version(&self) -> u32 {
        1
    }

    fn dialect(&self, file_name: &str) -> Option<Dialect> {
        file_name.ends_with(".toy").then_some(0)
    }

    fn extract(&self, _: Dialect, text: &str) -> FileFacts {
        extract(text)
    }

    fn resolve(&self, cx: &ResolveCx<'_>, _scope: &str, specifier: &str) -> Resolution {
        let dir = specifier.trim_end_matches(".*");
        let valid = !dir.is_empty()
            && dir
                .split('/')
                .all(|s| !s.is_empty() && s != "." && s != "..");
        if !valid {
            return Resolution::Unresolved;
        }
        let files: Vec<String> = cx
            .files()
            .list(dir)
            .into_iter()
            .filter(|name| name.ends_with(".toy"))
            .map(|name| format!("{dir}/{name}"))
            .collect();
        match files.is_empty() {
            false => Resolution::Package {
                dir: dir.to_owned(),
                files,
            },
            true if dir.contains('.') => Resolution::External,
            true => Resolution::Unresolved,
        }
    }

    fn is_self_receiver(&self, receiver: &str) -> bool {
        receiver == "self"
    }

    fn package_scope(&self, path: &str) -> Option<String> {
        Some(crate::path::parent(path).to_owned())
    }

    fn is_test_file(&self, path: &str) -> bool {
        path.ends_with("_test.toy")
    }
}

/// The facts of a `.toy` file: one statement per line; anything else is skipped.
fn extract(text: &str) -> FileFacts {
    let mut facts = FileFacts {
        line_count: crate::count_lines(text),
        ..FileFacts::default()
    };
    let mut current: Option<u32> = None;
    let mut offset = 0u32;
    for (i, raw) in text.split('\n').enumerate() {
        let line = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let start = offset;
        offset = offset.saturating_add(u32::try_from(raw.len() + 1).unwrap_or(u32::MAX));
        if line > facts.line_count {
            break;
        }
        let mut words = raw.split_whitespace();
        let (Some(keyword), Some(arg)) = (words.next(), words.next()) else {
            continue;
        };
        if !arg
            .chars()
            .all(|c| c.is_alphanumeric() || "_./*".contains(c))
        {
            continue;
        }
        let bytes = ByteRange {
            start,
            end: start.saturating_add(u32::try_from(raw.len()).unwrap_or(u32::MAX)),
        };
        match keyword {
            "import" => {
                let mut import = Import::new(arg.to_owned(), line);
                import.glob = arg.ends_with(".*");
                let dir = arg.trim_end_matches(".*");
                let bound = match (words.next(), words.next()) {
                    (Some("as"), Some(alias)) => alias,
                    _ => crate::path::file_name(dir),
                };
                if !import.glob && !bound.is_empty() {
                    import.namespace = Some(bound.to_owned());
                }
                facts.imports.push(import);
            }
            "func" | "type" | "method" => {
                let (owner, name) = match (keyword, arg.split_once('.')) {
                    ("method", Some((owner, name))) => (Some(owner), name),
                    ("method", None) => continue,
                    (_, _) => (None, arg),
                };
                if name.is_empty() || owner.is_some_and(str::is_empty) || name.contains('.') {
                    continue;
                }
                let kind = match keyword {
                    "func" => DeclKind::Function,
                    "type" => DeclKind::Struct,
                    _ => DeclKind::Method,
                };
                facts.decls.push(Declaration {
                    name: name.to_owned(),
                    qualified: name.to_owned(),
                    kind,
                    lines: LineRange::new(line, line),
                    bytes,
                    exported: name.starts_with(|c: char| c.is_uppercase()),
                    default_export: false,
                    signature_line: line,
                    signature: crate::syntax::text::truncate_chars(raw.trim(), 200).to_owned(),
                    parent: None,
                    attached_to: owner.map(str::to_owned),
                });
                let index = u32::try_from(facts.decls.len() - 1).unwrap_or(u32::MAX);
                current = (kind != DeclKind::Struct).then_some(index).or(current);
            }
            "call" => {
                let (receiver, name) = arg.rsplit_once('.').unwrap_or(("", arg));
                if name.is_empty() {
                    continue;
                }
                facts.usages.push(Usage {
                    kind: UsageKind::Call,
                    name: name.into(),
                    receiver: receiver.into(),
                    line,
                    enclosing: current,
                });
            }
            _ => {}
        }
    }
    facts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statements_become_facts() {
        let f = Toy.extract(
            0,
            "import a/b as x\nimport c/d.*\nfunc Run\ncall x.Go\ntype T\nmethod T.Do\ncall self.Run\n",
        );
        assert_eq!(f.imports.len(), 2);
        assert_eq!(f.imports[0].namespace.as_deref(), Some("x"));
        assert!(f.imports[1].glob && f.imports[1].namespace.is_none());
        let names: Vec<(&str, DeclKind)> =
            f.decls.iter().map(|d| (d.name.as_str(), d.kind)).collect();
        assert_eq!(
            names,
            [
                ("Run", DeclKind::Function),
                ("T", DeclKind::Struct),
                ("Do", DeclKind::Method)
            ]
        );
        assert_eq!(f.decls[2].attached_to.as_deref(), Some("T"));
        assert_eq!(f.usages[0].enclosing, Some(0));
        assert_eq!(f.usages[1].enclosing, Some(2));
        crate::testing::check_facts(&f);
    }
}
