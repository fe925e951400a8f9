//! Python facts: one `TreeCursor` walk with an explicit frame stack (nesting depth never
//! touches the call stack), producing the shared `FileFacts`.
//!
//! How Python maps onto the shared facts:
//! - every module-level name is importable, so top-level declarations are `exported`;
//! - `import a.b.c` binds the dotted path as a namespace (usages `a.b.c.f()` carry it as
//!   their receiver), `import a.b as m` binds `m`;
//! - `from m import x` is one import naming `x`, followed by an `optional` import of the
//!   submodule `m.x`, which only counts when such a module exists;
//! - a call of a capitalised name is an instantiation (classes are called to construct);
//! - `self` and `cls` receivers are the enclosing class (`Python::is_self_receiver`);
//! - a receiver whose type the code states is recorded as that type (`scope`);
//! - `with m:` calls `m.__enter__()` and `m.__exit__()`, recorded where the graph can
//!   resolve them: `m` is `self` or of a stated type.

mod kinds;
#[cfg(test)]
mod prop_tests;
mod scope;
#[cfg(test)]
mod tests;

use kinds::python_grammar;

use rustc_hash::FxHashSet;

use tree_sitter::{Node, Tree};

use kinds::{PyGrammar, PyKind};
use sightline_lang::Language;
use sightline_lang::syntax::text::{compact, node_text, signature};
use sightline_lang::syntax::traverse::{self, field_child};
use sightline_lang::syntax::{
    ELIDED, MAX_QUALIFIED_PREFIX, ParserSlot, RECEIVER_CHARS, SIGNATURE_CHARS,
};
use sightline_lang::{
    ByteRange, DeclIndex, DeclKind, Declaration, FileFacts, Heritage, HeritageKind, Import,
    ImportedName, LineRange, UsageKind,
};

thread_local! {
    static PARSER: ParserSlot = const { std::cell::RefCell::new(None) };
}

/// The grammar [`extract_file`] parses with.
pub(crate) fn language() -> tree_sitter::Language {
    python_grammar().language.clone()
}

/// The facts of one Python file. Never panics: text tree-sitter cannot parse yields facts
/// with only `line_count`, and syntax errors are counted, not fatal.
pub(crate) fn extract_file(text: &str) -> FileFacts {
    sightline_lang::syntax::extract_tree(
        &PARSER,
        &python_grammar().language,
        text,
        |tree, line_count| extract(text, tree, line_count),
    )
}

struct Frame<'t> {
    node: Node<'t>,
    kind: PyKind,
    pushed_decl: bool,
    quiet: bool,
}

struct Extractor<'t> {
    g: &'static PyGrammar,
    text: &'t str,
    frames: Vec<Frame<'t>>,
    decl_stack: Vec<DeclIndex>,
    quiet_depth: u32,
    facts: FileFacts,
    refs: FxHashSet<(&'t str, u32)>,
    /// (parent, name) of assignments already declared: a name assigned in both branches
    /// of an `if` is one declaration.
    assigned: FxHashSet<(u32, &'t str)>,
    /// The stated types of variables and `self` attributes, for receivers.
    types: sightline_lang::syntax::stated::StatedTypes<'t>,
    check_errors: bool,
}

/// Extracts the facts of one parsed Python file.
fn extract(text: &str, tree: &Tree, line_count: u32) -> FileFacts {
    let root = tree.root_node();
    let mut ex = Extractor {
        g: python_grammar(),
        text,
        frames: Vec::with_capacity(64),
        decl_stack: Vec::with_capacity(16),
        quiet_depth: 0,
        facts: FileFacts {
            line_count,
            ..FileFacts::default()
        },
        refs: FxHashSet::default(),
        assigned: FxHashSet::default(),
        types: Default::default(),
        check_errors: root.has_error(),
    };
    ex.type_module_returns(root);
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
            self.record_error(node);
        }
    }
}

