//! Go facts: one `TreeCursor` walk with an explicit frame stack (nesting depth never
//! touches the call stack), producing the shared `FileFacts`.
//!
//! How Go maps onto the shared facts:
//! - functions are `Function`s; a method is a top-level `Method` named `Type.Name` in its
//!   qualified name and `attached_to` its receiver's type (pointer and type arguments
//!   stripped), wherever in the package that type is declared;
//! - `type T struct {…}` is a `Struct` whose fields are `Property` members, `type I
//!   interface {…}` an `Interface` whose methods are `Method` members; any other defined
//!   type or alias (`type F func()`, `type A = B`) is a `TypeAlias`. A type declared alone
//!   spans its `type` keyword, one of a parenthesised group its own line(s);
//! - an embedded struct field or interface is an `Extends` heritage clause of the type
//!   that embeds it, named `pkg.T` when it is another package's (Go has no `implements`:
//!   interfaces are satisfied implicitly);
//! - package-level `const` and `var` names are `Constant`s and `Variable`s; names declared
//!   inside functions are locals, not declarations;
//! - a name is `exported` when it starts with an upper-case letter (the language's rule);
//! - `import "a/b"` binds the package's name as a namespace (the alias when one is given,
//!   else the name the import path implies, see [`crate::assumed_package_name`]); `import
//!   . "a/b"` is a `glob` import, `import _ "a/b"` binds nothing;
//! - `f()`, `x.f()` and instantiated generic calls `f[T]()` are calls, composite literals
//!   `T{…}` instantiations, `pkg.Name` and `x.field` references with a receiver, any other
//!   identifier or type name a reference; Go's predeclared identifiers (`len`, `string`,
//!   …) are never usages;
//! - a member used on a receiver or parameter declared with a named type of the package
//!   (`func (e *Engine) Run()` … `e.handle()`), or on a local declared with one (`var e
//!   Engine`) or initialised with a literal of one (`e := &Engine{}`), carries that type's
//!   name as its receiver (`Engine`), which is the static type the compiler resolves the
//!   member on. A local keeps the type to the end of its function (Go's block scopes are
//!   not followed).

mod kinds;

use rustc_hash::FxHashSet;

use tree_sitter::{Node, Tree};

use kinds::{GoGrammar, GoKind, go_grammar};
use sightline_lang::syntax::text::{compact, node_text, signature, unquote};
use sightline_lang::syntax::traverse::{self, field_child};
use sightline_lang::syntax::{
    ELIDED, MAX_QUALIFIED_PREFIX, ParserSlot, RECEIVER_CHARS, SIGNATURE_CHARS,
};
use sightline_lang::{
    ByteRange, DeclIndex, DeclKind, Declaration, FileFacts, Heritage, HeritageKind, Import,
    LineRange, UsageKind,
};

thread_local! {
    static PARSER: ParserSlot = const { std::cell::RefCell::new(None) };
}

/// Go's predeclared identifiers (the specification's universe block): built-in types,
/// constants and functions. They name nothing a repository declares, so they are never
/// usages. Sorted, for binary search.
// guard: allow(lexicon) reason: the Go language's own predeclared identifiers (its specification), not English words
const PREDECLARED: [&str; 44] = [
    "any",
    "append",
    "bool",
    "byte",
    "cap",
    "clear",
    "close",
    "comparable",
    "complex",
    "complex128",
    "complex64",
    "copy",
    "delete",
    "error",
    "false",
    "float32",
    "float64",
    "imag",
    "int",
    "int16",
    "int32",
    "int64",
    "int8",
    "iota",
    "len",
    "make",
    "max",
    "min",
    "new",
    "nil",
    "panic",
    "print",
    "println",
    "real",
    "recover",
    "rune",
    "string",
    "true",
    "uint",
    "uint16",
    "uint32",
    "uint64",
    "uint8",
    "uintptr",
];

