//! The first call's wait over MCP: a server whose index is still being built answers the
//! handshake, and a tool call carrying a progress token hears `notifications/progress`
//! for that token (never going backwards, never after its result) until the index is
//! ready; a call without a token hears none. The indexer is driven by hand, so nothing
//! depends on how fast anything runs.

use std::path::Path;

use rmcp::ServiceExt as _;
use serde_json::{Value, json};
use sightline_observe::watch::Freshness;
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::RegistryDatabase;
use sightline_server::{Engine, MapServer, Starter};
use tokio::io::{AsyncBufReadExt as _, AsyncWriteExt as _, BufReader, Lines, ReadHalf};

type Incoming = Lines<BufReader<ReadHalf<tokio::io::DuplexStream>>>;

async fn send(out: &mut (impl tokio::io::AsyncWrite + Unpin), message: Value) {
    out.write_all(format!("{message}\n").as_bytes())
        .await
        .unwrap();
    out.flush().await.unwrap();
}

async fn next(lines: &mut Incoming) -> Value {
    let line = lines
        .next_line()
        .await
        .unwrap()
        .expect("the server hung up");
    serde_json::from_str(&line).unwrap()
}

fn ready_engine(dir: &Path) -> Engine {
    std::fs::write(
        dir.join("save.ts"),
        "export function saveRecord(title: string) {\n  return title.trim();\n}\n",
    )
    .unwrap();
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open_with_db(RegistryDatabase::default(), dir, &options).unwrap();
    Engine::new(index).with_freshness(Freshness::walk())
}

fn call(id: u32, token: Option<&str>) -> Value {
    let mut params = json!({"name": "outline", "arguments": {"path": "save.ts"}});
    if let Some(token) = token {
        params["_meta"] = json!({"progressToken": token});
    }
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": params})
}

/// Reads until the replies to every request of `ids` came, in whatever order the server
/// sent them, collecting the progress notifications seen; returns the replies in `ids`'
/// order.
async fn until_replies(lines: &mut Incoming, ids: &[u32], progress: &mut Vec<Value>) -> Vec<Value> {
    let mut replies: Vec<Option<Value>> = vec![None; ids.len()];
    while replies.iter().any(Option::is_none) {
        let message = next(lines).await;
        if message["method"] == "notifications/progress" {
            progress.push(message["params"].clone());
        } else if let Some(at) = ids.iter().position(|id| message["id"] == *id) {
            replies[at] = Some(message);
        }
    }
    replies.into_iter().flatten().collect()
}

/// Reads progress notifications until one reports `done` files parsed.
async fn until_progress(lines: &mut Incoming, done: f64, progress: &mut Vec<Value>) {
    loop {
        let message = next(lines).await;
        assert_eq!(message["method"], "notifications/progress", "{message}");
        progress.push(message["params"].clone());
        if message["params"]["progress"].as_f64() == Some(done) {
            return;
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_with_a_progress_token_hears_indexing_progress_until_its_result() {
    let (server, starter): (MapServer, Starter) = MapServer::indexing();
    let (client, served) = tokio::io::duplex(1 << 16);
    let (read, write) = tokio::io::split(served);
    let service = tokio::spawn(async move {
        let running = server.serve((read, write)).await.unwrap();
        let _ = running.waiting().await;
    });
    let (read, mut write) = tokio::io::split(client);
    let mut lines = BufReader::new(read).lines();

    // The handshake is answered while the index is still being built.
    send(
        &mut write,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "test", "version": "0"}}}),
    )
    .await;
    let init = next(&mut lines).await;
    assert_eq!(init["id"], 0, "{init}");
    assert!(init["result"]["serverInfo"].is_object(), "{init}");
    send(
        &mut write,
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;

    starter.progress(3, 10);
    // One call without a token, one with: only the second hears progress.
    send(&mut write, call(1, None)).await;
    send(&mut write, call(2, Some("first-call"))).await;
    let mut progress = Vec::new();
    until_progress(&mut lines, 3.0, &mut progress).await;
    starter.progress(7, 10);
    until_progress(&mut lines, 7.0, &mut progress).await;

    let dir = tempfile::tempdir().unwrap();
    starter.finish(Ok(ready_engine(dir.path())));
    let mut late = Vec::new();
    // The two waiting calls are answered in either order.
    let replies = until_replies(&mut lines, &[1, 2], &mut late).await;
    for reply in &replies {
        assert_eq!(reply["result"]["isError"], json!(false), "{reply}");
        let text = reply["result"]["content"][0]["text"].as_str().unwrap();
        assert!(text.contains("saveRecord"), "{text}");
    }
    progress.extend(late);
    assert!(progress.len() >= 2, "{progress:?}");
    for p in &progress {
        assert_eq!(p["progressToken"], "first-call", "{p}");
        assert_eq!(p["total"], 10.0, "{p}");
        assert!(p["message"].as_str().is_some_and(|m| !m.is_empty()), "{p}");
    }
    let done: Vec<f64> = progress
        .iter()
        .map(|p| p["progress"].as_f64().unwrap())
        .collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");

    // Once ready, a call with a token is answered without progress.
    send(&mut write, call(3, Some("later"))).await;
    let mut after = Vec::new();
    let reply = until_replies(&mut lines, &[3], &mut after).await.remove(0);
    assert_eq!(reply["result"]["isError"], json!(false), "{reply}");
    assert!(after.is_empty(), "{after:?}");
    drop(write);
    service.abort();
}
