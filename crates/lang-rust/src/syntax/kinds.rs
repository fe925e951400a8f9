//! The Rust grammar's lookup tables, built once: the node kinds the extractor reacts to,
//! read from a vector indexed by kind id, and the field ids it asks for.

use std::sync::OnceLock;

use tree_sitter::{Language, Node};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum RsKind {
    #[default]
    Other,
    /// `fn f() {}` (with a body).
    Function,
    /// `fn f();` in a trait or an `extern` block.
    FunctionSignature,
    Struct,
    Union,
    Enum,
    EnumVariant,
    /// A named field of a struct, union or struct-like variant.
    Field,
    Trait,
    Impl,
    /// `mod m {}` or `mod m;`.
    Mod,
    /// `type T = …;`.
    TypeAlias,
    /// `type T;` in a trait, `type T = …;` in an impl.
    AssociatedType,
    /// `const` and `static` items.
    Constant,
    /// `macro_rules! m { … }`.
    MacroDefinition,
    Use,
    ExternCrate,
    /// `#[…]`, which belongs to the item after it.
    Attribute,
    Call,
    MacroInvocation,
    /// `Name { field: … }`.
    StructExpression,
    /// `a::b::c` in an expression or a pattern.
    ScopedIdentifier,
    /// `a::b::C` in a type.
    ScopedTypeIdentifier,
    /// `f::<T>` in a call.
    GenericFunction,
    /// `T<A>` in a type, `T::<A>` in an expression path.
    GenericType,
    FieldExpression,
    Identifier,
    TypeIdentifier,
    /// Macro arguments and bodies: tokens, not syntax.
    TokenTree,
    /// One generic parameter (`T: Bound`).
    TypeParameter,
    /// Subtrees that name nothing the pipeline links: lifetimes, loop labels, the
    /// patterns of macro rules, inner attributes (`#![…]`).
    Quiet,
    /// Closure parameters: every name inside is bound.
    ClosureParameters,
    /// A `{ … }` body of a module, trait, impl or `extern` block.
    DeclarationList,
    /// `visibility_modifier`: `pub`, `pub(crate)`, …
    Visibility,
}

fn classify(name: &str) -> RsKind {
    match name {
        "function_item" => RsKind::Function,
        "function_signature_item" => RsKind::FunctionSignature,
        "struct_item" => RsKind::Struct,
        "union_item" => RsKind::Union,
        "enum_item" => RsKind::Enum,
        "enum_variant" => RsKind::EnumVariant,
        "field_declaration" => RsKind::Field,
        "trait_item" => RsKind::Trait,
        "impl_item" => RsKind::Impl,
        "mod_item" => RsKind::Mod,
        "type_item" => RsKind::TypeAlias,
        "associated_type" => RsKind::AssociatedType,
        "const_item" | "static_item" => RsKind::Constant,
        "macro_definition" => RsKind::MacroDefinition,
        "use_declaration" => RsKind::Use,
        "extern_crate_declaration" => RsKind::ExternCrate,
        "attribute_item" => RsKind::Attribute,
        "call_expression" => RsKind::Call,
        "macro_invocation" => RsKind::MacroInvocation,
        "struct_expression" => RsKind::StructExpression,
        "scoped_identifier" => RsKind::ScopedIdentifier,
        "scoped_type_identifier" => RsKind::ScopedTypeIdentifier,
        "generic_function" => RsKind::GenericFunction,
        "generic_type" | "generic_type_with_turbofish" => RsKind::GenericType,
        "field_expression" => RsKind::FieldExpression,
        "identifier" => RsKind::Identifier,
        "type_identifier" => RsKind::TypeIdentifier,
        "token_tree" => RsKind::TokenTree,
        "type_parameter" => RsKind::TypeParameter,
        "lifetime" | "label" | "token_tree_pattern" | "inner_attribute_item" => RsKind::Quiet,
        "closure_parameters" => RsKind::ClosureParameters,
        "declaration_list" => RsKind::DeclarationList,
        "visibility_modifier" => RsKind::Visibility,
        _ => RsKind::Other,
    }
}

/// Field ids (0 when the grammar lacks one, which never matches a real field).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct RsFields {
    pub name: u16,
    pub path: u16,
    pub alias: u16,
    pub list: u16,
    pub argument: u16,
    pub body: u16,
    pub type_: u16,
    pub trait_: u16,
    pub bounds: u16,
    pub function: u16,
    pub value: u16,
    pub field: u16,
    pub macro_: u16,
    pub pattern: u16,
    pub type_parameters: u16,
}

pub(crate) struct RsGrammar {
    pub language: Language,
    kinds: Vec<RsKind>,
    pub fields: RsFields,
}

impl RsGrammar {
    fn build(language: Language) -> RsGrammar {
        let kinds = (0..language.node_kind_count())
            .map(|id| {
                let id = u16::try_from(id).unwrap_or(u16::MAX);
                match language.node_kind_for_id(id) {
                    Some(name) if language.node_kind_is_named(id) => classify(name),
                    _ => RsKind::Other,
                }
            })
            .collect();
        let field = |name: &str| language.field_id_for_name(name).map_or(0, |f| f.get());
        let fields = RsFields {
            name: field("name"),
            path: field("path"),
            alias: field("alias"),
            list: field("list"),
            argument: field("argument"),
            body: field("body"),
            type_: field("type"),
            trait_: field("trait"),
            bounds: field("bounds"),
            function: field("function"),
            value: field("value"),
            field: field("field"),
            macro_: field("macro"),
            pattern: field("pattern"),
            type_parameters: field("type_parameters"),
        };
        RsGrammar {
            language,
            kinds,
            fields,
        }
    }

    #[inline]
    pub fn kind(&self, node: Node<'_>) -> RsKind {
        self.kinds
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or_default()
    }
}

pub(crate) fn rust_grammar() -> &'static RsGrammar {
    static RUST: OnceLock<RsGrammar> = OnceLock::new();
    RUST.get_or_init(|| RsGrammar::build(tree_sitter_rust::LANGUAGE.into()))
}
