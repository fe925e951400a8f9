//! The MCP surface: tool declarations (names, descriptions, schemas) and the mapping of
//! engine results to MCP results. Tool bodies run on the engine thread ([`crate::worker`])
//! under the engine's lock, because the index's database is not `Sync` and a call may
//! parse files.

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

use crate::engine::{Engine, Reply};
use crate::error::CallError;
use crate::params::{
    DefinitionParams, ExploreCodeParams, ExploreParams, GrepParams, ListFilesParams, OutlineParams,
    ReadFileParams, ReferencesParams, Strict, SubmitParams, ToolArgs,
};
use crate::sampling::SamplingProvider;
use crate::startup::{Shared, Starter};
use crate::toolset::ToolSet;
use crate::{prompt, schema};

/// The name the server announces in the handshake.
pub const SERVER_NAME: &str = "sightline";

/// The server's instructions for the tools `tools` offers: what IDs and sessions are,
/// said once here and not in each tool's description.
pub fn instructions(tools: &ToolSet) -> String {
    let mut out = String::from(
        "Sightline maps the code that answers a question; every path, range and quote it \
         returns was checked against the files as they are at the call.",
    );
    let session_tools: Vec<String> = tools
        .names()
        .iter()
        .filter(|t| !matches!(**t, "explore" | "submit_report"))
        .map(|t| format!("`{t}`"))
        .collect();
    let closes = tools.contains("submit_report");
    if !session_tools.is_empty() {
        out.push_str(&format!(
            " {} label every place they show with a candidate ID like [c7] (one place, one \
             ID). A call without `session` starts a session and its reply's first line names \
             it; pass it to later calls so their IDs add up (an ID named without one is read \
             in the latest session).",
            session_tools.join(", ")
        ));
    }
    if closes {
        out.push_str(
            " Close the session with `submit_report`, citing the IDs you judged to matter: it \
             verifies them and returns the report.",
        );
    }
    if tools.contains("explore") {
        out.push_str(
            " For a question in words, `explore` answers in one call with one checked report; \
             check with the other tools only what it leaves open.",
        );
    }
    if offers_the_loop(tools) {
        out.push_str(&format!(
            " The `{}` prompt spells out the session loop.",
            prompt::MAP_CODE
        ));
    }
    out
}

/// Whether `tools` holds the session loop the `map_code` prompt walks through; without it
/// the prompt is not listed.
fn offers_the_loop(tools: &ToolSet) -> bool {
    tools.contains("explore_code") && tools.contains("submit_report")
}

/// The MCP server: `explore`, the raw exploration tools with sessions, `submit_report`
/// and the `map_code` prompt, over one [`Engine`].
#[derive(Clone)]
pub struct MapServer {
    shared: Shared,
    tool_router: ToolRouter<MapServer>,
    tools: ToolSet,
}

#[tool_router(vis = "pub(crate)")]
impl MapServer {
    /// A server over a ready engine, offering the default tools.
    pub fn new(engine: Engine) -> MapServer {
        MapServer {
            shared: Shared::ready(engine),
            tool_router: Self::tool_router(),
            tools: ToolSet::all(),
        }
        .with_tools(ToolSet::default_set())
    }

    /// A server that answers the handshake now and tool calls once the returned
    /// [`Starter`] hands it the engine (built on another thread).
    pub fn indexing() -> (MapServer, Starter) {
        let (shared, starter) = Shared::pending();
        let server = MapServer {
            shared,
            tool_router: Self::tool_router(),
            tools: ToolSet::all(),
        }
        .with_tools(ToolSet::default_set());
        (server, starter)
    }

    /// The server offering exactly `tools` (the others are neither listed nor callable).
    pub fn with_tools(mut self, tools: ToolSet) -> MapServer {
        for name in crate::toolset::ALL_TOOLS {
            if tools.contains(name) {
                self.tool_router.enable_route(name);
            } else {
                self.tool_router.disable_route(name);
            }
        }
        self.tools = tools;
        self
    }

    /// The tools offered.
    pub fn tools(&self) -> &ToolSet {
        &self.tools
    }

    /// The tools as `tools/list` returns them.
    pub fn listed_tools(&self) -> Vec<rmcp::model::Tool> {
        self.tool_router.list_all()
    }

