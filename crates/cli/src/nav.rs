//! `sightline definition|references|outline`: the navigation tools from a shell, one line
//! per hit. Outside a session there are no candidate IDs to cite, so none are printed.

use std::path::PathBuf;

use clap::Args;
use sightline_observe::tools::nav::callee_tree;
use sightline_observe::tools::nav::definition::{self, DefinitionArgs};
use sightline_observe::tools::nav::outline::{self, OutlineArgs};
use sightline_observe::tools::nav::references::{self, ReferencesArgs};
use sightline_observe::tools::nav::{Spot, Target};

use crate::open::{IndexFlags, open_index};

fn no_label(_: &str, _: Spot) -> Option<String> {
    None
}

#[derive(Args)]
pub struct DefinitionCmd {
    /// A name (`save`) or a qualified name (`Store.save`, `store.Store.save`).
    pub name: String,
    /// Repository root (default: the current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Only declarations under this repository-relative file or directory.
    #[arg(long = "in", value_name = "SCOPE")]
    pub scope: Option<String>,
    /// Also print the body of the first declarations found.
    #[arg(long)]
    pub body: bool,
    /// Print the typed result as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub flags: IndexFlags,
}

#[derive(Args)]
pub struct ReferencesCmd {
    /// A name (`save`) or a qualified name (`Store.save`).
    pub name: String,
    /// Repository root (default: the current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Only declarations under this repository-relative file or directory.
    #[arg(long = "in", value_name = "SCOPE")]
    pub scope: Option<String>,
    /// What the declaration calls and uses, instead of what uses it.
    #[arg(long)]
    pub callees: bool,
    /// Instead of the uses: how the declaration reaches this one (a name or qualified
    /// name), as the shortest chain of calls and uses, one line per step.
    #[arg(long, value_name = "NAME")]
    pub to: Option<String>,
    /// Most lines listed.
    #[arg(long, default_value_t = references::DEFAULT_MAX_RESULTS)]
    pub max: usize,
    /// With --callees: levels of calls listed (1: only what the declaration uses; more:
    /// under each function it calls, what that one calls, nested, while --max allows).
    #[arg(long, default_value_t = callee_tree::DEFAULT_CALLEE_DEPTH)]
    pub depth: u32,
    /// Print the typed result as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub flags: IndexFlags,
}

#[derive(Args)]
pub struct OutlineCmd {
    /// A repository-relative file or directory (`.` for the whole repository).
    pub target: String,
    /// Repository root (default: the current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Most declarations listed.
    #[arg(long, default_value_t = outline::DEFAULT_MAX_ENTRIES)]
    pub max: usize,
    /// Print the typed result as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub flags: IndexFlags,
}

fn target(name: &str, scope: &Option<String>) -> Target {
    Target {
        name: name.to_owned(),
        path: scope.clone(),
        line: None,
    }
}

pub fn definition(args: &DefinitionCmd) -> anyhow::Result<()> {
    let index = open_index(
        &args.path,
        &args.flags,
        sightline_observe::ObserveDatabase::default(),
    )?;
    let call = DefinitionArgs {
        target: target(&args.name, &args.scope),
        body: args.body,
    };
    let result = definition::run(index.db(), index.workspace(), &call)?;
    print(args.json, &result, || result.render_tagged(&no_label))
}

pub fn references(args: &ReferencesCmd) -> anyhow::Result<()> {
    let index = open_index(
        &args.path,
        &args.flags,
        sightline_observe::ObserveDatabase::default(),
    )?;
    let call = ReferencesArgs {
        target: target(&args.name, &args.scope),
        callees: args.callees,
        max_results: args.max,
        depth: args.depth,
        to: args.to.clone(),
    };
    let result = references::run(index.db(), index.workspace(), &call)?;
    print(args.json, &result, || result.render_tagged(&no_label))
}

pub fn outline(args: &OutlineCmd) -> anyhow::Result<()> {
    let index = open_index(
        &args.path,
        &args.flags,
        sightline_observe::ObserveDatabase::default(),
    )?;
    let call = OutlineArgs {
        path: Some(args.target.clone()),
        max_entries: args.max,
    };
    let result = outline::run(index.db(), index.workspace(), &call)?;
    print(args.json, &result, || result.render_tagged(&no_label))
}

fn print<T: serde::Serialize>(
    json: bool,
    result: &T,
    text: impl FnOnce() -> String,
) -> anyhow::Result<()> {
    if json {
        crate::output::write_stdout(&(serde_json::to_string_pretty(result)? + "\n"))
    } else {
        crate::output::write_stdout(&text())
    }
}
