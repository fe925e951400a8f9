//! File-level retrieval metrics over one ranking, and their aggregation (README in
//! `shared/eval/`). Pure functions so they can be checked on hand-made rankings.

use serde::Serialize;

/// Where each gold file sits in a ranking (0-based), `None` when absent.
pub fn gold_ranks(ranking: &[String], gold: &[String]) -> Vec<Option<usize>> {
    gold.iter()
        .map(|g| ranking.iter().position(|f| f == g))
        .collect()
}

/// A gold file among the first `k`.
pub fn hit_at(ranks: &[Option<usize>], k: usize) -> bool {
    ranks.iter().any(|r| r.is_some_and(|r| r < k))
}

/// Every gold file among the first `k` (false when there is no gold file).
pub fn all_at(ranks: &[Option<usize>], k: usize) -> bool {
    !ranks.is_empty() && ranks.iter().all(|r| r.is_some_and(|r| r < k))
}

/// Share of gold files among the first `k`.
pub fn recall_at(ranks: &[Option<usize>], k: usize) -> f64 {
    if ranks.is_empty() {
        return 0.0;
    }
    let found = ranks.iter().filter(|r| r.is_some_and(|r| r < k)).count();
    found as f64 / ranks.len() as f64
}

/// Share of gold files inside a set of files (the candidate packet).
pub fn recall_in(set: &[String], gold: &[String]) -> f64 {
    if gold.is_empty() {
        return 0.0;
    }
    let found = gold.iter().filter(|g| set.contains(g)).count();
    found as f64 / gold.len() as f64
}

/// Reciprocal rank of the first gold file (0 when none is ranked).
pub fn reciprocal_rank(ranks: &[Option<usize>]) -> f64 {
    ranks
        .iter()
        .flatten()
        .min()
        .map_or(0.0, |r| 1.0 / (*r as f64 + 1.0))
}

/// Nearest-rank percentile (`p` in 0..=100): always one of the samples, no interpolation,
/// so small samples report a time that actually happened.
pub fn percentile(samples: &[f64], p: f64) -> Option<f64> {
    if samples.is_empty() {
        return None;
    }
    let mut sorted = samples.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    Some(sorted[rank.clamp(1, sorted.len()) - 1])
}

/// Quality of one ranking for one task.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct TaskScores {
    pub hit1: bool,
    pub hit5: bool,
    pub all5: bool,
    pub recall5: f64,
    pub recall_packet: f64,
    pub rr: f64,
    /// 1-based rank of each gold file (same order as the task's gold list).
    pub gold_ranks: Vec<Option<usize>>,
}

impl TaskScores {
    pub fn of(ranking: &[String], packet: &[String], gold: &[String]) -> TaskScores {
        let ranks = gold_ranks(ranking, gold);
        TaskScores {
            hit1: hit_at(&ranks, 1),
            hit5: hit_at(&ranks, 5),
            all5: all_at(&ranks, 5),
            recall5: recall_at(&ranks, 5),
            recall_packet: recall_in(packet, gold),
            rr: reciprocal_rank(&ranks),
            gold_ranks: ranks.iter().map(|r| r.map(|r| r + 1)).collect(),
        }
    }
}

/// Means of [`TaskScores`] over a set of tasks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct MeanScores {
    pub tasks: usize,
    pub hit1: f64,
    pub hit5: f64,
    pub all5: f64,
    pub recall5: f64,
    pub recall_packet: f64,
    pub mrr: f64,
}

