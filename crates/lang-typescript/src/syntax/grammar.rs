//! Per-language lookup tables, built once: the traversal dispatches on a small `Kind` read
//! from a vector indexed by the node's kind id, so the hot loop never compares strings.

use std::sync::OnceLock;

use tree_sitter::{Language, Node};

/// The node kinds the extractor reacts to. Everything else is `Other`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(super) enum Kind {
    #[default]
    Other,
    Program,
    ExportStatement,
    AmbientDeclaration,
    /// `lexical_declaration` (`const`/`let`) and `variable_declaration` (`var`).
    VariableList,
    VariableDeclarator,
    /// `function_declaration`, `generator_function_declaration`, `function_signature`.
    FunctionDecl,
    /// `class_declaration`, `abstract_class_declaration`.
    ClassDecl,
    /// A class expression (`class` node).
    ClassExpr,
    InterfaceDecl,
    TypeAlias,
    EnumDecl,
    /// `internal_module` (`namespace A {}`) and `module` (`declare module "x" {}`).
    Namespace,
    MethodDefinition,
    /// `method_signature`, `abstract_method_signature`.
    MethodSignature,
    /// `public_field_definition`.
    FieldDefinition,
    PropertySignature,
    ClassBody,
    InterfaceBody,
    ObjectType,
    Object,
    Pair,
    /// `arrow_function`, `function_expression`, `generator_function`.
    FunctionValue,
    StatementBlock,
    Decorator,
    Comment,
    ImportStatement,
    ExportClause,
    Call,
    New,
    Member,
    Arguments,
    /// Expressions that only wrap another one (`x as T`, `(x)`, `x!`, `x satisfies T`).
    Wrapper,
    /// `jsx_opening_element`, `jsx_self_closing_element`.
    JsxOpen,
    JsxClose,
    Identifier,
    TypeIdentifier,
    ShorthandIdentifier,
    /// Type positions whose `name` field is a reference, not a binding.
    TypeReference,
    ExtendsClause,
    ImplementsClause,
    ExtendsTypeClause,
    /// The `import` keyword used as a callee (`import("x")`).
    ImportCallee,
    /// `required_parameter`, `optional_parameter`.
    Parameter,
}

fn classify(name: &str, named: bool) -> Kind {
    if !named {
        return Kind::Other;
    }
    match name {
        // guard: allow(lexicon) reason: node kind names of the tree-sitter grammar, not English words
        "program" => Kind::Program,
        "export_statement" => Kind::ExportStatement,
        "ambient_declaration" => Kind::AmbientDeclaration,
        "lexical_declaration" | "variable_declaration" => Kind::VariableList,
        "variable_declarator" => Kind::VariableDeclarator,
        "function_declaration" | "generator_function_declaration" | "function_signature" => {
            Kind::FunctionDecl
        }
        "class_declaration" | "abstract_class_declaration" => Kind::ClassDecl,
        "class" => Kind::ClassExpr,
        "interface_declaration" => Kind::InterfaceDecl,
        "type_alias_declaration" => Kind::TypeAlias,
        "enum_declaration" => Kind::EnumDecl,
        "internal_module" | "module" => Kind::Namespace,
        "method_definition" => Kind::MethodDefinition,
        "method_signature" | "abstract_method_signature" => Kind::MethodSignature,
        "public_field_definition" => Kind::FieldDefinition,
        "property_signature" => Kind::PropertySignature,
        "class_body" => Kind::ClassBody,
        "interface_body" => Kind::InterfaceBody,
        "object_type" => Kind::ObjectType,
        "object" => Kind::Object,
        "pair" => Kind::Pair,
        "arrow_function" | "function_expression" | "generator_function" => Kind::FunctionValue,
        "statement_block" => Kind::StatementBlock,
        "decorator" => Kind::Decorator,
        "comment" | "html_comment" => Kind::Comment,
        "import_statement" => Kind::ImportStatement,
        "export_clause" => Kind::ExportClause,
        "call_expression" => Kind::Call,
        "new_expression" => Kind::New,
        "member_expression" => Kind::Member,
        "arguments" => Kind::Arguments,
        "as_expression"
        | "satisfies_expression"
        | "parenthesized_expression"
        | "non_null_expression"
        | "type_assertion" => Kind::Wrapper,
        "jsx_opening_element" | "jsx_self_closing_element" => Kind::JsxOpen,
        "jsx_closing_element" => Kind::JsxClose,
        "identifier" => Kind::Identifier,
        "type_identifier" => Kind::TypeIdentifier,
        "shorthand_property_identifier" => Kind::ShorthandIdentifier,
        "generic_type" | "nested_type_identifier" => Kind::TypeReference,
        "extends_clause" => Kind::ExtendsClause,
        "implements_clause" => Kind::ImplementsClause,
        "extends_type_clause" => Kind::ExtendsTypeClause,
        "import" => Kind::ImportCallee,
        "required_parameter" | "optional_parameter" => Kind::Parameter,
        _ => Kind::Other,
    }
}

/// Field ids the extractor asks for (0 when the grammar lacks the field, which never matches).
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Fields {
    pub name: u16,
    pub value: u16,
    pub function: u16,
    pub constructor: u16,
    pub object: u16,
    pub property: u16,
    pub arguments: u16,
    pub source: u16,
    pub alias: u16,
    pub pattern: u16,
    pub parameter: u16,
    pub key: u16,
    pub type_: u16,
    pub body: u16,
    pub left: u16,
    pub right: u16,
    pub parameters: u16,
    pub return_type: u16,
    pub declaration: u16,
}

pub(super) struct Grammar {
    pub language: Language,
    kinds: Vec<Kind>,
    pub fields: Fields,
}

impl Grammar {
    fn build(language: Language) -> Grammar {
        let count = language.node_kind_count();
        let kinds = (0..count)
            .map(|id| {
                let id = u16::try_from(id).unwrap_or(u16::MAX);
                match language.node_kind_for_id(id) {
                    Some(name) => classify(name, language.node_kind_is_named(id)),
                    None => Kind::Other,
                }
            })
            .collect();
        let field = |name: &str| language.field_id_for_name(name).map_or(0, |f| f.get());
        let fields = Fields {
            name: field("name"),
            value: field("value"),
            function: field("function"),
            constructor: field("constructor"),
            object: field("object"),
            property: field("property"),
            arguments: field("arguments"),
            source: field("source"),
            alias: field("alias"),
            pattern: field("pattern"),
            parameter: field("parameter"),
            key: field("key"),
            type_: field("type"),
            body: field("body"),
            left: field("left"),
            right: field("right"),
            parameters: field("parameters"),
            return_type: field("return_type"),
            declaration: field("declaration"),
        };
        Grammar {
            language,
            kinds,
            fields,
        }
    }

    #[inline]
    pub fn kind(&self, node: Node<'_>) -> Kind {
        // ERROR nodes have id u16::MAX and fall outside the table.
        self.kinds
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or_default()
    }
}

/// The TypeScript grammar (`typescript`), or the TSX grammar that also parses JavaScript.
pub(super) fn grammar(typescript: bool) -> &'static Grammar {
    static TYPESCRIPT: OnceLock<Grammar> = OnceLock::new();
    static TSX: OnceLock<Grammar> = OnceLock::new();
    if typescript {
        TYPESCRIPT
            .get_or_init(|| Grammar::build(tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into()))
    } else {
        TSX.get_or_init(|| Grammar::build(tree_sitter_typescript::LANGUAGE_TSX.into()))
    }
}
