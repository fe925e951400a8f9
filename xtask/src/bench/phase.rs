//! The measured phases, each run in a fresh child process (`bench --phase …`) so its peak
//! RSS is its own and no earlier phase has warmed allocator or salsa state.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, bail};
use serde::Serialize;
use sightline_observe::RefreshReport;
use sightline_observe::db::{term_stats, workspace_graph};
use sightline_observe::tools::explore_code::{self, ExploreArgs};
use sightline_observe::walk::{FileRole, walk_changed};
use sightline_observe::{CacheMode, Index, IndexOptions};

use super::model::{ColdRun, NavTiming, QueryTiming, RESULT_MARKER, Session, WarmRun};
use super::procfs::{cpu_ms, peak_rss_bytes};
use super::queries;
use super::serve;
use super::touch::Touch;

#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum Phase {
    Cold,
    Warm,
    Session,
}

/// How many files the re-index phase edits; the report gives the median.
const EDITED_FILES: usize = 5;
const BODY_EDIT: &str = "\n// sightline bench: touched\n";
const SHAPE_EDIT: &str = "\nexport function sightlineBenchProbe(): number {\n  return 0;\n}\n";

pub fn run(phase: Phase, repo: &Path, cache_dir: &Path, backup_dir: &Path) -> anyhow::Result<()> {
    let line = match phase {
        Phase::Cold => to_line(&cold(repo, cache_dir)?),
        Phase::Warm => to_line(&warm(repo, cache_dir)?),
        Phase::Session => to_line(&session(repo, cache_dir, backup_dir)?),
    }?;
    println!("{RESULT_MARKER}{line}");
    Ok(())
}

fn to_line(value: &impl Serialize) -> anyhow::Result<String> {
    Ok(serde_json::to_string(value)?)
}

fn open(repo: &Path, cache_dir: &Path) -> anyhow::Result<(Index, f64)> {
    let options = IndexOptions {
        cache: CacheMode::Dir(cache_dir.to_owned()),
        ..IndexOptions::default()
    };
    let t = Instant::now();
    let index =
        Index::open(repo, &options).with_context(|| format!("indexing {}", repo.display()))?;
    Ok((index, ms(t)))
}

fn ms(since: Instant) -> f64 {
    since.elapsed().as_secs_f64() * 1000.0
}

fn cold(repo: &Path, cache_dir: &Path) -> anyhow::Result<ColdRun> {
    let cpu_before = cpu_ms();
    let (index, wall_ms) = open(repo, cache_dir)?;
    let cpu_ms = cpu_ms()
        .zip(cpu_before)
        .map(|(after, before)| after - before);
    let peak_rss_bytes = peak_rss_bytes();
    let db = index.db();
    let source_bytes = index
        .workspace()
        .files(db)
        .iter()
        .filter(|f| matches!(f.role(db), FileRole::Source(_)))
        .map(|f| f.text(db).len() as u64)
        .sum();
    let r = index.report();
    Ok(ColdRun {
        wall_ms,
        cpu_ms,
        timings_ms: r.timings_ms.clone(),
        peak_rss_bytes,
        source_files: r.source_files,
        manifest_files: r.manifest_files,
        source_bytes,
        declarations: r.declarations,
        edges: r.edges,
        parsed: r.parsed,
        cache_note: r.cache_note.clone(),
    })
}

fn warm(repo: &Path, cache_dir: &Path) -> anyhow::Result<WarmRun> {
    let cpu_before = cpu_ms();
    let (index, wall_ms) = open(repo, cache_dir)?;
    let r = index.report();
    Ok(WarmRun {
        wall_ms,
        cpu_ms: cpu_ms()
            .zip(cpu_before)
            .map(|(after, before)| after - before),
        timings_ms: r.timings_ms.clone(),
        peak_rss_bytes: peak_rss_bytes(),
        cache_hits: r.cache_hits,
        parsed: r.parsed,
    })
}

