//! What a client of a running `sightline serve` sees on the monorepo: how soon the
//! handshake and the first call are answered, `explore` with nothing changed, right after
//! a one-file edit and after a new file, and how long after a burst of changed files (a
//! branch switch) the server answers from the new state.
//!
//! Every edit names a probe declaration that exists nowhere else, and the timed call asks
//! for it: a reply that does not cite the edited file fails the benchmark, so a fast
//! answer from a stale index cannot pass for a fresh one.

use std::ffi::OsStr;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context as _, bail};
use serde::Serialize;
use serde_json::{Value, json};

use super::super::procfs::{cpu_ns_of, rss_of};
use super::super::touch::Touch;
use crate::mcp_client::Client;

/// What one server run measured.
#[derive(Clone, Debug, Default, Serialize)]
pub struct ServeRun {
    /// Spawn to `initialize` reply.
    pub initialize_ms: f64,
    /// Spawn to the first `explore` reply (which waits for the index).
    pub first_call_ms: f64,
    /// Progress notifications the first call received (it carried a progress token).
    pub first_call_progress: usize,
    /// `explore` per query with nothing changed since the previous call.
    pub unchanged_ms: Vec<f64>,
    /// The server's CPU time over each of those calls (all its threads): what the call
    /// cost, whatever else the machine was doing.
    pub unchanged_cpu_ms: Vec<f64>,
    /// `explore` right after one file gained a declaration, asking for it.
    pub after_edit_ms: Vec<f64>,
    pub after_edit_cpu_ms: Vec<f64>,
    /// `explore` right after a new file was written, asking for its declaration.
    pub after_new_file_ms: Vec<f64>,
    pub after_new_file_cpu_ms: Vec<f64>,
    /// Files the burst changed.
    pub burst_files: usize,
    /// From the end of the burst's writes to the reply of an `explore` that sees it.
    pub burst_fresh_ms: f64,
    /// The server's resident memory: its peak and at the end.
    pub peak_rss_bytes: Option<u64>,
    pub end_rss_bytes: Option<u64>,
    /// Its resident memory after each step (first call, queries, edits, new files,
    /// burst): where it grew.
    pub rss_after_bytes: Vec<(String, Option<u64>)>,
}

/// The files and queries one server run uses.
pub struct Plan<'a> {
    pub queries: &'a [String],
    pub edited: &'a [String],
    pub burst: &'a [String],
}

fn probe(tag: &str, i: usize) -> String {
    format!("sightlineBench{tag}Probe{i}")
}

fn declaration(name: &str) -> String {
    format!("\nexport function {name}(): number {{\n  return 0;\n}}\n")
}

/// Runs the server measurements with `bin` over `dir`, with `cache` (warm) as its cache.
pub fn measure(
    bin: &Path,
    dir: &Path,
    cache: &Path,
    plan: &Plan,
    backups: &Path,
) -> anyhow::Result<ServeRun> {
    let args: [&OsStr; 2] = ["--cache-dir".as_ref(), cache.as_os_str()];
    // `explore` is off by default since tool sets: turn every tool on.
    let mut client = Client::start_all_tools(bin, &args, dir)?;
    let mut out = ServeRun {
        initialize_ms: client.initialize_ms,
        ..ServeRun::default()
    };
    let first = plan.queries.first().context("no queries")?;
    explore(&mut client, first, true)?;
    out.first_call_ms = client.spawned.elapsed().as_secs_f64() * 1000.0;
    out.first_call_progress = client.progress_notifications;
    let note_rss = |out: &mut ServeRun, step: &str, client: &Client| {
        out.rss_after_bytes
            .push((step.to_owned(), rss_of(client.pid()).1));
    };
    note_rss(&mut out, "first call", &client);
    eprintln!(
        "bench: first call after {:.0} ms ({} progress notifications)",
        out.first_call_ms, out.first_call_progress
    );
    for query in plan.queries {
        let (wall, cpu) = timed(&mut client, query, None)?;
        out.unchanged_ms.push(wall);
        out.unchanged_cpu_ms.extend(cpu);
    }
    note_rss(&mut out, "queries", &client);
    for (i, path) in plan.edited.iter().enumerate() {
        let name = probe("Edit", i);
        let touch = Touch::append(&dir.join(path), &declaration(&name), backups)?;
        let (wall, cpu) = timed(&mut client, &name, Some(path))?;
        out.after_edit_ms.push(wall);
        out.after_edit_cpu_ms.extend(cpu);
        drop(touch);
        explore(&mut client, &name, false)?;
    }
    note_rss(&mut out, "edits", &client);
    for (i, beside) in plan.edited.iter().enumerate() {
        let name = probe("New", i);
        let path = beside_path(beside, i);
        let touch = Touch::create(&dir.join(&path), &declaration(&name), backups)?;
        let (wall, cpu) = timed(&mut client, &name, Some(&path))?;
        out.after_new_file_ms.push(wall);
        out.after_new_file_cpu_ms.extend(cpu);
        drop(touch);
        explore(&mut client, &name, false)?;
    }
    note_rss(&mut out, "new files", &client);
    out.burst_files = plan.burst.len();
    out.burst_fresh_ms = burst(&mut client, dir, plan.burst, backups)?;
    note_rss(&mut out, "burst", &client);
    (out.peak_rss_bytes, out.end_rss_bytes) = rss_of(client.pid());
    Ok(out)
}

