//! `sightline index [PATH]`.

use std::path::PathBuf;

use std::fmt::Write as _;

use clap::Args;

use crate::open::{IndexFlags, open_index};

#[derive(Args)]
pub struct IndexArgs {
    /// Repository root (default: the current directory).
    #[arg(default_value = ".")]
    pub path: PathBuf,
    /// Print the report as JSON.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub flags: IndexFlags,
}

pub fn run(args: &IndexArgs) -> anyhow::Result<()> {
    let mut index = open_index(
        &args.path,
        &args.flags,
        sightline_observe::ObserveDatabase::default(),
    )?;
    index.measure_memory();
    let r = index.report();
    let printed = if args.json {
        crate::output::print_report("", Some(r))
    } else {
        render(r)
            .map_err(anyhow::Error::from)
            .and_then(|text| crate::output::write_stdout(&text))
    };
    // The process ends right after: freeing the index's millions of allocations one by
    // one cost a warm start of a 15k-file workspace a fifth of a second on one thread
    // (7% of its CPU), and the system takes the pages back at once.
    std::mem::forget(index);
    printed
}

/// The human summary of an index report.
fn render(r: &sightline_observe::IndexReport) -> Result<String, std::fmt::Error> {
    let mut out = String::new();
    writeln!(out, "indexed {}", r.root)?;
    writeln!(
        out,
        "  files:         {} source, {} manifests ({} parsed, {} from cache)",
        r.source_files, r.manifest_files, r.parsed, r.cache_hits
    )?;
    let skipped: u32 = r.skipped.values().sum();
    let reasons: Vec<String> = r.skipped.iter().map(|(k, v)| format!("{k} {v}")).collect();
    writeln!(
        out,
        "  skipped:       {skipped}{}",
        if reasons.is_empty() {
            String::new()
        } else {
            format!(" ({})", reasons.join(", "))
        }
    )?;
    writeln!(
        out,
        "  not indexed:   {} (not source or manifests)",
        r.not_indexed
    )?;
    if let Some(note) = sightline_observe::NotIndexed::of(&r.not_indexed_languages).note() {
        writeln!(out, "                   {note}")?;
    }
    writeln!(out, "  declarations:  {}", r.declarations)?;
    let kinds: Vec<String> = r
        .edges_by_kind
        .iter()
        .map(|(k, v)| format!("{k} {v}"))
        .collect();
    writeln!(out, "  edges:         {} ({})", r.edges, kinds.join(", "))?;
    writeln!(
        out,
        "  imports:       {} resolved, {} external, {} unresolved",
        r.imports_resolved, r.imports_external, r.imports_unresolved
    )?;
    for (file, spec) in r.unresolved_examples.iter().take(5) {
        writeln!(out, "                   e.g. {file}: '{spec}'")?;
    }
    writeln!(
        out,
        "  parse errors:  {} in {} files",
        r.parse_errors, r.files_with_parse_errors
    )?;
    if !r.config_problems.is_empty() {
        let counts: Vec<String> = r
            .config_problems
            .iter()
            .map(|(reason, n)| format!("{n} {reason}"))
            .collect();
        writeln!(out, "  config:        {}", counts.join(", "))?;
        for example in &r.config_problem_examples {
            writeln!(out, "                   e.g. {example}")?;
        }
    }
    if r.files_with_elided_names > 0 {
        writeln!(
            out,
            "  deep nesting:  {} files had qualified names shortened to `….name`",
            r.files_with_elided_names
        )?;
    }
    if let Some(note) = &r.cache_note {
        writeln!(out, "  cache:         {note}")?;
    }
    if let Some(live) = r.memory_mb.get("live heap (all)") {
        let mut largest: Vec<(&String, &f64)> = r
            .memory_mb
            .iter()
            .filter(|(k, _)| !k.starts_with("live heap"))
            .collect();
        largest.sort_by(|a, b| b.1.total_cmp(a.1));
        let parts: Vec<String> = largest
            .iter()
            .take(4)
            .map(|(k, v)| format!("{k} {v:.0}"))
            .collect();
        let peak = r
            .memory_mb
            .get("live heap (peak so far)")
            .map_or_else(String::new, |p| format!(", {p:.0} MB at most"));
        writeln!(
            out,
            "  memory:        {live:.0} MB heap{peak} ({}, …)",
            parts.join(", ")
        )?;
    }
    let timings: Vec<String> = r
        .timings_ms
        .iter()
        .map(|(k, v)| format!("{k} {v:.0}ms"))
        .collect();
    writeln!(out, "  timings:       {}", timings.join(", "))?;
    Ok(out)
}
