//! Typed observations: what one tool call returned. Markdown is only ever a rendering of
//! these; no stage parses rendered text back.

use serde::{Deserialize, Serialize};
use sightline_observe::tools::explore_code::{ExploreArgs, ExploreResult};
use sightline_observe::tools::grep::{GrepArgs, GrepResult};
use sightline_observe::tools::list_files::{ListFilesArgs, ListFilesResult};
use sightline_observe::tools::nav::definition::{DefinitionArgs, DefinitionResult};
use sightline_observe::tools::nav::outline::{OutlineArgs, OutlineResult};
use sightline_observe::tools::nav::references::{ReferencesArgs, ReferencesResult};
use sightline_observe::tools::read_file::{ReadFileArgs, ReadFileResult};

/// A tool call as made, with its arguments.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", content = "args", rename_all = "snake_case")]
pub enum ToolCall {
    /// `explore_code` with its query and limits.
    ExploreCode(ExploreArgs),
    /// `grep` with its pattern and scope.
    Grep(GrepArgs),
    /// `read_file` with its path and lines.
    ReadFile(ReadFileArgs),
    /// `list_files` with its directory or glob.
    ListFiles(ListFilesArgs),
    /// `definition` with the declaration wanted.
    Definition(DefinitionArgs),
    /// `references` with the declaration and the direction.
    References(ReferencesArgs),
    /// `outline` with its file or directory.
    Outline(OutlineArgs),
}

/// What a tool call returned, or the error it produced (errors are observations too: the
/// model sees them and may correct its call).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "tool", content = "result", rename_all = "snake_case")]
pub enum Observation {
    /// The ranked files and windows `explore_code` returned.
    ExploreCode(ExploreResult),
    /// The matches `grep` returned.
    Grep(GrepResult),
    /// The lines `read_file` returned.
    ReadFile(ReadFileResult),
    /// The entries `list_files` returned.
    ListFiles(ListFilesResult),
    /// The declarations `definition` found.
    Definition(DefinitionResult),
    /// The uses (or callees) `references` found.
    References(ReferencesResult),
    /// The declarations `outline` listed.
    Outline(OutlineResult),
    /// The call failed; the message the model saw.
    Error(String),
}

pub use sightline_base::ToolName;

impl ToolCall {
    /// Which tool the call is for.
    pub fn name(&self) -> ToolName {
        match self {
            ToolCall::ExploreCode(_) => ToolName::ExploreCode,
            ToolCall::Grep(_) => ToolName::Grep,
            ToolCall::ReadFile(_) => ToolName::ReadFile,
            ToolCall::ListFiles(_) => ToolName::ListFiles,
            ToolCall::Definition(_) => ToolName::Definition,
            ToolCall::References(_) => ToolName::References,
            ToolCall::Outline(_) => ToolName::Outline,
        }
    }
}

/// One call of a session and what it observed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecordedCall {
    /// The call, with its arguments.
    pub call: ToolCall,
    /// What it returned.
    pub observation: Observation,
}
