//! Typed errors: what stops the server, and what a single tool call answers with
//! `isError: true`.

use sightline_validate::SelectionError;

/// Why the server could not start or stopped abnormally.
#[derive(Debug, thiserror::Error)]
pub enum ServerError {
    /// The tokio runtime could not be built.
    #[error("cannot start the async runtime: {0}")]
    Runtime(#[source] std::io::Error),
    /// The client's `initialize` failed.
    #[error("the MCP handshake failed: {0}")]
    Handshake(String),
    /// The connection broke after the handshake.
    #[error("the MCP connection failed: {0}")]
    Connection(String),
}

/// Why one tool call failed. The message is written for the calling model: it says what
/// to change.
#[derive(Debug, thiserror::Error)]
pub enum CallError {
    /// The session named was never opened, is closed, or was evicted.
    #[error(
        "unknown session `{id}`: it was never started, was already closed by a successful \
         `submit_report`, or was evicted (the server keeps the {keep} most recent); leave \
         `session` out to start a new one"
    )]
    UnknownSession {
        /// The session ID given.
        id: String,
        /// How many recent sessions the server keeps open.
        keep: usize,
    },
    /// The tool ran and reported a failure (bad path, invalid regex, empty query, ...).
    #[error("{0}")]
    Tool(String),
    /// The `submit_report` selection does not fit the schema; the session stays open.
    #[error("invalid selection, the session stays open, fix it and submit again: {0}")]
    Selection(#[from] SelectionError),
    /// The repository root is missing or unreadable.
    #[error("the repository root cannot be used: {0}")]
    Root(String),
    /// A bug or a failed invariant inside the server; the message says which.
    #[error("internal error: {0}")]
    Internal(String),
}
