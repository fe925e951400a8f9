//! The report layout: every item names its path, the budget order holds.

mod support;

use sightline_registry::{Action, Confidence, Intent, Selection};
use sightline_render::{DEFAULT_BUDGET_CHARS, render_json, render_report};
use sightline_validate::{Budget, Validated, validate};
use support::fixture::*;
use support::{body, cited, json_block};

fn validated(sel: &Selection, intent: Intent) -> Validated {
    validate(sel, &registry(), intent, &fallback(), &Budget::default())
}

#[test]
fn every_item_writes_its_path_and_none_refers_back_by_number() {
    let v = validated(&good_selection(), Intent::Edit);
    let report = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
    let items = cited(&report.text).unwrap_or_else(|e| panic!("{e}\n{}", report.text));
    assert!(!items.is_empty());
    // A `[n]` back-reference reads like a candidate ID; every item names its path.
    assert!(items.iter().all(|c| c.written), "{}", report.text);
    // A place has one number: its second flow link is written under it.
    assert!(
        report.text.contains("1. src/routes/index.ts:1-12 (entry)")
            && report
                .text
                .contains("\n  (handler) - openQueue loads the queue by id.\n"),
        "{}",
        report.text
    );
}

/// A read target validation removed is marked where it was submitted, with the reason,
/// not only in the validation block the caller may never see.
#[test]
fn a_dropped_read_target_is_marked_in_its_place() {
    let mut sel = good_selection();
    sel.read_targets
        .insert(1, read_target(98, "an invented place", true));
    let v = validated(&sel, Intent::Edit);
    let report = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
    let read: Vec<&str> = report
        .text
        .lines()
        .skip_while(|l| *l != "read:")
        .skip(1)
        .take_while(|l| support::item(l).is_some())
        .collect();
    // The kept targets are marked on the items citing their places; only the dropped
    // one, whose place nothing cites, is listed, where it was submitted.
    assert_eq!(read.len(), 1, "{}", report.text);
    assert!(
        read[0].contains("(dropped) an unknown candidate - "),
        "{}",
        report.text
    );
    let marked = |place: &str, mark: &str| {
        report
            .text
            .lines()
            .any(|l| l.contains(place) && l.ends_with(mark))
    };
    assert!(
        marked(
            "src/services/queue.ts:40-47",
            "· read (required): the fetch and its error path"
        ),
        "{}",
        report.text
    );
    assert!(
        marked("src/store/state.ts:7-9", "· read: the state update"),
        "{}",
        report.text
    );
    assert!(
        !report.text.contains("an invented place"),
        "{}",
        report.text
    );
}

#[test]
fn the_json_block_matches_render_json() {
    let v = validated(&good_selection(), Intent::Locate);
    let report = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
    assert_eq!(
        json_block(&report.text),
        Ok(sightline_render::BlockJson::from(&report.json))
    );
    assert_eq!(report.json, render_json(&v, &registry()));
}

#[test]
fn unknown_ids_never_render() {
    // Render is given an unvalidated selection: it still only writes registry places.
    let mut sel = good_selection();
    sel.primary.push(id(99));
    sel.read_targets.push(read_target(98, "nothing", true));
    sel.flow.push(link(97, "ghost", "made up", "made up"));
    let v = Validated {
        selection: sel,
        drops: Vec::new(),
        fell_back: false,
        critical_gap: None,
        dropped_reads: Vec::new(),
    };
    let report = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
    assert!(
        !report.text.contains("ghost") && !report.text.contains("nothing"),
        "{}",
        report.text
    );
    assert_eq!(report.json.primary.len(), 3);
}

#[test]
fn an_unverified_quote_never_renders() {
    let mut sel = good_selection();
    sel.flow[0].quote = "not observed anywhere".into();
    let v = Validated {
        selection: sel,
        drops: Vec::new(),
        fell_back: false,
        critical_gap: None,
        dropped_reads: Vec::new(),
    };
    let report = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
    assert!(
        !report.text.contains("not observed anywhere"),
        "{}",
        report.text
    );
}

