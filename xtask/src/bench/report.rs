//! Renders the results as markdown: the headline table, the per-phase profile that says
//! where time goes, and which targets were missed.

use std::fmt::Write as _;

use super::model::{RepoResult, Summary};

/// Targets from the issue, for a ~700-file / 7.5 MB repository on a 2-core machine.
/// Larger repositories are checked against the same numbers; the MB column says how far
/// they are from that size.
struct Target {
    what: &'static str,
    limit: f64,
    unit: &'static str,
    value: fn(&Summary) -> Option<f64>,
}

const TARGETS: &[Target] = &[
    Target {
        what: "cold index",
        limit: 1.0,
        unit: "s",
        value: |s| s.cold_s,
    },
    Target {
        what: "cold peak RSS",
        limit: 200.0,
        unit: "MB",
        value: |s| s.cold_rss_mb,
    },
    Target {
        what: "warm start",
        limit: 0.3,
        unit: "s",
        value: |s| s.warm_s,
    },
    Target {
        what: "re-index (body edit)",
        limit: 50.0,
        unit: "ms",
        value: |s| s.body_edit_ms,
    },
    Target {
        what: "re-index (shape edit)",
        limit: 50.0,
        unit: "ms",
        value: |s| s.shape_edit_ms,
    },
    Target {
        what: "server explore after a shape edit, extra",
        limit: 15.0,
        unit: "ms",
        value: |s| s.serve_edit_extra_ms,
    },
    Target {
        what: "explore p50",
        limit: 30.0,
        unit: "ms",
        value: |s| s.explore_p50_ms,
    },
    Target {
        what: "slowest navigation tool p50",
        limit: 5.0,
        unit: "ms",
        value: |s| {
            s.navigation_ms
                .values()
                .map(|(p50, _)| *p50)
                .reduce(f64::max)
        },
    },
];

pub fn markdown(results: &[RepoResult]) -> String {
    let mut out = String::new();
    headline(&mut out, results);
    out.push('\n');
    profile(&mut out, results);
    out.push('\n');
    reindex(&mut out, results);
    out.push('\n');
    navigation(&mut out, results);
    out.push('\n');
    targets(&mut out, results);
    out
}

/// The navigation tools' latency on the sampled names (p50 / p95 ms per tool).
fn navigation(out: &mut String, results: &[RepoResult]) {
    const TOOLS: [&str; 5] = ["definition", "references", "callees", "chain", "outline"];
    out.push_str(
        "| repo | navigation p50 / p95 ms: definition | references | callees | chain | outline |\n",
    );
    out.push_str("|---|---:|---:|---:|---:|---:|\n");
    for r in results {
        let cells: Vec<String> = TOOLS
            .iter()
            .map(|t| match r.summary.navigation_ms.get(*t) {
                Some((p50, p95)) => format!("{p50:.2} / {p95:.2}"),
                None => "–".to_owned(),
            })
            .collect();
        let _ = writeln!(out, "| {} | {} |", name(r), cells.join(" | "));
    }
}

fn name(r: &RepoResult) -> &str {
    r.repo.rsplit('/').next().unwrap_or(&r.repo)
}

fn num(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "–".to_owned(), |v| format!("{v:.decimals$}"))
}

fn headline(out: &mut String, results: &[RepoResult]) {
    out.push_str(
        "| repo | files | MB | cold s | cold RSS MB | warm s | warm RSS MB \
         | 1-file re-index ms (body: its 1st edit / shape: 2nd) | explore p50 / p95 ms |\n",
    );
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in results {
        let s = &r.summary;
        let _ = writeln!(
            out,
            "| {} | {} | {:.1} | {} | {} | {} | {} | {} / {} | {} / {} |",
            name(r),
            s.source_files,
            s.source_mb,
            num(s.cold_s, 2),
            num(s.cold_rss_mb, 0),
            num(s.warm_s, 3),
            num(s.warm_rss_mb, 0),
            num(s.body_edit_ms, 1),
            num(s.shape_edit_ms, 1),
            num(s.explore_p50_ms, 1),
            num(s.explore_p95_ms, 1),
        );
    }
}

