//! Developer tasks: `cargo xtask guard | bench | eval`.

use clap::{Parser, Subcommand};

mod guard;

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
}

fn main() -> anyhow::Result<()> {
    match Cli::parse().command {
        Command::Guard(args) => guard::run(args),
    }
}
