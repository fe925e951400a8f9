//! `sightline agent "<query>" [PATH]`: the value-model loop against a configured chat
//! endpoint. Without a model it stops with an error instead of silently answering with the
//! deterministic report (that is `sightline explore`).

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context as _;
use clap::Args;
use serde::Serialize;
use sightline_agent::provider::{self, ProviderConfig, ProviderKind, ProviderOverrides};
use sightline_agent::{AgentRun, Budgets, RunStats, StopReason, Trace};
use sightline_registry::{Intent, RegistryDatabase};

use crate::open::{IndexFlags, open_index};

#[derive(Args)]
pub struct AgentCmd {
    /// What to look for.
    pub query: String,
    /// Repository root (default: the current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// What the result is for: explain, locate, edit or debug.
    #[arg(long, default_value = "locate", value_parser = crate::output::parse_intent)]
    pub intent: Intent,
    /// Wire format of the endpoint: openai (chat completions) or anthropic (messages).
    /// Default: SIGHTLINE_PROVIDER, else openai.
    #[arg(long, value_parser = parse_kind)]
    pub provider: Option<ProviderKind>,
    /// Endpoint base URL. Default: SIGHTLINE_BASE_URL, else the provider's public API.
    #[arg(long, value_name = "URL")]
    pub base_url: Option<String>,
    /// Model name. Default: SIGHTLINE_MODEL.
    #[arg(long)]
    pub model: Option<String>,
    /// Write a JSONL trace of the conversation (no message text, no credentials).
    #[arg(long, value_name = "FILE")]
    pub trace: Option<PathBuf>,
    /// Most assistant turns that call tools.
    #[arg(long)]
    pub max_steps: Option<usize>,
    /// Wall-time budget in seconds.
    #[arg(long)]
    pub max_seconds: Option<u64>,
    /// Print the report and the run's figures as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub flags: IndexFlags,
}

fn parse_kind(s: &str) -> Result<ProviderKind, String> {
    s.parse().map_err(|e: provider::ConfigError| e.to_string())
}

#[derive(Serialize)]
struct JsonRun<'a> {
    query: &'a str,
    intent: Intent,
    report: &'a sightline_render::ReportJson,
    text: &'a str,
    stop: &'a StopReason,
    stats: &'a RunStats,
    drops: Vec<String>,
    fell_back: bool,
    elapsed_ms: u128,
}

pub fn run(args: &AgentCmd) -> anyhow::Result<()> {
    let overrides = ProviderOverrides {
        kind: args.provider,
        base_url: args.base_url.clone(),
        model: args.model.clone(),
    };
    let config = ProviderConfig::from_env(&overrides).map_err(|e| {
        anyhow::anyhow!(
            "{e}\nfor the deterministic report without a model, run: sightline explore {:?} {}",
            args.query,
            args.path.display()
        )
    })?;
    let mut budgets = Budgets::default();
    if let Some(n) = args.max_steps {
        budgets.max_steps = n;
    }
    if let Some(s) = args.max_seconds {
        budgets.wall_time = Duration::from_secs(s);
    }
    let mut trace = match &args.trace {
        Some(path) => Trace::to_file(path)
            .with_context(|| format!("creating the trace file {}", path.display()))?,
        None => Trace::disabled(),
    };
    let mut index = open_index(&args.path, &args.flags, RegistryDatabase::default())?;
    let client = provider::connect(config);
    let run = sightline_agent::agent::explore(
        &mut index,
        &args.query,
        args.intent,
        client.as_ref(),
        &budgets,
        &mut trace,
    )?;
    if let Some(e) = trace.error() {
        eprintln!("warning: the trace could not be written completely: {e}");
    }
    print_run(args, &run)?;
    eprintln!("{}", summary(&run));
    Ok(())
}

fn print_run(args: &AgentCmd, run: &AgentRun) -> anyhow::Result<()> {
    let report = &run.finished.report;
    let validated = &run.finished.validated;
    let out = args.json.then(|| JsonRun {
        query: &args.query,
        intent: args.intent,
        report: &report.json,
        text: report.prose(),
        stop: &run.stop,
        stats: &run.stats,
        drops: crate::output::drop_lines(validated),
        fell_back: validated.fell_back,
        elapsed_ms: run.elapsed.as_millis(),
    });
    crate::output::print_report(report.prose(), out.as_ref())
}

/// One line for stderr: what the run cost and why it stopped.
fn summary(run: &AgentRun) -> String {
    let s = &run.stats;
    format!(
        "agent: {} steps, {} tool calls, {} input + {} output tokens, {} continuation rounds, \
         {:.1} s; stop: {}",
        s.steps,
        s.tool_calls,
        s.usage.input_tokens,
        s.usage.output_tokens,
        s.continuations,
        run.elapsed.as_secs_f64(),
        run.stop
    )
}