impl<'t> Extractor<'t> {
    fn enter(&mut self, node: Node<'t>, field: u16) {
        if self.check_errors && (node.is_error() || node.is_missing()) {
            self.record_error(node);
        }
        let kind = self.g.kind(node);
        let mut frame = Frame {
            node,
            kind,
            pushed_decl: false,
            quiet: self.is_binding(node, kind, field),
        };
        match kind {
            PyKind::Decorated => self.decorated(&mut frame),
            // A decorated definition was declared with its decorators, on entering them.
            PyKind::Function | PyKind::Class
                if self
                    .frames
                    .last()
                    .is_some_and(|p| p.kind == PyKind::Decorated && p.pushed_decl) => {}
            PyKind::Function | PyKind::Class => self.definition(&mut frame),
            PyKind::Assignment => self.assignment(&mut frame),
            PyKind::TypeAlias => self.type_alias(&mut frame),
            PyKind::Import => {
                frame.quiet = true;
                self.import(node);
            }
            PyKind::Call => self.call(node),
            PyKind::TypedParameter => self.type_parameter(node),
            PyKind::PatternBinding => self.type_pattern_target(node),
            PyKind::WithItem => self.context_manager(node),
            PyKind::Identifier if !frame.quiet => self.reference(node, field),
            _ => {}
        }
        if frame.quiet {
            self.quiet_depth += 1;
        }
        self.frames.push(frame);
    }

    fn leave(&mut self) {
        if let Some(frame) = self.frames.pop() {
            // Bound once its value was walked: `x = x.copy()` calls on the old `x`.
            if frame.kind == PyKind::Assignment {
                self.type_assignment(frame.node);
            }
            if frame.pushed_decl {
                self.decl_stack.pop();
            }
            if frame.quiet {
                self.quiet_depth -= 1;
            }
        }
    }

    /// Whether the node is a name being bound (not a reference to something else).
    fn is_binding(&self, node: Node<'t>, kind: PyKind, field: u16) -> bool {
        let f = &self.g.fields;
        let parent = self.frames.last();
        let parent_kind = parent.map_or(PyKind::Other, |p| p.kind);
        if field != 0 && (field == f.name || field == f.alias) {
            return true;
        }
        if field != 0 && field == f.left {
            return !matches!(kind, PyKind::Attribute) && node.kind() != "subscript";
        }
        if field != 0 && field == f.attribute && parent_kind == PyKind::Attribute {
            return true;
        }
        kind == PyKind::Identifier
            && (parent_kind == PyKind::Parameters
                || parent.is_some_and(|p| p.node.kind() == "typed_parameter"))
    }

    fn enclosing(&self) -> Option<DeclIndex> {
        self.decl_stack.last().copied()
    }

    fn enclosing_kind(&self) -> Option<DeclKind> {
        let i = self.enclosing()?;
        self.facts.decls.get(i as usize).map(|d| d.kind)
    }

    /// Whether the node being entered sits directly in a class body (decorators aside).
    fn directly_in_class(&self) -> bool {
        for frame in self.frames.iter().rev() {
            match frame.kind {
                PyKind::Block | PyKind::Decorated => continue,
                PyKind::Class => return true,
                _ => return false,
            }
        }
        false
    }

    fn definition(&mut self, frame: &mut Frame<'t>) {
        let node = frame.node;
        self.declare_definition(frame, node, node);
    }

    /// A decorated definition is declared on entering its decorators, which are uses by
    /// it (`@setup` above each of a class's methods is each method's use, not one
    /// use by the class), and its range starts at the first decorator.
    fn decorated(&mut self, frame: &mut Frame<'t>) {
        let node = frame.node;
        let mut cursor = node.walk();
        let definition = node
            .named_children(&mut cursor)
            .find(|c| matches!(self.g.kind(*c), PyKind::Function | PyKind::Class));
        if let Some(definition) = definition {
            self.declare_definition(frame, definition, node);
        }
    }

