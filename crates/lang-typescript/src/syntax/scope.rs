//! The types of the variables a member call's receiver names, so `store.save()` after
//! `const store = new Store()` is recorded with `Store` as its receiver and the graph finds
//! `save` in `Store` instead of guessing it by name across the repository (Java's
//! extractor does the same from declared types).
//!
//! A variable's type is known where the code states it: an annotation (`store: Store`,
//! `Store<T>`, `Store | undefined`, on a variable or a parameter), an instantiation
//! (`new Store()`), or a call of a function of this file that annotates what it returns
//! (`makeStore()`, `this.storeFor(key)` for a method of the class, `): Store {`).
//! Variables belong to the declaration they are bound in (the module at the top level);
//! code sees its enclosing declarations' variables, innermost first. That is wider than
//! JavaScript's block scopes, and a name rebound in a block keeps the last type bound; a
//! binding that states no type forgets it.
//!
//! A class's attribute (`this.store.save()`) is typed from the class: its fields'
//! annotations and `new` initialisers, its constructor's parameter properties
//! (`constructor(private store: Store)`), and `this.store = new Store()` at the top level
//! of its methods' bodies. They are collected when the class is entered, so a method may
//! use a field declared below it. An attribute given two different types has none.

use tree_sitter::Node;

use super::grammar::Kind;
use super::walk::Extractor;
use sightline_lang::DeclIndex;
use sightline_lang::syntax::stated::MODULE;
use sightline_lang::syntax::traverse::field_child;

impl<'t> Extractor<'t> {
    /// `const store: Store = …` and `const store = new Store()`, bound in the scope around
    /// the declarator (call before the declarator declares anything).
    pub(super) fn type_declarator(&mut self, node: Node<'t>) {
        self.bind_variable(field_child(node, self.g.fields.name), node);
    }

    /// `(store: Store)`, `(store?: Store)`.
    pub(super) fn type_parameter(&mut self, node: Node<'t>) {
        self.bind_variable(field_child(node, self.g.fields.pattern), node);
    }

    /// Binds the identifier `name` in the current scope to the type `node` states.
    fn bind_variable(&mut self, name: Option<Node<'t>>, node: Node<'t>) {
        let Some(name) = name.filter(|n| self.g.kind(*n) == Kind::Identifier) else {
            return;
        };
        let type_name = self.stated_type(node);
        let scope = self.enclosing().unwrap_or(MODULE);
        self.types
            .bind_variable(scope, self.text_of(name), type_name);
    }