/// Writes a probe into every burst file as fast as it can, then times an `explore` for
/// one probe (from the last write); a few other probes are checked untimed afterwards.
fn burst(client: &mut Client, dir: &Path, files: &[String], backups: &Path) -> anyhow::Result<f64> {
    if files.is_empty() {
        return Ok(0.0);
    }
    let mut touches = Vec::with_capacity(files.len());
    for (i, path) in files.iter().enumerate() {
        touches.push(Touch::append(
            &dir.join(path),
            &declaration(&probe("Burst", i)),
            backups,
        )?);
    }
    let written = Instant::now();
    let last = files.len() - 1;
    explore_citing(client, &probe("Burst", last), &files[last])?;
    let fresh_ms = written.elapsed().as_secs_f64() * 1000.0;
    for i in [0, files.len() / 3, files.len() / 2, 2 * files.len() / 3] {
        explore_citing(client, &probe("Burst", i), &files[i])?;
    }
    drop(touches);
    explore(client, &probe("Burst", 0), false)?;
    Ok(fresh_ms)
}

/// A new file's path next to `beside`.
fn beside_path(beside: &str, i: usize) -> String {
    let dir = beside.rsplit_once('/').map_or("", |(d, _)| d);
    let name = format!(
        "sightline_bench_new_{i}{}",
        super::targets::EDITED_EXTENSION
    );
    if dir.is_empty() {
        name
    } else {
        format!("{dir}/{name}")
    }
}

/// Times one `explore` (wall, and the server's CPU time when the platform tells); when
/// `citing` is given, the reply must cite that file.
fn timed(
    client: &mut Client,
    query: &str,
    citing: Option<&str>,
) -> anyhow::Result<(f64, Option<f64>)> {
    let cpu_before = cpu_ns_of(client.pid());
    let t = Instant::now();
    match citing {
        Some(path) => explore_citing(client, query, path)?,
        None => {
            explore(client, query, false)?;
        }
    }
    let wall = t.elapsed().as_secs_f64() * 1000.0;
    let cpu = cpu_ns_of(client.pid())
        .zip(cpu_before)
        .map(|(after, before)| after.saturating_sub(before) as f64 / 1e6);
    Ok((wall, cpu))
}

fn explore_citing(client: &mut Client, query: &str, path: &str) -> anyhow::Result<()> {
    let reply = explore(client, query, false)?;
    let text = reply["content"][0]["text"].as_str().unwrap_or_default();
    if !text.contains(path) {
        bail!("explore {query:?} did not cite {path}: the server answered from a stale index");
    }
    Ok(())
}

fn explore(client: &mut Client, query: &str, progress: bool) -> anyhow::Result<Value> {
    let arguments = json!({"query": query, "intent": "locate"});
    let reply = if progress {
        client.call_with_progress("explore", arguments)?
    } else {
        client.call("explore", arguments)?
    };
    if reply["isError"] == json!(true) {
        bail!("explore {query:?} failed: {reply}");
    }
    Ok(reply)
}
