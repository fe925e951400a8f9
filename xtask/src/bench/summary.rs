//! Reduces the raw runs of one repository to its headline numbers.

use std::collections::BTreeMap;

use super::model::{RepoResult, Summary};
use super::stats::{max, median, percentile};

const MB: f64 = 1024.0 * 1024.0;

pub fn summarize(r: &RepoResult) -> Summary {
    let cold_ms: Vec<f64> = r.cold.iter().map(|c| c.wall_ms).collect();
    let warm_ms: Vec<f64> = r.warm.iter().map(|w| w.wall_ms).collect();
    let explore: Vec<f64> = r.session.explore.iter().map(|q| q.ms).collect();
    let first = r.cold.first();
    Summary {
        source_files: first.map_or(0, |c| c.source_files),
        source_mb: first.map_or(0.0, |c| c.source_bytes as f64 / MB),
        cold_s: median(&cold_ms).map(|ms| ms / 1000.0),
        cold_rss_mb: rss_mb(r.cold.iter().map(|c| c.peak_rss_bytes)),
        cold_cpu_s: cpu_s(r.cold.iter().map(|c| c.cpu_ms)),
        warm_s: median(&warm_ms).map(|ms| ms / 1000.0),
        warm_cpu_s: cpu_s(r.warm.iter().map(|w| w.cpu_ms)),
        warm_rss_mb: rss_mb(r.warm.iter().map(|w| w.peak_rss_bytes)),
        body_edit_ms: median(&r.session.body_edit_ms),
        shape_edit_ms: median(&r.session.shape_edit_ms),
        shape_edit_watched_ms: median(&r.session.shape_edit_watched_ms),
        body_edit_watched_ms: median(&r.session.body_edit_watched_ms),
        new_file_ms: median(&r.session.new_file_ms),
        shape_edit_parts_ms: r
            .session
            .shape_edit_parts_ms
            .iter()
            .filter_map(|(name, v)| median(v).map(|m| (name.clone(), m)))
            .collect(),
        explore_p50_ms: percentile(&explore, 50.0),
        explore_p95_ms: percentile(&explore, 95.0),
        explore_max_ms: max(&explore),
        navigation_ms: navigation(r),
        serve_edit_extra_ms: paired_extra(
            &r.session.serve.after_edit_ms,
            &r.session.serve.unchanged_ms,
        ),
        session_rss_mb: rss_mb(std::iter::once(r.session.peak_rss_bytes)),
        cold_timings_ms: median_timings(r.cold.iter().map(|c| &c.timings_ms)),
        warm_timings_ms: median_timings(r.warm.iter().map(|w| &w.timings_ms)),
    }
}

/// Each navigation tool's p50 and p95.
fn navigation(r: &RepoResult) -> BTreeMap<String, (f64, f64)> {
    let mut by_tool: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for t in &r.session.navigation {
        by_tool.entry(t.tool.clone()).or_default().push(t.ms);
    }
    by_tool
        .into_iter()
        .filter_map(|(tool, ms)| Some((tool, (percentile(&ms, 50.0)?, percentile(&ms, 95.0)?))))
        .collect()
}

fn cpu_s(samples: impl Iterator<Item = Option<f64>>) -> Option<f64> {
    let ms: Vec<f64> = samples.flatten().collect();
    median(&ms).map(|ms| ms / 1000.0)
}

fn rss_mb(samples: impl Iterator<Item = Option<u64>>) -> Option<f64> {
    let mb: Vec<f64> = samples.flatten().map(|b| b as f64 / MB).collect();
    median(&mb)
}

/// The median of each named timing over the runs that recorded it.
fn median_timings<'a>(
    runs: impl Iterator<Item = &'a BTreeMap<String, f64>>,
) -> BTreeMap<String, f64> {
    let mut by_name: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for run in runs {
        for (name, ms) in run {
            by_name.entry(name.clone()).or_default().push(*ms);
        }
    }
    by_name
        .into_iter()
        .filter_map(|(name, v)| median(&v).map(|m| (name, m)))
        .collect()
}

/// The median of `after[i] - before[i]`: pairs taken back to back, so load that drifts
/// over the run cancels out.
fn paired_extra(after: &[f64], before: &[f64]) -> Option<f64> {
    let extra: Vec<f64> = after.iter().zip(before).map(|(a, b)| a - b).collect();
    median(&extra)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_extra_is_the_median_of_paired_differences() {
        // Load that drifts over the run moves both samples of a pair.
        assert_eq!(
            paired_extra(&[12.0, 30.0, 14.0], &[10.0, 27.0, 10.0]),
            Some(3.0)
        );
        assert_eq!(paired_extra(&[], &[]), None);
    }
}
