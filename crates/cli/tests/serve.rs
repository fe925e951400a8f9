//! `sightline serve` as a real process: JSON-RPC lines over stdio, as an MCP client sends
//! them. Replies may come out of order, so they are matched by id; every wait is bounded
//! so a broken server fails the test instead of hanging it.

mod support;

use serde_json::{Value, json};
use support::mcp::Server;

#[test]
fn handshake_names_the_server_and_lists_every_tool_with_portable_schemas() {
    let (mut server, init) = Server::start();
    assert_eq!(init["serverInfo"]["name"], "sightline");
    assert_eq!(init["serverInfo"]["version"], env!("CARGO_PKG_VERSION"));
    assert_eq!(init["protocolVersion"], "2025-06-18");
    let listed = server.request("tools/list", json!({}));
    let tools = listed["tools"].as_array().unwrap();
    let mut names: Vec<&str> = tools.iter().filter_map(|t| t["name"].as_str()).collect();
    names.sort_unstable();
    let mut all = sightline_server::ALL_TOOLS.to_vec();
    all.sort_unstable();
    assert_eq!(names, all);
    for tool in tools {
        let name = tool["name"].as_str().unwrap();
        assert_eq!(tool["inputSchema"]["type"], "object", "{tool}");
        assert!(tool.get("outputSchema").is_none(), "{tool}");
        assert!(!tool["description"].as_str().unwrap().is_empty());
        let found = sightline_server::non_portable(&tool["inputSchema"]);
        assert!(found.is_empty(), "{name}: {found:?}");
        assert!(
            tool["title"].as_str().is_some_and(|t| !t.is_empty()),
            "{tool}"
        );
        assert_eq!(tool["annotations"]["readOnlyHint"], true, "{tool}");
        assert_eq!(tool["annotations"]["openWorldHint"], false, "{tool}");
    }
    let schema_of =
        |name: &str| tools.iter().find(|t| t["name"] == name).unwrap()["inputSchema"].clone();
    assert!(schema_of("explore_code")["properties"]["query"].is_object());
    let submit = schema_of("submit_report");
    for field in ["session", "primary", "action", "confidence"] {
        assert!(
            submit["required"]
                .as_array()
                .unwrap()
                .contains(&json!(field))
        );
    }
}