fn session(repo: &Path, cache_dir: &Path, backup_dir: &Path) -> anyhow::Result<Session> {
    let (mut index, ready_ms) = open(repo, cache_dir)?;
    let mut out = Session {
        ready_ms,
        edited_files: edit_targets(&index, EDITED_FILES),
        ..Session::default()
    };
    let t = Instant::now();
    let languages = sightline_observe::Db::languages(index.db());
    let _ = walk_changed(index.root(), languages, &|_, _| true);
    out.unchanged_walk_ms = ms(t);
    // The order matters: a file's first edit lowers its text's durability (the body edit
    // pays for that), and the edits after it re-verify only what derives from it.
    for path in out.edited_files.clone() {
        let (body, _) = timed_edit(&mut index, &path, BODY_EDIT, backup_dir, Told::Walk)?;
        out.body_edit_ms.push(body);
        let (shape, parts) = timed_edit(&mut index, &path, SHAPE_EDIT, backup_dir, Told::Walk)?;
        out.shape_edit_ms.push(shape);
        for (part, ms) in parts {
            out.shape_edit_parts_ms.entry(part).or_default().push(ms);
        }
        let (watched, _) = timed_edit(&mut index, &path, SHAPE_EDIT, backup_dir, Told::Paths)?;
        out.shape_edit_watched_ms.push(watched);
        let (watched, _) = timed_edit(&mut index, &path, BODY_EDIT, backup_dir, Told::Paths)?;
        out.body_edit_watched_ms.push(watched);
        out.new_file_ms
            .push(timed_new_file(&mut index, &path, backup_dir)?);
    }
    for query in queries::sample(&index) {
        out.explore.push(explore(&index, query));
    }
    let names = queries::names(&index);
    for (i, name) in names.iter().enumerate() {
        // The chain runs to the next sampled name: two names an agent did not pick for
        // being linked, so most have no chain and the search covers what each reaches.
        let next = names.get((i + 1) % names.len()).filter(|n| *n != name);
        out.navigation
            .extend(navigate(&index, name, next.map(String::as_str)));
    }
    out.peak_rss_bytes = peak_rss_bytes();
    // Measured last, on an index of its own: the server engine takes its index whole.
    let query = out.explore.first().map(|q| q.query.clone());
    drop(index);
    if let Some(query) = query {
        out.serve = serve::measure(
            repo,
            cache_dir,
            &out.edited_files,
            &query,
            SHAPE_EDIT,
            backup_dir,
        )?;
    }
    Ok(out)
}

/// Mid-sized primary source files: the ones at 40%, 45%, … of the size order, so the
/// edit cost is neither a tiny file's nor the largest file's.
fn edit_targets(index: &Index, count: usize) -> Vec<String> {
    let db = index.db();
    let mut files: Vec<(usize, &str)> = index
        .workspace()
        .files(db)
        .iter()
        .filter(|f| matches!(f.role(db), FileRole::Source(_)))
        .filter(|f| {
            let traits = *sightline_observe::path_traits::file_traits(db, **f);
            !traits.is_secondary() && !traits.declaration_only
        })
        .map(|f| (f.text(db).len(), f.path(db).as_str()))
        .collect();
    files.sort_unstable();
    let mut picked: Vec<String> = (0..count)
        .filter_map(|i| files.get(files.len() * (40 + 5 * i) / 100))
        .map(|(_, p)| (*p).to_owned())
        .collect();
    picked.dedup();
    picked
}

/// The index report's timings a refresh sets (see `Session::shape_edit_parts_ms`).
const REFRESH_PARTS: [&str; 6] = [
    "refresh walk",
    "tables",
    "graph",
    "term stats",
    "query tables",
    "totals",
];

/// How a timed edit is told to the index.
#[derive(Clone, Copy)]
enum Told {
    /// `Index::refresh`: the tree is walked to find what changed.
    Walk,
    /// `Index::refresh_paths` with the edited path, as a file watcher would.
    Paths,
}

fn refresh(index: &mut Index, path: &str, told: Told) -> RefreshReport {
    match told {
        Told::Walk => index.refresh(),
        Told::Paths => index.refresh_paths(&[path]),
    }
}

/// Appends `extra` to `path`, then times the refresh plus the workspace-wide queries a
/// tool call would need next; also returns the refresh's parts (see [`REFRESH_PARTS`]).
/// The file is restored and re-indexed (untimed) before returning, so every sample starts
/// from the pristine tree.
fn timed_edit(
    index: &mut Index,
    path: &str,
    extra: &str,
    backup_dir: &Path,
    told: Told,
) -> anyhow::Result<(f64, BTreeMap<String, f64>)> {
    let touch = Touch::append(&index.root().join(path), extra, backup_dir)
        .with_context(|| format!("editing {path}"))?;
    let t = Instant::now();
    let report = refresh(index, path, told);
    force_workspace_queries(index);
    let elapsed = ms(t);
    let parts = index
        .report()
        .timings_ms
        .iter()
        .filter(|(part, _)| REFRESH_PARTS.contains(&part.as_str()))
        .map(|(part, ms)| (part.clone(), *ms))
        .collect();
    drop(touch);
    let restored = refresh(index, path, told);
    force_workspace_queries(index);
    if report.changed != [path] || restored.changed != [path] {
        bail!("editing {path}: refresh saw {report:?}, then {restored:?}");
    }
    Ok((elapsed, parts))
}

