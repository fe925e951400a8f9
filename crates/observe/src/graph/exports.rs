//! What one file's edges may read of another file ([`FileExports`]), and which files each
//! import of a file reaches ([`ImportTargets`]).

use crate::db::FileItems;
use crate::facts::ImportedName;

/// The files each import of one file reaches, in import order: none (unresolved,
/// external, a package without files), one (a module file), or several (a package).
/// Flat, so a file's targets cost two allocations however many imports it has.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ImportTargets<F> {
    files: Vec<F>,
    /// Where each import's files end in `files`.
    ends: Vec<u32>,
}

impl<F> Default for ImportTargets<F> {
    fn default() -> Self {
        ImportTargets {
            files: Vec::new(),
            ends: Vec::new(),
        }
    }
}

impl<F: Copy> ImportTargets<F> {
    /// Targets from one list of files per import, in import order.
    pub fn from_lists<I: IntoIterator<Item = F>>(lists: impl IntoIterator<Item = I>) -> Self {
        let mut targets = ImportTargets::default();
        for list in lists {
            targets.files.extend(list);
            targets.ends.push(targets.files.len() as u32);
        }
        targets
    }

    /// Targets of imports that each reach at most one file.
    pub fn from_options(files: impl IntoIterator<Item = Option<F>>) -> Self {
        ImportTargets::from_lists(files)
    }

    /// How many imports there are.
    pub fn len(&self) -> usize {
        self.ends.len()
    }

    /// Whether there is no import.
    pub fn is_empty(&self) -> bool {
        self.ends.is_empty()
    }

    /// The files import `i` reaches (none past the last import).
    pub fn of(&self, i: usize) -> &[F] {
        let Some(&end) = self.ends.get(i) else {
            return &[];
        };
        let start = match i {
            0 => 0,
            _ => self.ends[i - 1] as usize,
        };
        &self.files[start..end as usize]
    }

    /// Each import's files, in import order.
    pub fn iter(&self) -> impl Iterator<Item = &[F]> {
        (0..self.len()).map(|i| self.of(i))
    }

    /// The first file of each import, `None` where it reaches none.
    pub fn first(&self, i: usize) -> Option<F> {
        self.of(i).first().copied()
    }
}

/// An import of a file that resolved to another file, as re-export lookups see it (one
/// per file a package import reaches).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TargetedImport<F> {
    /// The file it resolved to.
    pub target: F,
    /// Whether it is a re-export (`export … from`) rather than an import.
    pub reexport: bool,
    /// Its named bindings.
    pub names: Vec<ImportedName>,
    /// Its namespace binding (`* as ns`).
    pub namespace: Option<String>,
}

/// The binding rules of a file's language that shape what it shows others.
#[derive(Clone, Copy, Debug, Default)]
pub struct ExportRules<'a> {
    /// The name importers use for the default export, if the language has one.
    pub default_name: Option<&'a str>,
    /// Whether the file belongs to a package whose files see each other's top-level
    /// declarations (its language's `package_scope`): its every top-level name is then
    /// visible to its package peers.
    pub package_visible: bool,
}

/// What other files can see of one source file: the lookup tables resolution reads, and
/// nothing else (no usages, no lines, no declaration that is neither visible nor a
/// member), so an edit that adds a call or a private function to a file leaves its
/// `FileExports` equal and the files importing it untouched (a file in a package shows
/// its peers every top-level name, private ones too).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FileExports<F> {
    /// The first top-level exported declaration of each name, sorted by name; under the
    /// language's default-export name, the first top-level declaration marked
    /// `default_export`. Attached declarations (`attached`) are never listed by their own
    /// name, here or in `top_level`: they are reached through their type.
    exports: Vec<(String, u32)>,
    /// The first declaration of each name under each parent, sorted by (parent, name).
    members: Vec<(u32, String, u32)>,
    /// The file's imports that resolved to a file, in import order. A plain import keeps
    /// only the names the file does not also declare: those are the ones it can pass on
    /// (`import { a } from './x'; export { a }`), and keeping no declared names here means
    /// a new local declaration leaves these tables equal.
    pub(crate) imports: Vec<TargetedImport<F>>,
    /// Every top-level declaration's name (attached ones aside), in declaration order,
    /// when the file is visible to package peers ([`ExportRules::package_visible`]);
    /// empty otherwise.
    top_level: Vec<(String, u32)>,
    /// Declarations attached to a type declared apart from them
    /// (`Declaration::attached_to`), as (type name, declaration name, declaration),
    /// sorted by type name.
    attached: Vec<(String, String, u32)>,
}

