//! Rule 5: confidence only goes down. High needs a selection that lost nothing and names
//! no missing part; medium needs at least one verified flow link.

use sightline_base::Confidence;

use crate::outcome::Rule;
use crate::pass::Pass;

pub(crate) fn lower_confidence(pass: &mut Pass) {
    if pass.sel.confidence == Confidence::High {
        let why = if pass.removed_anything() {
            Some("part of the selection was dropped")
        } else if !pass.sel.missing.is_empty() {
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
