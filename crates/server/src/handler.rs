//! The MCP surface: tool declarations (names, descriptions, schemas) and the mapping of
//! engine results to MCP results. Tool bodies run on the blocking pool under the engine's
//! lock, because the index's database is not `Sync` and a call may parse files.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolResult, ContentBlock, GetPromptRequestParams, GetPromptResponse, Implementation,
    ListPromptsResult, PaginatedRequestParams, ProgressNotificationParam, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool, tool_handler, tool_router};
use serde::Serialize;
use sightline_agent::ChatProvider;
use sightline_registry::ToolCall;

use crate::engine::{Engine, Reply};
use crate::error::CallError;
use crate::output::{CallOut, ReportOut};
use crate::params::{
    ExploreCodeParams, ExploreParams, GrepParams, ListFilesParams, ReadFileParams, Strict,
    SubmitParams, submit_schema,
};
use crate::sampling::SamplingProvider;
use crate::startup::{Shared, Starter};
use crate::{prompt, schema};

/// The name the server announces in the handshake.
pub const SERVER_NAME: &str = "sightline";

const INSTRUCTIONS: &str = "Sightline maps the code that answers a question; every path, \
    range and quote it returns was checked against the files as they are at the call. Two \
    ways to use it. `explore`: one call returns a validated report (the places that matter \
    in order with verbatim quotes, ranges to read, a next action); use it when you need not \
    judge the evidence. A session, to judge the evidence yourself: `explore_code` with \
    `query` and `intent` (no `session`) starts one and names it on its first line; 2-4 \
    `grep`, `read_file`, `list_files` or `explore_code` calls with that `session` verify; \
    `submit_report` with the candidate IDs (like [c7]) those calls showed closes it and \
    returns the validated report. The `map_code` prompt spells out this loop.";

/// The MCP server: `explore`, the raw exploration tools with sessions, `submit_report`
/// and the `map_code` prompt, over one [`Engine`].
#[derive(Clone)]
pub struct MapServer {
    shared: Shared,
    tool_router: ToolRouter<MapServer>,
}

#[tool_router(vis = "pub(crate)")]
impl MapServer {
    /// A server over a ready engine.
    pub fn new(engine: Engine) -> MapServer {
        MapServer {
            shared: Shared::ready(engine),
            tool_router: Self::tool_router(),
        }
    }

    /// A server that answers the handshake now and tool calls once the returned
    /// [`Starter`] hands it the engine (built on another thread).
    pub fn indexing() -> (MapServer, Starter) {
        let (shared, starter) = Shared::pending();
        let server = MapServer {
            shared,
            tool_router: Self::tool_router(),
        };
        (server, starter)
    }

    #[tool(
        description = "One call, one validated report: explores the repository for `query` and returns the places that matter, in order, each with a verbatim quote, plus ranges to read and a next action fitting `intent` (at most ~2,500 characters). Every path and range was checked against the files as they are now. Use it when you need not judge the evidence yourself; to judge it, run a session instead (explore_code, then grep/read_file, then submit_report). The server's value model selects when it has one; otherwise, when the client supports sampling, the client's own model explores and selects through sampling/createMessage; otherwise the selection is deterministic. structuredContent holds the machine block: paths, ranges, action, confidence.",
        input_schema = schema::input::<ExploreParams>("explore"),
        output_schema = schema::output::<ReportOut>(),
        title = "Map code in one call",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn explore(
        &self,
        Parameters(Strict(params)): Parameters<Strict<ExploreParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        // Without a value model of its own, the server lets the client's model judge
        // when the client can sample.
        let sampler = SamplingProvider::available(&ctx.peer)
            .then(|| SamplingProvider::new(ctx.peer.clone(), tokio::runtime::Handle::current()));
        self.run(&ctx, move |engine| {
            let client_model = sampler.as_ref().map(|s| s as &dyn ChatProvider);
            engine.explore_judged_by(&params, client_model)
        })
        .await
    }

    #[tool(
        description = "A session of raw tools, step 1: source windows of the declarations `query` names and of the code connected to them, each place labelled with a candidate ID such as [c7]. Without `session` it starts a session (then `intent` is required) whose id the reply's first line names. Then verify with grep, read_file, list_files or explore_code again, passing that `session`, and close with submit_report citing the IDs you saw: the server validates your selection and returns the report. For a report in one call without judging the evidence, use explore.",
        input_schema = schema::input::<ExploreCodeParams>("explore_code"),
        output_schema = schema::output::<CallOut>(),
        title = "Explore code (start or extend a session)",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn explore_code(
        &self,
        Parameters(Strict(params)): Parameters<Strict<ExploreCodeParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.run(&ctx, move |engine| engine.explore_code(params))
            .await
    }

