//! `sightline serve [PATH]`: an MCP server on stdio over one repository. Stdout carries
//! the protocol, so everything else (progress, logs) goes to stderr.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use sightline_agent::Budgets;
use sightline_agent::provider::{self, ProviderConfig, ProviderKind, ProviderOverrides};
use sightline_registry::RegistryDatabase;
use sightline_server::ValueModel;

use crate::open::{IndexFlags, open_index};

#[derive(Args)]
pub struct ServeCmd {
    /// Repository root (default: the current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Let the `explore` tool select with a value model (configured like `agent`: the
    /// SIGHTLINE_* variables or the flags below). Without it `explore` is deterministic.
    #[arg(long)]
    pub value_model: bool,
    /// Wire format of the value model's endpoint: openai or anthropic.
    #[arg(long, requires = "value_model", value_parser = parse_kind)]
    pub provider: Option<ProviderKind>,
    /// The value model's endpoint base URL.
    #[arg(long, requires = "value_model", value_name = "URL")]
    pub base_url: Option<String>,
    /// The value model's name.
    #[arg(long, requires = "value_model")]
    pub model: Option<String>,
    #[command(flatten)]
    pub flags: IndexFlags,
}

fn parse_kind(s: &str) -> Result<ProviderKind, String> {
    s.parse().map_err(|e: provider::ConfigError| e.to_string())
}

pub fn run(args: &ServeCmd) -> anyhow::Result<()> {
    // Configuration errors surface before indexing, not on the first `explore` call.
    let value_model = args.value_model.then(|| value_model(args)).transpose()?;
    let index = open_index(&args.path, &args.flags, RegistryDatabase::default())?;
    eprintln!(
        "serving {} ({} source files) over stdio; explore selects {}",
        index.root().display(),
        index.report().source_files,
        value_model.as_ref().map_or_else(
            || "deterministically".to_owned(),
            |m| format!("with {}", m.describe())
        )
    );
    sightline_server::serve_stdio(index, value_model)?;
    Ok(())
}

fn value_model(args: &ServeCmd) -> anyhow::Result<ValueModel> {
    let overrides = ProviderOverrides {
        kind: args.provider,
        base_url: args.base_url.clone(),
        model: args.model.clone(),
    };
    let config = ProviderConfig::from_env(&overrides).context("configuring the value model")?;
    Ok(ValueModel::new(
        provider::connect(config),
        Budgets::default(),
    ))
}
