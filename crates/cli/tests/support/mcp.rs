//! A minimal MCP client for tests: `sightline serve` as a real process, JSON-RPC lines
//! over stdio as a client sends them. Replies may come out of order, so they are matched by
//! id; every wait is bounded so a broken server fails the test instead of hanging it.
#![allow(dead_code)] // each test binary uses its own part of the client

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead as _, BufReader, Read as _, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{Value, json};

pub const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

pub struct Server {
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<Value>,
    early: HashMap<u64, Value>,
    /// Replies whose `id` is null (to lines the server could not read an id from).
    anonymous: VecDeque<Value>,
    stderr: Arc<Mutex<String>>,
    pub next_id: u64,
    pub dir: tempfile::TempDir,
}

pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

impl Server {
    /// Starts the server offering every tool on a copy of the fixture app and completes
    /// the handshake.
    pub fn start() -> (Server, Value) {
        Server::start_with(json!({}))
    }

    /// [`Server::start`], announcing the client `capabilities` in the handshake.
    pub fn start_with(capabilities: Value) -> (Server, Value) {
        Server::start_serving(capabilities, &["--tools", "all"])
    }

    /// The server as a client's configuration starts it, with `extra` arguments only.
    pub fn start_serving(capabilities: Value, extra: &[&str]) -> (Server, Value) {
        Server::start_with_env(capabilities, extra, &[])
    }

    /// [`Server::start_serving`] with `env` set for the server process.
    pub fn start_with_env(
        capabilities: Value,
        extra: &[&str],
        env: &[(&str, &Path)],
    ) -> (Server, Value) {
        let dir = tempfile::tempdir().unwrap();
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app");
        copy_dir(&fixture, dir.path());
        let mut child = Command::new(env!("CARGO_BIN_EXE_sightline"))
            .arg("serve")
            .arg("--no-cache")
            .args(extra)
            .arg(dir.path())
            // The environment must not choose the tools for a test.
            .env_remove("SIGHTLINE_TOOLS")
            .envs(env.iter().copied())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start sightline serve");
        let (tx, replies) = channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                let value: Value = serde_json::from_str(&line)
                    .unwrap_or_else(|e| panic!("stdout must carry only JSON-RPC: {e}: {line}"));
                if tx.send(value).is_err() {
                    break;
                }
            }
        });
        let stderr = Arc::new(Mutex::new(String::new()));
        let mut err_pipe = child.stderr.take().unwrap();
        let sink = Arc::clone(&stderr);
        std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while let Ok(n) = err_pipe.read(&mut buf) {
                if n == 0 {
                    break;
                }
                sink.lock()
                    .unwrap()
                    .push_str(&String::from_utf8_lossy(&buf[..n]));
            }
        });
        let mut server = Server {
            stdin: child.stdin.take(),
            child,
            replies,
            early: HashMap::new(),
            anonymous: VecDeque::new(),
            stderr,
            next_id: 0,
            dir,
        };
        let init = server.request(
            "initialize",
            json!({
                "protocolVersion": "2025-06-18",
                "capabilities": capabilities,
                "clientInfo": {"name": "serve-test", "version": "0"}
            }),
        );
        server.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}));
        (server, init)
    }

    pub fn send(&mut self, message: &Value) {
        let stdin = self.stdin.as_mut().unwrap();
        writeln!(stdin, "{message}").unwrap();
        stdin.flush().unwrap();
    }

    /// Sends a request and waits for the reply with its id; returns the whole reply.
    pub fn raw_request(&mut self, method: &str, params: Value) -> Value {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        self.wait_for(id)
    }

    /// Sends a request and waits for the reply with its id; returns `result`.
    pub fn request(&mut self, method: &str, params: Value) -> Value {
        let reply = self.raw_request(method, params);
        match reply.get("result") {
            Some(result) => result.clone(),
            None => panic!("{method} failed: {reply}"),
        }
    }

    /// Writes raw bytes and a newline, as a client that sends a malformed line would.
    pub fn send_line(&mut self, line: &[u8]) {
        let stdin = self.stdin.as_mut().unwrap();
        stdin.write_all(line).unwrap();
        stdin.write_all(b"\n").unwrap();
        stdin.flush().unwrap();
    }

    pub fn wait_for(&mut self, id: u64) -> Value {
        self.wait_until(|server| server.early.remove(&id))
    }

    /// Waits for the next reply whose `id` member is present and null.
    pub fn wait_for_null_id(&mut self) -> Value {
        self.wait_until(|server| server.anonymous.pop_front())
    }

    fn wait_until(&mut self, mut found: impl FnMut(&mut Server) -> Option<Value>) -> Value {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            if let Some(reply) = found(self) {
                return reply;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            match self.replies.recv_timeout(left) {
                Ok(message) => {
                    if let Some(got) = message.get("id").and_then(Value::as_u64) {
                        self.early.insert(got, message);
                    } else if message.get("id") == Some(&Value::Null) {
                        self.anonymous.push_back(message);
                    } else if message.get("method").is_none() {
                        // JSON-RPC 2.0: a response always has an id member (null when the
                        // request's id could not be read).
                        panic!("a reply without an id member: {message}");
                    }
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no reply; stderr:\n{}", self.stderr())
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!("the server exited; stderr:\n{}", self.stderr())
                }
            }
        }
    }

    /// The next message the server writes (a reply, a notification or a request of its
    /// own), in arrival order; replies stashed by [`Server::wait_for`] are not repeated.
    pub fn next_message(&mut self) -> Value {
        match self.replies.recv_timeout(REPLY_TIMEOUT) {
            Ok(message) => message,
            Err(e) => panic!(
                "no message from the server ({e}); stderr:\n{}",
                self.stderr()
            ),
        }
    }

    pub fn stderr(&self) -> String {
        self.stderr.lock().unwrap().clone()
    }

    pub fn call(&mut self, tool: &str, arguments: Value) -> Value {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
    }

    /// Calls a tool that must succeed; returns (text, structuredContent).
    pub fn ok(&mut self, tool: &str, arguments: Value) -> (String, Value) {
        let result = self.call(tool, arguments.clone());
        assert_eq!(
            result["isError"],
            json!(false),
            "{tool} {arguments} failed: {result}"
        );
        let structured = result["structuredContent"].clone();
        // The output schemas are portable (no nullable types), so a null anywhere in
        // structuredContent would fail a client that validates it against them.
        assert_no_null(&structured, tool);
        (text_of(&result), structured)
    }

    /// Calls a tool that must fail; returns its message.
    pub fn error(&mut self, tool: &str, arguments: Value) -> String {
        let result = self.call(tool, arguments.clone());
        assert_eq!(
            result["isError"],
            json!(true),
            "{tool} {arguments} should fail: {result}"
        );
        text_of(&result)
    }
}