    /// Declares the function or class `node`, its range starting at `start`, and makes it
    /// the enclosing declaration until `frame` is left.
    fn declare_definition(&mut self, frame: &mut Frame<'t>, node: Node<'t>, start: Node<'t>) {
        let Some(name) = field_child(node, self.g.fields.name).map(|n| node_text(self.text, n))
        else {
            return;
        };
        if name.is_empty() {
            return;
        }
        let is_class = self.g.kind(node) == PyKind::Class;
        let kind = match is_class {
            true => DeclKind::Class,
            false if self.directly_in_class() => DeclKind::Method,
            false => DeclKind::Function,
        };
        let index = self.declare(name, kind, start, node, node);
        frame.pushed_decl = true;
        self.decl_stack.push(index);
        if is_class {
            self.superclasses(node, index);
            self.type_class_attributes(node, index);
        }
    }

    /// Module- and class-level `name = value` and `name: T` (dataclass fields, constants,
    /// `X: TypeAlias = …`); assignments inside functions are locals, not declarations.
    fn assignment(&mut self, frame: &mut Frame<'t>) {
        let f = self.g.fields;
        let node = frame.node;
        let enclosing = self.enclosing_kind();
        let in_class = match enclosing {
            None => false,
            Some(DeclKind::Class) => true,
            Some(_) => return,
        };
        if !in_class && self.in_main_guard() {
            return;
        }
        let Some(left) = field_child(node, f.left) else {
            return;
        };
        if self.g.kind(left) != PyKind::Identifier {
            return;
        }
        let name = node_text(self.text, left);
        let parent = self.enclosing().unwrap_or(u32::MAX);
        if name.is_empty() || !self.assigned.insert((parent, name)) {
            return;
        }
        let annotated_alias = field_child(node, f.type_)
            .is_some_and(|t| node_text(self.text, t).trim().ends_with("TypeAlias"));
        let lambda = field_child(node, f.right).is_some_and(|r| self.g.kind(r) == PyKind::Lambda);
        let kind = match (annotated_alias, lambda, in_class) {
            (true, _, _) => DeclKind::TypeAlias,
            (_, true, true) => DeclKind::Method,
            (_, true, false) => DeclKind::Function,
            (_, false, true) => DeclKind::Property,
            (_, false, false) => DeclKind::Variable,
        };
        self.declare(name, kind, node, node, node);
    }

    /// Whether the node being entered sits under `if __name__ == "__main__":`: a module's
    /// script entry point, whose assignments are locals of the script, not module names
    /// other code imports.
    fn in_main_guard(&self) -> bool {
        self.frames.iter().any(|frame| {
            frame.node.kind() == "if_statement"
                && field_child(frame.node, self.g.fields.condition).is_some_and(|c| {
                    let text: String = node_text(self.text, c)
                        .chars()
                        .filter(|ch| !ch.is_whitespace())
                        .map(|ch| if ch == '\'' { '"' } else { ch })
                        .collect();
                    text == "__name__==\"__main__\""
                })
        })
    }

    /// `type Name[T] = …` (Python 3.12).
    fn type_alias(&mut self, frame: &mut Frame<'t>) {
        let node = frame.node;
        if matches!(self.enclosing_kind(), Some(k) if k != DeclKind::Class) {
            return;
        }
        let Some(left) = field_child(node, self.g.fields.left) else {
            return;
        };
        let raw = node_text(self.text, left);
        let name = raw.split('[').next().unwrap_or("").trim();
        if name.is_empty() || !name.chars().all(|c| c == '_' || c.is_alphanumeric()) {
            return;
        }
        self.declare(name, DeclKind::TypeAlias, node, node, node);
    }

