//! Size limits a selection must fit. Counts live next to the selection type
//! (`MAX_PRIMARY`, …); these are the limits a caller may tune.

use serde::{Deserialize, Serialize};

/// Tunable size limits of a selection's free text and ranges.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Budget {
    /// A read target wider than this is dropped: reading it would not be a targeted read.
    pub max_range_lines: u32,
    /// Longest search term or role, in characters.
    pub max_term_chars: usize,
    /// Longest fact, purpose, missing entry or search scope, in characters.
    pub max_text_chars: usize,
    /// Longest quote, in characters as submitted.
    pub max_quote_chars: usize,
}

impl Default for Budget {
    fn default() -> Self {
        Budget {
            max_range_lines: 120,
            max_term_chars: 80,
            max_text_chars: 240,
            max_quote_chars: 240,
        }
    }
}
