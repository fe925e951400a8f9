//! The single traversal: a `TreeCursor` walk with an explicit frame stack (one frame per
//! ancestor), so nesting depth never touches the call stack and every fact can look at its
//! ancestors without `Node::parent` (which re-walks the tree from the root).

use std::collections::HashMap;

use tree_sitter::{Node, Tree, TreeCursor};

use super::grammar::{Grammar, Kind};
use super::usages::RefSet;
use sightline_lang::syntax::text::node_text;
use sightline_lang::{DeclIndex, FileFacts};

/// What the walk remembers about one ancestor.
pub(super) struct Frame<'t> {
    pub node: Node<'t>,
    pub kind: Kind,
    /// The field this node fills in its parent (0 when none).
    pub field: u16,
    /// Whether entering this node pushed a declaration onto `decl_stack`.
    pub pushed_decl: bool,
    /// The declaration this node declares or belongs to (a class expression bound by a
    /// `const`), used to attach heritage clauses.
    pub owner: Option<DeclIndex>,
    /// A dotted prefix (index into `quals`) offered to this node's value child, so an object
    /// literal found there names its methods `prefix.method`.
    pub offer: Option<u32>,
    /// For an object literal whose members become methods: its dotted prefix.
    pub obj_qual: Option<u32>,
    /// The first decorator seen among this node's children since the last other child
    /// (class members carry their decorators as preceding siblings).
    pub pending_decorator: Option<Node<'t>>,
    /// Suppresses identifier references in this subtree (import clauses, binding names).
    pub quiet: bool,
}

pub(super) struct Extractor<'t> {
    pub g: &'static Grammar,
    pub text: &'t str,
    pub frames: Vec<Frame<'t>>,
    pub decl_stack: Vec<DeclIndex>,
    pub quiet_depth: u32,
    /// A second cursor for looking at a node's children without disturbing the walk.
    pub aux: TreeCursor<'t>,
    pub facts: FileFacts,
    pub quals: Vec<String>,
    pub refs: RefSet<'t>,
    /// Names listed in local `export { … }` clauses or `export default name`, with whether
    /// the export is the default one; applied to top-level declarations after the walk.
    pub local_exports: HashMap<&'t str, bool>,
    /// Decorators being walked: their references are each kept (not deduplicated per
    /// enclosing declaration, which is still the one around what they decorate), and after
    /// the walk they belong to the declaration they decorate
    /// ([`Extractor::attach_decorators`]).
    pub decorator_depth: u32,
    /// Whether the file has a decorator at all (else there is nothing to attach).
    pub saw_decorator: bool,
    /// The stated types of variables and class attributes, for receivers.
    pub types: sightline_lang::syntax::stated::StatedTypes<'t>,
    check_errors: bool,
}

