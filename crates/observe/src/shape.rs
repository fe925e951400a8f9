//! A file's shape and items ([`crate::db::file_shape`], [`crate::db::file_items`]): what
//! the graph reads of a file's facts, as views of the facts the index keeps rather than
//! copies, compared without lines so an edit that only moves lines leaves them equal.

use std::sync::Arc;

use crate::db::FileIndex;
use crate::facts::FileFacts;

/// A file's items ([`crate::db::file_items`]): its declarations and imports, what other files link
/// to and what its imports resolve from. A view of the file's facts, not a copy: it holds
/// them and compares only what the graph reads of them (names, kinds, nesting, export
/// flags, attached types; every field of an import but its line), so an edit that only
/// moves lines leaves it equal. Its readers must read nothing else of a declaration or an
/// import (no line, range, signature or qualified name): when an edit leaves it equal,
/// salsa keeps the value from before the edit, whose lines are stale.
#[derive(Clone, Debug, Default)]
pub struct FileItems {
    index: Arc<FileIndex>,
}

impl FileItems {
    /// The items of `index`'s facts.
    pub fn new(index: Arc<FileIndex>) -> FileItems {
        FileItems { index }
    }

    /// Declarations, in source order (their index is their identity in the file). Read
    /// only their line-free fields (see [`FileItems`]).
    pub fn decls(&self) -> &[crate::facts::Declaration] {
        &self.index.facts.decls
    }

    /// Imports, in source order. Read no line (see [`FileItems`]).
    pub fn imports(&self) -> &[crate::facts::Import] {
        &self.index.facts.imports
    }
}

/// What a [`FileItems`] compares of a declaration: every field but where it is and how
/// its signature or qualified name reads (spelled out, so a new field must be placed).
fn decl_key(
    d: &crate::facts::Declaration,
) -> (
    &str,
    crate::facts::DeclKind,
    Option<u32>,
    bool,
    bool,
    Option<&str>,
) {
    let crate::facts::Declaration {
        name,
        qualified: _,
        kind,
        lines: _,
        bytes: _,
        exported,
        default_export,
        signature_line: _,
        signature: _,
        parent,
        attached_to,
    } = d;
    (
        name,
        *kind,
        *parent,
        *exported,
        *default_export,
        attached_to.as_deref(),
    )
}

/// What a [`FileItems`] compares of an import: every field but its line.
type ImportKeyFields<'a> = (
    &'a str,
    &'a [crate::facts::ImportedName],
    Option<&'a str>,
    [bool; 5],
);

/// See [`ImportKeyFields`] (spelled out, so a new field must be placed).
fn import_fields(i: &crate::facts::Import) -> ImportKeyFields<'_> {
    let crate::facts::Import {
        specifier,
        line: _,
        names,
        namespace,
        type_only,
        reexport,
        dynamic,
        glob,
        optional,
    } = i;
    (
        specifier,
        names,
        namespace.as_deref(),
        [*type_only, *reexport, *dynamic, *glob, *optional],
    )
}

impl PartialEq for FileItems {
    fn eq(&self, other: &FileItems) -> bool {
        Arc::ptr_eq(&self.index, &other.index)
            || (self
                .decls()
                .iter()
                .map(decl_key)
                .eq(other.decls().iter().map(decl_key))
                && self
                    .imports()
                    .iter()
                    .map(import_fields)
                    .eq(other.imports().iter().map(import_fields)))
    }
}

impl Eq for FileItems {}

impl std::hash::Hash for FileItems {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for d in self.decls() {
            decl_key(d).hash(state);
        }
        for i in self.imports() {
            import_fields(i).hash(state);
        }
    }
}

/// The order and identity of usages in a [`FileShape`]: every field of the usage but its
/// line (spelled out, so a new field must be placed).
fn usage_key(u: &crate::facts::Usage) -> (Option<u32>, crate::facts::UsageKind, &str, &str) {
    let crate::facts::Usage {
        kind,
        name,
        receiver,
        line: _,
        enclosing,
    } = u;
    (*enclosing, *kind, name, receiver)
}

/// What a [`FileShape`] compares of a heritage clause: every field but its line.
fn heritage_key(h: &crate::facts::Heritage) -> (u32, crate::facts::HeritageKind, &str) {
    let crate::facts::Heritage {
        decl,
        kind,
        name,
        line: _,
    } = h;
    (*decl, *kind, name)
}

/// The positions of a file's distinct usages (by [`usage_key`]), in key order: what a
/// [`FileShape`] lists of its facts' usages.
pub(crate) fn distinct_usages(facts: &FileFacts) -> Arc<[u32]> {
    let mut order: Vec<u32> = (0..facts.usages.len() as u32).collect();
    let key = |i: &u32| usage_key(&facts.usages[*i as usize]);
    // The key is the whole usage but its line, and ties keep the first position, so the
    // same facts always give the same order.
    order.sort_by(|a, b| key(a).cmp(&key(b)).then(a.cmp(b)));
    order.dedup_by(|a, b| key(a) == key(b));
    Arc::from(order)
}

/// See [`crate::db::file_shape`]: the file's items (reached through `Deref`: `shape.decls()`,
/// `shape.imports()`) and what its bodies use, as a view of its facts like
/// [`FileItems`]: a usage's line and a heritage clause's line are not part of it, and its
/// readers must not read them.
#[derive(Clone, Debug, Default)]
pub struct FileShape {
    /// Declarations and imports, shared with [`crate::db::file_items`].
    pub items: Arc<FileItems>,
    /// The facts' distinct usages, by position ([`distinct_usages`]).
    usage_order: Arc<[u32]>,
}

