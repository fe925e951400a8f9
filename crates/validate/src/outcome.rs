//! What validation returns: the surviving selection and a reason for every removal or
//! downgrade, so callers can measure (e.g. the unverified-fact rate) and continue the
//! conversation on a critical gap.

use std::fmt;

use serde::Serialize;
use sightline_base::{CandidateId, ReadTarget, Selection};

/// Which rule removed or lowered something.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// The ID names no candidate in the registry.
    UnknownId,
    /// A search scope that is not a path of the repository; the scope alone is dropped.
    ForeignScope,
    /// The cited file was deleted, or changed so the quote is gone, after it was observed.
    StaleFile,
    /// The quote is empty, too long in lines, or not in the candidate's observed text.
    QuoteUnverified,
    /// A read target without a line range (a listing) cannot be read as a target.
    NoRange,
    /// A read target wider than the budget allows.
    RangeTooWide,
    /// A text field longer than the budget allows.
    TooLong,
    /// A blank entry (a missing item or search term with no text).
    Blank,
    /// A repeat of an earlier entry.
    Duplicate,
    /// More entries than the limit; the first ones are kept.
    OverCount,
    /// Search targets only belong to a targeted gap search.
    SearchWithoutGapAction,
    /// The action was changed to stay consistent with the intent and what survived.
    Action,
    /// The confidence was lowered.
    Confidence,
    /// Nothing survived; the deterministic fallback selection replaced the submission.
    Fallback,
    /// A flow link's quote lies in a declaration inside the cited candidate: the link (and
    /// the same primary entry) cites that declaration's tighter candidate instead.
    Narrowed,
}

impl Rule {
    /// Whether the rule removed part of the selection (as opposed to adjusting it).
    pub fn is_removal(self) -> bool {
        !matches!(
            self,
            Rule::Action | Rule::Confidence | Rule::Fallback | Rule::Narrowed
        )
    }
}

/// One removal or downgrade, with the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Drop {
    /// The rule that made the change.
    pub rule: Rule,
    /// What was affected, e.g. `flow link c3` or `action`.
    pub what: String,
    /// Why, in words a model can act on.
    pub reason: String,
}

/// A gap specific enough to ask the model for one more round in the same conversation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum CriticalGap {
    /// A flow link's quote was not found in what the tools showed for its candidate.
    UnverifiedQuote {
        /// The flow link's candidate.
        candidate: CandidateId,
        /// The quote as submitted.
        quote: String,
    },
    /// Something the model itself said is missing.
    Missing {
        /// What the model said it did not find.
        what: String,
    },
    /// The intent needs exact ranges, and no ranged candidate survived.
    NoRangedCandidate,
}

impl fmt::Display for CriticalGap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CriticalGap::UnverifiedQuote { candidate, quote } => {
                write!(
                    f,
                    "the quote for {candidate} was not found in its observed text: {quote:?}"
                )
            }
            CriticalGap::Missing { what } => write!(f, "missing: {what}"),
            CriticalGap::NoRangedCandidate => {
                f.write_str("no candidate with an exact line range survived")
            }
        }
    }
}

/// The result of validating one selection: what survived and every change made to it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Validated {
    /// The surviving selection (the validated fallback when `fell_back`).
    pub selection: Selection,
    /// Every removal and downgrade, in the order the rules ran.
    pub drops: Vec<Drop>,
    /// Whether nothing usable survived and the deterministic fallback replaced it.
    pub fell_back: bool,
    /// A gap worth one more model round, if any.
    pub critical_gap: Option<CriticalGap>,
    /// Read targets of the submission that validation removed, by their position in it,
    /// so a report can mark them where they would have been (empty after a fallback).
    pub dropped_reads: Vec<DroppedRead>,
}

/// A submitted read target that did not survive.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct DroppedRead {
    /// Its index in the submitted `read_targets`.
    pub position: usize,
    /// The candidate it named.
    pub candidate: CandidateId,
    /// Why it was dropped.
    pub reason: String,
}

impl DroppedRead {
    /// The submitted read targets missing from the surviving ones (a subsequence of
    /// them: validation never reorders), each with the reason its drop gave.
    pub fn find(submitted: &[ReadTarget], kept: &[ReadTarget], drops: &[Drop]) -> Vec<DroppedRead> {
        let mut kept = kept.iter().peekable();
        let mut used = vec![false; drops.len()];
        let mut out = Vec::new();
        for (position, t) in submitted.iter().enumerate() {
            if kept.peek() == Some(&t) {
                kept.next();
                continue;
            }
            let what = format!("read target {}", t.candidate);
            let reason = drops
                .iter()
                .enumerate()
                .find(|(i, d)| !used[*i] && d.what == what)
                .map_or_else(
                    || "removed by validation".to_owned(),
                    |(i, d)| {
                        used[i] = true;
                        d.reason.clone()
                    },
                );
            out.push(DroppedRead {
                position,
                candidate: t.candidate,
                reason,
            });
        }
        out
    }
}