    #[tool(
        description = "Search the repository's files for literal text (or a regex with `regex: true`), within a session started by explore_code. Matches come back labelled with candidate IDs. `session` is required.",
        input_schema = schema::input::<GrepParams>("grep"),
        output_schema = schema::output::<CallOut>(),
        title = "Search text in a session",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn grep(
        &self,
        Parameters(Strict(params)): Parameters<Strict<GrepParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let GrepParams { session, args } = params;
        self.run(&ctx, move |engine| {
            engine.call_in(&session, ToolCall::Grep(args))
        })
        .await
    }

    #[tool(
        description = "Read a line range of a repository file, within a session started by explore_code. The range comes back labelled with a candidate ID. `session` is required.",
        input_schema = schema::input::<ReadFileParams>("read_file"),
        output_schema = schema::output::<CallOut>(),
        title = "Read lines in a session",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn read_file(
        &self,
        Parameters(Strict(params)): Parameters<Strict<ReadFileParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let ReadFileParams { session, args } = params;
        self.run(&ctx, move |engine| {
            engine.call_in(&session, ToolCall::ReadFile(args))
        })
        .await
    }

    #[tool(
        description = "List a directory of the repository, within a session started by explore_code. Files come back labelled with candidate IDs. `session` is required.",
        input_schema = schema::input::<ListFilesParams>("list_files"),
        output_schema = schema::output::<CallOut>(),
        title = "List files in a session",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = true, open_world_hint = false)
    )]
    async fn list_files(
        &self,
        Parameters(Strict(params)): Parameters<Strict<ListFilesParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        let ListFilesParams { session, args } = params;
        self.run(&ctx, move |engine| {
            engine.call_in(&session, ToolCall::ListFiles(args))
        })
        .await
    }

    #[tool(
        description = "Close a session with your selection, made only of candidate IDs its calls showed: `primary` (1-5 IDs), an ordered `flow` of links (candidate, open-vocabulary role, one-sentence fact, and a quote of at most 2 lines copied verbatim from what a tool showed for that candidate), `read_targets`, `missing` (at most 3), `action`, `search_targets` (only with targeted_gap_search) and `confidence`. The server validates it (drops unknown IDs and quotes it cannot find, makes the action fit the session's intent, only ever lowers confidence) and returns the rendered report. A selection that does not parse is rejected with the offending field and the session stays open; an accepted one closes the session. With `preview: true` it is validated and rendered without closing the session, to see what would be dropped first.",
        input_schema = schema::finish("submit_report", &submit_schema()),
        output_schema = schema::output::<ReportOut>(),
        title = "Submit a session's report",
        annotations(read_only_hint = true, destructive_hint = false, idempotent_hint = false, open_world_hint = false)
    )]
    async fn submit_report(
        &self,
        Parameters(params): Parameters<SubmitParams>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.run(&ctx, move |engine| engine.submit(params)).await
    }
}

