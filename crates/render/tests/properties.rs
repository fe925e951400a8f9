//! Invariants of rendered reports over random selections: every cited place exists in the
//! registry, the text fits the budget, the JSON block parses, and the flow keeps its order.

mod support;

use proptest::prelude::*;
use sightline_registry::Registry;
use sightline_render::render_report;
use sightline_validate::{Budget, validate};
use support::{body, cited, fixture, json_block, strategy};

fn place_exists(registry: &Registry, path: &str, range: Option<(u32, u32)>) -> bool {
    registry
        .iter()
        .any(|c| c.path == path && c.range.map(|r| (r.start, r.end)) == range)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 384, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn reports_only_cite_observed_places(
        sel in strategy::arb_selection(),
        intent in strategy::arb_intent(),
        budget in prop_oneof![3 => Just(2_500usize), 1 => 300usize..2_500],
    ) {
        let registry = fixture::registry();
        let v = validate(&sel, &registry, intent, &fixture::fallback(), &Budget::default());
        let report = render_report(&v, &registry, budget);
        let text = &report.text;

        // The budget holds whenever it can hold the header and an empty JSON block.
        prop_assert!(text.chars().count() <= budget.max(600), "{} chars:\n{}", text.chars().count(), text);

        let json = json_block(text).map_err(TestCaseError::fail)?;
        prop_assert_eq!(&json, &sightline_render::BlockJson::from(&report.json));
        for p in &json.primary {
            let range = p.start.zip(p.end);
            prop_assert!(place_exists(&registry, &p.path, range));
        }
        for r in &json.read {
            prop_assert!(place_exists(&registry, &r.path, Some((r.start, r.end))));
            // A target at a primary place is a flag on it, never a second entry.
            prop_assert!(!json.primary.iter().any(|p| p.path == r.path && p.start == Some(r.start) && p.end == Some(r.end)));
        }

        let items = cited(text).map_err(TestCaseError::fail)?;
        for c in &items {
            prop_assert!(place_exists(&registry, &c.path, c.range), "{:?} not in the registry:\n{}", c, text);
        }
        // Every item names its path: no `[n]` back-reference that reads like an ID.
        prop_assert!(items.iter().all(|c| c.written), "{}", text);

        // The primary places render first, in the submitted (validated) order, each once.
        let place_of = |id: &sightline_registry::CandidateId| {
            registry.get(*id).map(|c| (c.path.clone(), c.range.map(|r| (r.start, r.end))))
        };
        let mut submitted: Vec<(String, Option<(u32, u32)>)> = Vec::new();
        for p in v.selection.primary.iter().filter_map(place_of) {
            if !submitted.contains(&p) {
                submitted.push(p);
            }
        }
        let primary_items = if body(text).contains("\nprimary:\n") {
            body(text)
                .lines()
                .skip_while(|l| *l != "primary:")
                .skip(1)
                .take_while(|l| !l.starts_with("flow: ") && *l != "read:" && !l.starts_with("missing: "))
                .filter(|l| support::item(l).is_some())
                .count()
        } else {
            0
        };
        let shown: Vec<(String, Option<(u32, u32)>)> = items.iter().take(primary_items).map(|c| (c.path.clone(), c.range)).collect();
        // The budget may leave places out (those without a flow link first), never reorder
        // them; with room for everything, every primary place is there.
        let mut rest = submitted.iter();
        prop_assert!(shown.iter().all(|s| rest.any(|x| x == s)), "{:?} is not in the order of {:?}\n{}", shown, submitted, text);
        if budget >= 2_500 && !text.contains("checked:") && v.drops.is_empty() {
            prop_assert_eq!(&shown, &submitted);
        }
        // The `also:` line names validated runners-up's files, in their order, none a file
        // an item cites; the full JSON names every validated runner-up's file.
        let runner_files: Vec<String> = v.selection.runners_up.iter().filter_map(|id| registry.get(*id)).map(|c| c.path.clone()).collect();
        prop_assert!(report.json.also.iter().all(|p| runner_files.contains(p)));
        if let Some(also) = body(text).lines().find_map(|l| l.strip_prefix("also: ")) {
            let named: Vec<&str> = also.split(", ").collect();
            let mut rest = report.json.also.iter();
            prop_assert!(named.iter().all(|n| rest.any(|p| p == n)), "{:?} not in order of {:?}", named, report.json.also);
            prop_assert!(named.iter().all(|n| !items.iter().any(|c| c.path == *n)), "a runner-up repeats a cited file:\n{}", text);
        }
        // The flow line names places by their numbers, in the validated flow's order.
        if let Some(order) = body(text).lines().find_map(|l| l.strip_prefix("flow: ")) {
            let numbers: Vec<usize> = order.split(" → ").filter_map(|n| n.parse().ok()).collect();
            let places: Vec<(String, Option<(u32, u32)>)> = numbers.iter().filter_map(|n| items.get(n - 1)).map(|c| (c.path.clone(), c.range)).collect();
            let validated: Vec<(String, Option<(u32, u32)>)> = v.selection.flow.iter().filter_map(|l| place_of(&l.candidate)).collect();
            let mut rest = validated.iter();
            prop_assert!(places.iter().all(|s| rest.any(|x| x == s)), "{:?} is not in the order of {:?}", places, validated);
        }
    }
}
