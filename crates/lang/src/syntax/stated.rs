//! The types a file's code states for its variables, its classes' attributes and its
//! functions' results, kept by an extractor while it walks so a member call's receiver can
//! be recorded as its type (`Client`) instead of the variable's name (`client`): the graph
//! then looks the member up in that type instead of guessing it by name.
//!
//! Scopes are declaration indices (a function, a class), with [`MODULE`] for the top
//! level; how a language scopes its names, and what states a type, is its extractor's.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use super::NameHasher;
use crate::DeclIndex;

/// The scope key of module-level names.
pub const MODULE: DeclIndex = DeclIndex::MAX;

type Table<'t, V> = HashMap<(DeclIndex, &'t str), V, BuildHasherDefault<NameHasher>>;

/// What a file states so far (see the module doc).
#[derive(Default)]
pub struct StatedTypes<'t> {
    /// (scope, variable) → its type, or `None` where its last binding stated none (which
    /// hides a variable of that name in an outer scope).
    locals: Table<'t, Option<&'t str>>,
    /// (class, attribute) → its type; `None` once two bindings stated different ones.
    attributes: Table<'t, Option<&'t str>>,
    /// (class or [`MODULE`], function) → the type its result is annotated with.
    returns: Table<'t, &'t str>,
}

impl<'t> StatedTypes<'t> {
    /// `name`, bound in `scope`, is of `type_name` (`None`: of a type the code does not
    /// state); replaces what an earlier binding stated.
    pub fn bind_variable(&mut self, scope: DeclIndex, name: &'t str, type_name: Option<&'t str>) {
        self.locals.insert((scope, name), type_name);
    }

    /// What the last binding of `name` in `scope` stated: `None` when it has none there,
    /// `Some(None)` when its binding there stated no type.
    pub fn variable(&self, scope: DeclIndex, name: &str) -> Option<Option<&'t str>> {
        self.locals.get(&(scope, name)).copied()
    }

    /// One stated type of `class`'s attribute `name`; a second, different one unsets it.
    pub fn bind_attribute(&mut self, class: DeclIndex, name: &'t str, type_name: &'t str) {
        self.attributes
            .entry((class, name))
            .and_modify(|known| {
                if *known != Some(type_name) {
                    *known = None;
                }
            })
            .or_insert(Some(type_name));
    }

    /// The one type stated for `class`'s attribute `name`.
    pub fn attribute(&self, class: DeclIndex, name: &str) -> Option<&'t str> {
        self.attributes.get(&(class, name)).copied().flatten()
    }

    /// The function `name` of `scope` (a class, or [`MODULE`]) returns `type_name`.
    pub fn bind_return(&mut self, scope: DeclIndex, name: &'t str, type_name: &'t str) {
        self.returns.insert((scope, name), type_name);
    }

    /// The type the function `name` of `scope` is annotated to return.
    pub fn returns(&self, scope: DeclIndex, name: &str) -> Option<&'t str> {
        self.returns.get(&(scope, name)).copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_attribute_given_two_types_has_none_and_a_variable_keeps_its_last() {
        let mut t = StatedTypes::default();
        t.bind_attribute(0, "x", "A");
        t.bind_attribute(0, "x", "A");
        assert_eq!(t.attribute(0, "x"), Some("A"));
        t.bind_attribute(0, "x", "B");
        assert_eq!(t.attribute(0, "x"), None);
        t.bind_attribute(0, "x", "A");
        assert_eq!(t.attribute(0, "x"), None);
        t.bind_variable(MODULE, "v", Some("A"));
        t.bind_variable(MODULE, "v", None);
        assert_eq!(t.variable(MODULE, "v"), Some(None));
        assert_eq!(t.variable(1, "v"), None);
    }
}
