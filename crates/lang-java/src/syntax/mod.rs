//! Java facts: one `TreeCursor` walk with an explicit frame stack (nesting depth never
//! touches the call stack), producing the shared `FileFacts`.
//!
//! How Java maps onto the shared facts:
//! - classes and records are `Class`, interfaces and annotation types (`@interface`)
//!   `Interface`, enums `Enum`; nested types are children of their enclosing type, so
//!   their qualified name is `Outer.Inner`; local classes are children of their method;
//! - methods, constructors (named `constructor`, so the class alone answers to its name)
//!   and annotation type elements are `Method`; fields are `Property`, or `Constant` when `static final` or declared in an
//!   interface; enum constants are `Constant` (the methods of a constant's body are its
//!   children); a record's components are its `Property` children; the methods of an
//!   anonymous class belong to the declaration the class is written in;
//! - a declaration is `exported` when it is `public` (or a member of an interface, whose
//!   members are public); files of one package see each other's top-level types whatever
//!   their modifiers (`Java::package_scope`);
//! - `import a.b.C;` imports `C` from the specifier `a.b.C`; `import a.b.*;` is a `glob`
//!   import of the specifier `a.b.*` (a package); `import static a.b.C.m;` imports `C.m`
//!   (the member `m` of `C`) as `m` from `a.b.C.m`, and `import static a.b.C.*;` is a glob
//!   import of `a.b.C.*`. An imported name is the dotted path from the first capitalised
//!   segment (types are capitalised by convention; the resolver finds the file by trying
//!   every split of the specifier);
//! - `extends` and `implements` clauses are heritage (an interface's `extends` too);
//! - calls, `new T(…)` (an instantiation of `T`), annotations (`@A`: a reference to `A`),
//!   method references (`T::m`: a reference to `m` with receiver `T`), field accesses
//!   (`T.X`: a reference to `X` with receiver `T`) and every other identifier and type name
//!   are usages; `this` is the self receiver;
//! - a receiver that names a variable (a field, `this.field`, a parameter, a local) is
//!   recorded as the variable's declared class type (`store.save()` with `Store store` is
//!   `save` on `Store`), so the graph finds the member in that type (see `scope`).

mod grammar;
#[cfg(test)]
mod prop_tests;
mod scope;
#[cfg(test)]
mod tests;

use rustc_hash::FxHashSet;

use tree_sitter::{Node, Tree};

use grammar::{Grammar, Kind, java_grammar};
use sightline_lang::syntax::text::{compact, node_text, signature};
use sightline_lang::syntax::traverse::{self, field_child};
use sightline_lang::syntax::{
    ELIDED, MAX_QUALIFIED_PREFIX, ParserSlot, RECEIVER_CHARS, SIGNATURE_CHARS,
};
use sightline_lang::{
    ByteRange, DeclIndex, DeclKind, Declaration, FileFacts, Heritage, HeritageKind, Import,
    ImportedName, LineRange, UsageKind,
};

/// The name of every constructor's declaration.
pub(crate) const CONSTRUCTOR: &str = "constructor";

thread_local! {
    static PARSER: ParserSlot = const { std::cell::RefCell::new(None) };
}

/// The grammar [`extract_file`] parses with.
pub(crate) fn language() -> tree_sitter::Language {
    java_grammar().language.clone()
}

/// The facts of one Java file. Never panics: text tree-sitter cannot parse yields facts
/// with only `line_count`, and syntax errors are counted, not fatal.
pub(crate) fn extract_file(text: &str) -> FileFacts {
    sightline_lang::syntax::extract_tree(
        &PARSER,
        &java_grammar().language,
        text,
        |tree, line_count| extract(text, tree, line_count),
    )
}

struct Frame<'t> {
    node: Node<'t>,
    kind: Kind,
    /// The declaration this node made, popped when it is left.
    decl: Option<DeclIndex>,
    quiet: bool,
    /// For a node opening a scope, how many variables were in scope before it.
    vars_mark: Option<usize>,
}

