//! Reports for fixture selections, one per intent, pinned as snapshots.

mod support;

use sightline_registry::{Action, Confidence, Intent, Selection};
use sightline_render::{DEFAULT_BUDGET_CHARS, render_report};
use sightline_validate::{Budget, validate};
use support::fixture::*;

fn report(intent: Intent, sel: &Selection) -> String {
    let registry = registry();
    let v = validate(sel, &registry, intent, &fallback(), &Budget::default());
    render_report(&v, &registry, DEFAULT_BUDGET_CHARS).text
}

#[test]
fn explain() {
    insta::assert_snapshot!(report(Intent::Explain, &good_selection()));
}

#[test]
fn locate() {
    let sel = Selection {
        primary: vec![id(2), id(7), id(10)],
        flow: vec![link(
            2,
            "dispatch",
            "Dispatcher.dispatch looks up the handler by name.",
            "const handler = this.handlers.get(name);",
        )],
        ..selection(Action::AnswerFromReport, Confidence::High)
    };
    insta::assert_snapshot!(report(Intent::Locate, &sel));
}

#[test]
fn edit() {
    // answer_from_report is not enough to edit; a failed quote lowers confidence.
    let sel = Selection {
        primary: vec![id(7), id(1)],
        flow: vec![
            link(
                1,
                "entry",
                "openQueue is the route handler.",
                "function openQueue(id: string) {",
            ),
            link(
                7,
                "data",
                "loadQueue throws on a failed response.",
                "42| if (!response.ok) {\n43|   throw new Error(\"queue load failed\");",
            ),
            link(4, "service", "QueueService retries.", "retry(3)"),
        ],
        read_targets: vec![
            read_target(7, "change the error path", true),
            read_target(8, "whole table", false),
        ],
        missing: vec!["where the retry count is configured".into()],
        ..selection(Action::AnswerFromReport, Confidence::High)
    };
    insta::assert_snapshot!(report(Intent::Edit, &sel));
}

#[test]
fn debug() {
    let sel = Selection {
        primary: vec![id(5), id(3)],
        flow: vec![
            link(
                3,
                "ui",
                "The panel passes the selected id on.",
                "selectItem(next);",
            ),
            link(
                5,
                "state",
                "selectItem replaces the current entry.",
                "export const selectItem = (id: string) => store.set({ current: id });",
            ),
        ],
        search_targets: vec![
            search("clearItem", Some("src/")),
            search("current: null", None),
        ],
        missing: vec!["who calls clearItem".into()],
        ..selection(Action::TargetedGapSearch, Confidence::Medium)
    };
    insta::assert_snapshot!(report(Intent::Debug, &sel));
}

#[test]
fn fallback_when_nothing_survives() {
    let sel = Selection {
        primary: vec![id(42)],
        flow: vec![link(
            1,
            "entry",
            "made up",
            "router.add(\"/nowhere\", Nothing);",
        )],
        ..selection(Action::AnswerFromReport, Confidence::High)
    };
    insta::assert_snapshot!(report(Intent::Explain, &sel));
}

#[test]
fn listings_render_without_a_range() {
    let sel = Selection {
        primary: vec![id(9), id(10), id(1)],
        ..selection(Action::AnswerFromReport, Confidence::Low)
    };
    insta::assert_snapshot!(report(Intent::Locate, &sel));
}
