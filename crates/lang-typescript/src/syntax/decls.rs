//! Declarations: which nodes declare something, their names, qualified names, ranges
//! (widened over `export`/`declare` wrappers, a single-binding `const` and decorators) and
//! export flags.

use tree_sitter::Node;

use super::grammar::Kind;
use super::walk::{Extractor, Frame};
use sightline_lang::syntax::text::{signature, unquote};
use sightline_lang::syntax::traverse::field_child;
use sightline_lang::{ByteRange, DeclIndex, DeclKind, Declaration, LineRange};

use sightline_lang::syntax::{ELIDED, MAX_QUALIFIED_PREFIX, SIGNATURE_CHARS};

/// The name of an anonymous default export, and what a default import imports.
pub(crate) const DEFAULT_NAME: &str = "default";

/// The extent of a declaration once its wrappers are included.
struct Span<'t> {
    start: Node<'t>,
    end: Node<'t>,
    /// The node whose first non-decorator child starts the signature line.
    signature_from: Node<'t>,
    exported: bool,
    default_export: bool,
}

impl<'t> Extractor<'t> {
    /// Declares `frame.node` if it is a declaration in its context.
    pub(super) fn declaration(&mut self, frame: &mut Frame<'t>) {
        let f = self.g.fields;
        let node = frame.node;
        let parent_kind = self.parent().map_or(Kind::Other, |p| p.kind);
        let from_parent_value = frame.field == f.value;
        let (kind, name, prefix) = match frame.kind {
            Kind::FunctionDecl => (DeclKind::Function, self.name_field(node), None),
            Kind::ClassDecl => (DeclKind::Class, self.name_field(node), None),
            Kind::InterfaceDecl => (DeclKind::Interface, self.name_field(node), None),
            Kind::TypeAlias => (DeclKind::TypeAlias, self.name_field(node), None),
            Kind::EnumDecl => (DeclKind::Enum, self.name_field(node), None),
            Kind::Namespace => (DeclKind::Namespace, self.name_field(node), None),
            Kind::ClassExpr => {
                let parent = self.parent();
                if from_parent_value && parent_kind == Kind::VariableDeclarator {
                    // `const A = class {}`: the binding already declared it.
                    frame.owner = parent.and_then(|p| p.owner);
                    return;
                }
                let name = self.name_field(node);
                if parent_kind == Kind::ExportStatement && from_parent_value {
                    (DeclKind::Class, name.or(Some(DEFAULT_NAME)), None)
                } else if name.is_some() {
                    (DeclKind::Class, name, None)
                } else {
                    return;
                }
            }
            Kind::FunctionValue => {
                if parent_kind != Kind::ExportStatement || !from_parent_value {
                    return;
                }
                (
                    DeclKind::Function,
                    self.name_field(node).or(Some(DEFAULT_NAME)),
                    None,
                )
            }
            Kind::MethodDefinition => match parent_kind {
                Kind::ClassBody => (DeclKind::Method, self.name_field(node), None),
                Kind::Object => match self.parent().and_then(|p| p.obj_qual) {
                    Some(q) => (DeclKind::Method, self.name_field(node), Some(q)),
                    None => match self.unbound_member_name(field_child(node, f.name)) {
                        Some(name) => (DeclKind::Method, Some(name), None),
                        None => return,
                    },
                },
                _ => return,
            },
            Kind::MethodSignature if self.in_type_body() => {
                (DeclKind::Method, self.name_field(node), None)
            }
            Kind::PropertySignature if self.in_type_body() => {
                (DeclKind::Property, self.name_field(node), None)
            }
            Kind::FieldDefinition if parent_kind == Kind::ClassBody => {
                // A field holding a function is called like a method.
                let kind = match self.value_kind(node) {
                    Kind::FunctionValue => DeclKind::Method,
                    _ => DeclKind::Property,
                };
                (kind, self.name_field(node), None)
            }
            Kind::VariableDeclarator => {
                let Some(name) = field_child(node, f.name) else {
                    return;
                };
                if self.g.kind(name) != Kind::Identifier {
                    return;
                }
                let kind = match self.value_kind(node) {
                    Kind::FunctionValue => DeclKind::Function,
                    Kind::ClassExpr => DeclKind::Class,
                    _ if self.declarator_at_module_scope() => DeclKind::Variable,
                    _ => return,
                };
                (kind, Some(self.text_of(name)), None)
            }
            Kind::Pair => {
                self.pair(frame);
                return;
            }
            _ => return,
        };
        let Some(name) = name else {
            return;
        };
        let index = self.push_decl(frame, kind, name, prefix);
        if matches!(frame.kind, Kind::VariableDeclarator | Kind::FieldDefinition)
            && matches!(
                self.value_kind(node),
                Kind::Object | Kind::Wrapper | Kind::Call
            )
        {
            frame.offer = Some(self.push_qual(self.facts.decls[index as usize].qualified.clone()));
        }
    }