/// Whether `name` is one of Go's predeclared identifiers.
pub(crate) fn is_predeclared(name: &str) -> bool {
    // Every predeclared identifier is a short lower-case word: most names a file uses are
    // told apart by their length or first letter, without the search.
    name.len() <= 10
        && name.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && PREDECLARED.binary_search(&name).is_ok()
}

/// Whether a Go name is exported: its first character is an upper-case letter.
pub(crate) fn is_exported(name: &str) -> bool {
    name.chars().next().is_some_and(char::is_uppercase)
}

/// The grammar [`extract_file`] parses with.
pub(crate) fn language() -> tree_sitter::Language {
    go_grammar().language.clone()
}

/// The facts of one Go file. Never panics: text tree-sitter cannot parse yields facts
/// with only `line_count`, and syntax errors are counted, not fatal.
pub(crate) fn extract_file(text: &str) -> FileFacts {
    sightline_lang::syntax::extract_tree(
        &PARSER,
        &go_grammar().language,
        text,
        |tree, line_count| extract(text, tree, line_count),
    )
}

struct Frame<'t> {
    node: Node<'t>,
    kind: GoKind,
    pushed_decl: bool,
    quiet: bool,
    /// The length of the typed-parameter list before this function opened its scope.
    scope: Option<usize>,
}

struct Extractor<'t> {
    g: &'static GoGrammar,
    text: &'t str,
    frames: Vec<Frame<'t>>,
    decl_stack: Vec<DeclIndex>,
    quiet_depth: u32,
    facts: FileFacts,
    /// (name, receiver as written, enclosing) of references already recorded.
    refs: FxHashSet<(&'t str, &'t str, u32)>,
    /// Nodes whose name a call, instantiation or conversion already recorded.
    covered: FxHashSet<usize>,
    /// Receivers and parameters in scope declared with a named type of the package, as
    /// (name, type name), innermost last.
    typed: Vec<(&'t str, &'t str)>,
    check_errors: bool,
}

