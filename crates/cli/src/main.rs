//! `sightline`: a thin shell over the library stages.

use clap::{Parser, Subcommand};

mod agent;
mod explore;
mod index;
mod nav;
mod open;
mod output;
mod serve;

/// The allocator of the whole process: mimalloc, counted. The index is built and
/// refreshed on several threads and a server answers on several more; glibc's allocator
/// keeps an arena per thread and returns little of it, so a server's resident memory
/// grew with every refresh (on the evaluation monorepo, from 518 MB after its first call
/// to 960 MB after edits, new files and a branch switch), and the search, which
/// allocates per scored file, ran a third slower. The count of live bytes is what
/// `sightline index` reports the structures' memory against.
///
/// Built without transparent huge pages (`no_thp`): where the system leaves them to
/// `madvise`, mimalloc asked for them, and a 2 MB page is resident (and zeroed) as soon
/// as one byte of it is touched; on the evaluation monorepo a warm start's peak RSS was
/// 85 MB higher with them, and a second of its system time was the kernel clearing them.
#[global_allocator]
static ALLOCATOR: sightline_observe::memory::Counting<mimalloc::MiMalloc> =
    sightline_observe::memory::Counting(mimalloc::MiMalloc);

#[derive(Parser)]
#[command(
    name = "sightline",
    version,
    about = "A verified map of a codebase for coding agents"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Index a repository and print what was found.
    Index(index::IndexArgs),
    /// Explore a repository for a query.
    Explore(explore::ExploreCmd),
    /// Explore with a value model that selects what the report shows.
    Agent(agent::AgentCmd),
    /// Serve the exploration tools to an MCP client over stdio.
    Serve(serve::ServeCmd),
    /// Where a name is declared: path, range, kind and signature, one line each.
    #[command(alias = "def")]
    Definition(nav::DefinitionCmd),
    /// The uses of a declaration (or, with --callees, what it uses), one line each.
    #[command(alias = "refs")]
    References(nav::ReferencesCmd),
    /// The declarations of a file (nested) or of a directory's files, with ranges.
    Outline(nav::OutlineCmd),
}

fn main() -> std::process::ExitCode {
    let result = match Cli::parse().command {
        Command::Index(args) => index::run(&args),
        Command::Explore(args) => explore::run(&args),
        Command::Agent(args) => agent::run(&args),
        Command::Serve(args) => serve::run(&args),
        Command::Definition(args) => nav::definition(&args),
        Command::References(args) => nav::references(&args),
        Command::Outline(args) => nav::outline(&args),
    };
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            // The cause chain on one line; backtraces are for bugs, not bad input.
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}
