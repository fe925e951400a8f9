//! Usages (calls, JSX renders, `new`, identifier references) and heritage clauses.

use std::collections::{HashMap, HashSet};
use std::hash::BuildHasherDefault;

use tree_sitter::Node;

use super::grammar::Kind;
use super::walk::Extractor;
use sightline_lang::syntax::text::compact;
use sightline_lang::syntax::traverse::field_child;
use sightline_lang::{DeclIndex, Heritage, HeritageKind, UsageKind};

use sightline_lang::syntax::{NameHasher, RECEIVER_CHARS};

/// References seen so far, keyed by (name, enclosing declaration), so each is kept once.
/// Identifiers are a large share of all nodes, hence the cheap multiplicative hash.
pub(super) type RefSet<'t> = HashSet<(&'t str, u32), BuildHasherDefault<NameHasher>>;

impl<'t> Extractor<'t> {
    pub(super) fn call(&mut self, node: Node<'t>) {
        let Some(callee) = field_child(node, self.g.fields.function) else {
            return;
        };
        match self.g.kind(callee) {
            Kind::ImportCallee => {
                self.dynamic_import(node);
            }
            Kind::Identifier => {
                let name = self.text_of(callee);
                if name == "require" && self.dynamic_import(node) {
                    return;
                }
                self.push_usage(UsageKind::Call, name, String::new(), node);
            }
            Kind::Member => self.member_usage(UsageKind::Call, callee, node),
            _ => {}
        }
    }

    pub(super) fn instantiation(&mut self, node: Node<'t>) {
        let Some(ctor) = field_child(node, self.g.fields.constructor) else {
            return;
        };
        match self.g.kind(ctor) {
            Kind::Identifier => {
                let name = self.text_of(ctor);
                self.push_usage(UsageKind::Instantiate, name, String::new(), node);
            }
            Kind::Member => self.member_usage(UsageKind::Instantiate, ctor, node),
            _ => {}
        }
    }

    /// `<Foo />` and `<ns.Foo>`; lowercase names are intrinsic elements, not components.
    pub(super) fn render(&mut self, node: Node<'t>) {
        let Some(name) = field_child(node, self.g.fields.name) else {
            return;
        };
        match self.g.kind(name) {
            Kind::Identifier => {
                let text = self.text_of(name);
                if text.starts_with(|c: char| !c.is_ascii_lowercase()) {
                    self.push_usage(UsageKind::Render, text, String::new(), node);
                }
            }
            Kind::Member => self.member_usage(UsageKind::Render, name, node),
            _ => {}
        }
    }

    /// An identifier that is not a binding, a callee, or inside an import/export clause.
    pub(super) fn reference(&mut self, node: Node<'t>, field: u16) {
        if self.quiet_depth > 0 {
            return;
        }
        let f = &self.g.fields;
        let covered = self.parent().is_some_and(|p| match p.kind {
            Kind::Call => field == f.function,
            Kind::New => field == f.constructor,
            _ => false,
        });
        if covered {
            return;
        }
        let name = self.text_of(node);
        let enclosing = self.enclosing();
        // Inside a decorator the enclosing declaration is still the one around what it
        // decorates: the reference is kept, and deduplicated once it belongs to that.
        let kept =
            self.decorator_depth > 0 || self.refs.insert((name, enclosing.unwrap_or(u32::MAX)));
        if name.is_empty() || !kept {
            return;
        }
        self.push_usage(UsageKind::Reference, name, String::new(), node);
    }

