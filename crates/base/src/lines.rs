//! Line ranges: the unit every stage cites code in.

use serde::{Deserialize, Serialize};

/// A 1-based, inclusive line range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LineRange {
    pub start: u32,
    pub end: u32,
}

impl LineRange {
    pub fn new(start: u32, end: u32) -> Self {
        Self {
            start,
            end: end.max(start),
        }
    }
    pub fn len(&self) -> u32 {
        self.end - self.start + 1
    }
    pub fn is_empty(&self) -> bool {
        false
    }
    pub fn contains_line(&self, line: u32) -> bool {
        self.start <= line && line <= self.end
    }
    pub fn contains(&self, other: &LineRange) -> bool {
        self.start <= other.start && other.end <= self.end
    }
    pub fn overlaps(&self, other: &LineRange) -> bool {
        self.start <= other.end && other.start <= self.end
    }
}
