//! How long declarations are, by kind, over one or more repositories: the measurement
//! behind `sightline_base::SHORT_DECLARATION_LINES` (a line hit inside a declaration up to
//! that long is cited as the declaration; inside a longer one, as its own lines).
//!
//! `cargo run --release -p sightline-observe --example decl_lengths -- ROOT [ROOT…] [--limit N]`
//! prints, per kind, the count and the 50th/90th/95th/99th percentile of lines, and the
//! share of declarations of that kind longer than the limit (default 60). Tests, examples,
//! vendored and generated files are left out, as the ranking leaves them out.

use std::collections::BTreeMap;

use sightline_observe::path_traits::PathTraits;
use sightline_observe::{CacheMode, Index, IndexOptions};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut roots = Vec::new();
    let mut limit = sightline_base::SHORT_DECLARATION_LINES;
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--limit" {
            limit = args.next().ok_or("--limit needs a number")?.parse()?;
        } else {
            roots.push(arg);
        }
    }
    let mut lengths: BTreeMap<&'static str, Vec<u32>> = BTreeMap::new();
    for root in &roots {
        let options = IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        };
        let index = Index::open(std::path::Path::new(root), &options)?;
        let db = index.db();
        for &file in index.workspace().files(db) {
            let traits = PathTraits::of(file.path(db));
            if traits.is_secondary() || traits.declaration_only {
                continue;
            }
            let facts = &sightline_observe::db::file_index(db, file).facts;
            for d in &facts.decls {
                lengths
                    .entry(d.kind.as_str())
                    .or_default()
                    .push(d.lines.len());
            }
        }
    }
    println!("| kind | declarations | p50 | p90 | p95 | p99 | longer than {limit} |");
    println!("|---|---:|---:|---:|---:|---:|---:|");
    for (kind, mut v) in lengths {
        v.sort_unstable();
        let at = |p: f64| v[((v.len() - 1) as f64 * p).round() as usize];
        let over = v.iter().filter(|&&n| n > limit).count();
        println!(
            "| {kind} | {} | {} | {} | {} | {} | {:.1}% |",
            v.len(),
            at(0.5),
            at(0.9),
            at(0.95),
            at(0.99),
            100.0 * over as f64 / v.len() as f64
        );
    }
    Ok(())
}
