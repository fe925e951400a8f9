//! Typed exploration tools.

mod dir_list;
pub mod empty_scope;
pub mod error;
pub mod explore_code;
mod explore_render;
pub mod grep;
mod grep_readings;
mod grep_render;
mod grep_sink;
pub mod grep_skipped;
pub mod list_files;
pub mod nav;
pub mod near_paths;
mod path_glob;
pub mod read_file;
pub mod read_list;
pub(crate) mod walk;

pub use error::ToolError;
pub use walk::SkipCounts;

#[cfg(test)]
mod tests {
    use schemars::{JsonSchema, schema_for};

    /// Argument docs speak to Rust callers (`[`run`]` links and all); the schema a model
    /// reads must not carry them, or every tool listing pays for them.
    fn has_no_root_description<T: JsonSchema>() -> bool {
        schema_for!(T).get("description").is_none()
    }

    #[test]
    fn argument_schemas_carry_no_rust_docs_at_the_root() {
        assert!(has_no_root_description::<super::explore_code::ExploreArgs>());
        assert!(has_no_root_description::<super::grep::GrepArgs>());
        assert!(has_no_root_description::<super::list_files::ListFilesArgs>());
        assert!(has_no_root_description::<super::read_file::ReadFileArgs>());
    }
}
