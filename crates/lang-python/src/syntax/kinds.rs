//! The Python grammar's lookup tables, built once: node kinds the extractor reacts to,
//! read from a vector indexed by kind id, and the field ids it asks for.

use std::sync::OnceLock;

use tree_sitter::{Language, Node};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum PyKind {
    #[default]
    Other,
    Function,
    Class,
    Decorated,
    Assignment,
    TypeAlias,
    /// `import a.b`, `from a import b`, `from __future__ import x`.
    Import,
    Call,
    Attribute,
    Identifier,
    /// `parameters`, `lambda_parameters`: identifiers directly inside bind names.
    Parameters,
    Lambda,
    Block,
    /// `x: T` and `x: T = v` in a parameter list.
    TypedParameter,
    /// `… as x` and `for x in …`: names bound by a pattern.
    PatternBinding,
    /// One context manager of a `with` statement.
    WithItem,
}

fn classify(name: &str) -> PyKind {
    match name {
        "function_definition" => PyKind::Function,
        "class_definition" => PyKind::Class,
        "decorated_definition" => PyKind::Decorated,
        "assignment" => PyKind::Assignment,
        "type_alias_statement" => PyKind::TypeAlias,
        "import_statement" | "import_from_statement" | "future_import_statement" => PyKind::Import,
        "call" => PyKind::Call,
        "attribute" => PyKind::Attribute,
        "identifier" => PyKind::Identifier,
        "parameters" | "lambda_parameters" => PyKind::Parameters,
        "lambda" => PyKind::Lambda,
        "block" => PyKind::Block,
        "typed_parameter" | "typed_default_parameter" => PyKind::TypedParameter,
        "as_pattern" | "for_statement" => PyKind::PatternBinding,
        "with_item" => PyKind::WithItem,
        _ => PyKind::Other,
    }
}

/// Field ids (0 when the grammar lacks one, which never matches a real field).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PyFields {
    pub name: u16,
    pub alias: u16,
    pub left: u16,
    pub right: u16,
    pub type_: u16,
    pub function: u16,
    pub object: u16,
    pub attribute: u16,
    pub superclasses: u16,
    pub module_name: u16,
    pub value: u16,
    pub condition: u16,
    pub body: u16,
    pub definition: u16,
    pub return_type: u16,
}

pub(crate) struct PyGrammar {
    pub language: Language,
    kinds: Vec<PyKind>,
    pub fields: PyFields,
}

impl PyGrammar {
    fn build(language: Language) -> PyGrammar {
        let kinds = (0..language.node_kind_count())
            .map(|id| {
                let id = u16::try_from(id).unwrap_or(u16::MAX);
                match language.node_kind_for_id(id) {
                    Some(name) if language.node_kind_is_named(id) => classify(name),
                    _ => PyKind::Other,
                }
            })
            .collect();
        let field = |name: &str| language.field_id_for_name(name).map_or(0, |f| f.get());
        let fields = PyFields {
            name: field("name"),
            alias: field("alias"),
            left: field("left"),
            right: field("right"),
            type_: field("type"),
            function: field("function"),
            object: field("object"),
            attribute: field("attribute"),
            superclasses: field("superclasses"),
            module_name: field("module_name"),
            value: field("value"),
            condition: field("condition"),
            body: field("body"),
            definition: field("definition"),
            return_type: field("return_type"),
        };
        PyGrammar {
            language,
            kinds,
            fields,
        }
    }

    #[inline]
    pub fn kind(&self, node: Node<'_>) -> PyKind {
        self.kinds
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or_default()
    }
}

pub(crate) fn python_grammar() -> &'static PyGrammar {
    static PYTHON: OnceLock<PyGrammar> = OnceLock::new();
    PYTHON.get_or_init(|| PyGrammar::build(tree_sitter_python::LANGUAGE.into()))
}
