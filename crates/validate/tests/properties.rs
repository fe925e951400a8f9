//! Invariants over random selections: validation only removes or lowers, never reorders,
//! always ends consistent, and is idempotent.

mod support;

use proptest::prelude::*;
use sightline_registry::selection::{
    MAX_EVIDENCE_LINES, MAX_FLOW, MAX_MISSING, MAX_NAMED_FILES, MAX_PRIMARY, MAX_READ_TARGETS,
    MAX_SEARCH_TARGETS,
};
use sightline_registry::{Action, Confidence, Selection};
use sightline_validate::{Budget, validate};
use support::{fixture, strategy};

fn is_subsequence<T: PartialEq>(sub: &[T], of: &[T]) -> bool {
    is_subsequence_by(sub, of, |x, y| x == y)
}

/// Like [`is_subsequence`], where `kept(x, y)` says `x` is `y` or `y` with parts removed.
fn is_subsequence_by<T>(sub: &[T], of: &[T], kept: impl Fn(&T, &T) -> bool) -> bool {
    let mut it = of.iter();
    sub.iter().all(|x| it.any(|y| kept(x, y)))
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn validation_only_removes_or_lowers(sel in strategy::arb_selection(), intent in strategy::arb_intent()) {
        let registry = fixture::registry();
        let budget = Budget::default();
        let fallback = fixture::fallback();
        let v = validate(&sel, &registry, intent, &fallback, &budget);
        let out = &v.selection;

        if v.fell_back {
            prop_assert_eq!(out.confidence, Confidence::Low);
        } else {
            prop_assert!(out.confidence <= sel.confidence);
            // Nothing added, nothing reordered: an ID may only be narrowed to a declaration
            // inside the one submitted.
            let within = |o: sightline_registry::CandidateId, i: sightline_registry::CandidateId| {
                o == i
                    || match (registry.get(o), registry.get(i)) {
                        (Some(a), Some(b)) => a.path == b.path
                            && a.range.zip(b.range).is_some_and(|(a, b)| b.contains(&a)),
                        _ => false,
                    }
            };
            prop_assert!(is_subsequence_by(&out.primary, &sel.primary, |o, i| within(*o, *i)));
            let same_link = |o: &sightline_registry::FlowLink, i: &sightline_registry::FlowLink| {
                within(o.candidate, i.candidate) && (&o.role, &o.fact, &o.quote) == (&i.role, &i.fact, &i.quote)
            };
            prop_assert!(is_subsequence_by(&out.flow, &sel.flow, same_link));
            prop_assert!(is_subsequence(&out.read_targets, &sel.read_targets));
            prop_assert!(is_subsequence(&out.missing, &sel.missing));
            // A search target may lose a scope that is not a repository path, nothing else.
            let scopes_only_dropped = is_subsequence_by(&out.search_targets, &sel.search_targets, |o, i| {
                o.term == i.term && (o.scope == i.scope || o.scope.is_none())
            });
            prop_assert!(scopes_only_dropped);
        }
        // Runners-up are only ever dropped: what is left was submitted (or, on a fallback,
        // was the fallback's), in order, never one a primary place stood for.
        let source = if v.fell_back { &fallback } else { &sel };
        prop_assert!(is_subsequence(&out.runners_up, &source.runners_up));
        // Each resolves, names a file no primary place is in, once, and the report names at
        // most MAX_NAMED_FILES files in all.
        let file = |id| registry.get(id).map(|c| c.path.as_str());
        let primary_files: std::collections::HashSet<&str> = out.primary.iter().filter_map(|&id| file(id)).collect();
        let mut runner_files = std::collections::HashSet::new();
        for &id in &out.runners_up {
            let f = file(id);
            prop_assert!(f.is_some(), "runner-up {id} resolves");
            let f = f.expect("checked above");
            prop_assert!(!primary_files.contains(f), "runner-up {id} in a primary file");
            prop_assert!(runner_files.insert(f), "runner-up {id} repeats a file");
        }
        prop_assert!(primary_files.len() + runner_files.len() <= MAX_NAMED_FILES.max(primary_files.len()));
        // Everything left is known, ranged where it must be, and within limits.
        let ids = out.primary.iter().copied().chain(out.flow.iter().map(|l| l.candidate)).chain(out.read_targets.iter().map(|t| t.candidate));
        for id in ids {
            prop_assert!(registry.get(id).is_some());
        }
        for t in &out.read_targets {
            let r = registry.get(t.candidate).and_then(|c| c.range);
            prop_assert!(r.is_some_and(|r| r.len() <= budget.max_range_lines));
        }
        for l in &out.flow {
            let c = registry.get(l.candidate);
            prop_assert!(c.is_some_and(|c| sightline_validate::quote::verify(&l.quote, c).is_ok()));
            // Every evidence line left lies in its candidate's range and reads, at the line
            // it names, as the candidate's observed text does there.
            prop_assert!(l.evidence.len() <= MAX_EVIDENCE_LINES);
            for e in &l.evidence {
                let c = c.expect("checked above");
                prop_assert!(c.range.is_some_and(|r| r.contains_line(e.line)));
                let at = c.observed.iter().find_map(|o| {
                    o.text.lines().nth(e.line.checked_sub(o.lines.start)? as usize)
                });
                prop_assert_eq!(
                    at.map(sightline_validate::quote::normalize),
                    Some(sightline_validate::quote::normalize(&e.text))
                );
            }
        }
        // Evidence is only ever removed: what is left of a link's lines was submitted, in order.
        if !v.fell_back {
            for o in &out.flow {
                let submitted = sel.flow.iter().filter(|i| (&i.role, &i.fact, &i.quote) == (&o.role, &o.fact, &o.quote));
                prop_assert!(submitted.into_iter().any(|i| is_subsequence(&o.evidence, &i.evidence)));
            }
        }
        prop_assert!(out.primary.len() <= MAX_PRIMARY && out.flow.len() <= MAX_FLOW && out.missing.len() <= MAX_MISSING);
        prop_assert!(out.read_targets.len() <= MAX_READ_TARGETS && out.search_targets.len() <= MAX_SEARCH_TARGETS);
        prop_assert!(out.search_targets.is_empty() || out.action == Action::TargetedGapSearch);
        prop_assert!(!(intent.needs_ranges() && out.action == Action::AnswerFromReport));
        prop_assert!(out.action != Action::ReadTargets || !out.read_targets.is_empty());
        prop_assert!(out.confidence != Confidence::High || ((out.missing.is_empty() || sel == fallback) && !v.drops.iter().any(|d| d.rule.is_removal())));
        // Every change has a recorded reason.
        if *out != sel && !v.fell_back {
            prop_assert!(!v.drops.is_empty());
        }

        let again = validate(out, &registry, intent, &fallback, &budget);
        prop_assert_eq!(&again.selection, out);
        prop_assert_eq!(again.drops, vec![]);
    }

    #[test]
    fn the_deterministic_selection_is_only_lowered_too(sel in strategy::arb_selection(), intent in strategy::arb_intent()) {
        // Validated as its own fallback (how the one-call report is), a selection's missing
        // parts do not lower it; nothing raises it either, and high still needs a selection
        // that lost nothing.
        let registry = fixture::registry();
        let v = validate(&sel, &registry, intent, &sel, &Budget::default());
        let out = &v.selection;
        prop_assert!(out.confidence <= sel.confidence);
        prop_assert!(out.confidence != Confidence::High || !v.drops.iter().any(|d| d.rule.is_removal()));
    }

    #[test]
    fn a_submission_never_exceeds_the_calibrated_level(sel in strategy::arb_selection(), calibrated in strategy::arb_confidence(), intent in strategy::arb_intent()) {
        // The deterministic selection's level is calibrated; a model's is not, so it caps it.
        let registry = fixture::registry();
        let fallback = Selection { confidence: calibrated, ..fixture::fallback() };
        prop_assume!(sel != fallback);
        let v = validate(&sel, &registry, intent, &fallback, &Budget::default());
        prop_assert!(v.selection.confidence <= calibrated);
        prop_assert!(v.selection.confidence <= sel.confidence);
    }

    #[test]
    fn parsing_never_panics(json in ".{0,200}") {
        let _ = sightline_validate::parse_selection(&json);
    }

    #[test]
    fn parsing_round_trips(sel in strategy::arb_selection()) {
        let json = serde_json::to_string(&sel).unwrap_or_default();
        let back: Selection = sightline_validate::parse_selection(&json).map_err(|e| TestCaseError::fail(e.to_string()))?;
        // Evidence lines are the deterministic selection's own: never submitted, never
        // written out.
        let mut submitted = sel;
        for l in &mut submitted.flow {
            l.evidence.clear();
        }
        // Runners-up too: only the deterministic selection names them.
        submitted.runners_up.clear();
        prop_assert_eq!(back, submitted);
    }
}