    /// A `key: value` pair of an object literal whose members are named: a function value
    /// is a method, an object value extends the dotted prefix for its own members.
    fn pair(&mut self, frame: &mut Frame<'t>) {
        let f = self.g.fields;
        let Some(parent) = self.parent().filter(|p| p.kind == Kind::Object) else {
            return;
        };
        let Some(prefix) = parent.obj_qual else {
            if self.has_block_function_value(frame.node)
                && let Some(key) = self.unbound_member_name(field_child(frame.node, f.key))
            {
                self.push_decl(frame, DeclKind::Method, key, None);
            }
            return;
        };
        let Some(key) = field_child(frame.node, f.key).map(|k| self.member_name(k)) else {
            return;
        };
        match self.value_kind(frame.node) {
            Kind::FunctionValue => {
                self.push_decl(frame, DeclKind::Method, key, Some(prefix));
            }
            Kind::Object | Kind::Wrapper | Kind::Call => {
                let (qual, elided) = qualify(self.qual(prefix), key);
                self.count_elided(elided);
                frame.offer = Some(self.push_qual(qual));
            }
            _ => {}
        }
    }

    /// The name of a member of an object literal bound to no name (a plugin object in a
    /// returned array, an options object passed to a call) when it declares something: the
    /// literal sits inside a named declaration, which qualifies it, and the key is a plain
    /// identifier (a computed or string key names nothing one would look up). Members of
    /// objects outside every declaration (a test's top-level calls) stay undeclared.
    fn unbound_member_name(&self, key: Option<Node<'t>>) -> Option<&'t str> {
        self.enclosing()?;
        let key = key?;
        (key.kind() == "property_identifier").then(|| self.text_of(key))
    }

    /// Whether a pair's value is a function with a body of statements (`function () {…}`,
    /// `() => {…}`): a one-expression arrow in an unbound object is a callback argument
    /// more often than a member anyone names.
    fn has_block_function_value(&self, node: Node<'t>) -> bool {
        field_child(node, self.g.fields.value)
            .filter(|v| self.g.kind(*v) == Kind::FunctionValue)
            .and_then(|v| field_child(v, self.g.fields.body))
            .is_some_and(|b| self.g.kind(b) == Kind::StatementBlock)
    }

    /// `export default <expression>` (not a name, function or class) declares "default",
    /// whose object literal members become its methods.
    pub(super) fn is_default_value(&self, frame: &Frame<'t>) -> bool {
        frame.field == self.g.fields.value
            && !matches!(frame.kind, Kind::Identifier | Kind::Comment)
            && self
                .parent()
                .is_some_and(|p| p.kind == Kind::ExportStatement)
    }

    pub(super) fn default_value(&mut self, frame: &mut Frame<'t>) {
        let index = self.push_decl(frame, DeclKind::Variable, DEFAULT_NAME, None);
        let qual = self.push_qual(self.facts.decls[index as usize].qualified.clone());
        match frame.kind {
            Kind::Object => frame.obj_qual = Some(qual),
            _ => frame.offer = Some(qual),
        }
    }

    fn count_elided(&mut self, elided: bool) {
        let n = &mut self.facts.elided_qualified_names;
        *n = n.saturating_add(u32::from(elided));
    }

    fn push_decl(
        &mut self,
        frame: &mut Frame<'t>,
        kind: DeclKind,
        name: &str,
        prefix: Option<u32>,
    ) -> DeclIndex {
        let span = self.span(frame);
        let parent = self.enclosing();
        let qualified = match (prefix, parent) {
            (Some(q), _) => {
                let (qualified, elided) = qualify(self.qual(q), name);
                self.count_elided(elided);
                qualified
            }
            (None, Some(p)) => {
                let (qualified, elided) = qualify(&self.facts.decls[p as usize].qualified, name);
                self.count_elided(elided);
                qualified
            }
            (None, None) => name.to_owned(),
        };
        let sig = self.signature_start(span.signature_from);
        let sig_pos = sig.start_position();
        let start_line = self.line(span.start.start_position().row);
        let end_line = self.end_line(span.end).max(start_line);
        let decl = Declaration {
            name: name.to_owned(),
            qualified,
            kind,
            lines: LineRange::new(start_line, end_line),
            bytes: ByteRange {
                start: sightline_lang::syntax::traverse::to_u32(span.start.start_byte()),
                end: sightline_lang::syntax::traverse::to_u32(span.end.end_byte()),
            },
            exported: span.exported,
            default_export: span.default_export,
            signature_line: self.line(sig_pos.row).clamp(start_line, end_line),
            signature: signature(self.text, sig.start_byte(), sig_pos.column, SIGNATURE_CHARS),
            parent,
            attached_to: None,
        };
        let index = sightline_lang::syntax::traverse::to_u32(self.facts.decls.len());
        self.facts.decls.push(decl);
        self.decl_stack.push(index);
        frame.pushed_decl = true;
        frame.owner = Some(index);
        index
    }

    /// Widens the declaration over a single-binding `const`, `export`/`declare` wrappers and
    /// the decorators preceding a class member.
    fn span(&mut self, frame: &Frame<'t>) -> Span<'t> {
        let node = frame.node;
        let mut span = Span {
            start: node,
            end: node,
            signature_from: node,
            exported: false,
            default_export: false,
        };
        let mut above = self.frames.len();
        let mut widen = true;
        if frame.kind == Kind::VariableDeclarator
            && let Some(list) = self.parent().filter(|p| p.kind == Kind::VariableList)
        {
            // `const a = 1, b = 2;` keeps each binding to itself.
            widen = list.node.named_child_count() == 1;
            if widen {
                (span.start, span.end, span.signature_from) = (list.node, list.node, list.node);
            }
            above -= 1;
        }
        if let Some(decorator) = self.parent().and_then(|p| p.pending_decorator) {
            span.start = decorator;
        }
        while above > 0 {
            let wrapper = self.frames[above - 1].node;
            match self.frames[above - 1].kind {
                Kind::ExportStatement => {
                    span.exported = true;
                    span.default_export |= self.has_token(wrapper, "default");
                }
                Kind::AmbientDeclaration => {}
                _ => break,
            }
            if widen {
                (span.start, span.end, span.signature_from) = (wrapper, wrapper, wrapper);
            }
            above -= 1;
        }
        span
    }

    /// The first child that is not a decorator or comment: where the signature line starts.
    fn signature_start(&mut self, node: Node<'t>) -> Node<'t> {
        self.aux.reset(node);
        if !self.aux.goto_first_child() {
            return node;
        }
        loop {
            let child = self.aux.node();
            if !matches!(self.g.kind(child), Kind::Decorator | Kind::Comment) {
                return child;
            }
            if !self.aux.goto_next_sibling() {
                return node;
            }
        }
    }

    /// Whether `node` has an anonymous child token spelled `token`.
    pub(super) fn has_token(&mut self, node: Node<'t>, token: &str) -> bool {
        self.aux.reset(node);
        if !self.aux.goto_first_child() {
            return false;
        }
        loop {
            let child = self.aux.node();
            if !child.is_named() && child.kind() == token {
                return true;
            }
            if !self.aux.goto_next_sibling() {
                return false;
            }
        }
    }

    /// The last line a node covers; a node ending at a line's column 0 ends on the line before.
    fn end_line(&self, node: Node<'t>) -> u32 {
        self.line(sightline_lang::syntax::traverse::end_row(node))
    }

    fn name_field(&self, node: Node<'t>) -> Option<&'t str> {
        field_child(node, self.g.fields.name)
            .map(|n| self.member_name(n))
            .filter(|n| !n.is_empty())
    }

    /// A name as written; string names (`"x"() {}`, `declare module "x"`) lose their quotes.
    fn member_name(&self, node: Node<'t>) -> &'t str {
        let raw = self.text_of(node);
        if node.kind() == "string" {
            unquote(raw)
        } else {
            raw
        }
    }

    fn value_kind(&self, node: Node<'t>) -> Kind {
        field_child(node, self.g.fields.value).map_or(Kind::Other, |v| self.g.kind(v))
    }

    /// Signatures declare members in interfaces, classes and object types named by a `type`.
    fn in_type_body(&self) -> bool {
        match self.parent().map(|p| p.kind) {
            Some(Kind::InterfaceBody | Kind::ClassBody) => true,
            Some(Kind::ObjectType) => self.ancestor(1).is_some_and(|g| g.kind == Kind::TypeAlias),
            _ => false,
        }
    }

    /// A binding directly in the module (or a namespace body), not inside a block or function.
    fn declarator_at_module_scope(&self) -> bool {
        let mut i = self.frames.len();
        if i == 0 || self.frames[i - 1].kind != Kind::VariableList {
            return false;
        }
        i -= 1;
        while i > 0
            && matches!(
                self.frames[i - 1].kind,
                Kind::ExportStatement | Kind::AmbientDeclaration
            )
        {
            i -= 1;
        }
        match i.checked_sub(1).map(|j| self.frames[j].kind) {
            Some(Kind::Program) => true,
            Some(Kind::StatementBlock) => i >= 2 && self.frames[i - 2].kind == Kind::Namespace,
            _ => false,
        }
    }

    /// Marks top-level declarations named in local `export { … }` / `export default name`.
    pub(super) fn apply_local_exports(&mut self) {
        if self.local_exports.is_empty() {
            return;
        }
        for decl in self.facts.decls.iter_mut().filter(|d| d.parent.is_none()) {
            if let Some(&is_default) = self.local_exports.get(decl.name.as_str()) {
                decl.exported = true;
                decl.default_export |= is_default;
            }
        }
    }
}

/// `prefix.name`, with the prefix elided to `…` past [`MAX_QUALIFIED_PREFIX`] bytes; the
/// flag says whether it was.
fn qualify(prefix: &str, name: &str) -> (String, bool) {
    if prefix.len() > MAX_QUALIFIED_PREFIX {
        return (format!("{ELIDED}.{name}"), true);
    }
    (format!("{prefix}.{name}"), false)
}
