//! Rule 5: confidence only goes down. High needs a selection that lost nothing and names
//! no missing part; medium needs at least one verified flow link.
//!
//! The deterministic selection is the exception to "no missing part": its missing parts
//! are the query's words no indexed code mentions, and its level was calibrated over
//! queries with such words (`cargo xtask fit`), whose best file was right as often as the
//! others'. Lowering it for them would count the same evidence twice. A model's missing
//! part is its own judgement that something was not found, which nothing calibrated.
//!
//! A model's level never exceeds the deterministic selection's: that level is calibrated
//! (held out, `high`'s first place right nine times in ten, `medium`'s seven), a model's
//! is not, and tools tell agents what the levels mean, so a level must mean the same
//! whoever chose the places.

use sightline_base::Confidence;

use crate::outcome::Rule;
use crate::pass::Pass;

/// Lowers what the pass no longer supports. `cap`: `None` when the selection is the
/// deterministic one, whose missing parts do not lower it; otherwise that selection's
/// calibrated level, which caps this one (see the module's documentation).
pub(crate) fn lower_confidence(pass: &mut Pass, cap: Option<Confidence>) {
    let deterministic = cap.is_none();
    if let Some(calibrated) = cap {
        lower(pass, calibrated, "the ranking's calibrated level is lower");
    }
    if pass.sel.confidence == Confidence::High {
        let why = if pass.removed_anything() {
            Some("part of the selection was dropped")
        } else if !pass.sel.missing.is_empty() && !deterministic {
            Some("the selection names missing parts")
        } else {
            None
        };
        if let Some(why) = why {
            lower(pass, Confidence::Medium, why);
        }
    }
    if pass.sel.confidence == Confidence::Medium && pass.sel.flow.is_empty() {
        lower(pass, Confidence::Low, "no verified flow link survived");
    }
}

/// Forces `to` when it is lower than the current confidence.
pub(crate) fn lower(pass: &mut Pass, to: Confidence, why: &str) {
    let from = pass.sel.confidence;
    if to < from {
        pass.sel.confidence = to;
        pass.record(
            Rule::Confidence,
            "confidence",
            format!("{} became {}: {why}", name(from), name(to)),
        );
    }
}

fn name(c: Confidence) -> &'static str {
    match c {
        Confidence::High => "high",
        Confidence::Medium => "medium",
        Confidence::Low => "low",
    }
}