/// Extracts the facts of one parsed Go file.
fn extract(text: &str, tree: &Tree, line_count: u32) -> FileFacts {
    let root = tree.root_node();
    let mut ex = Extractor {
        g: go_grammar(),
        text,
        frames: Vec::with_capacity(64),
        decl_stack: Vec::with_capacity(16),
        quiet_depth: 0,
        facts: FileFacts {
            line_count,
            ..FileFacts::default()
        },
        refs: FxHashSet::default(),
        covered: FxHashSet::default(),
        typed: Vec::new(),
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
        let kind = self.g.kind(node);
        let mut frame = Frame {
            node,
            kind,
            pushed_decl: false,
            quiet: self.is_binding(node, kind, field),
            scope: None,
        };
        match kind {
            GoKind::Function | GoKind::Method => self.function(&mut frame),
            GoKind::FuncLiteral => self.open_scope(&mut frame),
            GoKind::TypeSpec | GoKind::TypeAlias => self.type_spec(&mut frame),
            GoKind::FieldDecl => self.field(&mut frame),
            GoKind::MethodElem => self.interface_method(&mut frame),
            GoKind::TypeElem => self.embedded_interface(node),
            GoKind::ConstSpec | GoKind::VarSpec => {
                self.type_local_var(node);
                self.value_spec(&mut frame);
            }
            GoKind::ShortVar => self.type_short_var(node),
            GoKind::Import => {
                frame.quiet = true;
                self.import(node);
            }
            GoKind::PackageClause => frame.quiet = true,
            GoKind::Call => self.call(node),
            GoKind::Composite => self.composite(node),
            GoKind::TypeConversion => self.conversion(node),
            GoKind::Selector if !frame.quiet => self.selector(node),
            GoKind::QualifiedType => {
                if !frame.quiet {
                    self.qualified_reference(node);
                }
                // Its type name is the package's, never one of this file's scope.
                frame.quiet = true;
            }
            GoKind::Identifier | GoKind::TypeIdentifier if !frame.quiet => self.reference(node),
            _ => {}
        }
        if frame.quiet {
            self.quiet_depth += 1;
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
            if let Some(len) = frame.scope {
                self.typed.truncate(len);
            }
        }
    }

    /// Whether the node binds names rather than using them: a declared name, the
    /// left-hand side of `:=` and of a `range` that declares, a type switch's variable,
    /// the field name of a keyed composite element.
    fn is_binding(&self, node: Node<'t>, kind: GoKind, field: u16) -> bool {
        let f = &self.g.fields;
        let parent = self.frames.last();
        let parent_kind = parent.map_or(GoKind::Other, |p| p.kind);
        if field == 0 {
            return false;
        }
        if field == f.name {
            return matches!(kind, GoKind::Identifier | GoKind::TypeIdentifier);
        }
        if field == f.left {
            return parent_kind == GoKind::ShortVar
                || (parent_kind == GoKind::RangeClause
                    && parent.is_some_and(|p| declares(p.node)));
        }
        if field == f.alias {
            return parent_kind == GoKind::TypeSwitch;
        }
        if field == f.key && parent_kind == GoKind::KeyedElement {
            // `Name: value`: a field name when it is a bare identifier (a map literal's
            // key variable is lost, a struct literal's field never becomes a reference).
            return node.named_child_count() == 1
                && node
                    .named_child(0)
                    .is_some_and(|c| self.g.kind(c) == GoKind::Identifier);
        }
        false
    }

    fn enclosing(&self) -> Option<DeclIndex> {
        self.decl_stack.last().copied()
    }

    /// Whether a function or method encloses the node being entered (its names are
    /// locals then).
    fn in_function(&self) -> bool {
        self.decl_stack.iter().any(|&d| {
            self.facts
                .decls
                .get(d as usize)
                .is_some_and(|d| d.kind.is_callable())
        })
    }

    /// The frame `n` levels above the node being entered (0: its parent).
    fn ancestor(&self, n: usize) -> Option<&Frame<'t>> {
        let len = self.frames.len();
        len.checked_sub(n + 1).and_then(|i| self.frames.get(i))
    }

    fn function(&mut self, frame: &mut Frame<'t>) {
        let node = frame.node;
        let Some(name) = field_child(node, self.g.fields.name).map(|n| node_text(self.text, n))
        else {
            return;
        };
        if name.is_empty() {
            return;
        }
        let (kind, owner) = match frame.kind {
            GoKind::Method => (DeclKind::Method, self.receiver_type(node)),
            _ => (DeclKind::Function, None),
        };
        let index = self.declare(name, kind, node, node, owner);
        frame.pushed_decl = true;
        self.decl_stack.push(index);
        self.open_scope(frame);
    }

    /// The name of a method's receiver type: `T` in `(r *T)`, `(T)`, `(r T[K, V])`.
    fn receiver_type(&self, method: Node<'t>) -> Option<&'t str> {
        let list = field_child(method, self.g.fields.receiver)?;
        let mut cursor = list.walk();
        let param = list
            .named_children(&mut cursor)
            .find(|c| self.g.kind(*c) == GoKind::Parameter)?;
        let ty = field_child(param, self.g.fields.type_)?;
        self.local_type_name(ty)
    }

    /// The name of a type of this package as written in a declaration: `T`, `*T`, `T[A]`,
    /// `(*T)`; `None` for any other type (another package's, a literal type).
    fn local_type_name(&self, mut ty: Node<'t>) -> Option<&'t str> {
        // Each step descends, so the loop ends within the type's depth.
        loop {
            match self.g.kind(ty) {
                GoKind::TypeIdentifier => {
                    let name = node_text(self.text, ty);
                    return (!name.is_empty()).then_some(name);
                }
                GoKind::PointerType => ty = ty.named_child(0)?,
                GoKind::GenericType => ty = field_child(ty, self.g.fields.type_)?,
                _ if ty.kind() == "parenthesized_type" => ty = ty.named_child(0)?,
                _ => return None,
            }
        }
    }

    /// The name a type refers to, of this package or another: `T`, `*T`, `pkg.T` (kept
    /// whole), `T[A]`; `None` for literal types.
    fn any_type_name(&self, mut ty: Node<'t>) -> Option<&'t str> {
        loop {
            match self.g.kind(ty) {
                GoKind::QualifiedType => {
                    let f = self.g.fields;
                    let package = node_text(self.text, field_child(ty, f.package)?);
                    let name = node_text(self.text, field_child(ty, f.name)?);
                    if package.is_empty() || name.is_empty() {
                        return None;
                    }
                    // `pkg . T` may be written with spaces; the fact is `pkg.T`.
                    let start = field_child(ty, f.package)?.start_byte();
                    let end = field_child(ty, f.name)?.end_byte();
                    let written = self.text.get(start..end)?;
                    return (written.len() == package.len() + 1 + name.len()).then_some(written);
                }
                GoKind::PointerType => ty = ty.named_child(0)?,
                GoKind::GenericType => ty = field_child(ty, self.g.fields.type_)?,
                _ => return self.local_type_name(ty),
            }
        }
    }

    /// Opens the scope of a function, method or function literal: its receiver and the
    /// parameters declared with a named type of this package, so members used on them
    /// carry their type.
    fn open_scope(&mut self, frame: &mut Frame<'t>) {
        let node = frame.node;
        frame.scope = Some(self.typed.len());
        let f = self.g.fields;
        for list in [
            field_child(node, f.receiver),
            field_child(node, f.parameters),
        ]
        .into_iter()
        .flatten()
        {
            let mut cursor = list.walk();
            for param in list.named_children(&mut cursor) {
                if param.kind() != "parameter_declaration" {
                    continue;
                }
                let Some(ty) = field_child(param, f.type_)
                    .and_then(|t| self.local_type_name(t))
                    .filter(|t| !is_predeclared(t))
                else {
                    continue;
                };
                let Some(name_field) = std::num::NonZeroU16::new(f.name) else {
                    continue;
                };
                let mut names = param.walk();
                for name in param.children_by_field_id(name_field, &mut names) {
                    let name = node_text(self.text, name);
                    if !name.is_empty() && name != "_" {
                        self.typed.push((name, ty));
                    }
                }
            }
        }
    }

    /// `var e Engine` inside a function: `e` is of the package's type `Engine`.
    fn type_local_var(&mut self, spec: Node<'t>) {
        if !self.in_function() || self.g.kind(spec) != GoKind::VarSpec {
            return;
        }
        let Some(ty) = field_child(spec, self.g.fields.type_)
            .and_then(|t| self.local_type_name(t))
            .filter(|t| !is_predeclared(t))
        else {
            return;
        };
        for name in self.spec_names(spec) {
            self.typed.push((name, ty));
        }
    }

    /// `e := Engine{…}` and `e, f := &Engine{…}, x`: a name given a literal of the
    /// package's type is of that type.
    fn type_short_var(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let (Some(left), Some(right)) = (field_child(node, f.left), field_child(node, f.right))
        else {
            return;
        };
        let mut cursor = left.walk();
        let names: Vec<Node<'t>> = left.named_children(&mut cursor).collect();
        let mut cursor = right.walk();
        let values: Vec<Node<'t>> = right.named_children(&mut cursor).collect();
        if names.len() != values.len() {
            return;
        }
        for (name, value) in names.into_iter().zip(values) {
            let name = node_text(self.text, name);
            if !name.is_empty()
                && name != "_"
                && let Some(ty) = self.literal_type(value)
            {
                self.typed.push((name, ty));
            }
        }
    }

    /// The package's type a literal (`T{…}`, `&T{…}`) is of.
    fn literal_type(&self, value: Node<'t>) -> Option<&'t str> {
        let literal = match value.kind() {
            "unary_expression" if node_text(self.text, value).starts_with('&') => {
                field_child(value, self.g.fields.operand)?
            }
            _ => value,
        };
        if self.g.kind(literal) != GoKind::Composite {
            return None;
        }
        field_child(literal, self.g.fields.type_)
            .and_then(|t| self.local_type_name(t))
            .filter(|t| !is_predeclared(t))
    }

    /// The type of a receiver or parameter named `name` in scope, innermost first.
    fn typed(&self, name: &str) -> Option<&'t str> {
        self.typed
            .iter()
            .rev()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| *t)
    }

    /// `T struct {…}`, `I interface {…}`, `F func()`, `A = B`.
    fn type_spec(&mut self, frame: &mut Frame<'t>) {
        let node = frame.node;
        let f = self.g.fields;
        let Some(name) = field_child(node, f.name).map(|n| node_text(self.text, n)) else {
            return;
        };
        if name.is_empty() || name == "_" {
            return;
        }
        let kind = match field_child(node, f.type_).map(|t| self.g.kind(t)) {
            _ if frame.kind == GoKind::TypeAlias => DeclKind::TypeAlias,
            Some(GoKind::StructType) => DeclKind::Struct,
            Some(GoKind::InterfaceType) => DeclKind::Interface,
            _ => DeclKind::TypeAlias,
        };
        let start = self.alone_in_declaration(GoKind::TypeDecl).unwrap_or(node);
        let index = self.declare(name, kind, start, start, None);
        frame.pushed_decl = true;
        self.decl_stack.push(index);
    }

    /// The enclosing declaration (`type`, `const`, `var`) when the spec being entered is
    /// its only one: the declaration then spans its keyword.
    fn alone_in_declaration(&self, kind: GoKind) -> Option<Node<'t>> {
        let parent = self.ancestor(0).filter(|p| p.kind == kind)?;
        (parent.node.named_child_count() == 1).then_some(parent.node)
    }

    /// A struct field: each name a `Property` of the struct, an embedded type a heritage
    /// clause of it.
    fn field(&mut self, frame: &mut Frame<'t>) {
        // field_declaration_list ← struct_type ← the declaration holding the struct.
        let owner_declared = self
            .ancestor(1)
            .is_some_and(|f| f.kind == GoKind::StructType)
            && self.ancestor(2).is_some_and(|f| f.pushed_decl);
        let Some(owner) = self.enclosing().filter(|_| owner_declared) else {
            return;
        };
        let node = frame.node;
        let f = self.g.fields;
        let Some(name_field) = std::num::NonZeroU16::new(f.name) else {
            return;
        };
        let mut cursor = node.walk();
        let names: Vec<&'t str> = node
            .children_by_field_id(name_field, &mut cursor)
            .map(|n| node_text(self.text, n))
            .filter(|n| !n.is_empty())
            .collect();
        if names.is_empty() {
            if let Some(name) = field_child(node, f.type_).and_then(|t| self.any_type_name(t)) {
                self.heritage(owner, name, node);
            }
            return;
        }
        let mut last = None;
        for name in &names {
            last = Some(self.declare(name, DeclKind::Property, node, node, None));
        }
        if let (Some(index), 1) = (last, names.len()) {
            frame.pushed_decl = true;
            self.decl_stack.push(index);
        }
    }

    /// A method of an interface type.
    fn interface_method(&mut self, frame: &mut Frame<'t>) {
        let owner_declared = self
            .ancestor(0)
            .is_some_and(|f| f.kind == GoKind::InterfaceType)
            && self.ancestor(1).is_some_and(|f| f.pushed_decl);
        if !owner_declared {
            return;
        }
        let node = frame.node;
        let Some(name) = field_child(node, self.g.fields.name).map(|n| node_text(self.text, n))
        else {
            return;
        };
        if name.is_empty() {
            return;
        }
        let index = self.declare(name, DeclKind::Method, node, node, None);
        frame.pushed_decl = true;
        self.decl_stack.push(index);
    }

    /// An interface embedded in a declared interface (`io.Reader` inside `interface {…}`);
    /// unions and approximations (`~int | ~string`) are constraints, not embeddings.
    fn embedded_interface(&mut self, node: Node<'t>) {
        let owner_declared = self
            .ancestor(0)
            .is_some_and(|f| f.kind == GoKind::InterfaceType)
            && self.ancestor(1).is_some_and(|f| f.pushed_decl);
        let Some(owner) = self.enclosing().filter(|_| owner_declared) else {
            return;
        };
        if node.named_child_count() != 1 {
            return;
        }
        if let Some(name) = node.named_child(0).and_then(|t| self.any_type_name(t)) {
            self.heritage(owner, name, node);
        }
    }

    fn heritage(&mut self, decl: DeclIndex, name: &str, at: Node<'t>) {
        let line = self.line(at.start_position().row);
        self.facts.heritage.push(Heritage {
            decl,
            kind: HeritageKind::Extends,
            name: name.to_owned(),
            line,
        });
    }

    /// The names a `const` or `var` spec declares (`_` and empty names left out).
    fn spec_names(&self, spec: Node<'t>) -> Vec<&'t str> {
        let Some(name_field) = std::num::NonZeroU16::new(self.g.fields.name) else {
            return Vec::new();
        };
        let mut cursor = spec.walk();
        spec.children_by_field_id(name_field, &mut cursor)
            .map(|n| node_text(self.text, n))
            .filter(|n| !n.is_empty() && *n != "_")
            .collect()
    }

    /// Package-level `const` and `var` names; those inside functions are locals.
    fn value_spec(&mut self, frame: &mut Frame<'t>) {
        if self.in_function() {
            return;
        }
        let node = frame.node;
        let names = self.spec_names(node);
        let kind = match frame.kind {
            GoKind::ConstSpec => DeclKind::Constant,
            _ => DeclKind::Variable,
        };
        let start = match names.len() {
            1 => self.alone_in_declaration(GoKind::ValueDecl).unwrap_or(node),
            _ => node,
        };
        let mut last = None;
        for name in &names {
            last = Some(self.declare(name, kind, start, start, None));
        }
        // The value's usages belong to the name it initialises, when there is one.
        if let (Some(index), 1) = (last, names.len()) {
            frame.pushed_decl = true;
            self.decl_stack.push(index);
        }
    }

    /// Pushes a declaration spanning `start..end`, its signature on `start`'s first line.
    fn declare(
        &mut self,
        name: &str,
        kind: DeclKind,
        start: Node<'t>,
        end: Node<'t>,
        attached_to: Option<&str>,
    ) -> DeclIndex {
        let parent = self.enclosing();
        let qualified = match (
            parent.and_then(|p| self.facts.decls.get(p as usize)),
            attached_to,
        ) {
            (Some(p), _) if p.qualified.len() > MAX_QUALIFIED_PREFIX => {
                self.facts.elided_qualified_names += 1;
                format!("{ELIDED}.{name}")
            }
            (Some(p), _) => format!("{}.{name}", p.qualified),
            (None, Some(owner)) => format!("{owner}.{name}"),
            (None, None) => name.to_owned(),
        };
        let exported = is_exported(name) && !self.in_function();
        let start_line = self.line(start.start_position().row);
        let end_line = self.line(traverse::end_row(end)).max(start_line);
        let sig_pos = start.start_position();
        self.facts.decls.push(Declaration {
            name: name.to_owned(),
            qualified,
            kind,
            lines: LineRange::new(start_line, end_line),
            bytes: ByteRange {
                start: traverse::to_u32(start.start_byte()),
                end: traverse::to_u32(end.end_byte()),
            },
            exported,
            default_export: false,
            signature_line: start_line,
            signature: signature(
                self.text,
                start.start_byte(),
                sig_pos.column,
                SIGNATURE_CHARS,
            ),
            parent,
            attached_to: attached_to.map(str::to_owned),
        });
        traverse::to_u32(self.facts.decls.len() - 1)
    }

    fn import(&mut self, node: Node<'t>) {
        let mut specs = Vec::new();
        let mut cursor = node.walk();
        for child in node.named_children(&mut cursor) {
            match child.kind() {
                "import_spec" => specs.push(child),
                "import_spec_list" => {
                    let mut inner = child.walk();
                    specs.extend(
                        child
                            .named_children(&mut inner)
                            .filter(|c| c.kind() == "import_spec"),
                    );
                }
                _ => {}
            }
        }
        let f = self.g.fields;
        for spec in specs {
            let Some(path) = field_child(spec, f.path) else {
                continue;
            };
            let path = unquote(node_text(self.text, path)).trim();
            if path.is_empty() {
                continue;
            }
            let line = self.line(spec.start_position().row);
            let mut import = Import::new(path.to_owned(), line);
            match field_child(spec, f.name) {
                Some(name) if name.kind() == "dot" => import.glob = true,
                Some(name) if name.kind() == "blank_identifier" => {}
                Some(name) => {
                    let alias = node_text(self.text, name);
                    import.namespace = (!alias.is_empty()).then(|| alias.to_owned());
                }
                None => {
                    let name = crate::assumed_package_name(path);
                    import.namespace = (!name.is_empty()).then(|| name.to_owned());
                }
            }
            self.facts.imports.push(import);
        }
    }

    /// `f()`, `x.f()`, `(f)()`: a call of the callee's last name.
    fn call(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let Some(mut callee) = field_child(node, f.function) else {
            return;
        };
        while callee.kind() == "parenthesized_expression" {
            match callee.named_child(0) {
                Some(inner) => callee = inner,
                None => return,
            }
        }
        match self.g.kind(callee) {
            GoKind::Identifier => {
                self.covered.insert(callee.id());
                let name = node_text(self.text, callee);
                if !is_predeclared(name) {
                    self.push_usage(UsageKind::Call, name, String::new(), node);
                }
            }
            GoKind::Selector => {
                let (Some(operand), Some(field)) =
                    (field_child(callee, f.operand), field_child(callee, f.field))
                else {
                    return;
                };
                self.covered.insert(callee.id());
                let receiver = self.receiver_text(operand);
                let name = node_text(self.text, field);
                self.push_usage(UsageKind::Call, name, receiver, node);
            }
            _ => {}
        }
    }

    /// `T{…}`, `pkg.T{…}`, `T[A]{…}`: an instantiation of the type.
    fn composite(&mut self, node: Node<'t>) {
        if let Some(ty) = field_child(node, self.g.fields.type_) {
            self.named_type_usage(UsageKind::Instantiate, ty, node);
        }
    }

    /// `F[T](x)`, `pkg.F[T](x)`: a call of an instantiated generic function (or a
    /// conversion to an instantiated generic type, which the syntax cannot tell apart).
    fn conversion(&mut self, node: Node<'t>) {
        let Some(ty) = field_child(node, self.g.fields.type_) else {
            return;
        };
        if self.g.kind(ty) == GoKind::GenericType {
            self.named_type_usage(UsageKind::Call, ty, node);
        }
    }

    /// A usage of the type `ty` names (through type arguments), recorded at `at`.
    fn named_type_usage(&mut self, kind: UsageKind, mut ty: Node<'t>, at: Node<'t>) {
        let f = self.g.fields;
        if self.g.kind(ty) == GoKind::GenericType {
            match field_child(ty, f.type_) {
                Some(inner) => ty = inner,
                None => return,
            }
        }
        match self.g.kind(ty) {
            GoKind::TypeIdentifier => {
                self.covered.insert(ty.id());
                let name = node_text(self.text, ty);
                if !is_predeclared(name) {
                    self.push_usage(kind, name, String::new(), at);
                }
            }
            GoKind::QualifiedType => {
                let (Some(package), Some(name)) =
                    (field_child(ty, f.package), field_child(ty, f.name))
                else {
                    return;
                };
                self.covered.insert(ty.id());
                let receiver = node_text(self.text, package).to_owned();
                self.push_usage(kind, node_text(self.text, name), receiver, at);
            }
            _ => {}
        }
    }

    /// `pkg.Name` or `x.field` outside a call: a reference to the member of a name.
    /// Longer chains (`a.b.c`) are left to their first name's reference.
    fn selector(&mut self, node: Node<'t>) {
        if self.covered.contains(&node.id()) {
            return;
        }
        let f = self.g.fields;
        let (Some(operand), Some(field)) =
            (field_child(node, f.operand), field_child(node, f.field))
        else {
            return;
        };
        if self.g.kind(operand) != GoKind::Identifier {
            return;
        }
        let written = node_text(self.text, operand);
        let name = node_text(self.text, field);
        if name.is_empty() || written.is_empty() {
            return;
        }
        let enclosing = self.enclosing().unwrap_or(u32::MAX);
        if !self.refs.insert((name, written, enclosing)) {
            return;
        }
        let receiver = self.receiver_text(operand);
        self.push_usage(UsageKind::Reference, name, receiver, node);
    }

    /// `pkg.T` in type position: a reference to the package's type.
    fn qualified_reference(&mut self, node: Node<'t>) {
        if self.covered.contains(&node.id()) {
            return;
        }
        let f = self.g.fields;
        let (Some(package), Some(name)) = (field_child(node, f.package), field_child(node, f.name))
        else {
            return;
        };
        let (package, name) = (node_text(self.text, package), node_text(self.text, name));
        let enclosing = self.enclosing().unwrap_or(u32::MAX);
        if name.is_empty() || !self.refs.insert((name, package, enclosing)) {
            return;
        }
        self.push_usage(UsageKind::Reference, name, package.to_owned(), node);
    }

    /// Any other identifier or type name: a reference, once per enclosing declaration.
    fn reference(&mut self, node: Node<'t>) {
        if self.quiet_depth > 0 || self.covered.contains(&node.id()) {
            return;
        }
        let name = node_text(self.text, node);
        // A receiver or parameter of a named type is a local whose uses carry its type.
        if name.is_empty() || name == "_" || is_predeclared(name) || self.typed(name).is_some() {
            return;
        }
        let enclosing = self.enclosing().unwrap_or(u32::MAX);
        if !self.refs.insert((name, "", enclosing)) {
            return;
        }
        self.push_usage(UsageKind::Reference, name, String::new(), node);
    }

    /// A member's receiver: the named type of a receiver or parameter (see the module
    /// doc), else the operand as written.
    fn receiver_text(&self, operand: Node<'t>) -> String {
        let written = node_text(self.text, operand);
        if self.g.kind(operand) == GoKind::Identifier
            && let Some(ty) = self.typed(written)
        {
            return sightline_lang::syntax::text::truncate_chars(ty, RECEIVER_CHARS).to_owned();
        }
        compact(written, RECEIVER_CHARS)
    }

    fn push_usage(&mut self, kind: UsageKind, name: &str, receiver: String, at: Node<'t>) {
        let enclosing = self.enclosing();
        traverse::push_usage(&mut self.facts, (kind, name, receiver), at, enclosing);
    }

    /// A 1-based line for a 0-based row, clamped into the file.
    fn line(&self, row: usize) -> u32 {
        traverse::line_of(row, self.facts.line_count)
    }
}

/// Whether a `range` clause declares its variables (`:=`) rather than assigning them.
fn declares(range_clause: Node<'_>) -> bool {
    let mut cursor = range_clause.walk();
    range_clause
        .children(&mut cursor)
        .any(|c| !c.is_named() && c.kind() == ":=")
}

// Test modules last: the genericity guard reads a file up to its first test module.
#[cfg(test)]
mod prop_tests;
#[cfg(test)]
mod tests;