    /// Pushes a declaration spanning `start..end`, its signature at `signature_at`.
    fn declare(
        &mut self,
        name: &str,
        kind: DeclKind,
        start: Node<'t>,
        end: Node<'t>,
        signature_at: Node<'t>,
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
        let start_line = self.line(start.start_position().row);
        let end_line = self.end_line(end);
        let signature_line = self
            .line(signature_at.start_position().row)
            .clamp(start_line, end_line.max(start_line));
        let sig_pos = signature_at.start_position();
        let decl = Declaration {
            name: name.to_owned(),
            qualified,
            kind,
            lines: LineRange::new(start_line, end_line),
            bytes: ByteRange {
                start: traverse::to_u32(start.start_byte()),
                end: traverse::to_u32(end.end_byte()),
            },
            exported: parent.is_none(),
            default_export: false,
            signature_line,
            signature: signature(
                self.text,
                signature_at.start_byte(),
                sig_pos.column,
                SIGNATURE_CHARS,
            ),
            parent,
            attached_to: None,
        };
        self.facts.decls.push(decl);
        traverse::to_u32(self.facts.decls.len() - 1)
    }

    /// `class A(Base, mod.Mixin, Generic[T], metaclass=M)` → `Base`, `Mixin`, `Generic`.
    fn superclasses(&mut self, class: Node<'t>, decl: DeclIndex) {
        let Some(list) = field_child(class, self.g.fields.superclasses) else {
            return;
        };
        let mut cursor = list.walk();
        let bases: Vec<Node<'t>> = list.named_children(&mut cursor).collect();
        for base in bases {
            let name = match base.kind() {
                "identifier" => Some(node_text(self.text, base)),
                "attribute" => {
                    field_child(base, self.g.fields.attribute).map(|a| node_text(self.text, a))
                }
                "subscript" => field_child(base, self.g.fields.value)
                    .filter(|v| v.kind() == "identifier")
                    .map(|v| node_text(self.text, v)),
                _ => None,
            };
            if let Some(name) = name.filter(|n| !n.is_empty()) {
                let line = self.line(base.start_position().row);
                self.facts.heritage.push(Heritage {
                    decl,
                    kind: HeritageKind::Extends,
                    name: name.to_owned(),
                    line,
                });
            }
        }
    }

    fn import(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let line = self.line(node.start_position().row);
        let Some(name_field) = std::num::NonZeroU16::new(f.name) else {
            return;
        };
        let mut cursor = node.walk();
        let names: Vec<Node<'t>> = node.children_by_field_id(name_field, &mut cursor).collect();
        match node.kind() {
            "import_statement" => {
                for n in names {
                    let (module, local) = self.aliased(n);
                    if module.is_empty() {
                        continue;
                    }
                    let mut import = new_import(module, line);
                    import.namespace = Some(local.unwrap_or(module).to_owned());
                    self.facts.imports.push(import);
                }
            }
            "import_from_statement" => {
                let Some(module) = field_child(node, f.module_name) else {
                    return;
                };
                let module: String = node_text(self.text, module)
                    .chars()
                    .filter(|c| !c.is_whitespace())
                    .collect();
                if module.is_empty() {
                    return;
                }
                let mut import = new_import(&module, line);
                let mut cursor = node.walk();
                import.reexport = node
                    .named_children(&mut cursor)
                    .any(|c| c.kind() == "wildcard_import");
                let mut submodules = Vec::new();
                for n in names {
                    let (imported, local) = self.aliased(n);
                    if imported.is_empty() {
                        continue;
                    }
                    let local = local.unwrap_or(imported);
                    import.names.push(ImportedName {
                        imported: imported.to_owned(),
                        local: local.to_owned(),
                    });
                    let joined = if module.ends_with('.') {
                        format!("{module}{imported}")
                    } else {
                        format!("{module}.{imported}")
                    };
                    let mut sub = new_import(&joined, line);
                    sub.namespace = Some(local.to_owned());
                    sub.optional = true;
                    submodules.push(sub);
                }
                self.facts.imports.push(import);
                self.facts.imports.extend(submodules);
            }
            // `from __future__ import …` names compiler features, not modules.
            _ => {}
        }
    }