impl MapServer {
    /// Runs a tool body on the blocking pool under the engine lock and maps its result,
    /// first waiting for the index (with progress notifications when `ctx` asked for them).
    async fn run<T, F>(&self, ctx: &RequestContext<RoleServer>, body: F) -> CallToolResult
    where
        T: Serialize + Send + 'static,
        F: FnOnce(&mut Engine) -> Result<Reply<T>, CallError> + Send + 'static,
    {
        let token = ctx.meta.get_progress_token();
        let waited = self
            .shared
            .wait_ready(|done, total| {
                let notice = token.clone().map(|token| {
                    let mut param = ProgressNotificationParam::new(token, done as f64)
                        .with_message(format!("indexing: {done} of {total} files parsed"));
                    if total > 0 {
                        param = param.with_total(total as f64);
                    }
                    param
                });
                let peer = ctx.peer.clone();
                async move {
                    if let Some(param) = notice {
                        // A client that stopped listening only misses a progress line.
                        let _ = peer.notify_progress(param).await;
                    }
                }
            })
            .await;
        if let Err(why) = waited {
            let message = format!("the repository could not be indexed: {why}");
            return CallToolResult::error(vec![ContentBlock::text(message)]);
        }
        let engine = Arc::clone(&self.shared.engine);
        let joined = tokio::task::spawn_blocking(move || {
            // A panic in an earlier call poisons the lock; the index itself stays usable,
            // so keep serving rather than failing every later call.
            let mut slot = engine
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            match slot.as_mut() {
                Some(engine) => body(engine),
                None => Err(CallError::Internal("the index is not ready".into())),
            }
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
        let capabilities = ServerCapabilities::builder()
            .enable_tools()
            .enable_prompts()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new(SERVER_NAME, env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS.to_owned())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(prompt::list())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        prompt::get(&request).map(Into::into)
    }
}

#[cfg(test)]
mod tests {
    use serde_json::Value;

    use super::*;
    use crate::schema::non_portable;

    #[test]
    fn the_two_ways_point_at_each_other_and_the_instructions_name_every_tool() {
        let router = MapServer::tool_router();
        let description = |name: &str| {
            router
                .get(name)
                .unwrap()
                .description
                .as_deref()
                .unwrap_or_default()
                .to_owned()
        };
        assert!(description("explore").contains("explore_code"));
        assert!(description("explore").contains("submit_report"));
        assert!(description("explore_code").contains("submit_report"));
        assert!(description("explore_code").contains("use explore"));
        for tool in router.list_all() {
            assert!(
                INSTRUCTIONS.contains(&format!("`{}`", tool.name)),
                "{} missing from the instructions",
                tool.name
            );
        }
        assert!(INSTRUCTIONS.contains(prompt::MAP_CODE));
    }

    #[test]
    fn every_tool_schema_is_portable_and_every_tool_is_titled_and_annotated() {
        let tools = MapServer::tool_router().list_all();
        assert_eq!(tools.len(), 6);
        for tool in tools {
            let name = &tool.name;
            let input = Value::Object(tool.input_schema.as_ref().clone());
            assert_eq!(non_portable(&input), Vec::<String>::new(), "{name} input");
            assert_eq!(input["type"], "object", "{name}");
            let output = tool
                .output_schema
                .as_ref()
                .expect("every tool has an output");
            let output = Value::Object(output.as_ref().clone());
            assert_eq!(non_portable(&output), Vec::<String>::new(), "{name} output");
            assert!(
                tool.title.as_deref().is_some_and(|t| !t.is_empty()),
                "{name}"
            );
            let hints = tool.annotations.as_ref().expect("annotations");
            assert_eq!(hints.read_only_hint, Some(true), "{name}");
            assert_eq!(hints.open_world_hint, Some(false), "{name}");
            assert_eq!(hints.destructive_hint, Some(false), "{name}");
            assert!(hints.idempotent_hint.is_some(), "{name}");
        }
    }

    #[test]
    fn run_time_limits_are_in_the_schemas() {
        let router = MapServer::tool_router();
        let field = |tool: &str, field: &str| {
            let schema = &router.get(tool).expect(tool).input_schema;
            schema["properties"][field].clone()
        };
        let max_files = sightline_observe::tools::explore_code::MAX_FILES_CAP;
        for tool in ["explore", "explore_code"] {
            assert_eq!(field(tool, "max_files")["minimum"], 1, "{tool}");
            assert_eq!(field(tool, "max_files")["maximum"], max_files, "{tool}");
        }
        assert_eq!(field("explore_code", "max_depth")["minimum"], 0);
        assert_eq!(
            field("grep", "max_matches")["maximum"],
            sightline_observe::tools::grep::MAX_MATCHES_CAP
        );
        assert_eq!(field("read_file", "start_line")["minimum"], 1);
        assert_eq!(field("list_files", "depth")["minimum"], 1);
    }

    #[test]
    fn enum_arguments_are_plain_string_enums_with_their_values_explained() {
        let router = MapServer::tool_router();
        let intent = &router.get("explore").unwrap().input_schema["properties"]["intent"];
        assert_eq!(intent["type"], "string");
        assert_eq!(
            intent["enum"],
            serde_json::json!(["explain", "locate", "edit", "debug"])
        );
        assert!(intent["description"].as_str().unwrap().contains("edit: "));
        let submit = &router.get("submit_report").unwrap().input_schema;
        assert_eq!(submit["properties"]["action"]["type"], "string");
        let optional = &router.get("explore_code").unwrap().input_schema;
        let required = optional["required"].as_array().unwrap();
        assert!(!required.contains(&Value::from("session")));
        assert!(!required.contains(&Value::from("intent")));
    }
}
