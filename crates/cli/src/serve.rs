//! `sightline serve [PATH]`: an MCP server on stdio over one repository. Stdout carries
//! the protocol, so everything else (progress, logs) goes to stderr.

use std::path::PathBuf;

use anyhow::Context as _;
use clap::Args;
use sightline_agent::Budgets;
use sightline_agent::provider::{self, ProviderConfig, ProviderKind, ProviderOverrides};
use sightline_registry::RegistryDatabase;
use sightline_server::{ToolSet, ValueModel};

use sightline_observe::watch::Freshness;
use sightline_observe::{Index, IndexOptions, Progress};

use crate::open::IndexFlags;

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
    /// The tools to offer, comma-separated: tool names, `default` (explore, grep,
    /// read_file, definition, references, outline), `report` (the session loop:
    /// explore_code, submit_report) and `all` (adds list_files too). submit_report joins any
    /// set with explore_code.
    #[arg(long, env = "SIGHTLINE_TOOLS", default_value = "default", value_parser = parse_tools)]
    pub tools: ToolSet,
    /// Do not watch the tree for changes: every call walks it instead (slower on large
    /// trees). The server also walks when watching is not possible (a network file
    /// system, the system's watch limit), and says so.
    #[arg(long)]
    pub no_watch: bool,
    #[command(flatten)]
    pub flags: IndexFlags,
}

fn parse_tools(s: &str) -> Result<ToolSet, String> {
    s.parse()
        .map_err(|e: sightline_server::UnknownTool| e.to_string())
}

fn parse_kind(s: &str) -> Result<ProviderKind, String> {
    s.parse().map_err(|e: provider::ConfigError| e.to_string())
}

pub fn run(args: &ServeCmd) -> anyhow::Result<()> {
    // Configuration errors surface before indexing, not on the first `explore` call.
    let value_model = args.value_model.then(|| value_model(args)).transpose()?;
    // The handshake is answered at once; the index is built in the background and the
    // first tool call waits for it.
    let root = args.path.clone();
    // A root that cannot be indexed is the user's error now, not every tool call's later.
    anyhow::ensure!(
        root.is_dir(),
        "{} is not a directory that can be served",
        root.display()
    );
    let cache = args.flags.cache_mode();
    eprintln!(
        "serving {} over stdio (indexing in the background) with {}; explore selects {}",
        root.display(),
        args.tools,
        value_model.as_ref().map_or_else(
            || "deterministically".to_owned(),
            |m| format!("with {}", m.describe())
        )
    );
    let watch = !args.no_watch;
    let build: sightline_server::BuildIndex = Box::new(move |progress| {
        let on_progress = |p: Progress| {
            if let Progress::Parsed { done, total } = p {
                progress(done, total);
            }
        };
        let options = IndexOptions {
            cache,
            progress: Some(&on_progress),
        };
        // The watcher starts before the walk, so a file changed while the index is built
        // is seen: by the walk if its directory is listed after the change, by the watch
        // if before.
        let (freshness, observer) = if watch {
            match Freshness::watch(&root, sightline_observe::LANGUAGES) {
                Ok((freshness, observer)) => (freshness, Some(observer)),
                Err(e) => {
                    eprintln!("not watching the tree ({e}); every call walks it instead");
                    (Freshness::walk(), None)
                }
            }
        } else {
            (Freshness::walk(), None)
        };
        let index = Index::open_observed(RegistryDatabase::default(), &root, &options, observer)
            .map_err(|e| format!("{e:#}"))?;
        Ok((index, freshness))
    });
    sightline_server::serve_stdio_indexing(build, value_model, args.tools.clone())?;
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
