//! An MCP server on stdio over one indexed repository. It offers the session tools
//! (`explore_code`, `grep`, `read_file`, `definition`, `references`, `outline`,
//! `list_files`) plus `submit_report`, so a client's own model can act as the value model:
//! its calls accumulate in one server-side session (a call without one starts one), and
//! its selection is validated and rendered exactly like the value-model loop's; and
//! `explore` (one call, a validated report). Which of them are offered is a [`ToolSet`].
//!
//! Every call first brings the index up to date (from a file watcher's changes, or by
//! re-statting the tree when there is no watcher), so replies reflect the files as they
//! are at the call. Only stderr is written to; stdout carries the protocol.
//!
//! Contract: [`serve_stdio`] (or [`serve_stdio_indexing`], which answers the handshake
//! before the index is built) serves one repository; [`Engine`] is the same server without
//! the transport, one method per tool, each returning a [`Reply`] (text for a model,
//! typed `structuredContent` for programs) or a [`CallError`] written for the calling
//! model.
//!
//! Invariants:
//! - Judgment versus authority: a client's model (or the value model) only selects
//!   candidate IDs its session's calls showed; validation and rendering are the same
//!   functions the agent loop uses, so the report's paths and ranges are the registry's.
//! - Bounded state: at most [`MAX_OPEN_SESSIONS`] raw-tool sessions are kept, and closed
//!   sessions' salsa inputs are reused; a protocol line longer than [`MAX_LINE_BYTES`] is
//!   refused.
//! - Tool schemas are portable (checked by [`non_portable`]) and terse: every word in them
//!   is read by the client's model on every turn. The default tools' listing stays under
//!   8,000 characters of JSON and no sentence of it appears in two tools (tested).
//!
//! Embedding it without the transport:
//!
//! ```
//! use sightline_observe::{CacheMode, Index, IndexOptions};
//! use sightline_registry::{Intent, RegistryDatabase};
//! use sightline_server::{Engine, ExploreParams};
//!
//! let dir = tempfile::tempdir()?;
//! std::fs::write(
//!     dir.path().join("save.ts"),
//!     "export function saveRecord(title: string) {\n  return title.trim();\n}\n",
//! )?;
//! let options = IndexOptions { cache: CacheMode::Disabled, progress: None };
//! let index = Index::open_with_db(RegistryDatabase::default(), dir.path(), &options)?;
//! let mut engine = Engine::new(index);
//! let reply = engine.explore(&ExploreParams {
//!     query: "saveRecord".into(),
//!     intent: Some(Intent::Locate),
//!     max_files: 8,
//! })?;
//! assert_eq!(reply.structured.primary[0].path, "save.ts");
//! assert!(reply.text.contains("save.ts"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

#![warn(missing_docs)]

mod engine;
mod error;
mod handler;
mod output;
mod params;
mod prompt;
mod read_list;
mod refresher;
mod sampling;
mod schema;
mod sessions;
mod startup;
mod toolset;
mod transport;
pub mod value_model;
mod worker;

pub use engine::{Engine, Reply};
pub use error::{CallError, ServerError};
pub use handler::{MapServer, SERVER_NAME, instructions};
pub use output::{CallOut, CandidateOut, PlaceOut, ReadOut, ReportOut};
pub use params::{
    DefinitionParams, ExploreCodeParams, ExploreParams, GrepParams, ListFilesParams, OutlineParams,
    ReadFileParams, ReferencesParams, Strict, SubmitParams, ToolArgs,
};
pub use prompt::MAP_CODE;
pub use schema::non_portable;
pub use sessions::MAX_OPEN_SESSIONS;
pub use startup::{Starter, Startup};
pub use toolset::{ALL_TOOLS, DEFAULT_TOOLS, REPORT_TOOLS, ToolSet, UnknownTool};
pub use transport::MAX_LINE_BYTES;
pub use value_model::ValueModel;

use rmcp::ServiceExt as _;
use sightline_observe::Index;
use sightline_observe::watch::Freshness;
use sightline_registry::RegistryDatabase;

