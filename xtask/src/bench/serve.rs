//! What a running server pays for an edit: `explore` through the MCP server's engine
//! (which re-stats the tree before every call) right after a file gained a declaration,
//! against the same call with nothing changed. The difference is the edit's cost as a
//! client sees it: the walk, the re-parse, every derived query and the explore itself.

use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::{Intent, RegistryDatabase};
use sightline_server::{Engine, ExploreParams};

use super::touch::Touch;

/// Paired samples, one pair per edited file.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
pub struct ServeTimings {
    /// `explore` when nothing changed since the previous call.
    pub unchanged_ms: Vec<f64>,
    /// `explore` right after the file was edited.
    pub after_edit_ms: Vec<f64>,
}

/// Opens a server engine over `repo` (from the cache the earlier phases wrote), then for
/// each file times `query` unchanged and after appending `edit` to it. Every file is
/// restored, and re-indexed untimed, before the next pair.
pub fn measure(
    repo: &Path,
    cache_dir: &Path,
    files: &[String],
    query: &str,
    edit: &str,
    backup_dir: &Path,
) -> anyhow::Result<ServeTimings> {
    let options = IndexOptions {
        cache: CacheMode::Dir(cache_dir.to_owned()),
        ..IndexOptions::default()
    };
    let index = Index::open_with_db(RegistryDatabase::default(), repo, &options)
        .with_context(|| format!("indexing {}", repo.display()))?;
    let root = index.root().to_owned();
    let mut engine = Engine::new(index);
    let params = ExploreParams {
        query: query.to_owned(),
        intent: Some(Intent::Locate),
        max_files: sightline_agent::DETERMINISTIC_FILES,
    };
    let explore = |engine: &mut Engine| -> anyhow::Result<f64> {
        let t = Instant::now();
        if let Err(e) = engine.explore(&params) {
            bail!("explore {query:?}: {e}");
        }
        Ok(t.elapsed().as_secs_f64() * 1000.0)
    };
    // The first call derives the query tables' memos; it is neither sample.
    explore(&mut engine)?;
    let mut out = ServeTimings::default();
    for path in files {
        out.unchanged_ms.push(explore(&mut engine)?);
        let touch = Touch::append(&root.join(path), edit, backup_dir)
            .with_context(|| format!("editing {path}"))?;
        out.after_edit_ms.push(explore(&mut engine)?);
        drop(touch);
        explore(&mut engine)?;
    }
    Ok(out)
}
