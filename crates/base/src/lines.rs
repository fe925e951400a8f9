//! Line ranges: the unit every stage cites code in.

use serde::{Deserialize, Serialize};

/// A 1-based, inclusive line range.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub struct LineRange {
    /// First line.
    pub start: u32,
    /// Last line, never before `start`.
    pub end: u32,
}

impl LineRange {
    /// The range `start..=end`; an `end` before `start` is raised to `start`.
    pub fn new(start: u32, end: u32) -> Self {
        Self {
            start,
            end: end.max(start),
        }
    }
    /// How many lines the range covers (at least 1).
    pub fn len(&self) -> u32 {
        self.end - self.start + 1
    }
    /// Never true: a range covers at least one line.
    pub fn is_empty(&self) -> bool {
        false
    }
    /// Whether `line` falls inside the range.
    pub fn contains_line(&self, line: u32) -> bool {
        self.start <= line && line <= self.end
    }
    /// Whether `other` lies wholly inside this range.
    pub fn contains(&self, other: &LineRange) -> bool {
        self.start <= other.start && other.end <= self.end
    }
    /// Whether the two ranges share at least one line.
    pub fn overlaps(&self, other: &LineRange) -> bool {
        self.start <= other.end && other.start <= self.end
    }
}