/// Serves `index` over stdin/stdout until the client closes stdin. `value_model`, when
/// given, makes `explore` select with that model instead of deterministically.
pub fn serve_stdio(
    index: Index<RegistryDatabase>,
    value_model: Option<ValueModel>,
    tools: ToolSet,
) -> Result<(), ServerError> {
    let server =
        MapServer::new(engine_of((index, Freshness::walk()), value_model)).with_tools(tools);
    run_stdio(server, None)
}

/// An index and how it is kept up to date: a watcher of its root (whose directory
/// observer the index was opened with) or [`Freshness::walk`].
pub type Opened = (Index<RegistryDatabase>, Freshness);

/// What builds the index: called once on a blocking thread with a progress callback
/// (files parsed, files found); an `Err` is what every tool call will answer.
pub type BuildIndex =
    Box<dyn FnOnce(&(dyn Fn(usize, usize) + Sync)) -> Result<Opened, String> + Send>;

/// Like [`serve_stdio`], but the index is built by `build` in the background: the
/// handshake is answered at once whatever the repository's size, and the first tool call
/// waits for the index, with progress notifications when it carries a progress token.
pub fn serve_stdio_indexing(
    build: BuildIndex,
    value_model: Option<ValueModel>,
    tools: ToolSet,
) -> Result<(), ServerError> {
    let (server, starter) = MapServer::indexing();
    let server = server.with_tools(tools);
    run_stdio(server, Some((build, value_model, starter)))
}

fn engine_of((index, freshness): Opened, value_model: Option<ValueModel>) -> Engine {
    let engine = Engine::new(index).with_freshness(freshness);
    match value_model {
        Some(model) => engine.with_value_model(model),
        None => engine,
    }
}

type Background = (BuildIndex, Option<ValueModel>, Starter);

fn run_stdio(server: MapServer, background: Option<Background>) -> Result<(), ServerError> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServerError::Runtime)?;
    if let Some((build, value_model, starter)) = background {
        runtime.spawn_blocking(move || {
            let built = build(&|done, total| starter.progress(done, total));
            if let Ok((index, freshness)) = &built {
                let watching = if freshness.is_watching() {
                    format!("watching {} directories", freshness.watched_directories())
                } else {
                    "no watcher: every call walks the tree".to_owned()
                };
                eprintln!(
                    "indexed {} ({} source files; {watching})",
                    index.root().display(),
                    index.report().source_files
                );
            }
            starter.finish(built.map(|index| engine_of(index, value_model)));
        });
    }
    let served = runtime.block_on(async {
        let service = server
            .serve(transport::LineTransport::new(
                tokio::io::stdin(),
                tokio::io::stdout(),
            ))
            .await
            .map_err(|e| ServerError::Handshake(e.to_string()))?;
        tokio::select! {
            reason = service.waiting() => {
                let reason = reason.map_err(|e| ServerError::Connection(e.to_string()))?;
                eprintln!("server stopped: {reason:?}");
            }
            signal = termination() => eprintln!("server stopped: {signal}"),
        }
        Ok(())
    });
    // However serving ended, the file watchers' fence directories go (the engine, still
    // shared with the runtime's tasks, may never be dropped).
    sightline_observe::watch::remove_fence_dirs();
    // A client that leaves during indexing must not wait for it to finish.
    runtime.shutdown_background();
    served
}

/// Resolves when the process is asked to stop (SIGINT or SIGTERM; Ctrl-C elsewhere), so
/// the server ends the way a closed stdin ends it. Never resolves where no handler can be
/// installed.
async fn termination() -> &'static str {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        match (
            signal(SignalKind::interrupt()),
            signal(SignalKind::terminate()),
        ) {
            (Ok(mut interrupt), Ok(mut terminate)) => tokio::select! {
                _ = interrupt.recv() => "interrupted (SIGINT)",
                _ = terminate.recv() => "terminated (SIGTERM)",
            },
            _ => std::future::pending().await,
        }
    }
    #[cfg(not(unix))]
    {
        match tokio::signal::ctrl_c().await {
            Ok(()) => "interrupted (Ctrl-C)",
            Err(_) => std::future::pending().await,
        }
    }
}
