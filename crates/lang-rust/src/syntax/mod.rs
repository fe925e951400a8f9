//! Rust facts: one `TreeCursor` walk with an explicit frame stack (nesting depth never
//! touches the call stack), producing the shared `FileFacts`.
//!
//! How Rust maps onto the shared facts:
//! - functions are `Function`s, and `Method`s directly in an `impl` or a trait; structs
//!   and unions are `Struct`s with their named fields as `Property` members; enums are
//!   `Enum`s with their variants as `Constant` members; traits are `Trait`s (supertraits
//!   are `extends` heritage); `const` and `static` items are `Constant`s; type aliases and
//!   associated types are `TypeAlias`es; inline `mod m {}` blocks are `Module`s;
//!   `macro_rules!` definitions are `Macro`s. A declaration spans its attributes.
//! - an `impl` block is an `Impl` named after its type (`Foo` for `impl<T> Trait for
//!   Foo<T>`) and attached to it ([`sightline_lang::Declaration::attached_to`]), so its
//!   methods are the type's members; a trait impl also `implements` the trait. Its type
//!   and trait are references from the block, which link it to a type declared in
//!   another file through the file's imports.
//! - a top-level item with any visibility (`pub`, `pub(crate)`, …) is `exported`
//!   (`#[macro_export]` for a macro).
//! - `use` trees become imports (see `uses`), `mod m;` an import of the module's file
//!   binding the namespace `m`, `extern crate c as d;` one binding `d`.
//! - calls are `Call`s (of a camel-case name, a tuple struct or variant: `Instantiate`),
//!   `Type { … }` is an `Instantiate`, a macro invocation `m!(…)` is a `Call` of `m`
//!   (never expanded). A path's last segment is the used name and the segment before it
//!   its receiver (`Foo::new()`: `new` on `Foo`); `self` and `Self` are self receivers.
//!   Inside macro arguments, which the grammar leaves as tokens, a name followed by
//!   `(…)` or `!` is a call and any other name a reference.
//! - names bound by patterns, parameters and generics are not references; a camel-case
//!   name in a pattern is (a variant or a constant).

mod kinds;
#[cfg(test)]
mod prop_tests;
#[cfg(test)]
mod tests;
mod tokens;
mod uses;

use rustc_hash::FxHashSet;

use tree_sitter::{Node, Tree};

use kinds::{RsGrammar, RsKind, rust_grammar};
use sightline_lang::syntax::text::{compact, node_text, signature};
use sightline_lang::syntax::traverse::{self, field_child};
use sightline_lang::syntax::{
    ELIDED, MAX_QUALIFIED_PREFIX, ParserSlot, RECEIVER_CHARS, SIGNATURE_CHARS,
};
use sightline_lang::{
    ByteRange, DeclIndex, DeclKind, Declaration, FileFacts, Heritage, HeritageKind, Import,
    LineRange, UsageKind,
};

use crate::specifier;

thread_local! {
    static PARSER: ParserSlot = const { std::cell::RefCell::new(None) };
}

/// Attribute items kept for one item, at most (a hostile file may stack millions).
const MAX_ATTRIBUTES: usize = 64;

/// The grammar [`extract_file`] parses with.
pub(crate) fn language() -> tree_sitter::Language {
    rust_grammar().language.clone()
}

/// The facts of one Rust file. Never panics: text tree-sitter cannot parse yields facts
/// with only `line_count`, and syntax errors are counted, not fatal.
pub(crate) fn extract_file(text: &str) -> FileFacts {
    sightline_lang::syntax::extract_tree(
        &PARSER,
        &rust_grammar().language,
        text,
        |tree, line_count| extract(text, tree, line_count),
    )
}

struct Frame<'t> {
    node: Node<'t>,
    kind: RsKind,
    pushed_decl: bool,
    /// Nothing below is a usage (attributes, `use` trees, bound names).
    quiet: bool,
    /// The node is a pattern: plain names below bind.
    pattern: bool,
    /// The node is an inline module whose name was pushed on `inline_mods`.
    inline_mod: bool,
    /// The node is a token tree whose names were pushed on `token_names`.
    token_tree: bool,
}

