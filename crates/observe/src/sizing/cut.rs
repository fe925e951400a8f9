//! Cutting a window longer than its line cap. The cut keeps the head that says what the
//! declaration is and the lines that carry the evidence (those holding the query's words
//! or literals, or naming what matched), and elides the rest: a cut that kept only the
//! first lines would drop the call nine lines past the cap that the question was about.

use crate::facts::LineRange;

/// The widest range a cut window's runs share as one place (one candidate): wider, each
/// run is a place of its own, so no place is wider than one targeted read.
pub const MAX_PLACE_LINES: u32 = 120;
/// Lines kept at the head of a cut window: its signature and what follows it.
pub const HEAD_LINES: u32 = 3;
/// Lines of context kept on each side of an evidence line.
const CONTEXT: u32 = 1;

/// The runs of `range` to show within `cap` lines, in line order: the whole range when it
/// fits; otherwise its head and its best-weighted lines (`weight` of a 1-based line; 0
/// for a line with no evidence), each with its context while room remains. A gap of one
/// line between two runs is shown instead of elided while room remains: its line costs
/// no more than the note that would replace it.
pub fn cut(range: LineRange, cap: u32, weight: &dyn Fn(u32) -> f64) -> Vec<LineRange> {
    let cap = cap.max(1);
    if range.len() <= cap {
        return vec![range];
    }
    let mut keep: Vec<bool> = vec![false; range.len() as usize];
    let mut kept = 0u32;
    let take = |line: u32, keep: &mut Vec<bool>, kept: &mut u32| {
        let i = (line - range.start) as usize;
        if !keep[i] {
            keep[i] = true;
            *kept += 1;
        }
    };
    for line in range.start..range.start + HEAD_LINES.min(cap) {
        take(line, &mut keep, &mut kept);
    }
    let mut evidence: Vec<(u32, f64)> = (range.start..=range.end)
        .map(|l| (l, weight(l)))
        .filter(|(_, w)| *w > 0.0)
        .collect();
    evidence.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    for (line, _) in evidence {
        let lo = line.saturating_sub(CONTEXT).max(range.start);
        let hi = (line + CONTEXT).min(range.end);
        let new = (lo..=hi)
            .filter(|l| !keep[(l - range.start) as usize])
            .count() as u32;
        if kept + new <= cap {
            for l in lo..=hi {
                take(l, &mut keep, &mut kept);
            }
        } else if !keep[(line - range.start) as usize] && kept < cap {
            take(line, &mut keep, &mut kept);
        }
        if kept >= cap {
            break;
        }
    }
    // Fill one-line gaps while room remains: the line is as short as the elision note.
    for i in 1..keep.len().saturating_sub(1) {
        if kept < cap && !keep[i] && keep[i - 1] && keep[i + 1] {
            keep[i] = true;
            kept += 1;
        }
    }
    runs(range.start, &keep)
}

/// The runs of kept lines, numbered from `start`.
fn runs(start: u32, keep: &[bool]) -> Vec<LineRange> {
    let mut out: Vec<LineRange> = Vec::new();
    for (i, &k) in keep.iter().enumerate() {
        if !k {
            continue;
        }
        let line = start + i as u32;
        match out.last_mut() {
            Some(last) if last.end + 1 == line => last.end = line,
            _ => out.push(LineRange::new(line, line)),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_window_within_its_cap_is_whole() {
        let r = LineRange::new(10, 20);
        assert_eq!(cut(r, 40, &|_| 1.0), [r]);
    }

    #[test]
    fn the_cut_keeps_the_head_and_the_matched_line_past_the_cap() {
        // The call the question is about sits nine lines past a 20-line cap.
        let r = LineRange::new(1, 60);
        let runs = cut(r, 20, &|l| if l == 29 { 3.0 } else { 0.0 });
        assert_eq!(runs[0], LineRange::new(1, HEAD_LINES));
        assert!(runs.iter().any(|x| x.contains_line(29)));
        let shown: u32 = runs.iter().map(|x| x.len()).sum();
        assert!(shown <= 20);
    }

    proptest::proptest! {
        #[test]
        fn runs_stay_inside_within_the_cap_in_order(
            start in 1u32..50,
            len in 1u32..300,
            cap in 1u32..80,
            hot in proptest::collection::vec(0u32..300, 0..12),
        ) {
            let r = LineRange::new(start, start + len - 1);
            let runs = cut(r, cap, &|l| if hot.contains(&(l - start)) { 1.0 + f64::from(l % 3) } else { 0.0 });
            let shown: u32 = runs.iter().map(|x| x.len()).sum();
            proptest::prop_assert!(!runs.is_empty());
            proptest::prop_assert!(shown <= cap.max(1));
            for w in runs.windows(2) {
                proptest::prop_assert!(w[0].end + 1 < w[1].start);
            }
            for x in &runs {
                proptest::prop_assert!(r.contains(x));
            }
        }
    }
}