/// What a client loads into its model's context every session: the default tools, in at
/// most 8,000 characters of JSON as the server sends them.
#[test]
fn the_default_tools_list_is_small() {
    let (mut server, _) = Server::start_serving(json!({}), &[]);
    let raw = server.raw_request("tools/list", json!({}));
    let result = serde_json::to_string(&raw["result"]).unwrap();
    assert!(result.len() <= 8_000, "{} characters", result.len());
    let mut names: Vec<&str> = raw["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    names.sort_unstable();
    let mut wanted = sightline_server::DEFAULT_TOOLS.to_vec();
    wanted.sort_unstable();
    assert_eq!(names, wanted);
    // A tool that is off is not callable.
    let off = server.raw_request("tools/call", json!({"name": "list_files", "arguments": {}}));
    assert_eq!(off["error"]["code"], -32602, "{off}");
}

#[test]
fn a_client_model_runs_a_session_from_explore_code_to_submit_report() {
    let (mut server, _) = Server::start();
    let (text, first) = server.ok("explore_code", json!({"query": "validateDraft"}));
    let session = first["session"].as_str().unwrap().to_owned();
    assert!(text.starts_with(&format!("session {session}")), "{text}");
    assert!(text.contains("[c1]"), "candidate IDs are inline: {text}");
    let (_, _, _, id) = support::mcp::windows(&text)
        .into_iter()
        .find(|(path, a, b, _)| path == "src/handlers/save.ts" && *a <= 7 && *b >= 7)
        .unwrap_or_else(|| panic!("validateDraft's window: {text}"));

    let (read_text, read) = server.ok(
        "read_file",
        json!({"session": session, "path": "src/handlers/save.ts", "start_line": 18, "end_line": 22}),
    );
    assert_eq!(read["session"], json!(session));
    assert!(read_text.contains("handleSave"), "{read_text}");

    let rejected = server.error(
        "submit_report",
        json!({"session": session, "primary": [id]}),
    );
    assert!(rejected.contains("action"), "{rejected}");

    let quote = "export function validateDraft(draft: RecordDraft): RecordDraft {";
    let (report, json) = server.ok(
        "submit_report",
        json!({
            "session": session,
            "primary": [id],
            "flow": [{"candidate": id, "role": "check", "fact": "Validates a draft's title.", "quote": quote}],
            "read_targets": [{"candidate": id, "purpose": "change the title check", "required": true}],
            "action": "read_targets",
            "confidence": "high"
        }),
    );
    // The quote carries its line number: validateDraft is declared on line 7.
    assert!(report.contains(&format!("> 7 {quote}")), "{report}");
    assert_eq!(json["primary"][0]["path"], "src/handlers/save.ts");
    assert_eq!(json["action"], "read_targets");
    assert_eq!(json["read"][0]["required"], true);

    let closed = server.error("grep", json!({"session": session, "pattern": "draft"}));
    assert!(closed.contains("unknown session"), "{closed}");
}

#[test]
fn bad_arguments_come_back_as_tool_errors_and_the_server_keeps_serving() {
    let (mut server, _) = Server::start();
    let with_intent = server.error(
        "explore_code",
        json!({"query": "validateDraft", "intent": "edit"}),
    );
    assert!(
        with_intent.contains("unknown field `intent`"),
        "{with_intent}"
    );
    let no_query = server.error("explore_code", json!({}));
    assert!(no_query.contains("query"), "{no_query}");
    let unknown = server.error("list_files", json!({"session": "s41"}));
    assert!(unknown.contains("unknown session `s41`"), "{unknown}");
    let bad_intent = server.error("explore", json!({"query": "x", "intent": "sometimes"}));
    assert!(bad_intent.contains("sometimes"), "{bad_intent}");
    let wrong_type = server.error("explore", json!({"query": 7, "intent": "edit"}));
    assert!(wrong_type.contains("string"), "{wrong_type}");

    // Any tool starts a session.
    let (_, started) = server.ok("grep", json!({"pattern": "handleSave"}));
    let session = started["session"].as_str().unwrap().to_owned();
    let outside = server.error(
        "read_file",
        json!({"session": session, "path": "../../etc/passwd"}),
    );
    assert!(outside.contains("passwd"), "{outside}");
    // An invalid regex whose text is nowhere either is an error (one whose text is found
    // is answered as literal text: `tools_grep`).
    let bad_regex = server.error(
        "grep",
        json!({"session": session, "pattern": "(nowhere", "regex": true}),
    );
    assert!(bad_regex.contains("(nowhere"), "{bad_regex}");
    let unknown_field = server.error(
        "submit_report",
        json!({"session": session, "primary": ["c1"], "action": "read_targets",
               "confidence": "low", "colour": "blue"}),
    );
    assert!(unknown_field.contains("colour"), "{unknown_field}");

    // Still alive and the session still open after all of that.
    server.ok("list_files", json!({"session": session, "path": "src"}));
}

/// With the file watcher (the default) and without it (`--no-watch`).
#[test]
fn a_file_edited_between_two_calls_shows_up_in_the_second() {
    a_file_edited_between_two_calls_shows_up_in_the_second_with(&[]);
    a_file_edited_between_two_calls_shows_up_in_the_second_with(&["--no-watch"]);
}

fn a_file_edited_between_two_calls_shows_up_in_the_second_with(args: &[&str]) {
    let args = [&["--tools", "all"], args].concat();
    let (mut server, _) = Server::start_serving(json!({}), &args);
    let name = "reconcileQuokkaLedger";
    let (before, _) = server.ok("explore_code", json!({"query": name}));
    assert!(!before.contains(&format!("function {name}")), "{before}");

    let file = server.dir.path().join("src/handlers/save.ts");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(&format!(
        "\nexport function {name}(total: number): number {{\n  return total * 2;\n}}\n"
    ));
    std::fs::write(&file, text).unwrap();

    let (after, _) = server.ok("explore_code", json!({"query": name}));
    assert!(
        after.contains(&format!("export function {name}")),
        "{after}"
    );
    assert!(
        support::mcp::windows(&after)
            .iter()
            .any(|(path, ..)| path == "src/handlers/save.ts"),
        "{after}"
    );
    let log = server.stderr();
    if args.contains(&"--no-watch") {
        assert!(
            log.contains("no watcher: every call walks the tree"),
            "{log}"
        );
    } else {
        // Watching, or saying once why not (a machine that cannot watch).
        assert!(
            log.contains("; watching ") || log.contains("not watching the tree"),
            "{log}"
        );
    }
}

#[test]
fn explore_returns_a_report_whose_paths_exist() {
    let (mut server, _) = Server::start();
    let (report, json) = server.ok(
        "explore",
        json!({"query": "validateDraft handleSave", "intent": "edit"}),
    );
    assert!(report.starts_with("confidence: "), "{report}");
    assert!(report.chars().count() <= 2_500, "{report}");
    let primary = json["primary"].as_array().unwrap();
    assert!(!primary.is_empty(), "{report}");
    let read = json["read"].as_array().unwrap();
    for place in primary.iter().chain(read) {
        let path = place["path"].as_str().unwrap();
        assert!(server.dir.path().join(path).is_file(), "{path}");
        assert!(report.contains(path), "{path} not in\n{report}");
    }
}

#[test]
fn unknown_arguments_are_rejected_by_name_on_every_tool() {
    let (mut server, _) = Server::start();
    let explore = server.error(
        "explore",
        json!({"query": "validateDraft", "intent": "edit", "max_file": 3}),
    );
    assert!(explore.contains("unknown field `max_file`"), "{explore}");
    assert!(
        explore.contains("max_files"),
        "the known fields are listed: {explore}"
    );
    let started = server.error(
        "explore_code",
        json!({"query": "validateDraft", "depth": 1}),
    );
    assert!(started.contains("unknown field `depth`"), "{started}");

    let (_, first) = server.ok("explore_code", json!({"query": "validateDraft"}));
    let session = first["session"].as_str().unwrap().to_owned();
    for (tool, arguments) in [
        (
            "grep",
            json!({"session": session, "pattern": "draft", "contxt": 2}),
        ),
        (
            "read_file",
            json!({"session": session, "path": "src/handlers/save.ts", "start": 3}),
        ),
        ("list_files", json!({"session": session, "recursive": true})),
        (
            "explore_code",
            json!({"session": session, "query": "handleSave", "files": 2}),
        ),
        (
            "definition",
            json!({"session": session, "name": "save", "bodies": true}),
        ),
        (
            "references",
            json!({"session": session, "name": "save", "callers": true}),
        ),
        ("outline", json!({"session": session, "file": "src"})),
    ] {
        let message = server.error(tool, arguments.clone());
        assert!(
            message.contains("unknown field"),
            "{tool} {arguments}: {message}"
        );
    }
    // A rejected call leaves the session open.
    server.ok("list_files", json!({"session": session, "path": "src"}));
}

#[test]
fn malformed_lines_get_json_rpc_errors_and_the_server_keeps_serving() {
    let (mut server, _) = Server::start();
    let error_of = |reply: &Value| reply["error"]["code"].as_i64().unwrap_or_default();

    server.send_line(b"this is not json");
    let parse = server.wait_for_null_id();
    assert_eq!(error_of(&parse), -32700, "{parse}");

    server.send_line(b"[]");
    let empty_batch = server.wait_for_null_id();
    assert_eq!(error_of(&empty_batch), -32600, "{empty_batch}");

    server.send_line(br#"[{"jsonrpc":"2.0","id":900,"method":"tools/list"}]"#);
    let batch = server.wait_for_null_id();
    assert_eq!(error_of(&batch), -32600, "{batch}");

    server.send_line(
        br#"{"jsonrpc":"2.0","id":901,"method":"tools/call","params":{"arguments":{}}}"#,
    );
    let no_name = server.wait_for(901);
    assert_eq!(error_of(&no_name), -32602, "{no_name}");
    assert!(
        no_name["error"]["message"]
            .as_str()
            .unwrap()
            .contains("name"),
        "{no_name}"
    );

    server.send_line(
        br#"{"jsonrpc":"2.0","id":902,"method":"tools/call","params":{"name":"grep","arguments":[1]}}"#,
    );
    let not_an_object = server.wait_for(902);
    assert_eq!(error_of(&not_an_object), -32602, "{not_an_object}");

    server.send_line(br#"{"jsonrpc":"2.0","id":903,"method":"tools/call","params":{"name":"no_such_tool","arguments":{}}}"#);
    let unknown_tool = server.wait_for(903);
    assert_eq!(error_of(&unknown_tool), -32602, "{unknown_tool}");

    server.send_line(br#"{"jsonrpc":"2.0","id":904,"method":"no/such/method"}"#);
    let unknown_method = server.wait_for(904);
    assert_eq!(error_of(&unknown_method), -32601, "{unknown_method}");

    let mut oversized = br#"{"jsonrpc":"2.0","id":905,"method":"tools/call","params":{"name":"grep","arguments":{"pattern":""#.to_vec();
    oversized.resize(sightline_server::MAX_LINE_BYTES + 64, b'x');
    oversized.extend_from_slice(br#""}}}"#);
    server.send_line(&oversized);
    let too_long = server.wait_for_null_id();
    assert_eq!(error_of(&too_long), -32600, "{too_long}");
    assert!(
        too_long["error"]["message"]
            .as_str()
            .unwrap()
            .contains("longer"),
        "{too_long}"
    );

    // Still serving (and `wait_until` saw no reply without an id member).
    let listed = server.request("tools/list", json!({}));
    assert_eq!(
        listed["tools"].as_array().unwrap().len(),
        sightline_server::ALL_TOOLS.len()
    );
}

#[test]
fn the_map_code_prompt_is_listed_and_hands_over_the_session_workflow() {
    let (mut server, init) = Server::start();
    assert!(init["capabilities"]["prompts"].is_object(), "{init}");
    let listed = server.request("prompts/list", json!({}));
    let prompts = listed["prompts"].as_array().unwrap();
    let map_code = prompts
        .iter()
        .find(|p| p["name"] == sightline_server::MAP_CODE)
        .unwrap_or_else(|| panic!("{listed}"));
    let arguments = map_code["arguments"].as_array().unwrap();
    assert!(
        arguments
            .iter()
            .any(|a| a["name"] == "question" && a["required"] == true)
    );
    assert!(arguments.iter().any(|a| a["name"] == "intent"));

    let got = server.request(
        "prompts/get",
        json!({"name": sightline_server::MAP_CODE,
               "arguments": {"question": "where is a draft validated", "intent": "edit"}}),
    );
    let text = got["messages"][0]["content"]["text"].as_str().unwrap();
    assert_eq!(got["messages"][0]["role"], "user");
    assert!(text.contains("where is a draft validated"), "{text}");
    // Every tool the workflow names is one the server lists.
    let tools = server.request("tools/list", json!({}));
    for name in ["explore_code", "grep", "read_file", "submit_report"] {
        assert!(text.contains(name), "{name}: {text}");
        assert!(
            tools["tools"]
                .as_array()
                .unwrap()
                .iter()
                .any(|t| t["name"] == name),
            "{name}"
        );
    }

    server.send_line(
        br#"{"jsonrpc":"2.0","id":950,"method":"prompts/get","params":{"name":"map_code","arguments":{}}}"#,
    );
    let missing = server.wait_for(950);
    assert_eq!(missing["error"]["code"], -32602, "{missing}");
}

/// However a server stops (its stdin closed, SIGTERM, SIGINT), its file watcher's fence
/// directory goes with it; the directory of one that was killed is removed by the next
/// server that watches.
#[cfg(unix)]
#[test]
fn a_stopped_server_leaves_no_fence_directory_behind() {
    let tmp = tempfile::tempdir().unwrap();
    let fences = || -> Vec<String> {
        std::fs::read_dir(tmp.path())
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.starts_with("sightline-watch-"))
            .collect()
    };
    let start = || {
        let (mut server, _) =
            Server::start_with_env(json!({}), &["--tools", "all"], &[("TMPDIR", tmp.path())]);
        // The first call waits for the index, whose watcher then runs.
        server.call("grep", json!({"pattern": "save"}));
        assert_eq!(fences().len(), 1, "{:?}", fences());
        server
    };
    for signal in [None, Some("TERM"), Some("INT")] {
        let status = start().stop(signal);
        assert!(status.success(), "{signal:?}: {status}");
        assert_eq!(fences(), Vec::<String>::new(), "{signal:?}");
    }
    let killed = start().stop(Some("KILL"));
    assert!(!killed.success());
    assert_eq!(fences().len(), 1);
    start().stop(None);
    assert_eq!(fences(), Vec::<String>::new());
}