    /// Decorators precede what they decorate (a class member's as its siblings) and are
    /// walked while the declaration around it is still the enclosing one: each usage on a
    /// declaration's decorator lines (from its first decorator up to its signature line)
    /// is that declaration's, so `@logged` above each of three fields is three uses,
    /// one by each, not one by the class. References are then deduplicated per name and
    /// enclosing declaration, as the walk does elsewhere.
    pub(super) fn attach_decorators(&mut self) {
        if !self.saw_decorator {
            return;
        }
        // Each decorated declaration's decorator lines, by the declaration around it and in
        // line order: siblings do not overlap, so a usage's only candidate is the last
        // sibling starting at or before its line (a lookup, not a scan of every decorated
        // declaration per usage).
        let mut decorated: HashMap<Option<DeclIndex>, Vec<(u32, u32, DeclIndex)>> = HashMap::new();
        for (i, d) in self.facts.decls.iter().enumerate() {
            if d.lines.start < d.signature_line {
                decorated.entry(d.parent).or_default().push((
                    d.lines.start,
                    d.signature_line,
                    i as DeclIndex,
                ));
            }
        }
        for siblings in decorated.values_mut() {
            siblings.sort_unstable();
        }
        let mut seen: HashSet<(Box<str>, Option<DeclIndex>)> = HashSet::default();
        self.facts.usages.retain_mut(|u| {
            let decorated_here = decorated.get(&u.enclosing).and_then(|siblings| {
                let before = siblings.partition_point(|&(start, ..)| start <= u.line);
                siblings[..before]
                    .last()
                    .filter(|&&(_, signature, _)| u.line < signature)
            });
            if let Some(&(.., declaration)) = decorated_here {
                u.enclosing = Some(declaration);
            }
            u.kind != UsageKind::Reference || seen.insert((u.name.clone(), u.enclosing))
        });
    }

    /// `a.b.c()` → name `c`, receiver `a.b`.
    fn member_usage(&mut self, kind: UsageKind, member: Node<'t>, at: Node<'t>) {
        let f = self.g.fields;
        let (Some(object), Some(property)) = (
            field_child(member, f.object),
            field_child(member, f.property),
        ) else {
            return;
        };
        // The type the code states for the receiver, else the receiver as written.
        let receiver = self
            .receiver_type(object)
            .unwrap_or_else(|| self.text_of(object));
        let receiver = compact(receiver, RECEIVER_CHARS);
        let name = self.text_of(property);
        self.push_usage(kind, name, receiver, at);
    }

    fn push_usage(&mut self, kind: UsageKind, name: &str, receiver: String, at: Node<'t>) {
        let enclosing = self.enclosing();
        sightline_lang::syntax::traverse::push_usage(
            &mut self.facts,
            (kind, name, receiver),
            at,
            enclosing,
        );
    }

    /// Supertypes named by `extends` / `implements`, attached to the declaring class or
    /// interface (skipped for classes that declare nothing, like anonymous expressions).
    pub(super) fn heritage(&mut self, clause: Node<'t>, kind: Kind) {
        let (owner, relation) = match kind {
            Kind::ExtendsTypeClause => (
                self.ancestor(0).and_then(|p| p.owner),
                HeritageKind::Extends,
            ),
            Kind::ExtendsClause => (
                self.ancestor(1).and_then(|p| p.owner),
                HeritageKind::Extends,
            ),
            _ => (
                self.ancestor(1).and_then(|p| p.owner),
                HeritageKind::Implements,
            ),
        };
        let Some(decl) = owner else {
            return;
        };
        let f = self.g.fields;
        let mut cursor = clause.walk();
        let mut found: Vec<Node<'t>> = Vec::new();
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                let field = cursor.field_id().map_or(0, |id| id.get());
                let wanted = match kind {
                    Kind::ExtendsClause => field == f.value,
                    Kind::ExtendsTypeClause => field == f.type_,
                    _ => child.is_named() && self.g.kind(child) != Kind::Comment,
                };
                if wanted {
                    found.push(child);
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        for ty in found {
            if let Some(name) = self.supertype_name(ty) {
                let line = self.line(ty.start_position().row);
                self.facts.heritage.push(Heritage {
                    decl,
                    kind: relation,
                    name: name.to_owned(),
                    line,
                });
            }
        }
    }

    /// `Base<T>` → `Base`, `ns.Base` → `Base`; other expressions (mixin calls) name nothing.
    fn supertype_name(&self, node: Node<'t>) -> Option<&'t str> {
        let f = &self.g.fields;
        let mut node = node;
        // Bounded: each step moves to a strictly smaller child.
        for _ in 0..16 {
            match node.kind() {
                "identifier" | "type_identifier" | "property_identifier" => {
                    return Some(self.text_of(node)).filter(|s| !s.is_empty());
                }
                "generic_type" | "nested_type_identifier" => node = field_child(node, f.name)?,
                "member_expression" => node = field_child(node, f.property)?,
                "nested_identifier" => node = field_child(node, f.property)?,
                _ => return None,
            }
        }
        None
    }
}