struct Extractor<'t> {
    g: &'static RsGrammar,
    text: &'t str,
    frames: Vec<Frame<'t>>,
    decl_stack: Vec<DeclIndex>,
    quiet_depth: u32,
    pattern_depth: u32,
    /// Names of the inline modules around the current node, outermost first.
    inline_mods: Vec<&'t str>,
    facts: FileFacts,
    /// (name, enclosing) of references already recorded.
    refs: FxHashSet<(&'t str, u32)>,
    /// (receiver, name, enclosing) of path references already recorded.
    path_refs: FxHashSet<(&'t str, &'t str, u32)>,
    /// The node whose usage its parent already recorded (a callee, a macro's name).
    covered: Option<usize>,
    /// Attribute items met in a row at frame depth `attrs_depth`, in source order: they
    /// belong to the next sibling.
    attrs: Vec<Node<'t>>,
    attrs_depth: usize,
    /// The attributes of the node being entered (taken from `attrs`).
    own_attrs: Vec<Node<'t>>,
    /// The neighbours of the names of the token trees around the current node.
    token_names: Vec<tokens::TokenNames<'t>>,
    check_errors: bool,
}

/// Extracts the facts of one parsed Rust file.
fn extract(text: &str, tree: &Tree, line_count: u32) -> FileFacts {
    let root = tree.root_node();
    let mut ex = Extractor {
        g: rust_grammar(),
        text,
        frames: Vec::with_capacity(64),
        decl_stack: Vec::with_capacity(16),
        quiet_depth: 0,
        pattern_depth: 0,
        inline_mods: Vec::new(),
        facts: FileFacts {
            line_count,
            ..FileFacts::default()
        },
        refs: FxHashSet::default(),
        path_refs: FxHashSet::default(),
        covered: None,
        attrs: Vec::new(),
        attrs_depth: 0,
        own_attrs: Vec::new(),
        token_names: Vec::new(),
        check_errors: root.has_error(),
    };
    traverse::traverse(root, &mut ex);
    ex.facts
}

impl<'t> traverse::Visit<'t> for Extractor<'t> {
    fn enter(&mut self, node: Node<'t>, field: u16) {
        Extractor::enter(self, node, field);
    }

    fn leave(&mut self) {
        Extractor::leave(self);
    }

    fn missing_leaf(&mut self, node: Node<'t>) {
        if self.check_errors {
            traverse::record_error(&mut self.facts, node);
        }
    }
}

impl<'t> Extractor<'t> {
    fn enter(&mut self, node: Node<'t>, field: u16) {
        if self.check_errors && (node.is_error() || node.is_missing()) {
            traverse::record_error(&mut self.facts, node);
        }
        let f = self.g.fields;
        let kind = self.g.kind(node);
        self.collect_attributes(node, kind);
        let mut frame = Frame {
            node,
            kind,
            pushed_decl: false,
            quiet: false,
            pattern: (field != 0 && field == f.pattern) || kind == RsKind::ClosureParameters,
            inline_mod: false,
            token_tree: kind == RsKind::TokenTree,
        };
        if frame.token_tree {
            let g = self.g;
            let is_name = |n| matches!(g.kind(n), RsKind::Identifier | RsKind::TypeIdentifier);
            self.token_names
                .push(tokens::TokenNames::of(node, self.text, is_name));
        }
        if self.covered == Some(node.id()) {
            // The parent recorded this node's usage already.
            self.covered = None;
            frame.quiet = true;
        } else if self.quiet_depth == 0 {
            match kind {
                RsKind::Function | RsKind::FunctionSignature => self.function(&mut frame),
                RsKind::Struct | RsKind::Union => {
                    self.item(&mut frame, DeclKind::Struct);
                }
                RsKind::Enum => {
                    self.item(&mut frame, DeclKind::Enum);
                }
                RsKind::Trait => {
                    if let Some(index) = self.item(&mut frame, DeclKind::Trait) {
                        self.supertraits(node, index);
                    }
                }
                RsKind::Impl => self.impl_block(&mut frame),
                RsKind::EnumVariant => self.member(&mut frame, DeclKind::Enum, DeclKind::Constant),
                RsKind::Field => self.field(&mut frame),
                RsKind::Mod => self.module(&mut frame),
                RsKind::TypeAlias | RsKind::AssociatedType => {
                    self.item(&mut frame, DeclKind::TypeAlias);
                }
                RsKind::Constant => {
                    self.item(&mut frame, DeclKind::Constant);
                }
                RsKind::MacroDefinition => {
                    self.item(&mut frame, DeclKind::Macro);
                }
                RsKind::Use => {
                    frame.quiet = true;
                    self.use_declaration(node);
                }
                RsKind::ExternCrate => {
                    frame.quiet = true;
                    self.extern_crate(node);
                }
                RsKind::Attribute | RsKind::Quiet | RsKind::Visibility => frame.quiet = true,
                RsKind::Call => self.call(node),
                RsKind::MacroInvocation => self.macro_invocation(node),
                RsKind::StructExpression => self.struct_expression(node),
                RsKind::ScopedIdentifier | RsKind::ScopedTypeIdentifier => {
                    frame.quiet = true;
                    self.path_usage(node, UsageKind::Reference);
                }
                RsKind::Identifier | RsKind::TypeIdentifier => {
                    self.name(node, kind, field, frame.pattern)
                }
                _ => {}
            }
        }
        if frame.quiet {
            self.quiet_depth += 1;
        }
        if frame.pattern {
            self.pattern_depth += 1;
        }
        self.frames.push(frame);
    }

