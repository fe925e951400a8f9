//! The MCP surface: tool declarations (names, descriptions, schemas) and the mapping of
//! engine results to MCP results. Tool bodies run on the blocking pool under the engine's
//! lock, because the index's database is not `Sync` and a call may parse files.

use std::sync::{Arc, Mutex};

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::tool::schema_for_output;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{ServerHandler, tool, tool_handler, tool_router};
use serde::Serialize;
use sightline_registry::ToolCall;

use crate::engine::{Engine, Reply};
use crate::error::CallError;
use crate::output::{CallOut, ReportOut};
use crate::params::{
    ExploreCodeParams, ExploreParams, GrepParams, ListFilesParams, ReadFileParams, SubmitParams,
    submit_schema,
};

/// The name the server announces in the handshake.
pub const SERVER_NAME: &str = "sightline";

const INSTRUCTIONS: &str = "Maps the code that matters for a question. `explore` answers in \
    one call with a compact verified report. To judge the evidence yourself, run a session: \
    `explore_code` without `session` starts one (give `intent`), further `explore_code`, \
    `grep`, `read_file` and `list_files` calls with that `session` add to it, and \
    `submit_report` with your selection of candidate IDs closes it with a validated report. \
    Every call sees the files as they are on disk at that moment.";

#[derive(Clone)]
pub struct MapServer {
    engine: Arc<Mutex<Engine>>,
    tool_router: ToolRouter<MapServer>,
}

#[tool_router]
impl MapServer {
    pub fn new(engine: Engine) -> MapServer {
        MapServer {
            engine: Arc::new(Mutex::new(engine)),
            tool_router: Self::tool_router(),
        }
    }

    #[tool(
        description = "Map the code for a question in one call. Explores the repository and returns a compact report (at most ~2,500 characters) of the places that matter, in order, each with a verbatim quote, plus ranges to read and a next action consistent with `intent`. Every path and range in it was observed in the files as they are now. When the server runs with a value model, that model explores and selects; otherwise the selection is deterministic. structuredContent holds the machine block: paths, ranges, action, confidence.",
        output_schema = schema_for_output::<ReportOut>()
    )]
    async fn explore(&self, Parameters(params): Parameters<ExploreParams>) -> CallToolResult {
        self.run(move |engine| engine.explore(&params)).await
    }

    #[tool(
        description = "Graph exploration: source windows of the declarations the query names and of the code connected to them, each labelled inline with a candidate ID such as [c7]. Calls accumulate in a session so candidate IDs stay stable: omit `session` to start a new one (then `intent` is required); the reply's first line names the session id. Pass that id as `session` to further explore_code, grep, read_file and list_files calls, and finally to submit_report, which closes it.",
        output_schema = schema_for_output::<CallOut>()
    )]
    async fn explore_code(
        &self,
        Parameters(params): Parameters<ExploreCodeParams>,
    ) -> CallToolResult {
        self.run(move |engine| engine.explore_code(params)).await
    }

    #[tool(
        description = "Search the repository's files for literal text (or a regex with `regex: true`), within a session started by explore_code. Matches come back labelled with candidate IDs. `session` is required.",
        output_schema = schema_for_output::<CallOut>()
    )]
    async fn grep(&self, Parameters(params): Parameters<GrepParams>) -> CallToolResult {
        let GrepParams { session, args } = params;
        self.run(move |engine| engine.call_in(&session, ToolCall::Grep(args)))
            .await
    }

    #[tool(
        description = "Read a line range of a repository file, within a session started by explore_code. The range comes back labelled with a candidate ID. `session` is required.",
        output_schema = schema_for_output::<CallOut>()
    )]
    async fn read_file(&self, Parameters(params): Parameters<ReadFileParams>) -> CallToolResult {
        let ReadFileParams { session, args } = params;
        self.run(move |engine| engine.call_in(&session, ToolCall::ReadFile(args)))
            .await
    }

    #[tool(
        description = "List a directory of the repository, within a session started by explore_code. Files come back labelled with candidate IDs. `session` is required.",
        output_schema = schema_for_output::<CallOut>()
    )]
    async fn list_files(&self, Parameters(params): Parameters<ListFilesParams>) -> CallToolResult {
        let ListFilesParams { session, args } = params;
        self.run(move |engine| engine.call_in(&session, ToolCall::ListFiles(args)))
            .await
    }

    #[tool(
        description = "Close a session with your selection, made only of candidate IDs its calls showed: `primary` (1-5 IDs), an ordered `flow` of links (candidate, open-vocabulary role, one-sentence fact, and a quote of at most 2 lines copied verbatim from what a tool showed for that candidate), `read_targets`, `missing` (at most 3), `action`, `search_targets` (only with targeted_gap_search) and `confidence`. The server validates it (drops unknown IDs and quotes it cannot find, makes the action fit the session's intent, only ever lowers confidence) and returns the rendered report. A selection that does not parse is rejected with the offending field and the session stays open; an accepted one closes the session. With `preview: true` it is validated and rendered without closing the session, to see what would be dropped first.",
        input_schema = submit_schema(),
        output_schema = schema_for_output::<ReportOut>()
    )]
    async fn submit_report(&self, Parameters(params): Parameters<SubmitParams>) -> CallToolResult {
        self.run(move |engine| engine.submit(params)).await
    }
}

impl MapServer {
    /// Runs a tool body on the blocking pool under the engine lock and maps its result.
    async fn run<T, F>(&self, body: F) -> CallToolResult
    where
        T: Serialize + Send + 'static,
        F: FnOnce(&mut Engine) -> Result<Reply<T>, CallError> + Send + 'static,
    {
        let engine = Arc::clone(&self.engine);
        let joined = tokio::task::spawn_blocking(move || {
            // A panic in an earlier call poisons the lock; the index itself stays usable,
            // so keep serving rather than failing every later call.
            let mut engine = engine
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            body(&mut engine)
        })
        .await;
        let result = joined.unwrap_or_else(|e| Err(CallError::Internal(e.to_string())));
        match result.and_then(structured) {
            Ok(done) => done,
            Err(e) => {
                eprintln!("tool call failed: {e}");
                CallToolResult::error(vec![ContentBlock::text(e.to_string())])
            }
        }
    }
}

fn structured<T: Serialize>(reply: Reply<T>) -> Result<CallToolResult, CallError> {
    let value = serde_json::to_value(&reply.structured)
        .map_err(|e| CallError::Internal(format!("cannot serialize the result: {e}")))?;
    let mut content = vec![ContentBlock::text(reply.text)];
    content.extend(reply.validation.map(ContentBlock::text));
    let mut result = CallToolResult::success(content);
    result.structured_content = Some(value);
    Ok(result)
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for MapServer {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS.to_owned())
    }
}
