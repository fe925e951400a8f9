//! Rule 4: the action must fit the intent and what survived. Actions are not ordered; the
//! changes here only ever ask the caller for more verification, never less:
//! `answer_from_report` cannot serve edit/debug (exact ranges are read before changing
//! code), and `read_targets` with nothing left to read becomes a gap search. Search targets
//! belong to a gap search only; the model's own terms are kept when the action ends up a
//! gap search, and none is ever invented.

use sightline_base::{Action, Intent};

use crate::outcome::Rule;
use crate::pass::{Pass, drop_of, retain_or_record};

pub(crate) fn fit_action(pass: &mut Pass, intent: Intent) {
    if intent.needs_ranges() && pass.sel.action == Action::AnswerFromReport {
        let to = if pass.sel.read_targets.is_empty() {
            Action::TargetedGapSearch
        } else {
            Action::ReadTargets
        };
        set_action(
            pass,
            to,
            format!("{} needs exact ranges read before acting", intent.as_str()),
        );
    }
    if pass.sel.action == Action::ReadTargets && pass.sel.read_targets.is_empty() {
        set_action(
            pass,
            Action::TargetedGapSearch,
            "no read target survived".to_owned(),
        );
    }
    if pass.sel.action != Action::TargetedGapSearch {
        let action = pass.sel.action;
        retain_or_record(&mut pass.sel.search_targets, &mut pass.drops, |s, _| {
            Err(drop_of(
                Rule::SearchWithoutGapAction,
                format!("search target {:?}", s.term),
                format!(
                    "search targets only go with targeted_gap_search, not {}",
                    action.as_str()
                ),
            ))
        });
    }
}

fn set_action(pass: &mut Pass, to: Action, why: String) {
    let from = pass.sel.action;
    pass.sel.action = to;
    pass.record(
        Rule::Action,
        "action",
        format!("{} became {}: {why}", from.as_str(), to.as_str()),
    );
}
