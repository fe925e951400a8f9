//! The exploration tools by name, as provenance records them.

use serde::{Deserialize, Serialize};

/// One of the typed exploration tools.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ToolName {
    /// `explore_code`: ranked windows for a query.
    ExploreCode,
    /// `grep`: literal or regex matches with context.
    Grep,
    /// `read_file`: a line range of one file.
    ReadFile,
    /// `list_files`: a directory listing or glob.
    ListFiles,
    /// `definition`: where a name is declared.
    Definition,
    /// `references`: the uses of a declaration, or what it uses.
    References,
    /// `outline`: the declarations of a file or a directory.
    Outline,
}

impl ToolName {
    /// The tool's name as models call it.
    pub fn as_str(self) -> &'static str {
        match self {
            ToolName::ExploreCode => "explore_code",
            ToolName::Grep => "grep",
            ToolName::ReadFile => "read_file",
            ToolName::ListFiles => "list_files",
            ToolName::Definition => "definition",
            ToolName::References => "references",
            ToolName::Outline => "outline",
        }
    }
}
