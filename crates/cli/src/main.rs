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

/// Hands what mimalloc holds free back to the system on the calling thread: freed pages
/// are purged at once, and blocks other threads freed into this thread's pages are
/// collected (see `sightline_observe::memory::set_release`).
fn release_freed_memory() {
    // SAFETY: `mi_collect` takes no pointer and may run on any thread at any time.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

/// mimalloc's `mi_option_purge_delay` (the same position in its v2 and v3 option lists;
/// `libmimalloc-sys` does not name it).
const MI_OPTION_PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// A long-lived server hands pages back as soon as they are free, instead of a second
/// later and only if the allocator runs again then: between calls it does not, so every
/// call's garbage stayed resident (on the evaluation monorepo, 35 MB over its queries
/// with nothing changed). A one-off `sightline index` keeps the default, which costs
/// less system time.
fn purge_freed_pages_at_once() {
    // SAFETY: setting an option takes no pointer and is allowed at any time.
    unsafe { libmimalloc_sys::mi_option_set(MI_OPTION_PURGE_DELAY, 0) };
}

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
    sightline_observe::memory::set_release(release_freed_memory);
    let result = match Cli::parse().command {
        Command::Index(args) => index::run(&args),
        Command::Explore(args) => explore::run(&args),
        Command::Agent(args) => agent::run(&args),
        Command::Serve(args) => {
            purge_freed_pages_at_once();
            serve::run(&args)
        }
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
