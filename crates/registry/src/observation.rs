//! Typed observations: what one tool call returned. Markdown is only ever a rendering of
//! these; no stage parses rendered text back.

use serde::{Deserialize, Serialize};
use sightline_observe::tools::explore_code::{ExploreArgs, ExploreResult};
use sightline_observe::tools::grep::{GrepArgs, GrepResult};
use sightline_observe::tools::list_files::{ListFilesArgs, ListFilesResult};
use sightline_observe::tools::read_file::{ReadFileArgs, ReadFileResult};

/// A tool call as made, with its arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", content = "args", rename_all = "snake_case")]
pub enum ToolCall {
    ExploreCode(ExploreArgs),
    Grep(GrepArgs),
    ReadFile(ReadFileArgs),
    ListFiles(ListFilesArgs),
}

/// What a tool call returned, or the error it produced (errors are observations too: the
/// model sees them and may correct its call).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", content = "result", rename_all = "snake_case")]
pub enum Observation {
    ExploreCode(ExploreResult),
    Grep(GrepResult),
    ReadFile(ReadFileResult),
    ListFiles(ListFilesResult),
    Error(String),
}

pub use sightline_base::ToolName;

impl ToolCall {
    pub fn name(&self) -> ToolName {
        match self {
            ToolCall::ExploreCode(_) => ToolName::ExploreCode,
            ToolCall::Grep(_) => ToolName::Grep,
            ToolCall::ReadFile(_) => ToolName::ReadFile,
            ToolCall::ListFiles(_) => ToolName::ListFiles,
        }
    }
}

/// One call of a session and what it observed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedCall {
    pub call: ToolCall,
    pub observation: Observation,
}