impl<F: Copy> FileExports<F> {
    /// The tables of a file with these items whose imports reach `targets`, by `rules`.
    pub fn of(
        shape: &FileItems,
        targets: &ImportTargets<F>,
        rules: ExportRules<'_>,
    ) -> FileExports<F> {
        let mut exports: Vec<(String, u32)> = Vec::new();
        let mut members: Vec<(u32, String, u32)> = Vec::new();
        let mut top_level: Vec<(String, u32)> = Vec::new();
        let mut attached: Vec<(String, String, u32)> = Vec::new();
        let mut default_export = None;
        for (i, d) in shape.decls().iter().enumerate() {
            let i = i as u32;
            match d.parent {
                // An attached declaration (a method declared apart from its type) is reached
                // through its type, never by its own name.
                None if d.attached_to.is_some() => {}
                None => {
                    if d.default_export && default_export.is_none() {
                        default_export = Some(i);
                    }
                    if d.exported {
                        exports.push((d.name.clone(), i));
                    }
                    if rules.package_visible {
                        top_level.push((d.name.clone(), i));
                    }
                }
                Some(p) => members.push((p, d.name.clone(), i)),
            }
            if let Some(owner) = &d.attached_to {
                attached.push((owner.clone(), d.name.clone(), i));
            }
        }
        if let Some(name) = rules.default_name {
            // The default export answers to its name alone, whatever is declared by it.
            exports.retain(|(n, _)| n != name);
            exports.extend(default_export.map(|d| (name.to_owned(), d)));
        }
        // Stable sorts by key keep the first declaration of each key first.
        exports.sort_by(|a, b| a.0.cmp(&b.0));
        exports.dedup_by(|a, b| a.0 == b.0);
        members.sort_by(|a, b| (a.0, &a.1).cmp(&(b.0, &b.1)));
        members.dedup_by(|a, b| a.0 == b.0 && a.1 == b.1);
        attached.sort_by(|a, b| a.0.cmp(&b.0));
        let mut declared: Vec<&str> = shape.decls().iter().map(|d| d.name.as_str()).collect();
        declared.sort_unstable();
        declared.dedup();
        let passed_on = |n: &&ImportedName| declared.binary_search(&n.local.as_str()).is_err();
        let mut imports = Vec::new();
        for (imp, files) in shape.imports().iter().zip(targets.iter()) {
            for &target in files {
                imports.push(TargetedImport {
                    target,
                    reexport: imp.reexport,
                    names: match imp.reexport {
                        true => imp.names.clone(),
                        false => imp.names.iter().filter(passed_on).cloned().collect(),
                    },
                    namespace: imp.namespace.clone(),
                });
            }
        }
        FileExports {
            exports,
            members,
            imports,
            top_level,
            attached,
        }
    }

    /// The first top-level declaration exported as `name` (under the language's
    /// default-export name: the default export).
    pub fn export(&self, name: &str) -> Option<u32> {
        self.exports
            .binary_search_by(|(n, _)| n.as_str().cmp(name))
            .ok()
            .map(|i| self.exports[i].1)
    }

    /// The first declaration named `name` whose parent is declaration `parent`.
    pub fn member(&self, parent: u32, name: &str) -> Option<u32> {
        self.members
            .binary_search_by(|(p, n, _)| (*p, n.as_str()).cmp(&(parent, name)))
            .ok()
            .map(|i| self.members[i].2)
    }

    /// Every top-level declaration's name and index, in declaration order, when the file
    /// is visible to its package peers (empty otherwise).
    pub fn top_level(&self) -> &[(String, u32)] {
        &self.top_level
    }

    /// The name of top-level declaration `decl`, when the file shows its top level.
    pub fn top_level_name(&self, decl: u32) -> Option<&str> {
        self.top_level
            .iter()
            .find(|(_, d)| *d == decl)
            .map(|(n, _)| n.as_str())
    }

    /// The declarations attached to a type named `owner`, as (name, declaration).
    pub fn attached_to(&self, owner: &str) -> impl Iterator<Item = (&str, u32)> {
        let start = self
            .attached
            .partition_point(|(o, _, _)| o.as_str() < owner);
        self.attached[start..]
            .iter()
            .take_while(move |(o, _, _)| o == owner)
            .map(|(_, name, d)| (name.as_str(), *d))
    }

    /// Whether any declaration of the file is attached to a type declared apart from it.
    pub fn has_attached(&self) -> bool {
        !self.attached.is_empty()
    }
}