    #[tool(
        description = "A question in words, answered in one call with a checked report: the places that matter best first, each with a verbatim quote; a question that names a function and says where it leads gets the chain of calls between them. Its confidence is calibrated on repositories it never saw: at high the first place was right 9 times in 10, at medium 7 in 10, at low under half. A name the question gives costs less through definition or grep.",
        input_schema = schema::input::<ExploreParams>("explore"),
        title = "Report in one call",
        annotations(read_only_hint = true, open_world_hint = false)
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
        description = "Source windows of the declarations a query names and of the code linked to them, best first.",
        input_schema = schema::input::<ExploreCodeParams>("explore_code"),
        title = "Explore code",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn explore_code(
        &self,
        Parameters(Strict(params)): Parameters<Strict<ExploreCodeParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.session_call(&ctx, params).await
    }

    #[tool(
        description = "Lines matching a text, by file; each match is labelled with the ID of its declaration (or of its own line inside a long one).",
        input_schema = schema::input::<GrepParams>("grep"),
        title = "Search lines",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn grep(
        &self,
        Parameters(Strict(params)): Parameters<Strict<GrepParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.session_call(&ctx, params).await
    }

    #[tool(
        description = "Lines of a file, numbered, or of several in one call.",
        input_schema = schema::input::<ReadFileParams>("read_file"),
        title = "Read lines",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn read_file(
        &self,
        Parameters(Strict(params)): Parameters<Strict<ReadFileParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.session_call(&ctx, params).await
    }

    #[tool(
        description = "A directory tree with file sizes.",
        input_schema = schema::input::<ListFilesParams>("list_files"),
        title = "List files",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn list_files(
        &self,
        Parameters(Strict(params)): Parameters<Strict<ListFilesParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.session_call(&ctx, params).await
    }

    #[tool(
        description = "Where a name is declared, one line each: path:range, ID, kind, qualified name and signature. An unknown name gets the nearest declared names.",
        input_schema = schema::input::<DefinitionParams>("definition"),
        title = "Find a definition",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn definition(
        &self,
        Parameters(Strict(params)): Parameters<Strict<DefinitionParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.session_call(&ctx, params).await
    }

    #[tool(
        description = "Who uses a declaration: one line per use, by file, with the declaration it is in and the line itself; `?` marks a use guessed by name. Uses no import resolves come last. With `to`: how it reaches another declaration.",
        input_schema = schema::input::<ReferencesParams>("references"),
        title = "Find uses or callees",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn references(
        &self,
        Parameters(Strict(params)): Parameters<Strict<ReferencesParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.session_call(&ctx, params).await
    }

    #[tool(
        description = "The declarations of a file, nested, or of every file in a directory, with line ranges and IDs.",
        input_schema = schema::input::<OutlineParams>("outline"),
        title = "Outline",
        annotations(read_only_hint = true, open_world_hint = false)
    )]
    async fn outline(
        &self,
        Parameters(Strict(params)): Parameters<Strict<OutlineParams>>,
        ctx: RequestContext<RoleServer>,
    ) -> CallToolResult {
        self.session_call(&ctx, params).await
    }

    #[tool(
        description = "Close a session with your judgment, made only of IDs its calls showed: `primary` places in order of importance, an ordered `flow`, `read_targets`. Unverifiable IDs and quotes are dropped, confidence is only lowered, and the report comes back; a selection that does not parse keeps the session open.",
        input_schema = schema::submit(),
        title = "Submit the report",
        annotations(read_only_hint = true, open_world_hint = false)
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
    /// A session tool's call: in its session, or in a new one.
    async fn session_call<P: ToolArgs + Send + 'static>(
        &self,
        ctx: &RequestContext<RoleServer>,
        params: P,
    ) -> CallToolResult {
        self.run(ctx, move |engine| {
            let session = params.session().map(str::to_owned);
            engine.call(session.as_deref(), params.into_call())
        })
        .await
    }
}

