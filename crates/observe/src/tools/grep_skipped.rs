//! Files `grep` does not search line by line (binary, too large, unreadable), and whether
//! they hold a match anyway: a generated bundle or a data file that contains the pattern
//! is worth naming, so the caller knows the search was not complete.

use grep_regex::RegexMatcher;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use serde::{Deserialize, Serialize};

/// Files larger than this are not probed for a match at all: reading them would cost
/// more than the answer is worth.
pub(crate) const MAX_PROBE_BYTES: u64 = 64 << 20;
/// At most this many skipped files are probed per search; later ones are listed as
/// "may hold a match".
pub(crate) const MAX_PROBES: usize = 50;
/// At most this many bytes are probed per search, over all skipped files.
pub(crate) const MAX_PROBED_BYTES: u64 = 128 << 20;
/// At most this many skipped files are listed; the rest are counted.
pub(crate) const MAX_LISTED: usize = 20;
/// Longest line a probe holds in memory; a file with a longer line is "not probed".
const PROBE_HEAP_LIMIT: usize = 16 << 20;

/// Why a file was not searched line by line.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
pub enum SkipReason {
    /// Contains NUL bytes.
    Binary,
    /// Larger than the 1 MiB search limit.
    TooLarge,
    /// Could not be opened or read.
    Unreadable,
}

/// A skipped file that holds, or may hold, a match.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
pub struct SkippedFile {
    /// Repository-relative path with `/` separators.
    pub path: String,
    /// Why it was not searched.
    pub reason: SkipReason,
    /// Size in bytes, when known.
    pub size: Option<u64>,
    /// `true`: the raw bytes contain a match; `None`: not known (unreadable, or not
    /// probed because of the probe limits). Files known to hold no match are not listed.
    pub holds_match: Option<bool>,
    /// Line of the first match in a too-large text file, so `read_file` can go there.
    pub first_match_line: Option<u32>,
}

impl SkippedFile {
    /// `path (binary, 3 KiB): holds a match` and the like, for the rendered result.
    pub fn describe(&self) -> String {
        let reason = match self.reason {
            SkipReason::Binary => "binary",
            SkipReason::TooLarge => "too large to search",
            SkipReason::Unreadable => "unreadable",
        };
        let size = self
            .size
            .map(|s| format!(", {}", human_size(s)))
            .unwrap_or_default();
        let verdict = match (self.holds_match, self.first_match_line) {
            (Some(true), Some(line)) => format!("holds a match, first at line {line}"),
            (Some(true), None) => "holds a match".to_owned(),
            (Some(false), _) => "no match".to_owned(),
            (None, _) => "may hold a match".to_owned(),
        };
        format!(
            "{} ({reason}{size}): {verdict}",
            crate::escape::inline(&self.path)
        )
    }
}

fn human_size(bytes: u64) -> String {
    const KIB: u64 = 1 << 10;
    const MIB: u64 = 1 << 20;
    if bytes >= MIB {
        format!("{:.1} MiB", bytes as f64 / MIB as f64)
    } else if bytes >= KIB {
        format!("{} KiB", bytes / KIB)
    } else {
        format!("{bytes} B")
    }
}

/// Collects skipped files, probing each (within the limits) for a match.
pub(crate) struct SkippedFiles {
    probe: Searcher,
    probes: usize,
    probed_bytes: u64,
    pub(crate) listed: Vec<SkippedFile>,
    /// Files that hold or may hold a match but were not listed (over [`MAX_LISTED`]).
    pub(crate) unlisted: usize,
}

impl SkippedFiles {
    pub(crate) fn new() -> SkippedFiles {
        SkippedFiles {
            probe: SearcherBuilder::new()
                .line_number(true)
                // Search the raw bytes: the point is to look inside what was skipped.
                .binary_detection(BinaryDetection::none())
                .heap_limit(Some(PROBE_HEAP_LIMIT))
                .build(),
            probes: 0,
            probed_bytes: 0,
            listed: Vec::new(),
            unlisted: 0,
        }
    }

    /// Records a file skipped for `reason`; probes it unless it is unreadable or over a
    /// probe limit. Files known to hold no match are dropped.
    pub(crate) fn add(
        &mut self,
        matcher: &RegexMatcher,
        rel: &str,
        abs: &std::path::Path,
        reason: SkipReason,
        size: Option<u64>,
    ) {
        let probe_size = size.filter(|&s| {
            reason != SkipReason::Unreadable
                && s <= MAX_PROBE_BYTES
                && self.probes < MAX_PROBES
                && self.probed_bytes.saturating_add(s) <= MAX_PROBED_BYTES
        });
        let (holds_match, first_line) = if let Some(probe_size) = probe_size {
            self.probes += 1;
            self.probed_bytes += probe_size;
            let mut sink = FirstMatch::default();
            match self.probe.search_path(matcher, abs, &mut sink) {
                Ok(()) => (Some(sink.line.is_some()), sink.line),
                Err(_) => (None, None),
            }
        } else {
            (None, None)
        };
        if holds_match == Some(false) {
            return;
        }
        if self.listed.len() >= MAX_LISTED {
            self.unlisted += 1;
            return;
        }
        self.listed.push(SkippedFile {
            path: rel.to_owned(),
            reason,
            size,
            holds_match,
            // A line number inside a binary file means nothing to a reader.
            first_match_line: first_line.filter(|_| reason == SkipReason::TooLarge),
        });
    }
}

/// Stops at the first match and keeps its line.
#[derive(Default)]
struct FirstMatch {
    line: Option<u32>,
}

impl Sink for FirstMatch {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        let line = mat
            .line_number()
            .map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX));
        self.line = Some(line);
        Ok(false)
    }
}
