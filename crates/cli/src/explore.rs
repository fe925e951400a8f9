//! `sightline explore "<query>" [PATH]`: the validated report of the deterministic
//! selection, or the raw exploration with `--raw`.

use std::path::PathBuf;

use clap::Args;
use serde::Serialize;
use sightline_agent::{ExploreSession, Finished, Mode};
use sightline_observe::tools::explore_code::{self, ExploreArgs};
use sightline_registry::{Intent, RegistryDatabase};

use crate::open::{IndexFlags, open_index};

#[derive(Args)]
pub struct ExploreCmd {
    /// What to look for.
    pub query: String,
    /// Repository root (default: the current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// What the result is for: explain, locate, edit or debug.
    #[arg(long, default_value = "locate", value_parser = crate::output::parse_intent)]
    pub intent: Intent,
    /// Print the raw exploration (line-numbered source windows) instead of the report.
    #[arg(long)]
    pub raw: bool,
    /// Print the typed result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Most files the raw exploration shows (1..=8).
    #[arg(long, default_value_t = explore_code::DEFAULT_MAX_FILES)]
    pub max_files: u32,
    /// Include tests, examples and generated files in the raw exploration's ranking.
    #[arg(long)]
    pub include_tests: bool,
    /// Show raw windows in full instead of sizing them to the answer (for comparison).
    #[arg(long)]
    pub no_adaptive: bool,
    /// Character budget of the raw exploration's source (default: tiered by repository size).
    #[arg(long)]
    pub raw_budget: Option<u32>,
    /// Character budget of the report.
    #[arg(long, default_value_t = sightline_render::DEFAULT_BUDGET_CHARS)]
    pub budget: usize,
    #[command(flatten)]
    pub flags: IndexFlags,
}

/// The `--json` form of a report: the machine block plus what validation did.
#[derive(Serialize)]
struct JsonReport<'a> {
    query: &'a str,
    intent: Intent,
    report: sightline_render::ReportJson,
    text: &'a str,
    drops: Vec<String>,
    fell_back: bool,
}

pub fn run(args: &ExploreCmd) -> anyhow::Result<()> {
    let index = open_index(&args.path, &args.flags, RegistryDatabase::default())?;
    if index.report().source_files == 0 {
        let supported: Vec<&str> = sightline_observe::Db::languages(index.db())
            .iter()
            .map(|language| language.name())
            .collect();
        eprintln!(
            "note: no source files were indexed under {} (languages read: {})",
            index.report().root,
            supported.join(", ")
        );
    }
    let (db, ws) = (index.db(), index.workspace());
    if args.raw {
        let mut call = ExploreArgs::new(&args.query);
        call.max_files = args.max_files;
        call.include_tests = args.include_tests;
        call.adaptive = !args.no_adaptive;
        call.budget_chars = args.raw_budget;
        let weights = sightline_rank::Weights::fitted().search();
        let result = explore_code::run_weighted(db, ws, &call, &weights)?;
        if args.json {
            crate::output::print_report("", Some(&result))?;
        } else {
            // How the query was read is a diagnostic: on stderr, next to the windows.
            eprintln!("{}", result.terms_line());
            crate::output::write_stdout(&result.render_text(&|_, _| None))?;
        }
        return Ok(());
    }
    // The same entry point as the MCP server's `explore` and `xtask eval`.
    let mut index = index;
    let mut session = ExploreSession::new(&mut index, &args.query, args.intent)?;
    session.report_budget = args.budget;
    let Finished { validated, report } =
        sightline_agent::explore(&mut index, &mut session, Mode::DETERMINISTIC)?;
    // A lookup: the ranking the explore derived is memoized for this session.
    let registry = session.ranked(&index).registry.clone();
    let out = args.json.then(|| JsonReport {
        query: &args.query,
        intent: args.intent,
        report: sightline_render::render_json(&validated, &registry),
        text: report.prose(),
        drops: crate::output::drop_lines(&validated),
        fell_back: validated.fell_back,
    });
    crate::output::print_report(report.prose(), out.as_ref())?;
    session.close(&mut index);
    Ok(())
}
