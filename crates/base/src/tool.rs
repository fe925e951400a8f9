//! The exploration tools by name, as provenance records them.

use serde::{Deserialize, Serialize};

/// One of the typed exploration tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolName {
    ExploreCode,
    Grep,
    ReadFile,
    ListFiles,
}

impl ToolName {
    pub fn as_str(self) -> &'static str {
        match self {
            ToolName::ExploreCode => "explore_code",
            ToolName::Grep => "grep",
            ToolName::ReadFile => "read_file",
            ToolName::ListFiles => "list_files",
        }
    }
}
