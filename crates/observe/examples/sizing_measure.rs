//! Measures adaptive sizing over the eval tasks: total source characters shown with the
//! switch on and off, and the share of gold files shown in full without sizing that still
//! have a full window with it.
//!
//! ```sh
//! cargo run --release -p sightline-observe --example sizing_measure -- [TASKS_PER_REPO] [EVAL_DIR]
//! ```
//!
//! Each repository's bundle is cloned once under the system temp dir and checked out at
//! each sampled task's base tag.

use std::path::{Path, PathBuf};
use std::process::Command;

use sightline_observe::tools::explore_code::{self, ExploreArgs, ExploreResult, WindowView};
use sightline_observe::{CacheMode, Index, IndexOptions};

#[derive(Default)]
struct Totals {
    tasks: usize,
    chars_off: usize,
    chars_on: usize,
    gold_shown_off: usize,
    gold_full_on: usize,
    gold_shown_on: usize,
    skeleton_files: usize,
    focused_files: usize,
}

fn main() {
    let mut args = std::env::args().skip(1);
    let per_repo: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(10);
    // Default: `../shared/eval` beside the workspace root.
    let eval = args
        .next()
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/eval"));
    let work = std::env::temp_dir().join("sightline_sizing_measure");
    let mut all = Totals::default();
    let mut repos: Vec<PathBuf> = std::fs::read_dir(eval.join("tasks"))
        .map(|d| d.filter_map(|e| e.ok().map(|e| e.path())).collect())
        .unwrap_or_default();
    repos.sort();
    println!(
        "| repo | tasks | chars off | chars on | on/off | gold full on / shown off | skeleton files | focused files |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for tasks_path in repos {
        let Some(repo) = tasks_path.file_stem().and_then(|s| s.to_str()) else {
            continue;
        };
        let bundle = eval.join("snapshots").join(format!("{repo}.bundle"));
        let clone = work.join(repo);
        if !clone.exists() && !git(&work, &["clone", "-q", &bundle.to_string_lossy(), repo]) {
            eprintln!("{repo}: clone failed");
            continue;
        }
        let text = std::fs::read_to_string(&tasks_path).unwrap_or_default();
        let mut t = Totals::default();
        for line in text.lines().take(per_repo) {
            let Ok(task) = serde_json::from_str::<serde_json::Value>(line) else {
                continue;
            };
            let (Some(commit), Some(query)) = (task["commit"].as_str(), task["query"].as_str())
            else {
                continue;
            };
            let gold: Vec<&str> = task["gold_files"]
                .as_array()
                .map(|a| a.iter().filter_map(|g| g.as_str()).collect())
                .unwrap_or_default();
            if !git(&clone, &["checkout", "-q", &format!("base/{commit}")]) {
                continue;
            }
            let options = IndexOptions {
                cache: CacheMode::Dir(work.join("cache")),
                progress: None,
            };
            let Ok(index) = Index::open(&clone, &options) else {
                continue;
            };
            let run = |adaptive: bool| -> Option<ExploreResult> {
                let mut a = ExploreArgs::new(query);
                a.max_files = explore_code::MAX_FILES_CAP;
                a.adaptive = adaptive;
                explore_code::run(index.db(), index.workspace(), &a).ok()
            };
            let (Some(off), Some(on)) = (run(false), run(true)) else {
                continue;
            };
            t.tasks += 1;
            t.chars_off += chars(&off);
            t.chars_on += chars(&on);
            for g in &gold {
                if off.files.iter().any(|f| f.path == *g) {
                    t.gold_shown_off += 1;
                    if has_full(&on, g) {
                        t.gold_full_on += 1;
                    }
                }
                if on.files.iter().any(|f| f.path == *g) {
                    t.gold_shown_on += 1;
                }
            }
            for f in &on.files {
                let sig = f.windows.iter().any(|w| w.view == WindowView::Signatures);
                let full = f.windows.iter().any(|w| w.view == WindowView::Full);
                t.skeleton_files += usize::from(sig && !full);
                t.focused_files += usize::from(sig && full);
            }
        }
        row(repo, &t);
        all.tasks += t.tasks;
        all.chars_off += t.chars_off;
        all.chars_on += t.chars_on;
        all.gold_shown_off += t.gold_shown_off;
        all.gold_full_on += t.gold_full_on;
        all.gold_shown_on += t.gold_shown_on;
        all.skeleton_files += t.skeleton_files;
        all.focused_files += t.focused_files;
    }
    row("all", &all);
}

fn row(name: &str, t: &Totals) {
    let ratio = t.chars_on as f64 / t.chars_off.max(1) as f64;
    let share = t.gold_full_on as f64 / t.gold_shown_off.max(1) as f64;
    println!(
        "| {name} | {} | {} | {} | {ratio:.3} | {}/{} = {share:.3} | {} | {} |",
        t.tasks,
        t.chars_off,
        t.chars_on,
        t.gold_full_on,
        t.gold_shown_off,
        t.skeleton_files,
        t.focused_files
    );
}

/// Source characters shown: the text of every window.
fn chars(r: &ExploreResult) -> usize {
    r.files
        .iter()
        .flat_map(|f| &f.windows)
        .map(|w| w.text.len())
        .sum()
}

fn has_full(r: &ExploreResult, path: &str) -> bool {
    r.files
        .iter()
        .filter(|f| f.path == path)
        .flat_map(|f| &f.windows)
        .any(|w| w.view == WindowView::Full)
}

fn git(dir: &Path, args: &[&str]) -> bool {
    let _ = std::fs::create_dir_all(dir);
    Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .status()
        .is_ok_and(|s| s.success())
}
