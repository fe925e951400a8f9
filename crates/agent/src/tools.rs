//! The tools offered to the model, with argument schemas generated from the Rust types the
//! session parses, so the schema a model sees cannot drift from what is accepted.

use schemars::JsonSchema;
use schemars::generate::SchemaSettings;
use sightline_observe::tools::explore_code::ExploreArgs;
use sightline_observe::tools::grep::GrepArgs;
use sightline_observe::tools::list_files::ListFilesArgs;
use sightline_observe::tools::nav::definition::DefinitionArgs;
use sightline_observe::tools::nav::outline::OutlineArgs;
use sightline_observe::tools::nav::references::ReferencesArgs;
use sightline_observe::tools::read_file::ReadFileArgs;
use sightline_registry::Selection;

use crate::chat::ToolSpec;

/// The tool that ends the conversation.
pub const SUBMIT: &str = "submit_report";

/// The tools, exploration first, `submit_report` last.
pub fn tool_specs() -> Vec<ToolSpec> {
    vec![
        spec::<ExploreArgs>(
            "explore_code",
            "Search the code graph by identifiers or a short description in the code's own \
             vocabulary; returns source windows of the best matching declarations and their \
             neighbours.",
        ),
        spec::<GrepArgs>(
            "grep",
            "Search file lines for a literal string (or a regex with regex=true).",
        ),
        spec::<ReadFileArgs>(
            "read_file",
            "Read a line range of one file (repository-relative path).",
        ),
        spec::<ListFilesArgs>("list_files", "List files under a directory."),
        spec::<DefinitionArgs>(
            "definition",
            "Where a name is declared: path, range, kind and signature per declaration; the \
             body with body=true.",
        ),
        spec::<ReferencesArgs>(
            "references",
            "The uses of a declaration (by name or ID), one line each with the declaration \
             they are in; or, with callees=true, what it calls.",
        ),
        spec::<OutlineArgs>(
            "outline",
            "The declarations of a file (nested) or of a directory's files, with ranges.",
        ),
        spec::<Selection>(
            SUBMIT,
            "Submit the final selection, made of candidate IDs seen in tool results. Ends the \
             exploration.",
        ),
    ]
}

/// A self-contained object schema: subschemas inlined (some endpoints reject `$ref`), no
/// `$schema` or `title` keys (noise for a model).
fn spec<T: JsonSchema>(name: &str, description: &str) -> ToolSpec {
    let schema = SchemaSettings::draft07()
        .with(|s| s.inline_subschemas = true)
        .into_generator()
        .into_root_schema_for::<T>();
    let mut parameters = schema.to_value();
    if let Some(object) = parameters.as_object_mut() {
        object.remove("$schema");
        object.remove("title");
        object.remove("definitions");
    }
    ToolSpec {
        name: name.to_owned(),
        description: description.to_owned(),
        parameters,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schemas_are_self_contained_objects() {
        let specs = tool_specs();
        let names: Vec<&str> = specs.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(names, crate::session::TOOL_NAMES);
        for s in &specs {
            assert_eq!(s.parameters["type"], "object", "{}", s.name);
            let text = s.parameters.to_string();
            assert!(!text.contains("$ref"), "{} has a $ref: {text}", s.name);
            assert!(!text.contains("$schema"), "{}", s.name);
        }
        let submit = &specs[specs.len() - 1].parameters;
        assert!(submit["properties"]["flow"]["items"]["properties"]["quote"].is_object());
        let explore = &specs[0].parameters;
        assert_eq!(explore["required"], serde_json::json!(["query"]));
    }
}
