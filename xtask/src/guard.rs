//! `cargo xtask guard`: a thin shell over `sightline-guard`. It finds the workspace root
//! and the ban lists, prints the report and fails when there is any finding.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Args;
use sightline_guard::{BAN_LIST_FILE, BanList, EXTRA_ENV, scan_workspace};

#[derive(Args)]
pub struct GuardArgs {
    /// Workspace root to scan (default: the workspace this xtask belongs to).
    #[arg(long)]
    root: Option<PathBuf>,
    /// Ban list (default: `guard.toml` at the root).
    #[arg(long)]
    list: Option<PathBuf>,
    /// Extra ban list(s) not kept in the repository; repeatable. The environment variable
    /// SIGHTLINE_GUARD_EXTRA adds more (separated like PATH).
    #[arg(long, value_name = "FILE")]
    extra: Vec<PathBuf>,
}

pub fn run(args: GuardArgs) -> anyhow::Result<()> {
    let root = args.root.unwrap_or_else(workspace_root);
    let list_path = args.list.unwrap_or_else(|| root.join(BAN_LIST_FILE));
    let mut extras = args.extra;
    if let Some(value) = std::env::var_os(EXTRA_ENV) {
        extras.extend(std::env::split_paths(&value).filter(|p| !p.as_os_str().is_empty()));
    }

    let list = BanList::load_all(&list_path, &extras).context("loading the ban list")?;
    let report =
        scan_workspace(&root, &list).with_context(|| format!("scanning {}", root.display()))?;
    println!("{report}");
    if report.has_findings() {
        // Findings are the expected way for this command to fail, not an internal error:
        // explain and exit non-zero without an error chain or backtrace.
        eprintln!(
            "guard failed: production code must stay generic (DESIGN.md section 3).\n\
             Rename, move test-only code under tests/, or waive a heuristic false positive \
             with `// guard: allow(<check>) reason: <why>` on or above the line."
        );
        std::process::exit(1);
    }
    Ok(())
}

/// The workspace root: the parent of this crate's manifest directory.
fn workspace_root() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest.parent().unwrap_or(manifest).to_path_buf()
}