    /// `a.b` → (`a.b`, None); `a.b as c` → (`a.b`, Some(`c`)).
    fn aliased(&self, node: Node<'t>) -> (&'t str, Option<&'t str>) {
        let f = self.g.fields;
        if node.kind() == "aliased_import" {
            let name = field_child(node, f.name).map_or("", |n| node_text(self.text, n));
            let alias = field_child(node, f.alias).map(|a| node_text(self.text, a));
            (name, alias.filter(|a| !a.is_empty()))
        } else {
            (node_text(self.text, node), None)
        }
    }

    fn call(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let Some(callee) = field_child(node, f.function) else {
            return;
        };
        match self.g.kind(callee) {
            PyKind::Identifier => {
                let name = node_text(self.text, callee);
                self.push_usage(call_kind(name), name, String::new(), node);
            }
            PyKind::Attribute => {
                let (Some(object), Some(attr)) = (
                    field_child(callee, f.object),
                    field_child(callee, f.attribute),
                ) else {
                    return;
                };
                let name = node_text(self.text, attr);
                // The type the code states for the receiver, else the receiver as written.
                let receiver = self
                    .receiver_type(object)
                    .unwrap_or_else(|| node_text(self.text, object));
                let receiver = compact(receiver, RECEIVER_CHARS);
                self.push_usage(call_kind(name), name, receiver, node);
            }
            _ => {}
        }
    }

    /// `with self:` and `with Lock() as lock:` run the manager's `__enter__` and
    /// `__exit__`: two calls on the `with` line. A manager of no known type (`with
    /// open(path)`) records none: a guess by these names would reach every manager.
    fn context_manager(&mut self, node: Node<'t>) {
        let Some(mut value) = field_child(node, self.g.fields.value) else {
            return;
        };
        if value.kind() == "as_pattern" {
            let Some(inner) = value.named_child(0) else {
                return;
            };
            value = inner;
        }
        let text = node_text(self.text, value);
        let receiver = match self.g.kind(value) {
            PyKind::Identifier if crate::Python.is_self_receiver(text) => Some(text),
            _ => self
                .receiver_type(value)
                .or_else(|| self.instance_type(value)),
        };
        if let Some(receiver) = receiver {
            for protocol in ["__enter__", "__exit__"] {
                self.push_usage(UsageKind::Call, protocol, receiver.to_owned(), node);
            }
        }
    }

    fn reference(&mut self, node: Node<'t>, field: u16) {
        if self.quiet_depth > 0 {
            return;
        }
        let covered = self
            .frames
            .last()
            .is_some_and(|p| p.kind == PyKind::Call && field == self.g.fields.function);
        if covered {
            return;
        }
        let name = node_text(self.text, node);
        // The receiver of a method's own class is resolved from the call, not the name.
        if name.is_empty() || crate::Python.is_self_receiver(name) {
            return;
        }
        let enclosing = self.enclosing();
        if !self.refs.insert((name, enclosing.unwrap_or(u32::MAX))) {
            return;
        }
        self.push_usage(UsageKind::Reference, name, String::new(), node);
    }

    fn push_usage(&mut self, kind: UsageKind, name: &str, receiver: String, at: Node<'t>) {
        let enclosing = self.enclosing();
        traverse::push_usage(&mut self.facts, (kind, name, receiver), at, enclosing);
    }

    fn record_error(&mut self, node: Node<'t>) {
        traverse::record_error(&mut self.facts, node);
    }

    /// A 1-based line for a 0-based row, clamped into the file.
    fn line(&self, row: usize) -> u32 {
        traverse::line_of(row, self.facts.line_count)
    }

    /// The last line a node covers.
    fn end_line(&self, node: Node<'t>) -> u32 {
        self.line(traverse::end_row(node))
    }
}

/// Classes are called to construct them; by convention their names are capitalised.
fn call_kind(name: &str) -> UsageKind {
    if name.starts_with(|c: char| c.is_uppercase()) {
        UsageKind::Instantiate
    } else {
        UsageKind::Call
    }
}

fn new_import(specifier: &str, line: u32) -> Import {
    Import::new(specifier.to_owned(), line)
}