/// Index phases as `Index::open` reports them; "other" is the wall time they leave out
/// (building the salsa inputs, the report's per-file pass). CPU time next to wall time
/// shows parallelism, and stays meaningful when other work shares the machine.
fn profile(out: &mut String, results: &[RepoResult]) {
    out.push_str(
        "| repo | cold ms: walk / parse / cache_save / graph / other | cold CPU s | warm ms: \
         walk / cache_load / parse / graph / other | warm CPU s | unchanged re-walk ms | \
         explore max ms | serve explore after edit, extra ms | session RSS MB | decls | edges \
         | load avg |\n",
    );
    out.push_str("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
    for r in results {
        let s = &r.summary;
        let cold = phases(
            &s.cold_timings_ms,
            &["walk", "parse", "cache_save", "graph"],
            s.cold_s,
        );
        let warm = phases(
            &s.warm_timings_ms,
            &["walk", "cache_load", "parse", "graph"],
            s.warm_s,
        );
        let first = r.cold.first();
        let _ = writeln!(
            out,
            "| {} | {cold} | {} | {warm} | {} | {:.1} | {} | {} | {} | {} | {} | {} |",
            name(r),
            num(s.cold_cpu_s, 2),
            num(s.warm_cpu_s, 2),
            r.session.unchanged_walk_ms,
            num(s.explore_max_ms, 1),
            num(s.serve_edit_extra_ms, 1),
            num(s.session_rss_mb, 0),
            first.map_or(0, |c| c.declarations),
            first.map_or(0, |c| c.edges),
            num(r.load_average, 1),
        );
    }
}

/// Re-indexing after one edit: the walked shape edit's parts (the refresh walk, then each
/// workspace-wide query), the same edit told by path (no walk), a body edit told by path
/// (a later edit of the file), and a new file.
fn reindex(out: &mut String, results: &[RepoResult]) {
    const PARTS: [&str; 6] = [
        "refresh walk",
        "tables",
        "graph",
        "term stats",
        "query tables",
        "totals",
    ];
    out.push_str(
        "| repo | shape edit ms (2nd edit): refresh walk / tables / graph / term stats / query tables / totals \
         | shape edit by path ms (3rd edit) | body edit by path ms (4th edit) | new file ms |\n",
    );
    out.push_str("|---|---:|---:|---:|---:|\n");
    for r in results {
        let s = &r.summary;
        let parts: Vec<String> = PARTS
            .iter()
            .map(|p| num(s.shape_edit_parts_ms.get(*p).copied(), 1))
            .collect();
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} |",
            name(r),
            parts.join(" / "),
            num(s.shape_edit_watched_ms, 1),
            num(s.body_edit_watched_ms, 1),
            num(s.new_file_ms, 1),
        );
    }
}

fn phases(
    timings: &std::collections::BTreeMap<String, f64>,
    names: &[&str],
    wall_s: Option<f64>,
) -> String {
    let mut parts: Vec<String> = names
        .iter()
        .map(|n| {
            timings
                .get(*n)
                .map_or_else(|| "–".to_owned(), |ms| format!("{ms:.0}"))
        })
        .collect();
    // Other = wall time minus every recorded phase, including ones not shown (cache_load
    // on a cold run is an empty-file probe).
    let recorded: f64 = timings.values().sum();
    parts.push(num(wall_s.map(|s| s * 1000.0 - recorded), 0));
    parts.join(" / ")
}

fn targets(out: &mut String, results: &[RepoResult]) {
    out.push_str("Targets (for a ~700-file / 7.5 MB repository):\n");
    for r in results {
        let missed: Vec<String> = TARGETS
            .iter()
            .filter_map(|t| {
                let v = (t.value)(&r.summary)?;
                (v >= t.limit)
                    .then(|| format!("{} {v:.2} {u} ≥ {} {u}", t.what, t.limit, u = t.unit))
            })
            .collect();
        let verdict = if missed.is_empty() {
            "all met".to_owned()
        } else {
            format!("MISSED: {}", missed.join("; "))
        };
        let _ = writeln!(
            out,
            "- {} ({:.1} MB): {verdict}",
            name(r),
            r.summary.source_mb
        );
    }
    let errors: Vec<String> = results
        .iter()
        .flat_map(|r| r.session.explore.iter().filter_map(|q| q.error.clone()))
        .collect();
    if !errors.is_empty() {
        let _ = writeln!(
            out,
            "- {} explore queries failed: {}",
            errors.len(),
            errors.join("; ")
        );
    }
}