#[test]
fn skipping_renders_as_an_outcome() {
    let v = validated(
        &selection(Action::SkipExploreResult, Confidence::Low),
        Intent::Explain,
    );
    let report = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
    assert_eq!(
        report.text,
        "confidence: low | action: skip_explore_result\n\
         nothing relevant found; proceed without it\n\
         ```json\n{\"action\":\"skip_explore_result\",\"confidence\":\"low\",\"primary\":[],\"read\":[]}\n```\n"
    );
}

#[test]
fn the_budget_drops_whole_parts_in_order() {
    let v = validated(&good_selection(), Intent::Edit);
    let full = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
    let mut last = full.text.chars().count();
    let mut seen_flow_lines = Vec::new();
    for budget in (0..last).rev().step_by(7) {
        let r = render_report(&v, &registry(), budget);
        let len = r.text.chars().count();
        assert!(len <= last, "a smaller budget grew the report");
        last = len;
        json_block(&r.text).unwrap_or_else(|e| panic!("{e}\n{}", r.text));
        cited(&r.text).unwrap_or_else(|e| panic!("{e}\n{}", r.text));
        // Every remaining quote line still follows its link (links are dropped whole).
        let flow_items = r.text.lines().filter(|l| l.starts_with("> ")).count();
        seen_flow_lines.push(flow_items);
        // Every line of a smaller report is a line of the full one, up to its number and
        // how its path is written (a path's first item may have been dropped).
        let after_loc = |l: &str| {
            l.split_once(". ")
                .and_then(|(_, rest)| rest.split_once(' '))
                .map_or(l.to_owned(), |(_, t)| t.to_owned())
        };
        // A read target whose cited item the budget dropped is listed on its own: its
        // purpose was on that item's line in the full report.
        let unmarked = |l: &str| {
            let t = after_loc(l);
            t.split(" · read").next().unwrap_or_default().to_owned()
        };
        // A primary place whose flow links went shows its label instead: its place is
        // one of the full report's.
        let place = |l: &str| {
            support::item(l).map(|(_, rest)| rest.split(' ').next().unwrap_or(rest).to_owned())
        };
        for line in body(&r.text)
            .lines()
            .filter(|l| *l != "read:" && !l.starts_with("flow: "))
        {
            let purpose = line
                .split_once(" - ")
                .map_or("", |(_, p)| p.trim_end_matches(" (required)"));
            let same_place = place(line)
                .is_some_and(|p| full.text.lines().any(|l| place(l).as_deref() == Some(&p)));
            assert!(
                full.text.lines().any(|l| unmarked(l) == unmarked(line))
                    || (!purpose.is_empty() && full.text.contains(purpose))
                    || same_place,
                "{line:?} not in the full report"
            );
        }
    }
    // Every primary place here has a flow link, so the last link goes first; the
    // primary places stay, in their order.
    let link_gone = render_report(&v, &registry(), full.text.chars().count() - 1);
    assert!(
        !link_gone
            .text
            .contains("loadQueue fetches and parses the queue."),
        "{}",
        link_gone.text
    );
    assert!(
        link_gone
            .text
            .contains("primary:\n1. src/routes/index.ts:1-12 "),
        "{}",
        link_gone.text
    );
    // The header and the JSON block's action and confidence always stay.
    let tiny = render_report(&v, &registry(), 10);
    assert!(tiny.text.starts_with("confidence: "));
    assert_eq!(
        json_block(&tiny.text).map(|j| (j.action, j.primary.len())),
        Ok((Action::ReadTargets, 0))
    );
}

