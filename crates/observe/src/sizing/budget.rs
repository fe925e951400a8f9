//! How many characters raw exploration may show, and which pieces get them. A small
//! repository is answered with less source; when the budget binds, pieces are chosen by
//! importance (flow spine, then named, then the rest) and file rank, each taken only if it
//! fits what remains, so a named declaration late in a file or in a later file is not cut
//! just because it comes after unnamed code.

/// Repository size tiers: up to this many source files, this share (percent) of the
/// caller's character cap. Larger repositories get the whole cap.
const TIERS: [(usize, usize); 2] = [(150, 60), (600, 80)];

/// The character budget of one exploration.
pub fn budget_chars(
    adaptive: bool,
    max_chars: u32,
    override_chars: Option<u32>,
    source_files: usize,
) -> usize {
    if let Some(chars) = override_chars {
        return chars as usize;
    }
    let cap = max_chars as usize;
    if !adaptive {
        return cap;
    }
    let percent = TIERS
        .iter()
        .find(|(files, _)| source_files <= *files)
        .map_or(100, |(_, p)| *p);
    cap.saturating_mul(percent) / 100
}

/// One piece competing for the budget.
#[derive(Clone, Copy, Debug)]
pub struct Bid {
    /// Rank of the piece's file (0 is the best file).
    pub file_rank: usize,
    pub importance: u8,
    pub score: f64,
    pub start: u32,
    pub chars: usize,
}

/// Which bids fit in `budget`, in the order above; returns a flag per bid.
pub fn select(bids: &[Bid], budget: usize) -> Vec<bool> {
    let mut order: Vec<usize> = (0..bids.len()).collect();
    order.sort_by(|&a, &b| {
        let (x, y) = (&bids[a], &bids[b]);
        y.importance
            .cmp(&x.importance)
            .then(x.file_rank.cmp(&y.file_rank))
            .then(y.score.total_cmp(&x.score))
            .then(x.start.cmp(&y.start))
    });
    let mut chosen = vec![false; bids.len()];
    let mut left = budget;
    for i in order {
        if bids[i].chars <= left {
            left -= bids[i].chars;
            chosen[i] = true;
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bid(file_rank: usize, importance: u8, start: u32, chars: usize) -> Bid {
        Bid {
            file_rank,
            importance,
            score: 1.0,
            start,
            chars,
        }
    }

    #[test]
    fn small_repositories_get_a_smaller_budget() {
        assert_eq!(budget_chars(true, 10_000, None, 20), 6_000);
        assert_eq!(budget_chars(true, 10_000, None, 400), 8_000);
        assert_eq!(budget_chars(true, 10_000, None, 5_000), 10_000);
        assert_eq!(budget_chars(false, 10_000, None, 20), 10_000);
        assert_eq!(budget_chars(true, 10_000, Some(3_000), 20), 3_000);
    }

    #[test]
    fn named_pieces_survive_over_earlier_unnamed_ones() {
        let bids = [bid(0, 1, 1, 60), bid(0, 1, 50, 60), bid(1, 2, 300, 50)];
        assert_eq!(select(&bids, 120), [true, false, true]);
    }

    #[test]
    fn everything_fits_when_the_budget_allows() {
        let bids = [bid(0, 1, 1, 60), bid(1, 3, 50, 60)];
        assert_eq!(select(&bids, 120), [true, true]);
    }
}
