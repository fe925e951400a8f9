//! The declared types of the variables in scope, so a member used on a variable
//! (`store.save()`, `store.items`, `store::save`) is recorded with the variable's type as
//! its receiver (`Store`): Java declares every field, parameter and local variable with
//! its type, and the graph then finds the member in that type instead of guessing it by
//! name across the repository.
//!
//! Scopes follow the syntax: a type's fields are visible in its whole body (Java lets a
//! method use a field declared below it), a method's parameters in the method, a local
//! variable from its declaration to the end of its block. Shadowing resolves to the
//! innermost declaration.

use tree_sitter::Node;

use super::grammar::Kind;
use super::{Extractor, last_named_child};
use sightline_lang::syntax::text::node_text;
use sightline_lang::syntax::traverse::field_child;

/// One variable in scope.
#[derive(Clone, Copy)]
pub(super) struct Var<'t> {
    pub name: &'t str,
    /// The simple name of its declared class type (`Store` for `Store<T>`, `Inner` for
    /// `Outer.Inner`).
    pub type_name: &'t str,
    /// A field of an enclosing type (what `this.name` reaches).
    pub field: bool,
}

/// Whether a node opens a scope whose variables end with it.
pub(super) fn opens_scope(kind: Kind, node: Node<'_>) -> bool {
    match kind {
        Kind::Class
        | Kind::Interface
        | Kind::Enum
        | Kind::Record
        | Kind::AnnotationType
        | Kind::Method
        | Kind::Constructor => true,
        _ => matches!(
            node.kind(),
            "block"
                | "constructor_body"
                | "for_statement"
                | "enhanced_for_statement"
                | "catch_clause"
                | "lambda_expression"
                | "try_with_resources_statement"
                | "switch_block_statement_group"
                | "switch_rule"
        ),
    }
}

impl<'t> Extractor<'t> {
    /// The variables a node entered declares, pushed in its scope: a type's fields and
    /// record components, parameters, local variables, `for` and `catch` variables,
    /// resources and pattern variables.
    pub(super) fn declare_vars(&mut self, kind: Kind, node: Node<'t>) {
        let f = self.g.fields;
        match kind {
            Kind::Class | Kind::Interface | Kind::Enum | Kind::Record | Kind::AnnotationType => {
                self.declare_fields(node);
                return;
            }
            Kind::Method | Kind::Constructor => return,
            _ => {}
        }
        match node.kind() {
            "formal_parameter"
            | "catch_formal_parameter"
            | "resource"
            | "enhanced_for_statement" => {
                let ty = match node.kind() {
                    "catch_formal_parameter" => {
                        let mut cursor = node.walk();
                        let found = node
                            .named_children(&mut cursor)
                            .find(|c| c.kind() == "catch_type");
                        found.and_then(|c| c.named_child(0))
                    }
                    _ => field_child(node, f.type_),
                };
                if let (Some(ty), Some(name)) = (ty, field_child(node, f.name)) {
                    self.push_var(name, ty, None, false);
                }
            }
            "spread_parameter" => {
                // `T... names`: the variable is an array; its members are not `T`'s.
            }
            "local_variable_declaration" => self.declarators(node, false),
            "instanceof_expression" => {
                let right = node.child_by_field_name("right");
                if let (Some(ty), Some(name)) = (right, field_child(node, f.name)) {
                    self.push_var(name, ty, None, false);
                }
            }
            _ => {}
        }
    }

    /// The fields (and a record's components) of a type declaration.
    fn declare_fields(&mut self, decl: Node<'t>) {
        let f = self.g.fields;
        if let Some(params) = field_child(decl, f.parameters) {
            let mut cursor = params.walk();
            let components: Vec<Node<'t>> = params.named_children(&mut cursor).collect();
            for c in components {
                if let (Some(ty), Some(name)) = (field_child(c, f.type_), field_child(c, f.name)) {
                    self.push_var(name, ty, None, true);
                }
            }
        }
        let Some(body) = decl.child_by_field_name("body") else {
            return;
        };
        let mut members: Vec<Node<'t>> = Vec::new();
        let mut cursor = body.walk();
        for child in body.named_children(&mut cursor) {
            if child.kind() == "enum_body_declarations" {
                let mut inner = child.walk();
                members.extend(child.named_children(&mut inner));
            } else {
                members.push(child);
            }
        }
        for member in members {
            if self.g.kind(member) == Kind::Field {
                self.declarators(member, true);
            }
        }
    }

    /// The declarators of a field or local variable declaration, with its type (`var`
    /// takes the type its initializer constructs).
    fn declarators(&mut self, decl: Node<'t>, field: bool) {
        let f = self.g.fields;
        let Some(ty) = field_child(decl, f.type_) else {
            return;
        };
        let Some(id) = std::num::NonZeroU16::new(f.declarator) else {
            return;
        };
        let mut cursor = decl.walk();
        let declarators: Vec<Node<'t>> = decl.children_by_field_id(id, &mut cursor).collect();
        for d in declarators {
            if let Some(name) = field_child(d, f.name) {
                let value = d.child_by_field_name("value");
                self.push_var(name, ty, value, field);
            }
        }
    }

    /// Pushes `name` with the simple name of type `ty` (for `var`, of the type `value`
    /// constructs), when it is a class type.
    fn push_var(&mut self, name: Node<'t>, ty: Node<'t>, value: Option<Node<'t>>, field: bool) {
        let mut ty = ty;
        if node_text(self.text, ty) == "var" {
            match value.filter(|v| self.g.kind(*v) == Kind::Creation) {
                Some(creation) => match field_child(creation, self.g.fields.type_) {
                    Some(t) => ty = t,
                    None => return,
                },
                None => return,
            }
        }
        let (Some(type_name), name) = (self.type_name(ty), node_text(self.text, name)) else {
            return;
        };
        if super::is_name(name) {
            self.vars.push(Var {
                name,
                type_name,
                field,
            });
        }
    }

    /// The declared type of the variable a receiver expression names: a simple name in
    /// scope, or `this.name` for a field.
    pub(super) fn receiver_type(&self, receiver: Node<'t>) -> Option<&'t str> {
        let (name, field_only) = match receiver.kind() {
            "identifier" => (node_text(self.text, receiver), false),
            "field_access" => {
                let object = field_child(receiver, self.g.fields.object)?;
                if object.kind() != "this" {
                    return None;
                }
                let field = last_named_child(receiver)?;
                (node_text(self.text, field), true)
            }
            _ => return None,
        };
        self.vars
            .iter()
            .rev()
            .find(|v| v.name == name && (v.field || !field_only))
            .map(|v| v.type_name)
    }
}
