//! Typed errors: what stops the server, and what a single tool call answers with
//! `isError: true`.

use sightline_validate::SelectionError;

/// Why the server could not start or stopped abnormally.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[source] std::io::Error),
    #[error("the MCP handshake failed: {0}")]
    Handshake(String),
    #[error("the MCP connection failed: {0}")]
    Connection(String),
}

/// Why one tool call failed. The message is written for the calling model: it says what
/// to change.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    #[error(
        "`{tool}` needs a `session`: start one with `explore_code` without `session` \
         (its reply names the new session's id), then pass that id"
    )]
    MissingSession { tool: &'static str },
    #[error(
        "unknown session `{id}`: it was never started, was already closed by a successful \
         `submit_report`, or was evicted (the server keeps the {keep} most recent); start a \
         new one with `explore_code` without `session`"
    )]
    UnknownSession { id: String, keep: usize },
    #[error(
        "`explore_code` without `session` starts a new session and needs `intent` \
         (explain, locate, edit or debug)"
    )]
    MissingIntent,
    #[error(
        "session `{id}` was started with intent `{started}`; the intent cannot change \
         within a session (omit `intent`, or start a new session)"
    )]
    IntentChanged { id: String, started: &'static str },
    /// The tool ran and reported a failure (bad path, invalid regex, empty query, ...).
    #[error("{0}")]
    Tool(String),
    /// The `submit_report` selection does not fit the schema; the session stays open.
    #[error("invalid selection, the session stays open, fix it and submit again: {0}")]
    Selection(#[from] SelectionError),
    #[error("the repository root cannot be used: {0}")]
    Root(String),
    #[error("internal error: {0}")]
    Internal(String),
}
