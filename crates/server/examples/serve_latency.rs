//! Profiling aid: the server engine's `explore` over a tree, as `sightline serve` runs it
//! (a file watcher keeps the index fresh), timed per call with nothing changed and right
//! after appending a declaration to a file:
//! `cargo run --release -p sightline-server --example serve_latency -- ROOT CACHE_DIR QUERIES_FILE [EDITED_FILE…]`
//! (QUERIES_FILE: one query per line; each edited file is restored afterwards, and a
//! new file is then created beside each one, explored and removed).
//! `SERVE_LATENCY_BURST=LIST` (one repo-relative path a line) then appends a declaration
//! to every listed file at once (a branch switch), times the `explore` that sees the
//! last one, restores them all and times the `explore` after that; resident memory is
//! printed after each phase with its peak during that phase alone.
//! It allocates as `sightline serve` does (mimalloc, counted, freed pages purged at once),
//! so a profile of it shows the server's allocation costs.

use std::time::Instant;

use sightline_observe::watch::Freshness;
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::{Intent, RegistryDatabase};
use sightline_server::{Engine, ExploreParams};

#[global_allocator]
static ALLOCATOR: sightline_observe::memory::Counting<mimalloc::MiMalloc> =
    sightline_observe::memory::Counting(mimalloc::MiMalloc);

/// `sightline serve`'s setting: mimalloc's `mi_option_purge_delay` (see the binary's
/// `purge_freed_pages_at_once`) at 0.
fn purge_freed_pages_at_once() {
    // SAFETY: setting an option takes no pointer and is allowed at any time.
    unsafe { libmimalloc_sys::mi_option_set(15, 0) };
}

/// The binary's release function (see `sightline_observe::memory::set_release`).
fn release_freed_memory() {
    // SAFETY: `mi_collect` takes no pointer and may run on any thread at any time.
    unsafe { libmimalloc_sys::mi_collect(true) };
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    sightline_observe::memory::set_release(release_freed_memory);
    purge_freed_pages_at_once();
    let usage = "usage: serve_latency ROOT CACHE_DIR QUERIES_FILE [EDITED_FILE…]";
    let mut args = std::env::args().skip(1);
    let root = std::path::PathBuf::from(args.next().ok_or(usage)?);
    let cache = std::path::PathBuf::from(args.next().ok_or(usage)?);
    let queries: Vec<String> = std::fs::read_to_string(args.next().ok_or(usage)?)?
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let edited: Vec<String> = args.collect();
    let t = Instant::now();
    let (freshness, observer) = Freshness::watch(&root, sightline_observe::LANGUAGES)?;
    let options = IndexOptions {
        cache: CacheMode::Dir(cache),
        progress: None,
    };
    let index = Index::open_observed(RegistryDatabase::default(), &root, &options, Some(observer))?;
    let mut engine = Engine::new(index).with_freshness(freshness);
    println!(
        "ready in {:.0} ms, {}",
        t.elapsed().as_secs_f64() * 1e3,
        rss()
    );
    // CPU time next to wall time: on a loaded machine, what the call itself cost.
    let walls = std::cell::RefCell::new(Vec::new());
    let explore = |engine: &mut Engine, query: &str| -> Result<f64, Box<dyn std::error::Error>> {
        let t = cpu_ns();
        let w = Instant::now();
        engine.explore(&ExploreParams {
            query: query.to_owned(),
            intent: Some(Intent::Locate),
            max_files: sightline_agent::DETERMINISTIC_FILES,
        })?;
        walls.borrow_mut().push(w.elapsed().as_secs_f64() * 1e3);
        Ok((cpu_ns() - t) as f64 / 1e6)
    };
    explore(&mut engine, &queries[0])?;
    // SERVE_LATENCY_REPEAT=N runs the queries N times (for a profiler).
    let repeat: usize = std::env::var("SERVE_LATENCY_REPEAT")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(1);
    let mut unchanged: Vec<f64> = Vec::new();
    for _ in 0..repeat {
        for q in &queries {
            unchanged.push(explore(&mut engine, q)?);
        }
    }
    println!("after the queries: {}", rss());
    reset_peak();
    let mut after_edit: Vec<f64> = Vec::new();
    for (i, path) in edited.iter().enumerate() {
        let file = root.join(path);
        let original = std::fs::read(&file)?;
        let name = format!("serveLatencyProbe{i}");
        let mut text = original.clone();
        text.extend_from_slice(format!("\nexport function {name}() {{ return 0; }}\n").as_bytes());
        std::fs::write(&file, text)?;
        // SERVE_LATENCY_SPLIT=1: the refresh timed apart from the exploration after it,
        // with the refresh's phases (the index report's timings).
        let split = std::env::var_os("SERVE_LATENCY_SPLIT").is_some();
        let refresh_ms = split.then(|| {
            let t = Instant::now();
            engine.refresh();
            t.elapsed().as_secs_f64() * 1e3
        });
        let ms = explore(&mut engine, &name);
        std::fs::write(&file, original)?;
        if let Some(refresh_ms) = refresh_ms {
            println!(
                "{path}: refresh {refresh_ms:.1} ms {:?}, explore cpu {:.1} ms",
                engine.index().report().timings_ms,
                ms.as_ref().copied().unwrap_or(f64::NAN)
            );
        }
        after_edit.push(ms?);
        explore(&mut engine, &name)?;
    }
    println!("after the edits: {}", rss());
    // A new file beside each edited one, explored, removed and explored again (a write
    // of the file list: every table is derived again).
    reset_peak();
    let mut after_new: Vec<f64> = Vec::new();
    for (i, path) in edited.iter().enumerate() {
        let dir = std::path::Path::new(path)
            .parent()
            .unwrap_or(std::path::Path::new(""));
        let file = root.join(dir).join(format!("serve_latency_new_{i}.ts"));
        let name = format!("serveLatencyNew{i}");
        std::fs::write(&file, format!("export function {name}() {{ return 0; }}\n"))?;
        let ms = explore(&mut engine, &name);
        std::fs::remove_file(&file)?;
        after_new.push(ms?);
        explore(&mut engine, &name)?;
    }
    println!("after the new files: {}", rss());
    if let Ok(list) = std::env::var("SERVE_LATENCY_BURST") {
        burst(&mut engine, &root, &std::fs::read_to_string(list)?)?;
    }
    let mut walls = walls.take();
    walls.sort_by(f64::total_cmp);
    println!(
        "wall time of all calls: p50 {:.1} ms, p95 {:.1} ms",
        walls[walls.len() / 2],
        walls[(walls.len() * 95 / 100).min(walls.len() - 1)]
    );
    println!("(CPU time of all threads per call)");
    for (label, samples) in [
        ("unchanged", &mut unchanged),
        ("after edit", &mut after_edit),
        ("after new file", &mut after_new),
    ] {
        samples.sort_by(f64::total_cmp);
        if samples.is_empty() {
            continue;
        }
        let at = |p: usize| samples[(samples.len() * p / 100).min(samples.len() - 1)];
        println!(
            "{label}: p50 {:.1} ms, p95 {:.1} ms, n {}",
            at(50),
            at(95),
            samples.len()
        );
    }
    Ok(())
}

