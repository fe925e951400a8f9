//! Opening an index with the CLI's shared options and a progress bar on terminals.

use std::io::IsTerminal as _;
use std::path::PathBuf;

use clap::Args;
use sightline_observe::{CacheMode, Index, IndexOptions, Progress};

#[derive(Args, Clone, Debug)]
pub struct IndexFlags {
    /// Cache directory for per-file facts (default: the user's cache dir).
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Do not read or write the persistent cache.
    #[arg(long)]
    pub no_cache: bool,
}

impl IndexFlags {
    pub fn cache_mode(&self) -> CacheMode {
        if self.no_cache {
            CacheMode::Disabled
        } else if let Some(d) = &self.cache_dir {
            CacheMode::Dir(d.clone())
        } else {
            CacheMode::Default
        }
    }
}

pub fn open_index<D: sightline_observe::Db + Clone>(
    path: &std::path::Path,
    flags: &IndexFlags,
    db: D,
) -> anyhow::Result<Index<D>> {
    let bar = std::io::stderr().is_terminal().then(|| {
        let bar = indicatif::ProgressBar::new(0);
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} indexing {pos}/{len} files {wide_bar} {elapsed}",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_bar()),
        );
        bar
    });
    let progress = |p: Progress| {
        if let Some(bar) = &bar {
            match p {
                Progress::Walked { files } => bar.set_length(files as u64),
                Progress::Parsed { done, .. } => bar.set_position(done as u64),
            }
        }
    };
    let options = IndexOptions {
        cache: flags.cache_mode(),
        progress: Some(&progress),
    };
    let index = Index::open_with_db(db, path, &options)?;
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    Ok(index)
}
