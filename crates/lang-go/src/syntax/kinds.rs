//! The Go grammar's lookup tables, built once: the node kinds the extractor reacts to,
//! read from a vector indexed by kind id, and the field ids it asks for.

use std::sync::OnceLock;

use tree_sitter::{Language, Node};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum GoKind {
    #[default]
    Other,
    /// `func F(...)`.
    Function,
    /// `func (r *T) M(...)`.
    Method,
    /// `func(...) { ... }` as an expression.
    FuncLiteral,
    /// `type ...` (one spec or a parenthesised group).
    TypeDecl,
    /// `T struct {...}`, `T int`, `T[P any] ...` inside a type declaration.
    TypeSpec,
    /// `T = U` inside a type declaration.
    TypeAlias,
    StructType,
    InterfaceType,
    /// A struct field (named, or embedded when it has no name).
    FieldDecl,
    /// A method of an interface type.
    MethodElem,
    /// A type term of an interface: an embedded interface or a constraint union.
    TypeElem,
    /// `const ...` and `var ...` (one spec or a group).
    ValueDecl,
    /// `A, B = ...` inside a const declaration.
    ConstSpec,
    /// `a, b T = ...` inside a var declaration.
    VarSpec,
    /// `import ...`.
    Import,
    /// `package p`.
    PackageClause,
    Call,
    /// `T{...}`.
    Composite,
    /// `x.f`.
    Selector,
    /// `pkg.T` in type position.
    QualifiedType,
    /// `T[int](x)`, `[]byte(s)`: a conversion, or a call of an instantiated generic function.
    TypeConversion,
    /// `T[int]` in type position.
    GenericType,
    PointerType,
    Identifier,
    TypeIdentifier,
    /// Parameter declarations (plain, variadic, type parameters): their names are bound.
    Parameter,
    /// `a, b := ...`.
    ShortVar,
    /// `for k, v := range ...`.
    RangeClause,
    /// `switch v := x.(type)`.
    TypeSwitch,
    /// `Key: value` in a composite literal.
    KeyedElement,
}

fn classify(name: &str) -> GoKind {
    match name {
        "function_declaration" => GoKind::Function,
        "method_declaration" => GoKind::Method,
        "func_literal" => GoKind::FuncLiteral,
        "type_declaration" => GoKind::TypeDecl,
        "type_spec" => GoKind::TypeSpec,
        "type_alias" => GoKind::TypeAlias,
        "struct_type" => GoKind::StructType,
        "interface_type" => GoKind::InterfaceType,
        "field_declaration" => GoKind::FieldDecl,
        "method_elem" | "method_spec" => GoKind::MethodElem,
        "type_elem" => GoKind::TypeElem,
        "const_declaration" | "var_declaration" => GoKind::ValueDecl,
        "const_spec" => GoKind::ConstSpec,
        "var_spec" => GoKind::VarSpec,
        "import_declaration" => GoKind::Import,
        "package_clause" => GoKind::PackageClause,
        "call_expression" => GoKind::Call,
        "composite_literal" => GoKind::Composite,
        "selector_expression" => GoKind::Selector,
        "qualified_type" => GoKind::QualifiedType,
        "type_conversion_expression" => GoKind::TypeConversion,
        "generic_type" => GoKind::GenericType,
        "pointer_type" => GoKind::PointerType,
        "identifier" => GoKind::Identifier,
        "type_identifier" => GoKind::TypeIdentifier,
        "parameter_declaration"
        | "variadic_parameter_declaration"
        | "type_parameter_declaration" => GoKind::Parameter,
        "short_var_declaration" => GoKind::ShortVar,
        "range_clause" => GoKind::RangeClause,
        "type_switch_statement" => GoKind::TypeSwitch,
        "keyed_element" => GoKind::KeyedElement,
        _ => GoKind::Other,
    }
}

/// Field ids (0 when the grammar lacks one, which never matches a real field).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct GoFields {
    pub name: u16,
    pub type_: u16,
    pub receiver: u16,
    pub parameters: u16,
    pub function: u16,
    pub operand: u16,
    pub field: u16,
    pub package: u16,
    pub path: u16,
    pub left: u16,
    pub right: u16,
    pub alias: u16,
    pub key: u16,
}

pub(crate) struct GoGrammar {
    pub language: Language,
    kinds: Vec<GoKind>,
    pub fields: GoFields,
}

impl GoGrammar {
    fn build(language: Language) -> GoGrammar {
        let kinds = (0..language.node_kind_count())
            .map(|id| {
                let id = u16::try_from(id).unwrap_or(u16::MAX);
                match language.node_kind_for_id(id) {
                    Some(name) if language.node_kind_is_named(id) => classify(name),
                    _ => GoKind::Other,
                }
            })
            .collect();
        let field = |name: &str| language.field_id_for_name(name).map_or(0, |f| f.get());
        let fields = GoFields {
            name: field("name"),
            type_: field("type"),
            receiver: field("receiver"),
            parameters: field("parameters"),
            function: field("function"),
            operand: field("operand"),
            field: field("field"),
            package: field("package"),
            path: field("path"),
            left: field("left"),
            right: field("right"),
            alias: field("alias"),
            key: field("key"),
        };
        GoGrammar {
            language,
            kinds,
            fields,
        }
    }

    #[inline]
    pub fn kind(&self, node: Node<'_>) -> GoKind {
        self.kinds
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or_default()
    }
}

pub(crate) fn go_grammar() -> &'static GoGrammar {
    static GO: OnceLock<GoGrammar> = OnceLock::new();
    GO.get_or_init(|| GoGrammar::build(tree_sitter_go::LANGUAGE.into()))
}
