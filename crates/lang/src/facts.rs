//! Plain per-file syntax facts: what every language's extractor produces from one file's
//! text alone. The pipeline's queries return them and its cache persists them, so they
//! hold no tree-sitter types and no absolute paths. The vocabulary is shared by every
//! language; each extractor documents how its language maps onto it.

use serde::{Deserialize, Serialize};

pub use sightline_base::LineRange;

/// A half-open byte range `[start, end)` into the file's text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ByteRange {
    /// First byte of the range.
    pub start: u32,
    /// One past the last byte of the range.
    pub end: u32,
}

/// What a [`Declaration`] declares. Shared by every language: an extractor maps its
/// grammar's declarations onto these kinds (and documents how); a kind no language of a
/// workspace produces costs nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum DeclKind {
    /// Classes (and class expressions bound to a name); records and other class-like
    /// declarations with methods and inheritance.
    Class,
    /// Interfaces: types that declare members for others to implement.
    Interface,
    /// Function declarations, and `const f = () => …` / `const f = function …`.
    Function,
    /// Class methods, method signatures, and methods or function-valued properties of
    /// object literals bound to a name (`const handlers = { onSave() {} }`).
    Method,
    /// Fields and properties: class fields, interface property signatures, struct fields.
    Property,
    /// `type X = …`.
    TypeAlias,
    /// `enum` declarations.
    Enum,
    /// Namespace blocks that group declarations inside a file (`namespace N {}`).
    Namespace,
    /// Other top-level bindings of values (objects, calls, literals).
    Variable,
    /// Structs: record types whose methods may be declared apart from them (see
    /// [`Declaration::attached_to`]).
    Struct,
    /// Traits: sets of methods types implement.
    Trait,
    /// An implementation block that adds methods to a type declared elsewhere; its name is
    /// the type's, and it is attached to that type ([`Declaration::attached_to`]).
    Impl,
    /// A module declared by the language's own syntax (an inline or out-of-line module
    /// item), as opposed to a file.
    Module,
    /// Named constants and statics.
    Constant,
    /// Macros, referenced by name (never expanded).
    Macro,
}

impl DeclKind {
    /// The lowercase keyword shown to callers (`class`, `function`, `type`, …); stable across
    /// versions because it reaches rendered output.
    pub fn as_str(self) -> &'static str {
        match self {
            DeclKind::Class => "class",
            DeclKind::Interface => "interface",
            DeclKind::Function => "function",
            DeclKind::Method => "method",
            DeclKind::Property => "property",
            DeclKind::TypeAlias => "type",
            DeclKind::Enum => "enum",
            DeclKind::Namespace => "namespace",
            DeclKind::Variable => "variable",
            DeclKind::Struct => "struct",
            DeclKind::Trait => "trait",
            DeclKind::Impl => "impl",
            DeclKind::Module => "module",
            DeclKind::Constant => "const",
            DeclKind::Macro => "macro",
        }
    }

    /// Whether the declaration has a body that can be called.
    pub fn is_callable(self) -> bool {
        matches!(self, DeclKind::Function | DeclKind::Method)
    }

    /// Whether declarations of this kind hold members that a receiver naming the instance
    /// (`this`, `self`) reaches: a method's enclosing type. Values count too: an object
    /// literal bound to a name holds its methods.
    pub fn holds_members(self) -> bool {
        matches!(
            self,
            DeclKind::Class
                | DeclKind::Variable
                | DeclKind::Interface
                | DeclKind::Enum
                | DeclKind::Struct
                | DeclKind::Trait
                | DeclKind::Impl
        )
    }
}

/// Index of a declaration inside its file's `FileFacts::decls`.
pub type DeclIndex = u32;

/// One named declaration in a file: its name, kind, range and place in the nesting.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Declaration {
    /// The declared name as written (`save`, `Store`, `default` for an anonymous default export).
    pub name: String,
    /// Dotted name through enclosing declarations (`Store.save`, `handlers.onSave`).
    pub qualified: String,
    /// What kind of declaration it is.
    pub kind: DeclKind,
    /// The whole declaration, including its decorators, doc comment excluded, and the
    /// `export` keyword when present.
    pub lines: LineRange,
    /// The same span as `lines`, in bytes.
    pub bytes: ByteRange,
    /// Exported from the module (`export …`, `export default …`, or listed in `export { … }`).
    pub exported: bool,
    /// The module's default export (`export default …`).
    pub default_export: bool,
    /// 1-based line of the signature (the first line past decorators).
    pub signature_line: u32,
    /// That line's text, trimmed, at most 200 characters.
    pub signature: String,
    /// The enclosing declaration, if any (a method's class).
    pub parent: Option<DeclIndex>,
    /// The name of the type this declaration belongs to when it is declared apart from
    /// it: a method declared outside its type's body (a receiver type), an implementation
    /// block's type. The graph links it to a type of that name declared in the same file
    /// or in a file of the same package (see `Language::package_scope`). `None` for
    /// everything nested in its owner's body (that is `parent`).
    pub attached_to: Option<String>,
}

/// One binding of an [`Import`]: the exported name and the local name it is bound to.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ImportedName {
    /// The name in the exporting module (`default` for a default import), or a dotted
    /// path to a member of one of its exports (`Type.member`: a static member import).
    pub imported: String,
    /// The local binding.
    pub local: String,
}

