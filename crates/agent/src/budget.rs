//! The limits one conversation runs under, and the reason it stopped.

use std::time::Duration;

use serde::Serialize;

/// Limits for one conversation. Every limit ends in a report: the model is told to submit,
/// and if it does not, the deterministic selection is used.
#[derive(Clone, Debug, Serialize)]
pub struct Budgets {
    /// Assistant turns that call tools.
    pub max_steps: usize,
    /// Tool calls run per turn; extra calls are answered with an error result.
    pub max_parallel_calls: usize,
    /// Total characters of tool results shown to the model.
    pub max_observation_chars: usize,
    /// Characters of one tool result shown to the model (the session's observation cap).
    pub observation_cap: usize,
    /// Wall time for the whole conversation, checked before each model turn.
    #[serde(with = "seconds")]
    pub wall_time: Duration,
    /// Output tokens over all turns.
    pub max_output_tokens: u64,
    /// Output tokens asked for in one turn (lowered to what the total leaves).
    pub max_tokens_per_turn: u32,
    /// Continuation rounds after a submission with a critical gap.
    pub max_continuations: usize,
}

impl Default for Budgets {
    fn default() -> Budgets {
        Budgets {
            max_steps: 12,
            max_parallel_calls: 4,
            max_observation_chars: 60_000,
            observation_cap: crate::session::DEFAULT_OBSERVATION_CAP,
            wall_time: Duration::from_secs(120),
            max_output_tokens: 16_000,
            max_tokens_per_turn: 4_096,
            max_continuations: 2,
        }
    }
}

/// Which budget ran out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum BudgetKind {
    /// Assistant turns that called tools.
    Steps,
    /// Characters of tool results shown to the model.
    ObservationChars,
    /// Wall time of the conversation.
    WallTime,
    /// Tokens the model wrote.
    OutputTokens,
}

impl BudgetKind {
    /// The budget's name in messages (`tool step`, `wall time`, …).
    pub fn as_str(self) -> &'static str {
        match self {
            BudgetKind::Steps => "tool step",
            BudgetKind::ObservationChars => "observation",
            BudgetKind::WallTime => "wall time",
            BudgetKind::OutputTokens => "output token",
        }
    }
}

/// Why the conversation ended. Every reason comes with a report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum StopReason {
    /// The model's (last) submission was validated and rendered.
    Submitted,
    /// The model never submitted a usable selection; the deterministic one was used.
    Fallback {
        /// Why no submission was usable.
        why: String,
    },
    /// A budget ran out before any submission; the deterministic selection was used.
    BudgetExhausted {
        /// The budget that ran out.
        which: BudgetKind,
    },
    /// The provider failed after its retries; the deterministic selection was used.
    ProviderError {
        /// The provider's error.
        message: String,
    },
}

impl std::fmt::Display for StopReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            StopReason::Submitted => f.write_str("submitted"),
            StopReason::Fallback { why } => write!(f, "fallback ({why})"),
            StopReason::BudgetExhausted { which } => {
                write!(f, "{} budget exhausted", which.as_str())
            }
            StopReason::ProviderError { message } => write!(f, "provider error ({message})"),
        }
    }
}

impl StopReason {
    /// The report came from the deterministic selection rather than the model.
    pub fn is_fallback(&self) -> bool {
        !matches!(self, StopReason::Submitted)
    }
}

mod seconds {
    use std::time::Duration;

    pub fn serialize<S: serde::Serializer>(d: &Duration, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(d.as_secs_f64())
    }
}
