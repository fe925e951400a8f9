//! The Java grammar's lookup tables, built once: the node kinds the extractor reacts to,
//! read from a vector indexed by kind id, and the field ids it asks for.

use std::sync::OnceLock;

use tree_sitter::{Language, Node};

/// What the extractor does with a node, by its kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) enum Kind {
    #[default]
    Other,
    /// `class`, `interface`, `enum`, `record` and `@interface` declarations.
    Class,
    Interface,
    Enum,
    Record,
    AnnotationType,
    /// Methods and annotation type elements.
    Method,
    /// Constructors, compact ones (a record's) too.
    Constructor,
    /// A field of a class (`field_declaration`) or a constant of an interface
    /// (`constant_declaration`): its declarators are the declarations.
    Field,
    /// `name = value` inside a field, a local variable or a resource.
    Declarator,
    EnumConstant,
    /// `package …;`, `import …;` and `module … {}`: names that are not references.
    Package,
    Import,
    Module,
    /// `f()`, `a.f()`.
    Invocation,
    /// `new T(…)`, with or without a class body.
    Creation,
    /// `@A` and `@A(…)`.
    Annotation,
    /// `T::m`.
    MethodReference,
    /// `a.b` as an expression.
    FieldAccess,
    Identifier,
    TypeIdentifier,
    /// `Outer.Inner` as a type.
    ScopedType,
    /// `<T extends B>`: the name it declares is not a reference.
    TypeParameter,
    /// `extends B` of a class.
    Superclass,
    /// `implements I, J` of a class, enum or record.
    SuperInterfaces,
    /// `extends I, J` of an interface.
    ExtendsInterfaces,
    /// Lambda parameters bind names.
    InferredParameters,
}

fn classify(name: &str) -> Kind {
    match name {
        "class_declaration" => Kind::Class,
        "interface_declaration" => Kind::Interface,
        "enum_declaration" => Kind::Enum,
        "record_declaration" => Kind::Record,
        "annotation_type_declaration" => Kind::AnnotationType,
        "method_declaration" | "annotation_type_element_declaration" => Kind::Method,
        "constructor_declaration" | "compact_constructor_declaration" => Kind::Constructor,
        "field_declaration" | "constant_declaration" => Kind::Field,
        "variable_declarator" => Kind::Declarator,
        "enum_constant" => Kind::EnumConstant,
        "package_declaration" => Kind::Package,
        "import_declaration" => Kind::Import,
        "module_declaration" => Kind::Module,
        "method_invocation" => Kind::Invocation,
        "object_creation_expression" => Kind::Creation,
        "annotation" | "marker_annotation" => Kind::Annotation,
        "method_reference" => Kind::MethodReference,
        "field_access" => Kind::FieldAccess,
        "identifier" => Kind::Identifier,
        "type_identifier" => Kind::TypeIdentifier,
        "scoped_type_identifier" => Kind::ScopedType,
        "type_parameter" => Kind::TypeParameter,
        "superclass" => Kind::Superclass,
        "super_interfaces" => Kind::SuperInterfaces,
        "extends_interfaces" => Kind::ExtendsInterfaces,
        "inferred_parameters" => Kind::InferredParameters,
        _ => Kind::Other,
    }
}

/// Field ids (0 when the grammar lacks one, which never matches a real field).
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Fields {
    pub name: u16,
    pub object: u16,
    pub field: u16,
    pub type_: u16,
    pub key: u16,
    pub parameters: u16,
    pub declarator: u16,
    pub scope: u16,
}

pub(crate) struct Grammar {
    pub language: Language,
    kinds: Vec<Kind>,
    pub fields: Fields,
}

impl Grammar {
    fn build(language: Language) -> Grammar {
        let kinds = (0..language.node_kind_count())
            .map(|id| {
                let id = u16::try_from(id).unwrap_or(u16::MAX);
                match language.node_kind_for_id(id) {
                    Some(name) if language.node_kind_is_named(id) => classify(name),
                    _ => Kind::Other,
                }
            })
            .collect();
        let field = |name: &str| language.field_id_for_name(name).map_or(0, |f| f.get());
        let fields = Fields {
            name: field("name"),
            object: field("object"),
            field: field("field"),
            type_: field("type"),
            key: field("key"),
            parameters: field("parameters"),
            declarator: field("declarator"),
            scope: field("scope"),
        };
        Grammar {
            language,
            kinds,
            fields,
        }
    }

    #[inline]
    pub fn kind(&self, node: Node<'_>) -> Kind {
        self.kinds
            .get(usize::from(node.kind_id()))
            .copied()
            .unwrap_or_default()
    }
}

pub(crate) fn java_grammar() -> &'static Grammar {
    static JAVA: OnceLock<Grammar> = OnceLock::new();
    JAVA.get_or_init(|| Grammar::build(tree_sitter_java::LANGUAGE.into()))
}
