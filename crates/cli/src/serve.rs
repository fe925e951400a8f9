//! `sightline serve [PATH]`: an MCP server on stdio over one repository. Stdout carries
//! the protocol, so everything else (progress, logs) goes to stderr.

use std::path::PathBuf;

use clap::Args;
use sightline_registry::RegistryDatabase;

use crate::open::{IndexFlags, open_index};

#[derive(Args)]
pub struct ServeCmd {
    /// Repository root (default: the current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    #[command(flatten)]
    pub flags: IndexFlags,
}

pub fn run(args: &ServeCmd) -> anyhow::Result<()> {
    let index = open_index(&args.path, &args.flags, RegistryDatabase::default())?;
    eprintln!(
        "serving {} ({} source files) over stdio",
        index.root().display(),
        index.report().source_files
    );
    sightline_server::serve_stdio(index)?;
    Ok(())
}