/// Creates a source file holding [`SHAPE_EDIT`] beside `beside` (same extension), then
/// times its refresh by path plus the workspace-wide queries. The file is removed and the
/// index refreshed (untimed) before returning.
fn timed_new_file(index: &mut Index, beside: &str, backup_dir: &Path) -> anyhow::Result<f64> {
    let (dir, name) = beside.rsplit_once('/').unwrap_or(("", beside));
    // Named like its neighbour (same extension, or the same name for a file without one),
    // so the file's language reads it.
    let new_name = match name.rsplit_once('.') {
        Some((_, extension)) => format!("sightline_bench_added.{extension}"),
        None => format!("sightline_bench_added_{name}"),
    };
    let path = if dir.is_empty() {
        new_name
    } else {
        format!("{dir}/{new_name}")
    };
    let touch = Touch::create(&index.root().join(&path), SHAPE_EDIT, backup_dir)
        .with_context(|| format!("creating {path}"))?;
    let t = Instant::now();
    let report = index.refresh_paths(&[&path]);
    force_workspace_queries(index);
    let elapsed = ms(t);
    drop(touch);
    let restored = index.refresh();
    force_workspace_queries(index);
    if report.added != [path.as_str()] || restored.removed != [path.as_str()] {
        bail!("creating {path}: refresh saw {report:?}, then {restored:?}");
    }
    Ok(elapsed)
}

fn force_workspace_queries(index: &Index) {
    let _ = workspace_graph(index.db(), index.workspace());
    let _ = term_stats(index.db(), index.workspace());
}

fn explore(index: &Index, query: String) -> QueryTiming {
    let t = Instant::now();
    let result = explore_code::run(index.db(), index.workspace(), &ExploreArgs::new(&query));
    let ms = ms(t);
    match result {
        Ok(r) => QueryTiming {
            query,
            ms,
            files: r.files.len() as u32,
            error: None,
        },
        Err(e) => QueryTiming {
            query,
            ms,
            files: 0,
            error: Some(e.to_string()),
        },
    }
}

/// Times the navigation tools on `name`: its definition, its uses, its callees, the chain
/// from it to `next`, and the outline of the file of its first definition (what an agent
/// asks instead of grep).
fn navigate(index: &Index, name: &str, next: Option<&str>) -> Vec<NavTiming> {
    use sightline_observe::tools::nav::definition::{self, DefinitionArgs};
    use sightline_observe::tools::nav::outline::{self, OutlineArgs};
    use sightline_observe::tools::nav::references::{self, ReferencesArgs};
    let (db, ws) = (index.db(), index.workspace());
    let none = |_: &str, _| None;
    let mut out = Vec::new();
    let mut timed = |tool: &str, target: &str, run: &dyn Fn() -> Option<String>| {
        let t = Instant::now();
        let text = run();
        let ms = ms(t);
        out.push(NavTiming {
            tool: tool.to_owned(),
            target: target.to_owned(),
            ms,
            chars: text.map_or(0, |t| t.len()),
        });
    };
    let found = definition::run(db, ws, &DefinitionArgs::new(name)).ok();
    timed("definition", name, &|| {
        let r = definition::run(db, ws, &DefinitionArgs::new(name)).ok()?;
        Some(r.render_tagged(&none))
    });
    timed("references", name, &|| {
        let r = references::run(db, ws, &ReferencesArgs::new(name)).ok()?;
        Some(r.render_tagged(&none))
    });
    timed("callees", name, &|| {
        let args = ReferencesArgs {
            callees: true,
            ..ReferencesArgs::new(name)
        };
        let r = references::run(db, ws, &args).ok()?;
        Some(r.render_tagged(&none))
    });
    if let Some(next) = next {
        timed("chain", name, &|| {
            let args = ReferencesArgs {
                to: Some(next.to_owned()),
                ..ReferencesArgs::new(name)
            };
            let r = references::run(db, ws, &args).ok()?;
            Some(r.render_tagged(&none))
        });
    }
    if let Some(path) = found.and_then(|f| f.hits.first().map(|h| h.path.clone())) {
        timed("outline", &path, &|| {
            let r = outline::run(db, ws, &OutlineArgs::new(path.as_str())).ok()?;
            Some(r.render_tagged(&none))
        });
    }
    out
}