    fn leave(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if frame.pushed_decl {
                self.decl_stack.pop();
            }
            if frame.quiet {
                self.quiet_depth -= 1;
            }
            if frame.pattern {
                self.pattern_depth -= 1;
            }
            if frame.inline_mod {
                self.inline_mods.pop();
            }
            if frame.token_tree {
                self.token_names.pop();
            }
        }
    }

    fn enclosing(&self) -> Option<DeclIndex> {
        self.decl_stack.last().copied()
    }

    fn enclosing_kind(&self) -> Option<DeclKind> {
        let i = self.enclosing()?;
        self.facts.decls.get(i as usize).map(|d| d.kind)
    }

    /// Whether the node being entered sits directly in an `impl` or trait body.
    fn in_impl_or_trait_body(&self) -> bool {
        let mut frames = self.frames.iter().rev();
        matches!(
            (frames.next().map(|f| f.kind), frames.next().map(|f| f.kind)),
            (
                Some(RsKind::DeclarationList),
                Some(RsKind::Impl | RsKind::Trait)
            )
        )
    }

    fn function(&mut self, frame: &mut Frame<'t>) {
        let kind = match self.in_impl_or_trait_body() {
            true => DeclKind::Method,
            false => DeclKind::Function,
        };
        self.item(frame, kind);
    }

    /// Declares the item `frame` is (named by its `name` field) as `kind`.
    fn item(&mut self, frame: &mut Frame<'t>, kind: DeclKind) -> Option<DeclIndex> {
        let node = frame.node;
        let name = self.name_of(node)?;
        let exported = self.at_top_level() && self.is_public(node);
        let index = self.declare(name, kind, node, exported, None);
        frame.pushed_decl = true;
        self.decl_stack.push(index);
        Some(index)
    }

    /// A declaration nested in a declaration of kind `owner` (a variant in its enum).
    fn member(&mut self, frame: &mut Frame<'t>, owner: DeclKind, kind: DeclKind) {
        if self.enclosing_kind() == Some(owner) {
            self.item(frame, kind);
        }
    }

    /// A named field of a struct, a union or a struct-like variant.
    fn field(&mut self, frame: &mut Frame<'t>) {
        if matches!(
            self.enclosing_kind(),
            Some(DeclKind::Struct | DeclKind::Constant)
        ) {
            self.item(frame, DeclKind::Property);
        }
    }

    /// Whether the node being entered is a module-level item of the file (not nested in
    /// another declaration).
    fn at_top_level(&self) -> bool {
        self.decl_stack.is_empty()
    }

    /// Whether an item has a visibility (`pub`, `pub(crate)`, …), or is a macro marked
    /// `#[macro_export]`.
    fn is_public(&self, node: Node<'t>) -> bool {
        if self.g.kind(node) == RsKind::MacroDefinition {
            return self
                .attributes()
                .any(|a| attribute_body(self.text, a) == "macro_export");
        }
        let mut cursor = node.walk();
        node.children(&mut cursor)
            .take(4)
            .any(|c| self.g.kind(c) == RsKind::Visibility)
    }

    /// Keeps the attribute items of a row for the sibling that follows them, so each item
    /// finds its attributes without scanning its siblings (linear in the file, however
    /// many items it holds).
    fn collect_attributes(&mut self, node: Node<'t>, kind: RsKind) {
        let depth = self.frames.len();
        if depth > self.attrs_depth && !self.attrs.is_empty() {
            // Inside an attribute: its own children.
            return;
        }
        self.own_attrs.clear();
        if depth != self.attrs_depth {
            self.attrs.clear();
        }
        if kind == RsKind::Attribute {
            self.attrs_depth = depth;
            if self.attrs.len() < MAX_ATTRIBUTES {
                self.attrs.push(node);
            }
        } else {
            std::mem::swap(&mut self.own_attrs, &mut self.attrs);
            self.attrs.clear();
        }
    }

    /// The attribute items right before the node being entered, nearest first.
    fn attributes(&self) -> impl Iterator<Item = Node<'t>> + use<'_, 't> {
        self.own_attrs.iter().rev().copied()
    }

    /// The text of the `name` field of an item, without a raw identifier's `r#`.
    fn name_of(&self, node: Node<'t>) -> Option<&'t str> {
        let name = field_child(node, self.g.fields.name).map(|n| node_text(self.text, n))?;
        let name = name.strip_prefix("r#").unwrap_or(name);
        (!name.is_empty()).then_some(name)
    }

    /// `impl [Trait for] Type { … }`: an `Impl` named after the type and attached to it.
    fn impl_block(&mut self, frame: &mut Frame<'t>) {
        let f = self.g.fields;
        let node = frame.node;
        // A blanket impl (`impl<T: X> Y for T`) attaches to no type.
        let type_name = field_child(node, f.type_)
            .and_then(|t| self.type_name(t))
            .filter(|name| !self.is_type_parameter(node, name));
        let trait_name = field_child(node, f.trait_).and_then(|t| self.type_name(t));
        let name = type_name.or(trait_name).unwrap_or("impl");
        let index = self.declare(name, DeclKind::Impl, node, false, type_name);
        frame.pushed_decl = true;
        self.decl_stack.push(index);
        if let Some(trait_name) = trait_name {
            self.heritage(index, HeritageKind::Implements, trait_name, node);
        }
    }

    /// Whether `name` is one of the generic parameters `item` declares.
    fn is_type_parameter(&self, item: Node<'t>, name: &str) -> bool {
        let Some(params) = field_child(item, self.g.fields.type_parameters) else {
            return false;
        };
        let mut cursor = params.walk();
        params
            .named_children(&mut cursor)
            .any(|p| self.g.kind(p) == RsKind::TypeParameter && self.name_of(p) == Some(name))
    }

    /// `trait A: B + C` → `extends B`, `extends C`.
    fn supertraits(&mut self, node: Node<'t>, index: DeclIndex) {
        let Some(bounds) = field_child(node, self.g.fields.bounds) else {
            return;
        };
        let mut cursor = bounds.walk();
        let names: Vec<(&'t str, Node<'t>)> = bounds
            .named_children(&mut cursor)
            .filter_map(|b| Some((self.type_name(b)?, b)))
            .collect();
        for (name, at) in names {
            self.heritage(index, HeritageKind::Extends, name, at);
        }
    }

    fn heritage(&mut self, decl: DeclIndex, kind: HeritageKind, name: &str, at: Node<'t>) {
        let line = self.line(at.start_position().row);
        self.facts.heritage.push(Heritage {
            decl,
            kind,
            name: name.to_owned(),
            line,
        });
    }

    /// The name a type is declared by: `Foo` for `Foo`, `a::Foo`, `Foo<T>`, `&'a mut Foo`;
    /// `None` for types no declaration names (tuples, slices, function pointers).
    fn type_name(&self, node: Node<'t>) -> Option<&'t str> {
        let f = self.g.fields;
        let mut current = node;
        for _ in 0..8 {
            match current.kind() {
                "type_identifier" | "primitive_type" | "identifier" => {
                    let name = node_text(self.text, current);
                    return (!name.is_empty()).then_some(name);
                }
                "scoped_type_identifier" | "scoped_identifier" => {
                    current = field_child(current, f.name)?;
                }
                "generic_type" | "reference_type" | "pointer_type" => {
                    current = field_child(current, f.type_)?;
                }
                _ => return None,
            }
        }
        None
    }

    /// `mod m { … }` declares a module; `mod m;` imports the module's file.
    fn module(&mut self, frame: &mut Frame<'t>) {
        let node = frame.node;
        let Some(name) = self.name_of(node) else {
            return;
        };
        if field_child(node, self.g.fields.body).is_some() {
            self.item(frame, DeclKind::Module);
            self.inline_mods.push(name);
            frame.inline_mod = true;
            return;
        }
        frame.quiet = true;
        let path = self.attributes().find_map(|a| path_attribute(self.text, a));
        let line = self.line(node.start_position().row);
        let mut import = Import::new(specifier::mod_decl(&self.inline_mods, name, path), line);
        import.namespace = Some(name.to_owned());
        self.facts.imports.push(import);
    }

    fn use_declaration(&mut self, node: Node<'t>) {
        let line = self.line(node.start_position().row);
        let public = self.is_public(node);
        let imports = uses::use_imports(
            self.g,
            self.text,
            node,
            line,
            self.inline_mods.len(),
            public,
        );
        self.facts.imports.extend(imports);
    }

    fn extern_crate(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let Some(name) = self.name_of(node) else {
            return;
        };
        if name == "self" {
            return;
        }
        let alias = field_child(node, f.alias)
            .map(|a| node_text(self.text, a))
            .filter(|a| !a.is_empty() && *a != "_");
        let line = self.line(node.start_position().row);
        self.facts
            .imports
            .push(uses::extern_crate(name, alias, line));
    }

    /// Declares `name` as `kind`, spanning `node` and the attributes before it.
    fn declare(
        &mut self,
        name: &str,
        kind: DeclKind,
        node: Node<'t>,
        exported: bool,
        attached_to: Option<&str>,
    ) -> DeclIndex {
        let parent = self.enclosing();
        let qualified = match parent.and_then(|p| self.facts.decls.get(p as usize)) {
            Some(p) if p.qualified.len() > MAX_QUALIFIED_PREFIX => {
                self.facts.elided_qualified_names += 1;
                format!("{ELIDED}.{name}")
            }
            Some(p) => format!("{}.{name}", p.qualified),
            None => name.to_owned(),
        };
        let start = self.attributes().last().unwrap_or(node);
        let start_line = self.line(start.start_position().row);
        let end_line = self.line(traverse::end_row(node)).max(start_line);
        let signature_line = self
            .line(node.start_position().row)
            .clamp(start_line, end_line);
        let decl = Declaration {
            name: name.to_owned(),
            qualified,
            kind,
            lines: LineRange::new(start_line, end_line),
            bytes: ByteRange {
                start: traverse::to_u32(start.start_byte()),
                end: traverse::to_u32(node.end_byte()),
            },
            exported,
            default_export: false,
            signature_line,
            signature: signature(
                self.text,
                node.start_byte(),
                node.start_position().column,
                SIGNATURE_CHARS,
            ),
            parent,
            attached_to: attached_to.map(str::to_owned),
        };
        self.facts.decls.push(decl);
        traverse::to_u32(self.facts.decls.len() - 1)
    }

    fn call(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let Some(mut callee) = field_child(node, f.function) else {
            return;
        };
        if self.g.kind(callee) == RsKind::GenericFunction {
            let Some(inner) = field_child(callee, f.function) else {
                return;
            };
            callee = inner;
        }
        match self.g.kind(callee) {
            RsKind::Identifier => {
                let name = node_text(self.text, callee);
                self.covered = Some(callee.id());
                self.push_usage(call_kind(name), name, String::new(), node);
            }
            RsKind::ScopedIdentifier => {
                self.covered = Some(callee.id());
                let name = field_child(callee, f.name).map_or("", |n| node_text(self.text, n));
                self.path_usage(callee, call_kind(name));
            }
            RsKind::FieldExpression => {
                let (Some(value), Some(method)) =
                    (field_child(callee, f.value), field_child(callee, f.field))
                else {
                    return;
                };
                let name = node_text(self.text, method);
                let receiver = compact(node_text(self.text, value), RECEIVER_CHARS);
                self.push_usage(UsageKind::Call, name, receiver, node);
            }
            _ => {}
        }
    }

    /// `m!(…)`, `a::m!(…)`: a call of the macro `m`.
    fn macro_invocation(&mut self, node: Node<'t>) {
        let Some(name_node) = field_child(node, self.g.fields.macro_) else {
            return;
        };
        self.covered = Some(name_node.id());
        match self.g.kind(name_node) {
            RsKind::Identifier => {
                let name = node_text(self.text, name_node);
                self.push_usage(UsageKind::Call, name, String::new(), node);
            }
            RsKind::ScopedIdentifier => self.path_usage(name_node, UsageKind::Call),
            _ => {}
        }
    }

    /// `Name { … }`, `a::Name { … }`, `Enum::Variant { … }`: an instantiation.
    fn struct_expression(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let Some(mut name) = field_child(node, f.name) else {
            return;
        };
        if self.g.kind(name) == RsKind::GenericType {
            let Some(inner) = field_child(name, f.type_) else {
                return;
            };
            name = inner;
        }
        self.covered = Some(name.id());
        match self.g.kind(name) {
            RsKind::TypeIdentifier | RsKind::Identifier => {
                let text = node_text(self.text, name);
                if text != "Self" {
                    self.push_usage(UsageKind::Instantiate, text, String::new(), node);
                }
            }
            RsKind::ScopedTypeIdentifier | RsKind::ScopedIdentifier => {
                self.path_usage(name, UsageKind::Instantiate);
            }
            _ => {}
        }
    }

    /// A path `…::q::name` used as `kind`: `name` on the receiver `q`, and a reference to
    /// `q` itself when it is a name (the type or module the path goes through).
    fn path_usage(&mut self, node: Node<'t>, kind: UsageKind) {
        let (qualifier, name) = self.path_tail(node);
        let Some(name) = name else {
            return;
        };
        let receiver = match qualifier {
            // `self::f`: a name of this module; `super::f` inside an inline module: a
            // name of the file (or of an enclosing inline module).
            Some("self") | None => "",
            Some("super") if !self.inline_mods.is_empty() => "",
            Some(q) => q,
        };
        if !receiver.is_empty() && !is_keyword(receiver) {
            self.reference_name(receiver, node);
        }
        let kind = match kind {
            UsageKind::Call => call_kind(name),
            k => k,
        };
        if kind == UsageKind::Reference && receiver.is_empty() {
            self.reference_name(name, node);
        } else if kind == UsageKind::Reference {
            self.path_reference(receiver, name, node);
        } else {
            self.push_usage(kind, name, receiver.to_owned(), node);
        }
    }

    /// The last two segments of a path node: (`q`, `name`) for `…::q::name`.
    fn path_tail(&self, node: Node<'t>) -> (Option<&'t str>, Option<&'t str>) {
        let f = self.g.fields;
        let name = field_child(node, f.name).map(|n| node_text(self.text, n));
        let qualifier = field_child(node, f.path).and_then(|p| match p.kind() {
            "scoped_identifier" | "scoped_type_identifier" => {
                field_child(p, f.name).map(|n| node_text(self.text, n))
            }
            "generic_type" => field_child(p, f.type_).and_then(|t| self.type_name(t)),
            "identifier" | "type_identifier" | "self" | "super" | "crate" => {
                Some(node_text(self.text, p))
            }
            "metavariable" => Some("crate"),
            _ => None,
        });
        let clean = |s: &'t str| {
            let s = s.strip_prefix("r#").unwrap_or(s);
            (!s.is_empty()).then_some(s)
        };
        (qualifier.and_then(clean), name.and_then(clean))
    }

    /// An identifier or type name outside any path: a reference unless it is bound here
    /// (an item's or a generic's name, a name in a pattern).
    fn name(&mut self, node: Node<'t>, kind: RsKind, field: u16, is_pattern: bool) {
        let f = self.g.fields;
        if field != 0 && field == f.name {
            return;
        }
        let text = node_text(self.text, node);
        let parent = self.frames.last().map(|p| p.kind);
        if parent == Some(RsKind::TokenTree) {
            self.token(node, text);
            return;
        }
        let binds = kind == RsKind::Identifier
            && (is_pattern || self.pattern_depth > 0)
            && field != f.type_
            && !starts_upper(text);
        if !binds {
            self.reference_name(text, node);
        }
    }

    /// A name among a macro's tokens: a call when `(…)` or `!` follows it, with the name
    /// before `::` or `.` as its receiver; a reference otherwise.
    fn token(&mut self, node: Node<'t>, text: &'t str) {
        let tokens::Neighbours { called, receiver } = self
            .token_names
            .last_mut()
            .and_then(|names| names.take(node.id()))
            .unwrap_or_else(|| tokens::by_siblings(node, self.text));
        match (called, receiver.is_empty()) {
            (true, true) => self.push_usage(call_kind(text), text, String::new(), node),
            (true, false) => self.push_usage(UsageKind::Call, text, receiver.to_owned(), node),
            (false, true) => self.reference_name(text, node),
            (false, false) => self.path_reference(receiver, text, node),
        }
    }

    /// A reference to `name` on `receiver` (`Mode::Fast`), once per enclosing declaration.
    fn path_reference(&mut self, receiver: &'t str, name: &'t str, at: Node<'t>) {
        let enclosing = self.enclosing().unwrap_or(u32::MAX);
        if self.path_refs.insert((receiver, name, enclosing)) {
            self.push_usage(UsageKind::Reference, name, receiver.to_owned(), at);
        }
    }

    /// A reference to `name`, once per enclosing declaration; keywords that read as
    /// names (`Self`, `self`) are not.
    fn reference_name(&mut self, name: &'t str, at: Node<'t>) {
        let name = name.strip_prefix("r#").unwrap_or(name);
        if name.is_empty() || is_keyword(name) {
            return;
        }
        let enclosing = self.enclosing();
        if !self.refs.insert((name, enclosing.unwrap_or(u32::MAX))) {
            return;
        }
        self.push_usage(UsageKind::Reference, name, String::new(), at);
    }

    fn push_usage(&mut self, kind: UsageKind, name: &str, receiver: String, at: Node<'t>) {
        let name = name.strip_prefix("r#").unwrap_or(name);
        if is_keyword(name) {
            return;
        }
        let enclosing = self.enclosing();
        traverse::push_usage(&mut self.facts, (kind, name, receiver), at, enclosing);
    }

    /// A 1-based line for a 0-based row, clamped into the file.
    fn line(&self, row: usize) -> u32 {
        traverse::line_of(row, self.facts.line_count)
    }
}

