//! The types of the variables a call's receiver names, so `client.send()` after
//! `client = Client()` is recorded with `Client` as its receiver and the graph finds `send`
//! in `Client` instead of guessing it by name across the repository (Java's extractor does
//! the same from declared types).
//!
//! Python declares no types, so a variable's type is known only where the code states it:
//! an annotation (`client: Client`, a parameter `client: Client`, `Client | None`), an
//! instantiation (`Client(…)`, `with Client(…) as client`, by the capitalised-call
//! convention the extractor already follows), or a call of a function of this file that
//! annotates what it returns (`make_client()`, `self._client_for(url)` for a method of the
//! class, `def make_client() -> Client`). Anything else assigned to the name, or a
//! `for` loop binding it, forgets the type. Locals belong to their function, as in Python;
//! a nested function sees its enclosing functions' and the module's variables.
//!
//! An attribute of `self` (`self.client.send()`) is typed from its class's body: the
//! annotations of the class body (`client: Client`, dataclass fields) and the assignments
//! `self.client = …` at the top level of its methods' bodies. They are collected when the
//! class is entered, so a method may use an attribute that a later method sets. An
//! attribute given two different types has none.

use tree_sitter::Node;

use super::Extractor;
use super::kinds::PyKind;
use sightline_lang::syntax::stated::MODULE;
use sightline_lang::syntax::text::{node_text, unquote};
use sightline_lang::syntax::traverse::field_child;
use sightline_lang::{DeclIndex, DeclKind, Language};

impl<'t> Extractor<'t> {
    /// The scope a variable bound here belongs to: the innermost enclosing function, or the
    /// module; `None` in a class body (whose names are the class's attributes, not
    /// variables code below can see bare).
    fn variable_scope(&self) -> Option<DeclIndex> {
        match self.enclosing() {
            None => Some(MODULE),
            Some(d) => match self.facts.decls.get(d as usize)?.kind {
                DeclKind::Function | DeclKind::Method => Some(d),
                _ => None,
            },
        }
    }

    /// Records what `name`, bound here, is known to be.
    fn bind_variable(&mut self, name: &'t str, type_name: Option<&'t str>) {
        if let Some(scope) = self.variable_scope() {
            self.types.bind_variable(scope, name, type_name);
        }
    }

    /// `name = value` and `name: T = value` (any scope but a class body).
    pub(super) fn type_assignment(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let Some(left) = field_child(node, f.left) else {
            return;
        };
        if self.g.kind(left) != PyKind::Identifier {
            return;
        }
        let type_name = match field_child(node, f.type_) {
            Some(ty) => self.annotation_type(ty),
            None => field_child(node, f.right).and_then(|v| self.instance_type(v)),
        };
        self.bind_variable(node_text(self.text, left), type_name);
    }

    /// `def f(client: Client)` and `def f(client: Client = None)`.
    pub(super) fn type_parameter(&mut self, node: Node<'t>) {
        let name = match field_child(node, self.g.fields.name) {
            Some(n) => Some(n),
            None => node.named_child(0),
        };
        let Some(name) = name.filter(|n| self.g.kind(*n) == PyKind::Identifier) else {
            return;
        };
        let type_name =
            field_child(node, self.g.fields.type_).and_then(|t| self.annotation_type(t));
        self.bind_variable(node_text(self.text, name), type_name);
    }

    /// `with Client() as client:` binds `client` to the instance (a context manager's
    /// `__enter__` conventionally returns it); `for x in …:` binds `x` to what the code
    /// does not state.
    pub(super) fn type_pattern_target(&mut self, node: Node<'t>) {
        match node.kind() {
            "as_pattern" => {
                let Some(target) = field_child(node, self.g.fields.alias)
                    .and_then(|a| a.named_child(0))
                    .filter(|t| self.g.kind(*t) == PyKind::Identifier)
                else {
                    return;
                };
                let type_name = node.named_child(0).and_then(|v| self.instance_type(v));
                self.bind_variable(node_text(self.text, target), type_name);
            }
            "for_statement" => {
                if let Some(left) = field_child(node, self.g.fields.left)
                    .filter(|l| self.g.kind(*l) == PyKind::Identifier)
                {
                    self.bind_variable(node_text(self.text, left), None);
                }
            }
            _ => {}
        }
    }

