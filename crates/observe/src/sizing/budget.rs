//! The character cap of one exploration, and which pieces keep their place when it binds.
//! The cap is a ceiling the caller sets, not the sizing rule: the evidence decides how much
//! each place shows (`evidence`), and only an answer whose evidence asks for more than the
//! cap loses pieces here, by importance and file rank, each taken only if it fits what
//! remains.

/// The character cap of one exploration: the caller's override, else `max_chars`.
pub fn budget_chars(max_chars: u32, override_chars: Option<u32>) -> usize {
    override_chars.unwrap_or(max_chars) as usize
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
    fn the_override_wins_over_the_cap() {
        assert_eq!(budget_chars(10_000, None), 10_000);
        assert_eq!(budget_chars(10_000, Some(3_000)), 3_000);
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