/// Tuple structs and variants are called to construct them; by convention their names
/// are camel case, functions' snake case.
fn call_kind(name: &str) -> UsageKind {
    match starts_upper(name) {
        true => UsageKind::Instantiate,
        false => UsageKind::Call,
    }
}

fn starts_upper(name: &str) -> bool {
    name.starts_with(|c: char| c.is_uppercase())
}

/// Path keywords that read like names but name no declaration.
fn is_keyword(name: &str) -> bool {
    matches!(name, "self" | "Self" | "super" | "crate" | "$crate")
}

/// An attribute item's body: `macro_export` for `#[macro_export]`, without whitespace
/// around it.
fn attribute_body<'t>(text: &'t str, item: Node<'_>) -> &'t str {
    let raw = node_text(text, item);
    raw.trim_start_matches('#')
        .trim_start_matches('!')
        .trim()
        .trim_start_matches('[')
        .trim_end()
        .trim_end_matches(']')
        .trim()
}

/// The value of a `#[path = "…"]` attribute.
fn path_attribute<'t>(text: &'t str, item: Node<'_>) -> Option<&'t str> {
    let body = attribute_body(text, item);
    let value = body.strip_prefix("path")?.trim_start().strip_prefix('=')?;
    let value = value.trim().strip_prefix('"')?.strip_suffix('"')?;
    (!value.is_empty() && !value.contains('\\')).then_some(value)
}
