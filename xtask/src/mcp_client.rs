//! A line-based JSON-RPC client over a `sightline serve` child process, shared by the
//! measurements that talk to a real server (`mcp-chars`, `bench --monorepo`). Any
//! `sightline` binary can be driven, so a build before a change and one after compare
//! directly.

use std::ffi::OsStr;
use std::io::{BufRead as _, BufReader, Write as _};
use std::path::Path;
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::Instant;

use anyhow::{Context as _, bail};
use serde_json::{Value, json};

/// A running `sightline serve` and the client side of its stdio.
pub struct Client {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
    /// When the server process was spawned.
    pub spawned: Instant,
    /// From spawning the server to its `initialize` reply.
    pub initialize_ms: f64,
    /// `notifications/progress` messages received so far.
    pub progress_notifications: usize,
}

impl Client {
    /// Spawns `bin serve <extra…> <dir>` with every tool the server has turned on
    /// (`SIGHTLINE_TOOLS=all`; a build from before tool sets ignores it and offers all of
    /// its tools anyway), stderr discarded, and completes the handshake.
    pub fn start_all_tools(bin: &Path, extra: &[&OsStr], dir: &Path) -> anyhow::Result<Client> {
        let spawned = Instant::now();
        let mut child = Command::new(bin)
            .env("SIGHTLINE_TOOLS", "all")
            .arg("serve")
            .args(extra)
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .with_context(|| format!("starting {}", bin.display()))?;
        let stdin = child.stdin.take().context("no stdin")?;
        let stdout = BufReader::new(child.stdout.take().context("no stdout")?);
        let mut client = Client {
            child,
            stdin,
            stdout,
            next_id: 0,
            spawned,
            initialize_ms: 0.0,
            progress_notifications: 0,
        };
        client.request(
            "initialize",
            json!({"protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "xtask", "version": "0"}}),
        )?;
        client.initialize_ms = spawned.elapsed().as_secs_f64() * 1000.0;
        writeln!(
            client.stdin,
            "{}",
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"})
        )?;
        Ok(client)
    }

    /// The server's process id (for reading its memory from `/proc`).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// Sends a request and waits for its reply, counting progress notifications that
    /// arrive meanwhile; other messages are skipped.
    pub fn request(&mut self, method: &str, params: Value) -> anyhow::Result<Value> {
        self.next_id += 1;
        let id = self.next_id;
        writeln!(
            self.stdin,
            "{}",
            json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        )?;
        self.stdin.flush()?;
        let mut line = String::new();
        loop {
            line.clear();
            if self.stdout.read_line(&mut line)? == 0 {
                bail!("the server exited before answering {method}");
            }
            let message: Value = serde_json::from_str(&line)?;
            if message["method"] == "notifications/progress" {
                self.progress_notifications += 1;
                continue;
            }
            if message["id"] == json!(id) {
                return message
                    .get("result")
                    .cloned()
                    .with_context(|| format!("{method} failed: {message}"));
            }
        }
    }

    /// `tools/call` of `tool` with `arguments`.
    pub fn call(&mut self, tool: &str, arguments: Value) -> anyhow::Result<Value> {
        self.request("tools/call", json!({"name": tool, "arguments": arguments}))
    }

    /// [`Client::call`] carrying a progress token, so a server still indexing reports
    /// how far it got.
    pub fn call_with_progress(&mut self, tool: &str, arguments: Value) -> anyhow::Result<Value> {
        let token = format!("xtask-{}", self.next_id + 1);
        self.request(
            "tools/call",
            json!({"name": tool, "arguments": arguments, "_meta": {"progressToken": token}}),
        )
    }
}

impl Drop for Client {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
