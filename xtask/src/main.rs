//! Developer tasks: `cargo xtask guard | bench | eval | fit | soak | hostile | mcp-chars`.

use clap::{Parser, Subcommand};

mod bench;
mod calibrate;
mod eval;
mod fit;
mod guard;
mod hostile;
mod mcp_chars;
mod mcp_client;
mod soak;

#[derive(Parser)]
#[command(name = "xtask", about = "Sightline developer tasks")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Scan production sources for banned domain literals and forbidden structures.
    Guard(guard::GuardArgs),
    /// Speed and memory: cold index, warm start, one-file re-index, explore latency, peak RSS.
    Bench(bench::BenchArgs),
    /// Retrieval quality on mined localization tasks: engine vs. BM25 (run with --release).
    Eval(eval::EvalArgs),
    /// Characters a client's model receives over one MCP session workflow per task.
    McpChars(mcp_chars::McpCharsArgs),
    /// Write a repository shaped to hurt an indexer (deep nesting, long extends chains).
    Hostile(hostile::HostileArgs),
    /// Fit the rank model's weights on `eval --json` output, leave-one-repository-out.
    Fit(fit::FitArgs),
    /// Server memory over many tool calls: resident memory every N calls (release build).
    Soak(soak::SoakArgs),
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Guard(args) => guard::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Eval(args) => eval::run(args),
        Command::Soak(args) => soak::run(args),
        Command::Fit(args) => fit::run(args),
        Command::Hostile(args) => hostile::run(args),
        Command::McpChars(args) => mcp_chars::run(args),
    }
}