    /// The type a receiver expression is known to have: a variable in scope, or
    /// `this.name` in a class.
    pub(super) fn receiver_type(&self, receiver: Node<'t>) -> Option<&'t str> {
        match self.g.kind(receiver) {
            Kind::Identifier => {
                let name = self.text_of(receiver);
                let mut decl = self.enclosing();
                while let Some(d) = decl {
                    if let Some(known) = self.types.variable(d, name) {
                        return known;
                    }
                    decl = self.facts.decls.get(d as usize)?.parent;
                }
                self.types.variable(MODULE, name).flatten()
            }
            Kind::Member => {
                let (class, name) = self.this_member(receiver)?;
                self.types.attribute(class, name)
            }
            _ => None,
        }
    }

    /// `this.name` in a class: the enclosing class and `name`.
    fn this_member(&self, member: Node<'t>) -> Option<(DeclIndex, &'t str)> {
        let f = self.g.fields;
        let object = field_child(member, f.object)?;
        let property = field_child(member, f.property)?;
        if object.kind() != "this" {
            return None;
        }
        Some((self.enclosing_class()?, self.text_of(property)))
    }

    /// The innermost enclosing declaration that is a class.
    fn enclosing_class(&self) -> Option<DeclIndex> {
        let mut decl = self.enclosing();
        while let Some(d) = decl {
            let item = self.facts.decls.get(d as usize)?;
            if item.kind == sightline_lang::DeclKind::Class {
                return Some(d);
            }
            decl = item.parent;
        }
        None
    }

    /// Collects the attribute types a class states (see the module doc); `class` is the
    /// class node, `decl` its declaration.
    pub(super) fn type_class_attributes(&mut self, class: Node<'t>, decl: DeclIndex) {
        let f = self.g.fields;
        let Some(body) = field_child(class, f.body) else {
            return;
        };
        let mut cursor = body.walk();
        let members: Vec<Node<'t>> = body.named_children(&mut cursor).collect();
        // Return types first: `this.x = this.makeX()` may call a method declared below.
        for member in &members {
            if self.g.kind(*member) == Kind::MethodDefinition {
                self.type_return(*member, decl);
            }
        }
        for member in members {
            match self.g.kind(member) {
                Kind::FieldDefinition => {
                    if let Some(name) = field_child(member, f.name) {
                        let type_name = self.stated_type(member);
                        self.bind_attribute(decl, self.text_of(name), type_name);
                    }
                }
                Kind::MethodDefinition => self.type_method_attributes(member, decl),
                _ => {}
            }
        }
    }

    /// The module's functions that annotate what they return, collected before the walk so
    /// a call may precede the function it calls.
    pub(super) fn type_module_returns(&mut self, program: Node<'t>) {
        let mut cursor = program.walk();
        let statements: Vec<Node<'t>> = program.named_children(&mut cursor).collect();
        for statement in statements {
            let function = match self.g.kind(statement) {
                Kind::ExportStatement => field_child(statement, self.g.fields.declaration),
                _ => Some(statement),
            };
            if let Some(function) = function.filter(|f| self.g.kind(*f) == Kind::FunctionDecl) {
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
        if let Some(type_name) = returns.named_child(0).and_then(|t| self.annotation_type(t)) {
            self.types.bind_return(scope, self.text_of(name), type_name);
        }
    }

    /// A constructor's parameter properties and `this.name = new T()` at the top level of
    /// a method's body.
    fn type_method_attributes(&mut self, method: Node<'t>, class: DeclIndex) {
        let f = self.g.fields;
        let constructor =
            field_child(method, f.name).is_some_and(|n| self.text_of(n) == "constructor");
        if constructor && let Some(parameters) = field_child(method, f.parameters) {
            let mut cursor = parameters.walk();
            let parameters: Vec<Node<'t>> = parameters.named_children(&mut cursor).collect();
            for parameter in parameters {
                let mut cursor = parameter.walk();
                let is_property = parameter
                    .children(&mut cursor)
                    .any(|c| matches!(c.kind(), "accessibility_modifier" | "readonly"));
                if let Some(name) = field_child(parameter, f.pattern)
                    && is_property
                {
                    let type_name = self.stated_type(parameter);
                    self.bind_attribute(class, self.text_of(name), type_name);
                }
            }
        }
        let Some(body) = field_child(method, f.body) else {
            return;
        };
        let mut cursor = body.walk();
        let statements: Vec<Node<'t>> = body.named_children(&mut cursor).collect();
        for statement in statements {
            let Some(assignment) = statement.named_child(0).filter(|a| {
                statement.kind() == "expression_statement" && a.kind() == "assignment_expression"
            }) else {
                continue;
            };
            let (Some(left), Some(right)) = (
                field_child(assignment, f.left),
                field_child(assignment, f.right),
            ) else {
                continue;
            };
            // The class is entered, so `this.name` is a member of it.
            if self.g.kind(left) != Kind::Member {
                continue;
            }
            let Some((_, name)) = self.this_member(left) else {
                continue;
            };
            let type_name = self.instance_type(right);
            self.bind_attribute(class, name, type_name);
        }
    }

    /// Records one stated type of a class's attribute.
    fn bind_attribute(&mut self, class: DeclIndex, name: &'t str, type_name: Option<&'t str>) {
        if let Some(type_name) = type_name {
            self.types.bind_attribute(class, name, type_name);
        }
    }

    /// The type a binding node (a declarator, a parameter, a field) states: its annotation,
    /// else the class its value instantiates.
    fn stated_type(&self, node: Node<'t>) -> Option<&'t str> {
        let f = self.g.fields;
        match field_child(node, f.type_) {
            Some(annotation) => self.annotation_type(annotation.named_child(0)?),
            None => field_child(node, f.value).and_then(|v| self.instance_type(v)),
        }
    }

    /// The class a type names: `Store`, `Store<T>`, or the one type of a union with
    /// `null` / `undefined` or other literal and predefined types.
    fn annotation_type(&self, ty: Node<'t>) -> Option<&'t str> {
        // A loop, not recursion: `T | null | null | …` nests as deep as it is long.
        let mut ty = ty;
        loop {
            match ty.kind() {
                "type_identifier" => return Some(self.text_of(ty)),
                "generic_type" => {
                    return field_child(ty, self.g.fields.name)
                        .filter(|n| n.kind() == "type_identifier")
                        .map(|n| self.text_of(n));
                }
                "union_type" => {
                    let mut cursor = ty.walk();
                    let mut sides = ty
                        .named_children(&mut cursor)
                        .filter(|side| !matches!(side.kind(), "literal_type" | "predefined_type"));
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

    /// The class a value is an instance of: `new Store(…)`, or a call of a module function
    /// or of a method of `this` that annotates what it returns (through `(…)`, `!`,
    /// `as T`, `await`).
    fn instance_type(&self, value: Node<'t>) -> Option<&'t str> {
        let f = self.g.fields;
        // A loop through the wrappers, not recursion: parentheses nest as deep as written.
        let mut value = value;
        while self.g.kind(value) == Kind::Wrapper || value.kind() == "await_expression" {
            value = value.named_child(0)?;
        }
        match self.g.kind(value) {
            Kind::New => field_child(value, f.constructor)
                .filter(|c| self.g.kind(*c) == Kind::Identifier)
                .map(|c| self.text_of(c)),
            Kind::Call => {
                let callee = field_child(value, f.function)?;
                match self.g.kind(callee) {
                    Kind::Identifier => self.types.returns(MODULE, self.text_of(callee)),
                    Kind::Member => {
                        let (class, name) = self.this_member(callee)?;
                        self.types.returns(class, name)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
