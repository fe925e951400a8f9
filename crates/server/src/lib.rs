//! An MCP server on stdio over one indexed repository. It offers `explore` (one call, a
//! validated report) and the raw exploration tools plus `submit_report`, so a client's own
//! model can act as the value model: its raw calls accumulate in one server-side session,
//! and its selection is validated and rendered exactly like the value-model loop's.
//!
//! Every call first re-stats the tree, so replies reflect the files as they are at the
//! call. Only stderr is written to; stdout carries the protocol.

mod engine;
mod error;
mod handler;
mod output;
mod params;
mod prompt;
mod schema;
mod sessions;
mod transport;
pub mod value_model;

pub use engine::{Engine, Reply};
pub use error::{CallError, ServerError};
pub use handler::{MapServer, SERVER_NAME};
pub use output::{CallOut, CandidateOut, PlaceOut, ReadOut, ReportOut};
pub use params::{
    ExploreCodeParams, ExploreParams, GrepParams, ListFilesParams, ReadFileParams, Strict,
    SubmitParams,
};
pub use prompt::MAP_CODE;
pub use schema::non_portable;
pub use sessions::MAX_OPEN_SESSIONS;
pub use transport::MAX_LINE_BYTES;
pub use value_model::ValueModel;

use rmcp::ServiceExt as _;
use sightline_observe::Index;
use sightline_registry::RegistryDatabase;

/// Serves `index` over stdin/stdout until the client closes stdin. `value_model`, when
/// given, makes `explore` select with that model instead of deterministically.
pub fn serve_stdio(
    index: Index<RegistryDatabase>,
    value_model: Option<ValueModel>,
) -> Result<(), ServerError> {
    let engine = match value_model {
        Some(model) => Engine::new(index).with_value_model(model),
        None => Engine::new(index),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(ServerError::Runtime)?;
    runtime.block_on(async {
        let service = MapServer::new(engine)
            .serve(transport::LineTransport::new(
                tokio::io::stdin(),
                tokio::io::stdout(),
            ))
            .await
            .map_err(|e| ServerError::Handshake(e.to_string()))?;
        let reason = service
            .waiting()
            .await
            .map_err(|e| ServerError::Connection(e.to_string()))?;
        eprintln!("server stopped: {reason:?}");
        Ok(())
    })
}