    /// The type a receiver expression is known to have: a variable in scope, or an
    /// attribute of `self` in a method of a class.
    pub(super) fn receiver_type(&self, receiver: Node<'t>) -> Option<&'t str> {
        match self.g.kind(receiver) {
            PyKind::Identifier => self.variable_type(node_text(self.text, receiver)),
            PyKind::Attribute => {
                let (class, name) = self.self_member(receiver)?;
                self.types.attribute(class, name)
            }
            _ => None,
        }
    }

    /// `self.name` (or `cls.name`) in a method: the enclosing class and `name`.
    fn self_member(&self, attribute: Node<'t>) -> Option<(DeclIndex, &'t str)> {
        let f = self.g.fields;
        let object = field_child(attribute, f.object)?;
        let name = field_child(attribute, f.attribute)?;
        if self.g.kind(object) != PyKind::Identifier
            || !crate::Python.is_self_receiver(node_text(self.text, object))
        {
            return None;
        }
        Some((self.enclosing_class()?, node_text(self.text, name)))
    }

    /// The innermost binding of `name` seen so far in the enclosing functions, then the
    /// module.
    fn variable_type(&self, name: &'t str) -> Option<&'t str> {
        let mut decl = self.enclosing();
        while let Some(d) = decl {
            let item = self.facts.decls.get(d as usize)?;
            if matches!(item.kind, DeclKind::Function | DeclKind::Method)
                && let Some(known) = self.types.variable(d, name)
            {
                return known;
            }
            decl = item.parent;
        }
        self.types.variable(MODULE, name).flatten()
    }

    /// The class whose method encloses the code being walked.
    fn enclosing_class(&self) -> Option<DeclIndex> {
        let mut decl = self.enclosing();
        while let Some(d) = decl {
            let item = self.facts.decls.get(d as usize)?;
            if item.kind == DeclKind::Class {
                return Some(d);
            }
            decl = item.parent;
        }
        None
    }

    /// Collects the attribute types a class's body states (see the module doc).
    pub(super) fn type_class_attributes(&mut self, class: Node<'t>, decl: DeclIndex) {
        let Some(body) = field_child(class, self.g.fields.body) else {
            return;
        };
        let mut cursor = body.walk();
        let statements: Vec<Node<'t>> = body.named_children(&mut cursor).collect();
        let definition = |statement: Node<'t>| match statement.kind() {
            "decorated_definition" => field_child(statement, self.g.fields.definition),
            _ => Some(statement),
        };
        // Return types first: `self.x = self.make_x()` may call a method declared below.
        let methods: Vec<Node<'t>> = statements
            .iter()
            .filter_map(|s| definition(*s))
            .filter(|d| self.g.kind(*d) == PyKind::Function)
            .collect();
        for method in &methods {
            self.type_return(*method, decl);
        }
        for statement in statements {
            match definition(statement).map(|d| (d, self.g.kind(d))) {
                Some((method, PyKind::Function)) => self.type_self_assignments(method, decl),
                _ => {
                    let f = self.g.fields;
                    if let Some(assignment) = self.assignment_in(statement)
                        && let (Some(left), Some(ty)) = (
                            field_child(assignment, f.left),
                            field_child(assignment, f.type_),
                        )
                        && self.g.kind(left) == PyKind::Identifier
                    {
                        let type_name = self.annotation_type(ty);
                        self.bind_attribute(decl, node_text(self.text, left), type_name);
                    }
                }
            }
        }
    }

    /// The module's functions that annotate what they return, collected before the walk so
    /// a call may precede the function it calls.
    pub(super) fn type_module_returns(&mut self, module: Node<'t>) {
        let mut cursor = module.walk();
        let statements: Vec<Node<'t>> = module.named_children(&mut cursor).collect();
        for statement in statements {
            let definition = match statement.kind() {
                "decorated_definition" => field_child(statement, self.g.fields.definition),
                _ => Some(statement),
            };
            if let Some(function) = definition.filter(|d| self.g.kind(*d) == PyKind::Function) {
                self.type_return(function, MODULE);
            }
        }
    }

    /// Records the type `function`'s return annotation names, in `scope`.
    fn type_return(&mut self, function: Node<'t>, scope: DeclIndex) {
        let f = self.g.fields;
        let (Some(name), Some(returns)) = (
            field_child(function, f.name),
            field_child(function, f.return_type),
        ) else {
            return;
        };
        if let Some(type_name) = self.annotation_type(returns) {
            self.types
                .bind_return(scope, node_text(self.text, name), type_name);
        }
    }

    /// `self.name = value` and `self.name: T = value` at the top level of a method's body.
    fn type_self_assignments(&mut self, method: Node<'t>, class: DeclIndex) {
        let f = self.g.fields;
        let Some(body) = field_child(method, f.body) else {
            return;
        };
        let mut cursor = body.walk();
        let statements: Vec<Node<'t>> = body.named_children(&mut cursor).collect();
        for statement in statements {
            let Some(assignment) = self.assignment_in(statement) else {
                continue;
            };
            // The class is entered, so `self.name` is a member of it.
            let Some((_, name)) = field_child(assignment, f.left)
                .filter(|l| self.g.kind(*l) == PyKind::Attribute)
                .and_then(|l| self.self_member(l))
            else {
                continue;
            };
            let type_name = match field_child(assignment, f.type_) {
                Some(ty) => self.annotation_type(ty),
                None => field_child(assignment, f.right).and_then(|v| self.instance_type(v)),
            };
            self.bind_attribute(class, name, type_name);
        }
    }

    /// The assignment an expression statement holds, if it is one.
    fn assignment_in(&self, statement: Node<'t>) -> Option<Node<'t>> {
        if statement.kind() != "expression_statement" {
            return None;
        }
        statement
            .named_child(0)
            .filter(|a| self.g.kind(*a) == PyKind::Assignment)
    }

    /// Records one stated type of a class's attribute.
    fn bind_attribute(&mut self, class: DeclIndex, name: &'t str, type_name: Option<&'t str>) {
        if let Some(type_name) = type_name {
            self.types.bind_attribute(class, name, type_name);
        }
    }

    /// The class an annotation names: `Client`, `"Client"`, or the one type of a union
    /// with `None` (`Client | None`). Generic and qualified annotations name no class the
    /// graph could look a member up in by this name, so they give none.
    fn annotation_type(&self, ty: Node<'t>) -> Option<&'t str> {
        // A loop, not recursion: `T | None | None | …` nests as deep as it is long.
        let mut ty = ty;
        loop {
            let inner = match ty.kind() {
                "type" => ty.named_child(0)?,
                _ => ty,
            };
            match inner.kind() {
                "identifier" => return Some(node_text(self.text, inner)).filter(|n| is_name(n)),
                "string" => {
                    return Some(unquote(node_text(self.text, inner)).trim())
                        .filter(|n| is_name(n));
                }
                "union_type" | "binary_operator" => {
                    let mut cursor = inner.walk();
                    let mut sides = inner.named_children(&mut cursor).filter(|side| {
                        side.kind() != "none" && node_text(self.text, *side) != "None"
                    });
                    let only = sides.next()?;
                    if sides.next().is_some() {
                        return None;
                    }
                    ty = only;
                }
                _ => return None,
            }
        }
    }

    /// The class a value is an instance of: a call of a capitalised name, of a module
    /// function or of a method of `self` that annotates what it returns.
    pub(super) fn instance_type(&self, value: Node<'t>) -> Option<&'t str> {
        if self.g.kind(value) != PyKind::Call {
            return None;
        }
        let f = self.g.fields;
        let callee = field_child(value, f.function)?;
        match self.g.kind(callee) {
            PyKind::Identifier => {
                let name = node_text(self.text, callee);
                if super::call_kind(name) == sightline_lang::UsageKind::Instantiate {
                    return Some(name).filter(|n| is_name(n));
                }
                self.types.returns(MODULE, name)
            }
            PyKind::Attribute => {
                let (class, name) = self.self_member(callee)?;
                self.types.returns(class, name)
            }
            _ => None,
        }
    }
}

/// Whether `s` can be a Python name (not empty, no punctuation a recovered parse left).
fn is_name(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c == '_' || c.is_alphanumeric())
}
