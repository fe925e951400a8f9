//! The monorepo benchmark as markdown: one column per measured binary, so a build before
//! a change and one after read side by side; then each binary's memory breakdown, when
//! its index report carries one.

use std::fmt::Write as _;
use std::path::Path;

use super::super::stats::{median, percentile};
use super::BinResult;
use super::serve::ServeRun;

const MB: f64 = 1024.0 * 1024.0;

pub fn markdown(dir: &Path, repos: usize, results: &[BinResult]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "monorepo {} ({repos} repositories; load average {})\n",
        dir.display(),
        super::super::procfs::load_average().map_or_else(|| "-".to_owned(), |l| format!("{l:.1}")),
    );
    let header: Vec<String> = results.iter().map(|r| r.bin.clone()).collect();
    let _ = writeln!(out, "| measure | {} |", header.join(" | "));
    let _ = writeln!(out, "|---|{}", "---:|".repeat(results.len()));
    let row = |out: &mut String, name: &str, cell: &dyn Fn(&BinResult) -> String| {
        let cells: Vec<String> = results.iter().map(cell).collect();
        let _ = writeln!(out, "| {name} | {} |", cells.join(" | "));
    };
    // Binaries that read more languages index more of the same tree.
    row(&mut out, "files indexed: source / manifests", &|r| {
        r.cold.first().map_or_else(
            || "-".to_owned(),
            |c| format!("{} / {}", c.source_files, c.manifest_files),
        )
    });
    row(&mut out, "cold index s (walk / parse / graph)", &|r| {
        let wall = median(&r.cold.iter().map(|c| c.wall_ms).collect::<Vec<_>>());
        let part = |name: &str| {
            median(
                &r.cold
                    .iter()
                    .filter_map(|c| c.timings_ms[name].as_f64())
                    .collect::<Vec<_>>(),
            )
        };
        format!(
            "{} ({} / {} / {})",
            secs(wall),
            secs(part("walk")),
            secs(part("parse")),
            secs(part("graph"))
        )
    });
    row(&mut out, "cold index CPU s", &|r| {
        secs(median(
            &r.cold.iter().filter_map(|c| c.cpu_ms).collect::<Vec<_>>(),
        ))
    });
    row(&mut out, "cold index peak RSS MB", &|r| {
        mb(r.cold.iter().filter_map(|c| c.peak_rss_bytes).max())
    });
    row(&mut out, "warm start s", &|r| {
        secs(median(
            &r.warm.iter().map(|c| c.wall_ms).collect::<Vec<_>>(),
        ))
    });
    row(&mut out, "warm start CPU s", &|r| {
        secs(median(
            &r.warm.iter().filter_map(|c| c.cpu_ms).collect::<Vec<_>>(),
        ))
    });
    row(&mut out, "warm start peak RSS MB", &|r| {
        mb(r.warm.iter().filter_map(|c| c.peak_rss_bytes).max())
    });
    row(&mut out, "serve: initialize ms", &|r| {
        format!("{:.0}", r.serve.initialize_ms)
    });
    row(
        &mut out,
        "serve: first call s (progress notifications)",
        &|r| {
            format!(
                "{:.2} ({})",
                r.serve.first_call_ms / 1000.0,
                r.serve.first_call_progress
            )
        },
    );
    type Samples = fn(&ServeRun) -> &[f64];
    let calls: [(&str, Samples); 6] = [
        ("explore, nothing changed: ms", |s| &s.unchanged_ms),
        ("… the server's CPU ms", |s| &s.unchanged_cpu_ms),
        ("explore right after a one-file edit: ms", |s| {
            &s.after_edit_ms
        }),
        ("… the server's CPU ms", |s| &s.after_edit_cpu_ms),
        ("explore right after a new file: ms", |s| {
            &s.after_new_file_ms
        }),
        ("… the server's CPU ms", |s| &s.after_new_file_cpu_ms),
    ];
    for (label, samples) in calls {
        row(&mut out, &format!("{label}, p50 / p95"), &|r| {
            p50_p95(samples(&r.serve))
        });
    }
    row(&mut out, "burst of changed files: fresh after ms", &|r| {
        format!(
            "{:.0} ({} files)",
            r.serve.burst_fresh_ms, r.serve.burst_files
        )
    });
    row(&mut out, "serve RSS MB, peak / end", &|r| {
        format!(
            "{} / {}",
            mb(r.serve.peak_rss_bytes),
            mb(r.serve.end_rss_bytes)
        )
    });
    row(
        &mut out,
        "serve RSS MB after: first call / queries / edits / new files / burst",
        &|r| {
            let steps: Vec<String> = r
                .serve
                .rss_after_bytes
                .iter()
                .map(|(_, bytes)| mb(*bytes))
                .collect();
            steps.join(" / ")
        },
    );
    memory_table(&mut out, results);
    out
}

/// The index reports' `memory_mb` breakdowns of the first cold and warm runs, one column
/// per binary and run that has one (a build from before the breakdown has none), one row
/// per structure any of them names.
fn memory_table(out: &mut String, results: &[BinResult]) {
    let mut columns: Vec<(String, &serde_json::Map<String, serde_json::Value>)> = Vec::new();
    for r in results {
        for (run, runs) in [("cold", &r.cold), ("warm", &r.warm)] {
            if let Some(memory) = runs
                .first()
                .and_then(|c| c.memory_mb.as_object())
                .filter(|m| !m.is_empty())
            {
                columns.push((format!("{} {run}", r.bin), memory));
            }
        }
    }
    if columns.is_empty() {
        return;
    }
    let rows: std::collections::BTreeSet<&String> =
        columns.iter().flat_map(|(_, m)| m.keys()).collect();
    let _ = writeln!(
        out,
        "\nmemory of the index after a cold build and a warm start, MB:\n"
    );
    let names: Vec<&str> = columns.iter().map(|(name, _)| name.as_str()).collect();
    let _ = writeln!(out, "| structure | {} |", names.join(" | "));
    let _ = writeln!(out, "|---|{}", "---:|".repeat(columns.len()));
    for row in rows {
        let cells: Vec<String> = columns
            .iter()
            .map(|(_, m)| {
                m.get(row)
                    .and_then(serde_json::Value::as_f64)
                    .map_or_else(|| "-".to_owned(), |v| format!("{v:.1}"))
            })
            .collect();
        let _ = writeln!(out, "| {row} | {} |", cells.join(" | "));
    }
}

fn secs(ms: Option<f64>) -> String {
    ms.map_or_else(|| "-".to_owned(), |ms| format!("{:.2}", ms / 1000.0))
}

fn mb(bytes: Option<u64>) -> String {
    bytes.map_or_else(|| "-".to_owned(), |b| format!("{:.0}", b as f64 / MB))
}

fn p50_p95(samples: &[f64]) -> String {
    match (percentile(samples, 50.0), percentile(samples, 95.0)) {
        (Some(a), Some(b)) => format!("{a:.1} / {b:.1}"),
        _ => "-".to_owned(),
    }
}