impl MeanScores {
    pub fn of<'a>(scores: impl IntoIterator<Item = &'a TaskScores>) -> MeanScores {
        let mut m = MeanScores::default();
        let b = |x: bool| f64::from(u8::from(x));
        for s in scores {
            m.tasks += 1;
            m.hit1 += b(s.hit1);
            m.hit5 += b(s.hit5);
            m.all5 += b(s.all5);
            m.recall5 += s.recall5;
            m.recall_packet += s.recall_packet;
            m.mrr += s.rr;
        }
        if m.tasks > 0 {
            let n = m.tasks as f64;
            for v in [
                &mut m.hit1,
                &mut m.hit5,
                &mut m.all5,
                &mut m.recall5,
                &mut m.recall_packet,
                &mut m.mrr,
            ] {
                *v /= n;
            }
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(v: &[&str]) -> Vec<String> {
        v.iter().map(|s| (*s).to_owned()).collect()
    }

    #[test]
    fn ranks_hits_and_recall_on_a_small_ranking() {
        let ranking = strings(&["a", "b", "c", "d", "e", "f", "g"]);
        let gold = strings(&["c", "f", "zz"]);
        let ranks = gold_ranks(&ranking, &gold);
        assert_eq!(ranks, [Some(2), Some(5), None]);
        assert!(!hit_at(&ranks, 1));
        assert!(hit_at(&ranks, 3));
        assert!(hit_at(&ranks, 5));
        assert!(!all_at(&ranks, 5));
        assert!((recall_at(&ranks, 5) - 1.0 / 3.0).abs() < 1e-12);
        assert!((recall_at(&ranks, 6) - 2.0 / 3.0).abs() < 1e-12);
        assert!((reciprocal_rank(&ranks) - 1.0 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn first_place_and_complete_top_five() {
        let ranking = strings(&["g1", "x", "g2"]);
        let ranks = gold_ranks(&ranking, &strings(&["g2", "g1"]));
        assert!(hit_at(&ranks, 1));
        assert!(all_at(&ranks, 5));
        assert_eq!(recall_at(&ranks, 5), 1.0);
        assert_eq!(reciprocal_rank(&ranks), 1.0);
    }

    #[test]
    fn missing_and_empty_gold_score_zero() {
        let ranks = gold_ranks(&strings(&["a"]), &strings(&["b"]));
        assert!(!hit_at(&ranks, 5));
        assert_eq!(reciprocal_rank(&ranks), 0.0);
        assert!(!all_at(&[], 5));
        assert_eq!(recall_at(&[], 5), 0.0);
        assert_eq!(recall_in(&strings(&["a"]), &[]), 0.0);
    }

    #[test]
    fn packet_recall_ignores_order() {
        let packet = strings(&["x", "b", "a"]);
        assert_eq!(recall_in(&packet, &strings(&["a", "b"])), 1.0);
        assert_eq!(recall_in(&packet, &strings(&["a", "q"])), 0.5);
    }

    #[test]
    fn nearest_rank_percentiles() {
        assert_eq!(percentile(&[], 50.0), None);
        assert_eq!(percentile(&[7.0], 95.0), Some(7.0));
        let s = [4.0, 1.0, 3.0, 2.0];
        assert_eq!(percentile(&s, 50.0), Some(2.0));
        assert_eq!(percentile(&s, 95.0), Some(4.0));
        assert_eq!(percentile(&s, 0.0), Some(1.0));
        let hundred: Vec<f64> = (1..=100).map(f64::from).collect();
        assert_eq!(percentile(&hundred, 50.0), Some(50.0));
        assert_eq!(percentile(&hundred, 95.0), Some(95.0));
    }

    #[test]
    fn means_over_tasks() {
        let a = TaskScores::of(&strings(&["g"]), &strings(&["g"]), &strings(&["g"]));
        let b = TaskScores::of(&strings(&["x", "g"]), &strings(&["x"]), &strings(&["g"]));
        let m = MeanScores::of([&a, &b]);
        assert_eq!(m.tasks, 2);
        assert_eq!(m.hit1, 0.5);
        assert_eq!(m.hit5, 1.0);
        assert_eq!(m.recall_packet, 0.5);
        assert!((m.mrr - 0.75).abs() < 1e-12);
        assert_eq!(b.gold_ranks, [Some(2)]);
        assert_eq!(MeanScores::of([]), MeanScores::default());
    }
}
