//! `cargo xtask mcp-chars`: what a client's model receives from `sightline serve` over one
//! session workflow per task — explore_code, a grep, a read_file, submit_report — counted
//! in characters, for the text content (what text-forwarding clients pass on) and the
//! `structuredContent` (what structuredContent-only clients pass on). Any `sightline`
//! binary can be measured, so a build before a change and one after compare directly.
//!
//! It also prints how long each server took to answer `initialize` (from spawning it) and
//! how many characters of JSON its `tools/list` result is with every tool on (the workflow
//! needs the opt-in `explore_code` and `submit_report`; a client loads the listing into its
//! model's context every session).
//!
//! Tasks: the first task of each of the first `--tasks` task files whose gold files are all
//! TypeScript or JavaScript (alphabetical), each served from its base snapshot.

use std::path::{Path, PathBuf};

use anyhow::{Context as _, bail};
use clap::Args;
use serde_json::{Value, json};

use crate::eval::checkout::WorkingCopy;
use crate::eval::metrics::percentile;
use crate::eval::{bundle_path, or_default, tasks, workspace_root};
use crate::mcp_client::Client;

#[derive(Args)]
pub struct McpCharsArgs {
    /// The `sightline` binary to serve with.
    #[arg(long, default_value = "target/release/sightline")]
    bin: PathBuf,
    /// How many tasks (one per task file).
    #[arg(long, default_value_t = 5)]
    tasks: usize,
    /// Where snapshot bundles are cloned. [default: target/eval]
    #[arg(long)]
    workdir: Option<PathBuf>,
}

const SCRIPT_EXTENSIONS: [&str; 6] = [".ts", ".tsx", ".js", ".jsx", ".mts", ".mjs"];

pub fn run(args: McpCharsArgs) -> anyhow::Result<()> {
    let root = workspace_root();
    let task_dir = or_default(&root, None, "../shared/eval/tasks");
    let snapshots = or_default(&root, None, "../shared/eval/snapshots");
    let workdir = or_default(&root, args.workdir, "target/eval");
    anyhow::ensure!(args.bin.is_file(), "no binary at {}", args.bin.display());
    let mut rows = Vec::new();
    for file in tasks::task_files(&task_dir)? {
        if rows.len() == args.tasks {
            break;
        }
        let Some(first) = tasks::load_file(&file)?.into_iter().next() else {
            continue;
        };
        let task = first.task;
        let scripts = task
            .gold_files
            .iter()
            .all(|g| SCRIPT_EXTENSIONS.iter().any(|e| g.ends_with(e)));
        if !scripts {
            continue;
        }
        let copy = WorkingCopy::prepare(
            &bundle_path(&snapshots, &task.repo),
            &workdir.join(&task.repo),
        )?;
        copy.checkout(&task.commit)?;
        let (text, structured) = session_chars(&args.bin, &copy.dir, &task.query)
            .with_context(|| format!("task {:?} of {}", task.query, file.display()))?;
        println!(
            "{:<24} text {text:>6}  structuredContent {structured:>6}  {}",
            task.repo, task.query
        );
        rows.push((text as f64, structured as f64));
    }
    let median = |f: fn(&(f64, f64)) -> f64| {
        percentile(&rows.iter().map(f).collect::<Vec<_>>(), 50.0).unwrap_or(f64::NAN)
    };
    println!(
        "median over {} tasks: text {:.0} chars, structuredContent {:.0} chars",
        rows.len(),
        median(|r| r.0),
        median(|r| r.1)
    );
    Ok(())
}

/// Serves `dir` with `bin` and runs the workflow; returns the characters of all text
/// blocks and of all `structuredContent` values returned.
fn session_chars(bin: &Path, dir: &Path, query: &str) -> anyhow::Result<(usize, usize)> {
    // The workflow's explore_code and submit_report are opt-in (`--tools report`).
    let mut client = Client::start_all_tools(bin, &["--no-cache".as_ref()], dir)?;
    let listed = client.request("tools/list", json!({}))?;
    eprintln!(
        "initialize answered in {:.0} ms; tools/list with every tool is {} characters of JSON",
        client.initialize_ms,
        listed.to_string().len()
    );
    let mut text = 0;
    let mut structured = 0;
    let mut count = |result: &Value| {
        text += result["content"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|c| c["text"].as_str())
            .map(str::len)
            .sum::<usize>();
        structured += result
            .get("structuredContent")
            .map_or(0, |s| s.to_string().len());
    };
    // Builds before sessionless tools needed an intent to start a session.
    let mut first = client.call("explore_code", json!({"query": query}))?;
    if first["isError"] == json!(true) {
        first = client.call("explore_code", json!({"query": query, "intent": "edit"}))?;
    }
    count(&first);
    let session = first["structuredContent"]["session"]
        .as_str()
        .context("explore_code named no session")?
        .to_owned();
    let first_text: String = first["content"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|c| c["text"].as_str())
        .collect();
    let candidates = match first["structuredContent"]["new_candidates"].as_array() {
        Some(listed) => listed.clone(),
        None => windows(&first_text),
    };
    let word = query
        .split(|c: char| !c.is_alphanumeric() && c != '_')
        .max_by_key(|w| w.len())
        .unwrap_or(query)
        .to_owned();
    count(&client.call("grep", json!({"session": session, "pattern": word}))?);
    if let Some(c) = candidates.iter().find(|c| c["start"].is_u64()) {
        let read = json!({"session": session, "path": c["path"], "start_line": c["start"], "end_line": c["end"]});
        count(&client.call("read_file", read)?);
    }
    let ids: Vec<Value> = candidates.iter().take(2).map(|c| c["id"].clone()).collect();
    if ids.is_empty() {
        bail!("explore_code showed no candidate");
    }
    let selection = json!({"session": session, "primary": ids, "action": "read_targets",
        "confidence": "medium", "read_targets": [{"candidate": ids[0], "purpose": "the change", "required": true}]});
    count(&client.call("submit_report", selection)?);
    Ok((text, structured))
}

/// The candidates a text shows on window headers (`#### path:a-b [cN] …`), in the shape
/// `new_candidates` had (`{"id", "path", "start", "end"}`).
fn windows(text: &str) -> Vec<Value> {
    text.lines()
        .filter_map(|l| {
            let (place, tail) = l.strip_prefix("#### ")?.split_once(' ')?;
            let (path, range) = place.rsplit_once(':')?;
            let (a, b) = range.split_once('-').unwrap_or((range, range));
            let id = tail.strip_prefix('[')?.split([']', ' ']).next()?;
            let (start, end): (u32, u32) = (a.parse().ok()?, b.parse().ok()?);
            Some(json!({"id": id, "path": path, "start": start, "end": end}))
        })
        .collect()
}