/// Appends a declaration to every file of `list` at once, times the `explore` that sees
/// the last one (the watcher's refresh included), restores every file and times the
/// `explore` after that. Each phase's peak is its own (the kernel's peak is reset first).
fn burst(
    engine: &mut Engine,
    root: &std::path::Path,
    list: &str,
) -> Result<(), Box<dyn std::error::Error>> {
    let files: Vec<&str> = list.lines().filter(|l| !l.trim().is_empty()).collect();
    let mut originals = Vec::with_capacity(files.len());
    for (i, path) in files.iter().enumerate() {
        let file = root.join(path);
        let original = std::fs::read(&file)?;
        let mut text = original.clone();
        text.extend_from_slice(
            format!("\nexport function serveLatencyBurst{i}() {{ return 0; }}\n").as_bytes(),
        );
        std::fs::write(&file, text)?;
        originals.push((file, original));
    }
    let last = format!("serveLatencyBurst{}", files.len().saturating_sub(1));
    let explore = |engine: &mut Engine, query: &str| {
        engine.explore(&ExploreParams {
            query: query.to_owned(),
            intent: Some(Intent::Locate),
            max_files: sightline_agent::DETERMINISTIC_FILES,
        })
    };
    reset_peak();
    let t = Instant::now();
    let reply = explore(engine, &last)?;
    let cites = reply
        .text
        .contains(files.last().copied().unwrap_or_default());
    println!(
        "burst of {} files: fresh in {:.0} ms (cites the last: {cites}), {}",
        files.len(),
        t.elapsed().as_secs_f64() * 1e3,
        rss()
    );
    for (file, original) in originals {
        std::fs::write(file, original)?;
    }
    reset_peak();
    let t = Instant::now();
    explore(engine, &last)?;
    println!(
        "burst restored: fresh in {:.0} ms, {}",
        t.elapsed().as_secs_f64() * 1e3,
        rss()
    );
    Ok(())
}

/// Resets the kernel's peak resident memory (`VmHWM`) to the current resident memory.
fn reset_peak() {
    let _ = std::fs::write("/proc/self/clear_refs", "5");
}

/// CPU time of every thread of this process so far, in ns (Linux scheduler accounting).
fn cpu_ns() -> u64 {
    let Ok(tasks) = std::fs::read_dir("/proc/self/task") else {
        return 0;
    };
    tasks
        .flatten()
        .filter_map(|t| std::fs::read_to_string(t.path().join("schedstat")).ok())
        .filter_map(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .sum()
}

/// Resident memory now and at its peak, from `/proc/self/status`.
fn rss() -> String {
    let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
    let field = |name: &str| {
        status
            .lines()
            .find(|l| l.starts_with(name))
            .and_then(|l| l.split_whitespace().nth(1))
            .and_then(|kb| kb.parse::<u64>().ok())
            .map_or(0, |kb| kb / 1024)
    };
    let mb = |b: Option<u64>| b.map_or(0, |b| b >> 20);
    format!(
        "RSS {} MB (peak {} MB), live heap {} MB (peak so far {} MB)",
        field("VmRSS:"),
        field("VmHWM:"),
        mb(sightline_observe::memory::live_bytes()),
        mb(sightline_observe::memory::peak_bytes())
    )
}
