//! `sightline explore "<query>" [PATH]`.

use std::path::PathBuf;

use clap::Args;
use sightline_observe::tools::explore_code::{self, ExploreArgs};

use crate::open::{IndexFlags, open_index};

#[derive(Args)]
pub struct ExploreCmd {
    /// What to look for.
    pub query: String,
    /// Repository root (default: the current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Print the raw exploration (line-numbered source windows).
    #[arg(long)]
    pub raw: bool,
    /// Print the typed result as JSON.
    #[arg(long)]
    pub json: bool,
    /// Most files to show (1..=8).
    #[arg(long, default_value_t = explore_code::DEFAULT_MAX_FILES)]
    pub max_files: u32,
    /// Include tests, examples and generated files in ranking.
    #[arg(long)]
    pub include_tests: bool,
    #[command(flatten)]
    pub flags: IndexFlags,
}

pub fn run(args: &ExploreCmd) -> anyhow::Result<()> {
    let index = open_index(&args.path, &args.flags)?;
    let mut call = ExploreArgs::new(&args.query);
    call.max_files = args.max_files;
    call.include_tests = args.include_tests;
    let result = explore_code::run(index.db(), index.workspace(), &call)?;
    if args.json {
        println!("{}", serde_json::to_string_pretty(&result)?);
    } else {
        print!("{}", result.render_text(&|_, _| None));
    }
    Ok(())
}
