//! The observe stage: index a repository with tree-sitter and answer typed exploration
//! tool calls over it.

pub mod facts;
pub mod idf;
pub mod lang;
pub mod path_traits;
pub mod paths;
pub mod query;
pub mod resolve;
pub mod stem;
pub mod syntax;
pub mod terms;
pub mod tools;
pub mod walk;

pub mod cache;
pub mod db;
pub mod graph;
pub mod index;
pub mod mirrors;
pub mod search;
pub mod sizing;

pub use sightline_base::escape;

pub use db::{Db, ObserveDatabase, SourceFile, Workspace};
pub use index::{CacheMode, Index, IndexError, IndexOptions, IndexReport, Progress, RefreshReport};

pub use facts::*;