impl MapServer {
    /// Runs a tool body on the engine thread under the engine lock and maps its result,
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
        let joined = crate::worker::run(move || {
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
        let result = joined.unwrap_or_else(|| {
            Err(CallError::Internal(
                "the call panicked (its message is on the server's stderr)".into(),
            ))
        });
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
            .with_instructions(instructions(&self.tools))
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(if offers_the_loop(&self.tools) {
            prompt::list()
        } else {
            ListPromptsResult::with_all_items(Vec::new())
        })
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        if !offers_the_loop(&self.tools) {
            return Err(ErrorData::invalid_params(
                format!(
                    "the `{}` prompt needs the session loop's tools; serve with `--tools \
                     default,report`",
                    prompt::MAP_CODE
                ),
                None,
            ));
        }
        prompt::get(&request).map(Into::into)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;

    use serde_json::Value;

    use super::*;
    use crate::schema::non_portable;

    /// The raw JSON of a `tools/list` result offering `tools`, as a client receives it.
    fn listing(tools: &ToolSet) -> String {
        let server = MapServer::tool_router();
        let listed: Vec<rmcp::model::Tool> = server
            .list_all()
            .into_iter()
            .filter(|t| tools.contains(&t.name))
            .collect();
        serde_json::to_string(&rmcp::model::ListToolsResult::with_all_items(listed)).unwrap()
    }

    #[test]
    fn the_default_listing_fits_in_8000_characters() {
        let json = listing(&ToolSet::default_set());
        eprintln!(
            "tools/list: default {} characters, all {}",
            json.len(),
            listing(&ToolSet::all()).len()
        );
        if std::env::var_os("SIGHTLINE_DUMP_TOOLS").is_some() {
            println!("{json}");
        }
        assert!(json.len() <= 8_000, "{} characters: {json}", json.len());
        // What a server built the ordinary way lists is exactly the default set.
        let (server, _) = MapServer::indexing();
        let mut names: Vec<String> = server
            .listed_tools()
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        names.sort();
        let mut wanted: Vec<String> = crate::toolset::DEFAULT_TOOLS
            .iter()
            .map(|t| t.to_string())
            .collect();
        wanted.sort();
        assert_eq!(names, wanted);
    }

    /// Every description's sentences, per tool.
    fn sentences(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::Object(map) => {
                for (key, child) in map {
                    match (key.as_str(), child) {
                        ("description", Value::String(text)) => out.extend(
                            text.split(". ")
                                .map(|s| s.trim().trim_end_matches('.').to_owned())
                                .filter(|s| s.len() >= 20),
                        ),
                        _ => sentences(child, out),
                    }
                }
            }
            Value::Array(items) => items.iter().for_each(|i| sentences(i, out)),
            _ => {}
        }
    }

    #[test]
    fn no_sentence_is_repeated_between_tools() {
        let mut seen: BTreeMap<String, String> = BTreeMap::new();
        for tool in MapServer::tool_router().list_all() {
            let mut own = Vec::new();
            sentences(&serde_json::to_value(&tool).unwrap(), &mut own);
            own.sort();
            own.dedup();
            for sentence in own {
                if let Some(other) = seen.insert(sentence.clone(), tool.name.to_string()) {
                    panic!("{} and {other} both say: {sentence}", tool.name);
                }
            }
        }
    }

    #[test]
    fn a_tool_set_lists_and_answers_only_its_tools() {
        let (server, _) = MapServer::indexing();
        let server = server.with_tools("grep,explore".parse().unwrap());
        let mut names: Vec<String> = server
            .listed_tools()
            .iter()
            .map(|t| t.name.to_string())
            .collect();
        names.sort();
        assert_eq!(names, ["explore", "grep"]);
        let text = instructions(server.tools());
        assert!(
            text.contains("`grep`") && text.contains("`explore`"),
            "{text}"
        );
        assert!(!text.contains("`outline`"), "{text}");
        // Nothing offered closes a session or runs the loop, so neither is mentioned.
        assert!(!text.contains("submit_report"), "{text}");
        assert!(!text.contains(prompt::MAP_CODE), "{text}");
    }

    #[test]
    fn the_instructions_name_every_offered_tool_and_the_prompt() {
        let text = instructions(&ToolSet::all());
        for tool in crate::toolset::ALL_TOOLS {
            assert!(
                text.contains(&format!("`{tool}`")),
                "{tool} missing: {text}"
            );
        }
        assert!(text.contains(prompt::MAP_CODE));
    }

    #[test]
    fn every_tool_schema_is_portable_and_every_tool_is_titled_and_annotated() {
        let tools = MapServer::tool_router().list_all();
        assert_eq!(tools.len(), crate::toolset::ALL_TOOLS.len());
        for tool in tools {
            let name = &tool.name;
            let input = Value::Object(tool.input_schema.as_ref().clone());
            assert_eq!(non_portable(&input), Vec::<String>::new(), "{name} input");
            assert_eq!(input["type"], "object", "{name}");
            assert!(
                tool.output_schema.is_none(),
                "{name}: output schemas repeat the text"
            );
            assert!(
                tool.title.as_deref().is_some_and(|t| !t.is_empty()),
                "{name}"
            );
            // Read-only: the destructive and idempotent hints mean nothing then (MCP
            // 2025-06-18), so they are not sent.
            let hints = tool.annotations.as_ref().expect("annotations");
            assert_eq!(hints.read_only_hint, Some(true), "{name}");
            assert_eq!(hints.open_world_hint, Some(false), "{name}");
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
        assert_eq!(field("explore", "max_files")["minimum"], 1);
        assert_eq!(field("explore", "max_files")["maximum"], max_files);
        assert_eq!(
            field("grep", "max_matches")["maximum"],
            sightline_observe::tools::grep::MAX_MATCHES_CAP
        );
        assert_eq!(
            field("grep", "context")["maximum"],
            sightline_observe::tools::grep::MAX_CONTEXT
        );
        assert_eq!(field("read_file", "start_line")["minimum"], 1);
        assert_eq!(field("list_files", "depth")["minimum"], 1);
        assert_eq!(
            field("references", "max_results")["maximum"],
            sightline_observe::tools::nav::references::MAX_RESULTS_CAP
        );
        assert_eq!(
            field("outline", "max_entries")["maximum"],
            sightline_observe::tools::nav::outline::MAX_ENTRIES_CAP
        );
    }

    #[test]
    fn every_selection_limit_is_in_the_submit_schema() {
        use sightline_registry::selection::{
            MAX_FLOW, MAX_MISSING, MAX_PRIMARY, MAX_READ_TARGETS, MAX_SEARCH_TARGETS,
        };
        let router = MapServer::tool_router();
        let schema = &router.get("submit_report").unwrap().input_schema;
        let p = &schema["properties"];
        let budget = sightline_validate::Budget::default();
        assert_eq!(p["primary"]["maxItems"], MAX_PRIMARY);
        assert_eq!(p["flow"]["maxItems"], MAX_FLOW);
        assert_eq!(p["read_targets"]["maxItems"], MAX_READ_TARGETS);
        assert_eq!(p["missing"]["maxItems"], MAX_MISSING);
        assert_eq!(p["search_targets"]["maxItems"], MAX_SEARCH_TARGETS);
        let flow = &p["flow"]["items"]["properties"];
        assert_eq!(flow["quote"]["maxLength"], budget.max_quote_chars);
        assert_eq!(flow["role"]["maxLength"], budget.max_term_chars);
        assert_eq!(flow["fact"]["maxLength"], budget.max_text_chars);
        assert_eq!(p["missing"]["items"]["maxLength"], budget.max_text_chars);
        assert_eq!(
            p["read_targets"]["items"]["properties"]["purpose"]["maxLength"],
            budget.max_text_chars
        );
        // The schema's fields are the selection's, plus the session's own.
        let selection = schemars::schema_for!(sightline_registry::Selection);
        for key in p.as_object().unwrap().keys() {
            let own = ["session", "intent", "preview"].contains(&key.as_str());
            assert!(
                own || selection.as_object().unwrap()["properties"]
                    .get(key)
                    .is_some(),
                "{key}"
            );
        }
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
        assert_eq!(submit["properties"]["intent"]["type"], "string");
        for tool in ["explore_code", "grep", "definition", "outline"] {
            let schema = &router.get(tool).unwrap().input_schema;
            let required = schema
                .get("required")
                .and_then(Value::as_array)
                .cloned()
                .unwrap_or_default();
            assert!(!required.contains(&Value::from("session")), "{tool}");
        }
    }
}