struct Extractor<'t> {
    g: &'static Grammar,
    text: &'t str,
    frames: Vec<Frame<'t>>,
    decl_stack: Vec<DeclIndex>,
    quiet_depth: u32,
    facts: FileFacts,
    /// References kept so far, by (name, receiver as written, enclosing declaration):
    /// each once.
    refs: FxHashSet<(&'t str, &'t str, u32)>,
    /// The variables in scope with their declared types, innermost last.
    vars: Vec<scope::Var<'t>>,
    /// Nodes a parent already recorded as a usage (the type of `new T()`, the method of
    /// `T::m`), so their names are not references too.
    covered: Vec<usize>,
    check_errors: bool,
}

/// Extracts the facts of one parsed Java file.
fn extract(text: &str, tree: &Tree, line_count: u32) -> FileFacts {
    let root = tree.root_node();
    let mut ex = Extractor {
        g: java_grammar(),
        text,
        frames: Vec::with_capacity(64),
        decl_stack: Vec::with_capacity(16),
        quiet_depth: 0,
        facts: FileFacts {
            line_count,
            ..FileFacts::default()
        },
        refs: FxHashSet::default(),
        vars: Vec::new(),
        covered: Vec::new(),
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

/// Which modifiers a declaration carries.
#[derive(Clone, Copy, Default)]
struct Modifiers {
    public: bool,
    static_: bool,
    final_: bool,
}

impl<'t> Extractor<'t> {
    fn enter(&mut self, node: Node<'t>, field: u16) {
        if self.check_errors && (node.is_error() || node.is_missing()) {
            traverse::record_error(&mut self.facts, node);
        }
        let kind = self.g.kind(node);
        let covered = self.covered.last() == Some(&node.id());
        if covered {
            self.covered.pop();
        }
        let vars_mark = scope::opens_scope(kind, node).then_some(self.vars.len());
        self.declare_vars(kind, node);
        let mut frame = Frame {
            node,
            kind,
            decl: None,
            quiet: covered || self.is_binding(kind, field),
            vars_mark,
        };
        match kind {
            Kind::Class | Kind::Record => self.type_declaration(&mut frame, DeclKind::Class),
            Kind::Interface | Kind::AnnotationType => {
                self.type_declaration(&mut frame, DeclKind::Interface)
            }
            Kind::Enum => self.type_declaration(&mut frame, DeclKind::Enum),
            Kind::Method => {
                frame.decl = self.named_declaration(node, DeclKind::Method);
            }
            Kind::Constructor => frame.decl = self.constructor(node),
            Kind::EnumConstant => {
                frame.decl = self.named_declaration(node, DeclKind::Constant);
            }
            Kind::Declarator => self.field_declarator(&mut frame),
            Kind::Package | Kind::Module | Kind::InferredParameters => frame.quiet = true,
            Kind::Import => {
                frame.quiet = true;
                self.import(node);
            }
            Kind::Invocation => self.invocation(node),
            Kind::Creation => self.creation(node),
            Kind::Annotation => self.annotation(node),
            Kind::MethodReference => self.method_reference(node),
            Kind::FieldAccess => self.field_access(node),
            Kind::ScopedType if !frame.quiet && self.quiet_depth == 0 => {
                frame.quiet = true;
                self.scoped_type(node);
            }
            Kind::Superclass => self.heritage(node, HeritageKind::Extends),
            Kind::SuperInterfaces => self.heritage(node, HeritageKind::Implements),
            Kind::ExtendsInterfaces => self.heritage(node, HeritageKind::Extends),
            Kind::Identifier | Kind::TypeIdentifier if !frame.quiet => self.reference(node),
            _ => {}
        }
        if let Some(d) = frame.decl {
            self.decl_stack.push(d);
        }
        if frame.quiet {
            self.quiet_depth += 1;
        }
        self.frames.push(frame);
    }

    fn leave(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if frame.decl.is_some() {
                self.decl_stack.pop();
            }
            if frame.quiet {
                self.quiet_depth -= 1;
            }
            if let Some(mark) = frame.vars_mark {
                self.vars.truncate(mark);
            }
        }
    }

    /// Whether the node names something being declared or a member already recorded by
    /// its parent, rather than referring to something.
    fn is_binding(&self, kind: Kind, field: u16) -> bool {
        let f = &self.g.fields;
        let parent = self.frames.last().map_or(Kind::Other, |p| p.kind);
        if field != 0 && (field == f.name || field == f.key) {
            return true;
        }
        if field != 0 && field == f.field && parent == Kind::FieldAccess {
            return true;
        }
        if field != 0 && field == f.parameters && kind == Kind::Identifier {
            // `x -> …`: a lambda's lone parameter.
            return true;
        }
        // `<T extends B>`: `T` is declared, `B` (inside the bound) is referred to.
        kind == Kind::TypeIdentifier && parent == Kind::TypeParameter
    }

    fn enclosing(&self) -> Option<DeclIndex> {
        self.decl_stack.last().copied()
    }

    fn enclosing_kind(&self) -> Option<DeclKind> {
        let i = self.enclosing()?;
        self.facts.decls.get(i as usize).map(|d| d.kind)
    }

    /// A class, interface, enum, record or annotation type, with a record's components.
    fn type_declaration(&mut self, frame: &mut Frame<'t>, kind: DeclKind) {
        let node = frame.node;
        frame.decl = self.named_declaration(node, kind);
        if frame.kind != Kind::Record || frame.decl.is_none() {
            return;
        }
        let Some(params) = field_child(node, self.g.fields.parameters) else {
            return;
        };
        self.decl_stack.extend(frame.decl);
        let mut cursor = params.walk();
        let components: Vec<Node<'t>> = params.named_children(&mut cursor).collect();
        for component in components {
            if let Some(name) = field_child(component, self.g.fields.name) {
                let text = node_text(self.text, name);
                if is_name(text) {
                    self.declare(text, DeclKind::Property, component, name, false);
                }
            }
        }
        self.decl_stack.pop();
    }

    /// A declaration named by the node's `name` field, spanning the node.
    fn named_declaration(&mut self, node: Node<'t>, kind: DeclKind) -> Option<DeclIndex> {
        let name = field_child(node, self.g.fields.name)?;
        let text = node_text(self.text, name);
        if !is_name(text) {
            return None;
        }
        let modifiers = self.modifiers(node);
        let exported = modifiers.public || self.in_interface();
        Some(self.declare(text, kind, node, name, exported))
    }

    /// A constructor, named `constructor` as in the languages that spell it so: its class
    /// keeps the class's name to itself (so a name match finds the class, and `new T()`
    /// binds to it).
    fn constructor(&mut self, node: Node<'t>) -> Option<DeclIndex> {
        let name = field_child(node, self.g.fields.name)?;
        let exported = self.modifiers(node).public;
        Some(self.declare(CONSTRUCTOR, DeclKind::Method, node, name, exported))
    }

    /// A variable of a field or interface constant declaration: one declaration per name,
    /// spanning the whole field when it declares one name (its annotations and type
    /// included), the declarator otherwise.
    fn field_declarator(&mut self, frame: &mut Frame<'t>) {
        let Some(field_decl) = self.frames.last().filter(|p| p.kind == Kind::Field) else {
            return;
        };
        let field_node = field_decl.node;
        let node = frame.node;
        let Some(name) = field_child(node, self.g.fields.name) else {
            return;
        };
        let text = node_text(self.text, name);
        if !is_name(text) {
            return;
        }
        let modifiers = self.modifiers(field_node);
        let in_interface = self.in_interface();
        let constant = in_interface || (modifiers.static_ && modifiers.final_);
        let kind = match constant {
            true => DeclKind::Constant,
            false => DeclKind::Property,
        };
        let declarators = match std::num::NonZeroU16::new(self.g.fields.declarator) {
            Some(id) => field_node
                .children_by_field_id(id, &mut field_node.walk())
                .count(),
            None => 1,
        };
        let span = if declarators == 1 { field_node } else { node };
        let exported = modifiers.public || in_interface;
        frame.decl = Some(self.declare(text, kind, span, name, exported));
    }

    /// Whether the innermost declaration is an interface (or annotation type), whose
    /// members are public and whose fields are constants.
    fn in_interface(&self) -> bool {
        self.enclosing_kind() == Some(DeclKind::Interface)
    }

    /// The modifiers of a declaration node (its `modifiers` child's keywords).
    fn modifiers(&self, node: Node<'t>) -> Modifiers {
        let mut out = Modifiers::default();
        let mut cursor = node.walk();
        let Some(mods) = node
            .named_children(&mut cursor)
            .find(|c| c.kind() == "modifiers")
        else {
            return out;
        };
        let mut cursor = mods.walk();
        for m in mods.children(&mut cursor) {
            match m.kind() {
                "public" => out.public = true,
                "static" => out.static_ = true,
                "final" => out.final_ = true,
                _ => {}
            }
        }
        out
    }

    /// Pushes a declaration spanning `span`, its signature on the line of `name`.
    fn declare(
        &mut self,
        name: &str,
        kind: DeclKind,
        span: Node<'t>,
        name_node: Node<'t>,
        exported: bool,
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
        let start_line = self.line(span.start_position().row);
        let end_line = self.line(traverse::end_row(span)).max(start_line);
        let signature_line = self
            .line(name_node.start_position().row)
            .clamp(start_line, end_line);
        let at = name_node.start_position();
        self.facts.decls.push(Declaration {
            name: name.to_owned(),
            qualified,
            kind,
            lines: LineRange::new(start_line, end_line),
            bytes: ByteRange {
                start: traverse::to_u32(span.start_byte()),
                end: traverse::to_u32(span.end_byte()),
            },
            exported,
            default_export: false,
            signature_line,
            signature: signature(
                self.text,
                name_node.start_byte(),
                at.column,
                SIGNATURE_CHARS,
            ),
            parent,
            attached_to: None,
        });
        traverse::to_u32(self.facts.decls.len() - 1)
    }

    /// `extends B`, `implements I, J` and an interface's `extends I, J`, attached to the
    /// type declaring them.
    fn heritage(&mut self, clause: Node<'t>, relation: HeritageKind) {
        let Some(decl) = self.frames.last().and_then(|p| p.decl) else {
            return;
        };
        let mut types: Vec<Node<'t>> = Vec::new();
        let mut cursor = clause.walk();
        for child in clause.named_children(&mut cursor) {
            if child.kind() == "type_list" {
                let mut inner = child.walk();
                types.extend(child.named_children(&mut inner));
            } else {
                types.push(child);
            }
        }
        for ty in types {
            if let Some(name) = self.type_name(ty) {
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

    /// The simple name of a type: `Base` for `Base<T>`, `Inner` for `Outer.Inner`; `None`
    /// for primitive and array types.
    fn type_name(&self, node: Node<'t>) -> Option<&'t str> {
        self.type_name_node(node)
            .map(|n| node_text(self.text, n))
            .filter(|n| is_name(n))
    }

    /// The node holding a type's simple name (see [`Self::type_name`]).
    fn type_name_node(&self, node: Node<'t>) -> Option<Node<'t>> {
        let mut node = node;
        // Bounded: each step moves to a strictly smaller node.
        for _ in 0..16 {
            match self.g.kind(node) {
                Kind::TypeIdentifier | Kind::Identifier => return Some(node),
                Kind::ScopedType => node = last_named_child(node)?,
                _ if node.kind() == "generic_type" => node = node.named_child(0)?,
                _ => return None,
            }
        }
        None
    }

    /// `import a.b.C;`, `import a.b.*;`, `import static a.b.C.m;`, `import static a.b.C.*;`.
    fn import(&mut self, node: Node<'t>) {
        let mut is_static = false;
        let mut glob = false;
        let mut path = None;
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "static" => is_static = true,
                "asterisk" => glob = true,
                "identifier" | "scoped_identifier" => path = Some(child),
                _ => {}
            }
        }
        let Some(path) = path else {
            return;
        };
        let path: String = node_text(self.text, path)
            .chars()
            .filter(|c| !c.is_whitespace())
            .collect();
        if path.is_empty() {
            return;
        }
        let line = self.line(node.start_position().row);
        let specifier = match glob {
            true => format!("{path}.*"),
            false => path.clone(),
        };
        let mut import = Import::new(specifier, line);
        import.glob = glob;
        if !glob {
            let local = path.rsplit('.').next().unwrap_or(&path);
            if is_name(local) {
                import.names.push(ImportedName {
                    imported: imported_name(&path, is_static).to_owned(),
                    local: local.to_owned(),
                });
            }
        }
        self.facts.imports.push(import);
    }

    /// `f(…)` and `a.b.f(…)`.
    fn invocation(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let Some(name) = field_child(node, f.name) else {
            return;
        };
        let receiver = field_child(node, f.object)
            .map(|o| compact(self.receiver_text(o), RECEIVER_CHARS))
            .unwrap_or_default();
        let name = node_text(self.text, name);
        self.push_usage(UsageKind::Call, name, receiver, node);
    }

    /// How a receiver is recorded: the declared type of the variable it names, else its
    /// text.
    fn receiver_text(&self, receiver: Node<'t>) -> &'t str {
        self.receiver_type(receiver)
            .unwrap_or_else(|| node_text(self.text, receiver))
    }

    /// `new T(…)`, `new Outer.Inner<>(…)`: an instantiation of the type, whose name is then
    /// not a reference too.
    fn creation(&mut self, node: Node<'t>) {
        let Some(ty) = field_child(node, self.g.fields.type_) else {
            return;
        };
        let Some(name_node) = self.type_name_node(ty) else {
            return;
        };
        let name = node_text(self.text, name_node);
        if !is_name(name) {
            return;
        }
        // The receiver of `Outer.Inner`: everything before the last segment.
        let scoped = match self.g.kind(ty) {
            Kind::ScopedType => Some(ty),
            _ => ty
                .named_child(0)
                .filter(|c| self.g.kind(*c) == Kind::ScopedType),
        };
        let receiver = scoped
            .map(|s| compact(self.scope_text(s, name_node), RECEIVER_CHARS))
            .unwrap_or_default();
        // The name node, or the scoped type holding it, is entered next (in `type`).
        self.covered.push(scoped.unwrap_or(name_node).id());
        self.push_usage(UsageKind::Instantiate, name, receiver, node);
    }

    /// `@A`, `@a.b.A(…)`: a reference to the annotation type.
    fn annotation(&mut self, node: Node<'t>) {
        let Some(name) = field_child(node, self.g.fields.name) else {
            return;
        };
        let (simple, scope) = match name.kind() {
            "scoped_identifier" => {
                let Some(last) = field_child(name, self.g.fields.name) else {
                    return;
                };
                let scope =
                    field_child(name, self.g.fields.scope).map_or("", |s| node_text(self.text, s));
                (node_text(self.text, last), scope)
            }
            _ => (node_text(self.text, name), ""),
        };
        self.member_reference(simple, scope, node);
    }

    /// `T::m`, `this::m`, `T::new`: a reference to `m` with the receiver `T`.
    fn method_reference(&mut self, node: Node<'t>) {
        let Some(method) = last_named_child(node) else {
            return;
        };
        if method.kind() != "identifier" || node.named_child_count() < 2 {
            return;
        }
        let Some(receiver) = node.named_child(0) else {
            return;
        };
        self.covered_later(method);
        let (name, raw) = (node_text(self.text, method), self.receiver_text(receiver));
        self.member_reference(name, raw, node);
    }

    /// `a.b` read as an expression: a reference to member `b` of `a`.
    fn field_access(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let (Some(object), Some(field)) = (field_child(node, f.object), field_child(node, f.field))
        else {
            return;
        };
        if field.kind() != "identifier" {
            return;
        }
        let (name, raw) = (node_text(self.text, field), self.receiver_text(object));
        self.member_reference(name, raw, node);
    }

    /// A reference to member `name` of the receiver written `raw`, kept once per
    /// enclosing declaration.
    fn member_reference(&mut self, name: &'t str, raw: &'t str, at: Node<'t>) {
        let enclosing = self.enclosing().unwrap_or(u32::MAX);
        if self.quiet_depth > 0 || !self.refs.insert((name, raw, enclosing)) {
            return;
        }
        let receiver = compact(raw, RECEIVER_CHARS);
        self.push_usage(UsageKind::Reference, name, receiver, at);
    }

    /// `Outer.Inner` as a type: a reference to `Inner` with receiver `Outer`, and to
    /// `Outer` itself.
    fn scoped_type(&mut self, node: Node<'t>) {
        let Some(last) = last_named_child(node) else {
            return;
        };
        let name = node_text(self.text, last);
        let scope = self.scope_text(node, last);
        self.member_reference(name, scope, node);
        let mut first = node;
        for _ in 0..16 {
            match first.named_child(0) {
                Some(c) if self.g.kind(c) == Kind::ScopedType => first = c,
                Some(c) if self.g.kind(c) == Kind::TypeIdentifier => {
                    self.reference(c);
                    break;
                }
                _ => break,
            }
        }
    }

    /// The text of a scoped type before its last segment `last` (`a.Outer` in
    /// `a.Outer.Inner`), as written.
    fn scope_text(&self, scoped: Node<'t>, last: Node<'t>) -> &'t str {
        let raw = self
            .text
            .get(scoped.start_byte()..last.start_byte())
            .unwrap_or("");
        raw.trim_end().trim_end_matches('.').trim_end()
    }

    /// Marks a node entered later in this subtree as recorded already. Nodes are entered
    /// in document order and each parent covers at most one, so a stack suffices.
    fn covered_later(&mut self, node: Node<'t>) {
        self.covered.push(node.id());
    }

    /// An identifier or type name that is not a binding: a reference, kept once per
    /// enclosing declaration.
    fn reference(&mut self, node: Node<'t>) {
        if self.quiet_depth > 0 {
            return;
        }
        let name = node_text(self.text, node);
        if !is_name(name) {
            return;
        }
        let enclosing = self.enclosing();
        if !self.refs.insert((name, "", enclosing.unwrap_or(u32::MAX))) {
            return;
        }
        self.push_usage(UsageKind::Reference, name, String::new(), node);
    }

    fn push_usage(&mut self, kind: UsageKind, name: &str, receiver: String, at: Node<'t>) {
        if !is_name(name) {
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

/// The name an import binds, as found in the file it resolves to: the dotted path from
/// the first capitalised segment (`C` for `a.b.C`, `C.Inner` for `a.b.C.Inner`, `C.m` for
/// the static `a.b.C.m`); the last segment when no segment is capitalised (or, for a
/// static import, the last two: the type and its member).
fn imported_name(path: &str, is_static: bool) -> &str {
    let mut start = None;
    let mut offset = 0;
    for segment in path.split('.') {
        if segment.starts_with(|c: char| c.is_uppercase()) {
            start = Some(offset);
            break;
        }
        offset += segment.len() + 1;
    }
    if let Some(start) = start {
        return &path[start..];
    }
    let keep = if is_static { 2 } else { 1 };
    match path.rmatch_indices('.').nth(keep - 1) {
        Some((i, _)) => &path[i + 1..],
        None => path,
    }
}

/// Whether `s` can be a Java name (not empty, no punctuation a recovered parse left in).
fn is_name(s: &str) -> bool {
    !s.is_empty()
        && s.chars()
            .all(|c| c == '_' || c == '$' || c.is_alphanumeric())
}

fn last_named_child(node: Node<'_>) -> Option<Node<'_>> {
    let count = node.named_child_count();
    node.named_child(u32::try_from(count.checked_sub(1)?).ok()?)
}
