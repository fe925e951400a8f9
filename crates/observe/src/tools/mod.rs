//! Typed exploration tools.

pub mod error;
pub mod explore_code;
pub mod grep;
mod grep_render;
mod grep_sink;
pub mod grep_skipped;
pub mod list_files;
mod path_glob;
pub mod read_file;
pub(crate) mod walk;

pub use error::ToolError;
pub use walk::SkipCounts;
