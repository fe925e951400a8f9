//! The observe stage: index a repository with tree-sitter and answer typed exploration
//! tool calls over it.

pub mod facts;

pub use facts::*;