/// One import, re-export or literal dynamic import of a module.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Import {
    /// The module specifier as written (`./store`, `@app/api`, `react`).
    pub specifier: String,
    /// 1-based line of the import statement.
    pub line: u32,
    /// Named and default bindings (`import A, { b as c }` → `default→A`, `b→c`).
    pub names: Vec<ImportedName>,
    /// `import * as ns` / `export * as ns from`.
    pub namespace: Option<String>,
    /// An import of types only (`import type …`).
    pub type_only: bool,
    /// A re-export (`export { a } from`, `export * from`) rather than an import.
    pub reexport: bool,
    /// A dynamic `import("…")` or `require("…")` with a literal argument.
    pub dynamic: bool,
    /// Brings every name the target exports into scope (`import a.b.*`, `use x::*`): a
    /// usage no other binding explains is looked up among the target's exports.
    pub glob: bool,
    /// A guess that may name nothing: `from pkg import name` also tries the submodule
    /// `pkg.name`, which exists only when `name` is a module. An optional import that
    /// resolves to no file is dropped, not counted as unresolved.
    #[serde(default)]
    pub optional: bool,
}

impl Import {
    /// A plain import of `specifier` at `line`, binding nothing yet.
    pub fn new(specifier: String, line: u32) -> Import {
        Import {
            specifier,
            line,
            names: Vec::new(),
            namespace: None,
            type_only: false,
            reexport: false,
            dynamic: false,
            glob: false,
            optional: false,
        }
    }
}

/// How a [`Usage`] uses its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum UsageKind {
    /// `f()`, `a.b.f()`.
    Call,
    /// JSX element use `<Foo />`.
    Render,
    /// `new Foo()`.
    Instantiate,
    /// Any other identifier reference (deduplicated per enclosing declaration).
    Reference,
}

/// One use of a name inside a file: a call, a JSX render, an instantiation or a reference.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Usage {
    /// How the name is used.
    pub kind: UsageKind,
    /// The referenced name: the last segment of a member callee (`save` in `this.store.save()`).
    /// Boxed, not `String` (here and in `receiver`): a usage never grows, and a large
    /// repository keeps a million of them (19 MB of capacity fields on a 15k-file
    /// workspace).
    pub name: Box<str>,
    /// The receiver text for member callees (`this.store`), empty otherwise. At most 80 chars.
    pub receiver: Box<str>,
    /// 1-based line of the use.
    pub line: u32,
    /// The innermost enclosing declaration, `None` at module level.
    pub enclosing: Option<DeclIndex>,
}

/// Which supertype clause a [`Heritage`] comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum HeritageKind {
    /// `extends Base` (classes and interfaces; Python base classes).
    Extends,
    /// `implements Iface`.
    Implements,
}

/// One supertype named in a class or interface's `extends`/`implements` clause.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Heritage {
    /// The class or interface declaring the clause.
    pub decl: DeclIndex,
    /// Whether the clause is `extends` or `implements`.
    pub kind: HeritageKind,
    /// The supertype's name, without type arguments (`Base` in `extends Base<T>`). A name
    /// qualified by a namespace an import binds may be kept whole (`ns.Foo`): it then links
    /// to `Foo` as that namespace exports it, and to nothing when `ns` is bound to no file
    /// of the repository (never to another `Foo` by guess). An extractor that strips the
    /// qualifier (`Foo`) lets the graph guess among declarations of that name instead.
    pub name: String,
    /// 1-based line of the clause.
    pub line: u32,
}

/// Everything the engine needs to know about one file's syntax.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FileFacts {
    /// Declarations in source order (a parent precedes its children).
    pub decls: Vec<Declaration>,
    /// Imports and re-exports in source order.
    pub imports: Vec<Import>,
    /// Calls, renders, instantiations and references in source order.
    pub usages: Vec<Usage>,
    /// `extends`/`implements` clauses of the file's classes and interfaces.
    pub heritage: Vec<Heritage>,
    /// Number of ERROR and MISSING nodes tree-sitter recovered from.
    pub parse_errors: u32,
    /// Lines of the first few (at most 8) error nodes, for diagnostics.
    pub error_lines: Vec<u32>,
    /// Declarations nested so deep that their qualified name's prefix was elided to `…`
    /// (see `syntax::decls::MAX_QUALIFIED_PREFIX`).
    pub elided_qualified_names: u32,
    /// Number of lines: a final line without a trailing newline counts, an empty file has none.
    pub line_count: u32,
}

impl FileFacts {
    /// The innermost declaration whose range contains `line`.
    pub fn innermost_decl_at(&self, line: u32) -> Option<DeclIndex> {
        let mut best: Option<(DeclIndex, u32)> = None;
        for (i, d) in self.decls.iter().enumerate() {
            if d.lines.contains_line(line) && best.is_none_or(|(_, w)| d.lines.len() <= w) {
                best = Some((i as DeclIndex, d.lines.len()));
            }
        }
        best.map(|(i, _)| i)
    }
}

/// Number of lines in `text`: a final line without a trailing newline counts, an empty text
/// has none.
#[inline]
pub fn count_lines(text: &str) -> u32 {
    let newlines = text.bytes().filter(|&b| b == b'\n').count();
    let last = usize::from(!text.is_empty() && !text.ends_with('\n'));
    u32::try_from(newlines + last).unwrap_or(u32::MAX)
}