impl<'t> sightline_lang::syntax::traverse::Visit<'t> for Extractor<'t> {
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
    pub fn run(g: &'static Grammar, text: &'t str, tree: &'t Tree, line_count: u32) -> FileFacts {
        let root = tree.root_node();
        let mut ex = Extractor {
            g,
            text,
            frames: Vec::with_capacity(64),
            decl_stack: Vec::with_capacity(16),
            quiet_depth: 0,
            aux: root.walk(),
            facts: FileFacts {
                line_count,
                ..FileFacts::default()
            },
            quals: Vec::new(),
            refs: RefSet::default(),
            local_exports: HashMap::new(),
            decorator_depth: 0,
            saw_decorator: false,
            types: Default::default(),
            check_errors: root.has_error(),
        };
        ex.type_module_returns(root);
        sightline_lang::syntax::traverse::traverse(root, &mut ex);
        ex.attach_decorators();
        ex.apply_local_exports();
        ex.facts
    }

    fn enter(&mut self, node: Node<'t>, field: u16) {
        if self.check_errors && (node.is_error() || node.is_missing()) {
            self.record_error(node);
        }
        let kind = self.g.kind(node);
        let mut frame = Frame {
            node,
            kind,
            field,
            pushed_decl: false,
            owner: None,
            offer: None,
            obj_qual: None,
            pending_decorator: None,
            // A name being bound is not a reference to it.
            quiet: self.is_name_of_parent(field),
        };
        let offered = self.offered_to(&frame);
        match kind {
            Kind::FunctionDecl
            | Kind::ClassDecl
            | Kind::ClassExpr
            | Kind::InterfaceDecl
            | Kind::TypeAlias
            | Kind::EnumDecl
            | Kind::Namespace
            | Kind::MethodDefinition
            | Kind::MethodSignature
            | Kind::FieldDefinition
            | Kind::PropertySignature
            | Kind::VariableDeclarator
            | Kind::FunctionValue
            | Kind::Pair => {
                if kind == Kind::VariableDeclarator {
                    // Bound in the scope around it, before it declares anything.
                    self.type_declarator(node);
                }
                self.declaration(&mut frame);
                if matches!(kind, Kind::ClassDecl | Kind::ClassExpr)
                    && frame.pushed_decl
                    && let Some(class) = self.enclosing()
                {
                    self.type_class_attributes(node, class);
                }
            }
            Kind::Object => frame.obj_qual = offered,
            Kind::Wrapper | Kind::Arguments => frame.offer = offered,
            Kind::Call => {
                frame.offer = offered;
                self.call(node);
            }
            Kind::New => self.instantiation(node),
            Kind::Parameter => self.type_parameter(node),
            Kind::JsxOpen => self.render(node),
            Kind::JsxClose | Kind::ExportClause => frame.quiet = true,
            Kind::ImportStatement => {
                frame.quiet = true;
                self.import_statement(node);
            }
            Kind::ExportStatement => self.export_statement(node),
            Kind::Identifier | Kind::TypeIdentifier | Kind::ShorthandIdentifier if !frame.quiet => {
                self.reference(node, field)
            }
            Kind::ExtendsClause | Kind::ImplementsClause | Kind::ExtendsTypeClause => {
                self.heritage(node, kind)
            }
            _ => {}
        }
        // An export default of an expression (`export default { … }`) declares "default".
        if !frame.pushed_decl && self.is_default_value(&frame) {
            self.default_value(&mut frame);
        }
        self.note_decorator(&frame);
        if frame.quiet {
            self.quiet_depth += 1;
        }
        if frame.kind == Kind::Decorator {
            self.decorator_depth += 1;
            self.saw_decorator = true;
        }
        self.frames.push(frame);
    }

    fn leave(&mut self) {
        if let Some(frame) = self.frames.pop() {
            if frame.kind == Kind::Decorator {
                self.decorator_depth -= 1;
            }
            if frame.pushed_decl {
                self.decl_stack.pop();
            }
            if frame.quiet {
                self.quiet_depth -= 1;
            }
        }
    }

    pub fn parent(&self) -> Option<&Frame<'t>> {
        self.frames.last()
    }

    /// The ancestor `up` levels above the node being entered (0 = parent).
    pub fn ancestor(&self, up: usize) -> Option<&Frame<'t>> {
        self.frames
            .len()
            .checked_sub(up + 1)
            .map(|i| &self.frames[i])
    }

    pub fn enclosing(&self) -> Option<DeclIndex> {
        self.decl_stack.last().copied()
    }

    /// The dotted prefix a parent hands to this node: declarations, pairs and a default
    /// export hand it to their `value`; wrappers and argument lists to their children; a
    /// call to its argument list.
    fn offered_to(&self, frame: &Frame<'t>) -> Option<u32> {
        let parent = self.parent()?;
        let offer = parent.offer?;
        let f = &self.g.fields;
        let passes = match parent.kind {
            Kind::Wrapper | Kind::Arguments => frame.node.is_named() && frame.kind != Kind::Comment,
            Kind::Call => frame.field == f.arguments,
            _ => frame.field == f.value,
        };
        passes.then_some(offer)
    }

    /// The identifier that names the parent (a declaration's name, a parameter's pattern)
    /// is a binding, not a reference; type references and member names are not bindings.
    fn is_name_of_parent(&self, field: u16) -> bool {
        let f = &self.g.fields;
        if field == 0 {
            return false;
        }
        if field == f.pattern || field == f.parameter || field == f.alias {
            return true;
        }
        field == f.name && self.parent().is_some_and(|p| p.kind != Kind::TypeReference)
    }

    /// Class members take the start of their decorators, which precede them as siblings.
    fn note_decorator(&mut self, frame: &Frame<'t>) {
        let Some(parent) = self.frames.last_mut() else {
            return;
        };
        if parent.kind != Kind::ClassBody || !frame.node.is_named() || frame.kind == Kind::Comment {
            return;
        }
        if frame.kind == Kind::Decorator {
            parent.pending_decorator.get_or_insert(frame.node);
        } else {
            parent.pending_decorator = None;
        }
    }

    fn record_error(&mut self, node: Node<'t>) {
        sightline_lang::syntax::traverse::record_error(&mut self.facts, node);
    }

    /// A 1-based line for a 0-based row, clamped into the file.
    pub fn line(&self, row: usize) -> u32 {
        sightline_lang::syntax::traverse::line_of(row, self.facts.line_count)
    }

    pub fn text_of(&self, node: Node<'_>) -> &'t str {
        node_text(self.text, node)
    }

    pub fn push_qual(&mut self, qual: String) -> u32 {
        self.quals.push(qual);
        u32::try_from(self.quals.len() - 1).unwrap_or(u32::MAX)
    }

    pub fn qual(&self, index: u32) -> &str {
        self.quals.get(index as usize).map_or("", String::as_str)
    }
}