impl Server {
    /// Sends the server the signal named `signal` (`TERM`, `INT`, `KILL`) and waits for it
    /// to exit; or, for `None`, closes its stdin and waits.
    pub fn stop(&mut self, signal: Option<&str>) -> std::process::ExitStatus {
        match signal {
            None => drop(self.stdin.take()),
            Some(signal) => {
                let sent = Command::new("kill")
                    .args(["-s", signal, &self.child.id().to_string()])
                    .status()
                    .expect("run kill");
                assert!(sent.success(), "kill -s {signal}");
            }
        }
        let deadline = Instant::now() + REPLY_TIMEOUT;
        while Instant::now() < deadline {
            if let Ok(Some(status)) = self.child.try_wait() {
                return status;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        panic!("the server did not stop");
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        // Closing stdin ends the server; kill it if it does not stop promptly.
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub fn assert_no_null(value: &Value, tool: &str) {
    match value {
        Value::Null => panic!("{tool}: null in structuredContent"),
        Value::Array(items) => items.iter().for_each(|v| assert_no_null(v, tool)),
        Value::Object(map) => map.values().for_each(|v| assert_no_null(v, tool)),
        _ => {}
    }
}

pub fn text_of(result: &Value) -> String {
    result["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The candidate IDs a tool text shows on window headers (`#### path:a-b [cN] …`), with
/// their paths and ranges, in order.
pub fn windows(text: &str) -> Vec<(String, u32, u32, String)> {
    text.lines()
        .filter_map(|l| {
            let rest = l.strip_prefix("#### ")?;
            let (place, tail) = rest.split_once(' ')?;
            let (path, range) = place.rsplit_once(':')?;
            let (a, b) = range.split_once('-').unwrap_or((range, range));
            let id = tail.strip_prefix('[')?.split([']', ' ']).next()?;
            Some((
                path.to_owned(),
                a.parse().ok()?,
                b.parse().ok()?,
                id.to_owned(),
            ))
        })
        .collect()
}