impl FileShape {
    /// The line-free view of `facts` (a copy of them: the index builds its shapes over
    /// the facts it keeps, with [`FileShape::over`]).
    pub fn of(facts: &FileFacts) -> FileShape {
        let index = Arc::new(FileIndex {
            facts: facts.clone(),
            ..FileIndex::default()
        });
        let order = distinct_usages(&index.facts);
        FileShape::over(index, order)
    }

    /// The view of `index`'s facts whose distinct usages are `usage_order`
    /// ([`distinct_usages`] of them).
    pub(crate) fn over(index: Arc<FileIndex>, usage_order: Arc<[u32]>) -> FileShape {
        FileShape {
            items: Arc::new(FileItems::new(index)),
            usage_order,
        }
    }

    /// The distinct usages (a call, render, instantiation or reference), in the order of
    /// their fields. Read no line.
    pub fn usages(&self) -> impl ExactSizeIterator<Item = &crate::facts::Usage> + '_ {
        let usages = &self.items.index.facts.usages;
        self.usage_order.iter().map(move |&i| &usages[i as usize])
    }

    /// `extends`/`implements` clauses, in source order. Read no line.
    pub fn heritage(&self) -> &[crate::facts::Heritage] {
        &self.items.index.facts.heritage
    }

    /// The bytes this view adds to the facts it reads: the positions of the distinct
    /// usages.
    pub fn own_heap_bytes(&self) -> usize {
        2 * std::mem::size_of::<usize>()
            + std::mem::size_of::<FileItems>()
            + std::mem::size_of_val(&*self.usage_order)
            + 2 * std::mem::size_of::<usize>()
    }
}

impl PartialEq for FileShape {
    fn eq(&self, other: &FileShape) -> bool {
        self.items == other.items
            && self
                .usages()
                .map(usage_key)
                .eq(other.usages().map(usage_key))
            && self
                .heritage()
                .iter()
                .map(heritage_key)
                .eq(other.heritage().iter().map(heritage_key))
    }
}

impl Eq for FileShape {}

impl std::hash::Hash for FileShape {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.items.hash(state);
        for u in self.usages() {
            usage_key(u).hash(state);
        }
        for h in self.heritage() {
            heritage_key(h).hash(state);
        }
    }
}

impl std::ops::Deref for FileShape {
    type Target = FileItems;

    fn deref(&self) -> &FileItems {
        &self.items
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::facts::{Declaration, Heritage, Import, Usage, UsageKind};
    use proptest::prelude::*;

    fn facts(seed: &[(u8, u8, u32)]) -> FileFacts {
        let mut f = FileFacts::default();
        for (i, (name, receiver, line)) in seed.iter().enumerate() {
            f.usages.push(Usage {
                kind: UsageKind::Call,
                name: format!("n{}", name % 4).into(),
                receiver: format!("r{}", receiver % 2).into(),
                line: *line,
                enclosing: None,
            });
            if i % 3 == 0 {
                f.decls.push(Declaration {
                    name: format!("d{name}"),
                    qualified: format!("q{line}"),
                    kind: crate::facts::DeclKind::Function,
                    lines: crate::LineRange::new(*line, line + 1),
                    bytes: crate::facts::ByteRange { start: 0, end: 0 },
                    exported: receiver % 2 == 0,
                    default_export: false,
                    signature_line: *line,
                    signature: format!("sig {line}"),
                    parent: None,
                    attached_to: None,
                });
                f.imports.push(Import::new(format!("./m{name}"), *line));
                f.heritage.push(Heritage {
                    decl: 0,
                    kind: crate::facts::HeritageKind::Extends,
                    name: format!("B{receiver}"),
                    line: *line,
                });
            }
        }
        f
    }

    /// Every line in `f` moved by `by`: what an edit above the file's items does.
    fn moved(f: &FileFacts, by: u32) -> FileFacts {
        let mut f = f.clone();
        for d in &mut f.decls {
            d.lines = crate::LineRange::new(d.lines.start + by, d.lines.end + by);
            d.signature_line += by;
            d.signature = format!("sig {}", d.signature_line);
            d.qualified = format!("q{}", d.signature_line);
        }
        f.imports.iter_mut().for_each(|i| i.line += by);
        f.usages.iter_mut().for_each(|u| u.line += by);
        f.heritage.iter_mut().for_each(|h| h.line += by);
        f
    }

    proptest! {
        #[test]
        fn a_shape_lists_each_distinct_usage_once_and_ignores_lines(
            seed in prop::collection::vec((0u8..8, 0u8..4, 1u32..50), 0..24),
            by in 1u32..9,
        ) {
            let f = facts(&seed);
            let shape = FileShape::of(&f);
            let listed: Vec<_> = shape.usages().map(usage_key).collect();
            let mut distinct: Vec<_> = f.usages.iter().map(usage_key).collect();
            distinct.sort();
            distinct.dedup();
            prop_assert_eq!(&listed, &distinct);
            let other = FileShape::of(&moved(&f, by));
            prop_assert!(shape == other);
            prop_assert!(shape.items == other.items);
        }

        #[test]
        fn a_renamed_usage_or_declaration_changes_the_shape(
            seed in prop::collection::vec((0u8..8, 0u8..4, 1u32..50), 1..24),
            which in any::<prop::sample::Index>(),
        ) {
            let f = facts(&seed);
            let mut renamed = f.clone();
            let u = which.index(renamed.usages.len());
            renamed.usages[u].name = format!("{}x", renamed.usages[u].name).into();
            prop_assert!(FileShape::of(&f) != FileShape::of(&renamed));
            let mut redeclared = f.clone();
            redeclared.decls[0].name.push('x');
            prop_assert!(FileShape::of(&f).items != FileShape::of(&redeclared).items);
        }
    }
}