/// A read target at a place the report already cites is a mark on that item, never a
/// second line naming the same path and range.
#[test]
fn no_read_line_repeats_a_cited_place() {
    for intent in [Intent::Edit, Intent::Explain, Intent::Locate, Intent::Debug] {
        let v = validated(&good_selection(), intent);
        let report = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
        let body = body(&report.text);
        let (cited_part, read_part) = body.split_once("\nread:\n").unwrap_or((body, ""));
        for line in read_part.lines() {
            let Some((_, rest)) = line.split_once(". ") else {
                continue;
            };
            let loc = rest.split(' ').next().unwrap_or_default();
            assert!(
                !cited_part.contains(&format!(". {loc} ")),
                "{loc} is cited and listed again:\n{}",
                report.text
            );
        }
    }
}

/// The primary places are numbered in the order the selection gave them, whatever the
/// flow's order, and the flow's order is written by those numbers.
#[test]
fn the_submitted_primary_order_is_the_rendered_order() {
    let mut sel = good_selection();
    sel.primary.reverse();
    let v = validated(&sel, Intent::Explain);
    let report = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
    let items = cited(&report.text).unwrap();
    let places: Vec<&str> = items.iter().take(3).map(|c| c.path.as_str()).collect();
    assert_eq!(
        places,
        [
            "src/services/queue.ts",
            "src/ui/panel.tsx",
            "src/routes/index.ts"
        ],
        "{}",
        report.text
    );
    assert!(
        report.text.contains("\nflow: 3 → 2 → 4 → 3 → 1\n"),
        "{}",
        report.text
    );
}

use proptest::prelude::*;

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Whatever primary places a selection names and in whatever order, the report numbers
    /// them first, in that order.
    #[test]
    fn any_submitted_primary_order_is_the_rendered_order(
        primary in proptest::sample::subsequence(vec![1u32, 3, 5, 7], 1..=4)
            .prop_flat_map(|p| Just(p).prop_shuffle()),
    ) {
        let mut sel = good_selection();
        sel.primary = primary.iter().map(|n| id(*n)).collect();
        let v = validated(&sel, Intent::Explain);
        let submitted: Vec<String> = v
            .selection
            .primary
            .iter()
            .map(|c| registry().get(*c).unwrap().path.clone())
            .collect();
        let report = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
        let items = cited(&report.text).unwrap_or_else(|e| panic!("{e}\n{}", report.text));
        let rendered: Vec<String> =
            items.iter().take(submitted.len()).map(|c| c.path.clone()).collect();
        prop_assert_eq!(rendered, submitted, "{}", report.text);
    }
}

/// Evidence lines are numbered, follow their link's quote in line order, and are the
/// first thing a tight budget leaves out (the quote stays).
#[test]
fn evidence_lines_are_numbered_and_leave_first() {
    use sightline_registry::EvidenceLine;
    let mut sel = selection(Action::AnswerFromReport, Confidence::Low);
    sel.primary = vec![id(1)];
    let mut l = link(
        1,
        "entry",
        "routes",
        "export function buildRoutes(router: Router) {",
    );
    l.evidence = vec![
        EvidenceLine {
            line: 6,
            text: "  router.add(\"/queue/:id\", openQueue);".to_owned(),
        },
        EvidenceLine {
            line: 11,
            text: "  return loadQueue(id);".to_owned(),
        },
    ];
    sel.flow = vec![l];
    let v = validated(&sel, Intent::Explain);
    let full = render_report(&v, &registry(), DEFAULT_BUDGET_CHARS);
    assert!(
        full.text.contains(
            ">  4 export function buildRoutes(router: Router) {\n\
             >  6   router.add(\"/queue/:id\", openQueue);\n\
             > 11   return loadQueue(id);\n"
        ),
        "{}",
        full.text
    );
    assert!(
        full.text.contains("checked: 3 of 3 quotes verified"),
        "{}",
        full.text
    );
    let tight = render_report(&v, &registry(), full.text.chars().count() - 1);
    assert!(
        tight.text.contains("> 6   router.add") && !tight.text.contains("loadQueue(id);"),
        "{}",
        tight.text
    );
    assert!(
        tight.text.contains("> 4 export function buildRoutes"),
        "{}",
        tight.text
    );
}
