//! One test per rule, with the exact drops expected.

mod support;

use sightline_registry::selection::{MAX_FLOW, MAX_PRIMARY};
use sightline_registry::{Action, Confidence, Intent, Selection};
use sightline_validate::{Budget, CriticalGap, Rule, Validated, validate};
use support::fixture::*;

fn run(sel: &Selection, intent: Intent) -> Validated {
    validate(sel, &registry(), intent, &fallback(), &Budget::default())
}

fn rules(v: &Validated) -> Vec<(Rule, &str)> {
    v.drops.iter().map(|d| (d.rule, d.what.as_str())).collect()
}

#[test]
fn a_good_selection_passes_untouched() {
    let sel = good_selection();
    let v = run(&sel, Intent::Explain);
    assert_eq!(v.drops, vec![]);
    assert_eq!(v.selection, sel);
    assert!(!v.fell_back);
    assert_eq!(v.critical_gap, None);
}

#[test]
fn unknown_ids_are_dropped_everywhere() {
    let mut sel = good_selection();
    sel.primary = vec![id(1), id(99), id(0)];
    sel.flow.push(link(42, "extra", "fact", "router.add"));
    sel.read_targets.insert(0, read_target(11, "nothing", true));
    let v = run(&sel, Intent::Explain);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::UnknownId, "primary c99"),
            (Rule::UnknownId, "primary c0"),
            (Rule::UnknownId, "flow link c42"),
            (Rule::UnknownId, "read target c11"),
            (Rule::Confidence, "confidence"),
        ]
    );
    assert_eq!(v.selection.primary, vec![id(1)]);
    assert_eq!(v.selection.flow, good_selection().flow);
    assert_eq!(v.selection.confidence, Confidence::Medium);
}

#[test]
fn quotes_must_be_observed_for_that_candidate() {
    let mut sel = selection(Action::AnswerFromReport, Confidence::Medium);
    sel.primary = vec![id(1)];
    sel.flow = vec![
        // Whitespace and numbered-output prefixes do not matter.
        link(1, "a", "f", "   5    router.add(\"/\",    Panel);"),
        // Observed, but for another candidate.
        link(3, "b", "f", "router.add(\"/\", Panel);"),
        // Never observed at all.
        link(1, "c", "f", "router.remove(\"/\");"),
        // No observed text: a candidate ranked past the cap.
        link(4, "d", "f", "class QueueService {"),
        // Observed text of a cut grep line is not evidence.
        link(6, "e", "f", "export const bigSelector"),
        // Too many lines.
        link(
            1,
            "f",
            "f",
            "import { Router } from \"./router\";\nimport { Panel } from \"../ui/panel\";\n\nexport function buildRoutes(router: Router) {",
        ),
        link(1, "g", "f", " \n  "),
    ];
    let v = run(&sel, Intent::Locate);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::QuoteUnverified, "flow link c3"),
            (Rule::QuoteUnverified, "flow link c1"),
            (Rule::QuoteUnverified, "flow link c4"),
            (Rule::QuoteUnverified, "flow link c6"),
            (Rule::QuoteUnverified, "flow link c1"),
            (Rule::QuoteUnverified, "flow link c1"),
        ]
    );
    assert_eq!(
        v.drops[4].reason,
        "the quote has 3 lines; at most 2 are allowed"
    );
    assert_eq!(v.drops[5].reason, "the quote is empty");
    assert_eq!(v.selection.flow.len(), 1);
    assert_eq!(v.selection.flow[0].role, "a");
    assert_eq!(
        v.critical_gap,
        Some(CriticalGap::UnverifiedQuote {
            candidate: id(3),
            quote: "router.add(\"/\", Panel);".to_owned()
        })
    );
}

#[test]
fn a_quote_spanning_two_observed_lines_matches() {
    let mut sel = selection(Action::AnswerFromReport, Confidence::Low);
    sel.primary = vec![id(7)];
    sel.flow = vec![link(
        7,
        "data",
        "f",
        "42| if (!response.ok) {\n43|   throw new Error(\"queue load failed\");",
    )];
    let v = run(&sel, Intent::Explain);
    assert_eq!(v.drops, vec![]);
}

#[test]
fn read_targets_need_a_range_within_budget() {
    let mut sel = selection(Action::ReadTargets, Confidence::Low);
    sel.primary = vec![id(1)];
    sel.read_targets = vec![
        read_target(9, "listing", true),
        read_target(8, "wide", true),
        read_target(1, "ok", true),
    ];
    let v = run(&sel, Intent::Edit);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::NoRange, "read target c9"),
            (Rule::RangeTooWide, "read target c8")
        ]
    );
    assert_eq!(
        v.drops[1].reason,
        "its range spans 200 lines; at most 120 are allowed"
    );
    assert_eq!(v.selection.read_targets, vec![read_target(1, "ok", true)]);
    // A wider budget keeps the wide target, with its range untouched.
    let wide = Budget {
        max_range_lines: 200,
        ..Budget::default()
    };
    let v = validate(&sel, &registry(), Intent::Edit, &fallback(), &wide);
    assert_eq!(rules(&v), vec![(Rule::NoRange, "read target c9")]);
}

#[test]
fn counts_keep_the_first_entries() {
    let mut sel = selection(Action::AnswerFromReport, Confidence::Low);
    sel.primary = vec![id(1), id(2), id(3), id(4), id(5), id(7), id(8)];
    let quote = "router.add(\"/\", Panel);";
    sel.flow = (0..MAX_FLOW + 2)
        .map(|i| link(1, &format!("r{i}"), "f", quote))
        .collect();
    sel.missing = vec!["a".into(), "b".into(), "c".into(), "d".into()];
    let v = run(&sel, Intent::Explain);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::OverCount, "primary c7"),
            (Rule::OverCount, "primary c8"),
            (Rule::OverCount, "flow link c1"),
            (Rule::OverCount, "flow link c1"),
            (Rule::OverCount, "missing \"d\""),
        ]
    );
    assert_eq!(v.selection.primary.len(), MAX_PRIMARY);
    assert_eq!(v.selection.flow.last().map(|l| l.role.as_str()), Some("r7"));
}

#[test]
fn repeats_blanks_and_long_text_are_dropped() {
    let mut sel = selection(Action::TargetedGapSearch, Confidence::Low);
    sel.primary = vec![id(1), id(1)];
    sel.missing = vec![
        "   ".into(),
        "x".repeat(300),
        "who calls it".into(),
        "who calls it".into(),
    ];
    sel.search_targets = vec![
        search("openQueue", None),
        search(&"y".repeat(81), None),
        search("openQueue", None),
    ];
    let v = run(&sel, Intent::Locate);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::Blank, "missing entry"),
            (
                Rule::TooLong,
                "missing \"xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…\""
            ),
            (
                Rule::TooLong,
                "search target \"yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy…\""
            ),
            (Rule::Duplicate, "primary c1"),
            (Rule::Duplicate, "missing \"who calls it\""),
            (Rule::Duplicate, "search target \"openQueue\""),
        ]
    );
    assert_eq!(v.selection.search_targets, vec![search("openQueue", None)]);
}

#[test]
fn answer_from_report_is_not_enough_to_edit() {
    let v = run(&good_selection(), Intent::Edit);
    assert_eq!(v.selection.action, Action::ReadTargets);
    assert_eq!(rules(&v), vec![(Rule::Action, "action")]);
    // Correcting the action drops nothing, so confidence stays.
    assert_eq!(v.selection.confidence, Confidence::High);

    let mut sel = good_selection();
    sel.read_targets.clear();
    let v = run(&sel, Intent::Debug);
    assert_eq!(v.selection.action, Action::TargetedGapSearch);
    assert_eq!(
        v.drops[0].reason,
        "answer_from_report became targeted_gap_search: debug needs exact ranges read before acting"
    );
}

#[test]
fn read_targets_with_nothing_to_read_becomes_a_gap_search() {
    let mut sel = good_selection();
    sel.action = Action::ReadTargets;
    sel.read_targets = vec![read_target(9, "listing", true)];
    sel.search_targets = vec![search("loadQueue", Some("src/"))];
    let v = run(&sel, Intent::Locate);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::NoRange, "read target c9"),
            (Rule::Action, "action"),
            (Rule::Confidence, "confidence")
        ]
    );
    assert_eq!(v.selection.action, Action::TargetedGapSearch);
    // The model's own search survives once the action is a gap search; none is invented.
    assert_eq!(
        v.selection.search_targets,
        vec![search("loadQueue", Some("src/"))]
    );
}

#[test]
fn search_targets_only_go_with_a_gap_search() {
    let mut sel = good_selection();
    sel.search_targets = vec![search("loadQueue", None)];
    let v = run(&sel, Intent::Explain);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::SearchWithoutGapAction, "search target \"loadQueue\""),
            (Rule::Confidence, "confidence")
        ]
    );
    assert!(v.selection.search_targets.is_empty());
}

#[test]
fn the_deterministic_selections_missing_words_do_not_lower_it() {
    // Its missing parts are the query's words no code mentions, which its calibrated level
    // already weighed; the same selection submitted by a model is lowered for them.
    let mut sel = good_selection();
    sel.missing = vec!["no code in the repository mentions `retry`".into()];
    let own = validate(&sel, &registry(), Intent::Explain, &sel, &Budget::default());
    assert_eq!(own.selection.confidence, Confidence::High);
    assert_eq!(
        run(&sel, Intent::Explain).selection.confidence,
        Confidence::Medium
    );
}

#[test]
fn confidence_only_goes_down() {
    // High with a missing part becomes medium.
    let mut sel = good_selection();
    sel.missing = vec!["the retry policy".into()];
    let v = run(&sel, Intent::Explain);
    assert_eq!(v.selection.confidence, Confidence::Medium);
    assert_eq!(
        v.critical_gap,
        Some(CriticalGap::Missing {
            what: "the retry policy".into()
        })
    );

    // High that loses its only flow link drops to medium, then to low.
    let mut sel = selection(Action::AnswerFromReport, Confidence::High);
    sel.primary = vec![id(1)];
    sel.flow = vec![link(1, "a", "f", "not observed")];
    let v = run(&sel, Intent::Explain);
    assert_eq!(v.selection.confidence, Confidence::Low);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::QuoteUnverified, "flow link c1"),
            (Rule::Confidence, "confidence"),
            (Rule::Confidence, "confidence")
        ]
    );

    // Low stays low; high with no flow but nothing wrong stays high.
    let mut sel = selection(Action::AnswerFromReport, Confidence::High);
    sel.primary = vec![id(1)];
    assert_eq!(
        run(&sel, Intent::Locate).selection.confidence,
        Confidence::High
    );
}

#[test]
fn a_submission_is_capped_at_the_rankings_calibrated_level() {
    let calibrated = Selection {
        confidence: Confidence::Medium,
        ..fallback()
    };
    let v = validate(
        &good_selection(),
        &registry(),
        Intent::Explain,
        &calibrated,
        &Budget::default(),
    );
    assert_eq!(v.selection.confidence, Confidence::Medium);
    assert_eq!(rules(&v), vec![(Rule::Confidence, "confidence")]);
    assert_eq!(
        v.drops[0].reason,
        "high became medium: the ranking's calibrated level is lower"
    );
    // The deterministic selection is its own calibration: nothing caps it.
    let deterministic = good_selection();
    let own = validate(
        &deterministic,
        &registry(),
        Intent::Explain,
        &deterministic,
        &Budget::default(),
    );
    assert_eq!(own.selection.confidence, Confidence::High);
}

#[test]
fn a_gutted_selection_falls_back_at_low_confidence() {
    let mut sel = selection(Action::AnswerFromReport, Confidence::High);
    sel.primary = vec![id(77)];
    sel.flow = vec![link(1, "a", "f", "not observed")];
    let v = run(&sel, Intent::Explain);
    assert!(v.fell_back);
    assert_eq!(v.selection.primary, fallback().primary);
    assert_eq!(v.selection.confidence, Confidence::Low);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::UnknownId, "primary c77"),
            (Rule::QuoteUnverified, "flow link c1"),
            (Rule::Confidence, "confidence"),
            (Rule::Confidence, "confidence"),
            (Rule::Fallback, "selection"),
            (Rule::Confidence, "fallback confidence"),
        ]
    );
}

#[test]
fn skipping_is_an_outcome_not_a_gutted_selection() {
    let sel = selection(Action::SkipExploreResult, Confidence::Medium);
    let v = run(&sel, Intent::Explain);
    assert!(!v.fell_back);
    assert_eq!(v.selection.action, Action::SkipExploreResult);
    assert_eq!(v.selection.confidence, Confidence::Low);
}

#[test]
fn edit_without_a_ranged_candidate_is_a_critical_gap() {
    let mut sel = selection(Action::ReadTargets, Confidence::Low);
    sel.primary = vec![id(9)];
    let v = run(&sel, Intent::Edit);
    assert_eq!(v.critical_gap, Some(CriticalGap::NoRangedCandidate));
    assert_eq!(run(&sel, Intent::Locate).critical_gap, None);
}

#[test]
fn an_empty_fallback_keeps_the_remains_of_the_submission() {
    let mut sel = selection(Action::ReadTargets, Confidence::Medium);
    sel.read_targets = vec![read_target(1, "r", true)];
    let empty = selection(Action::ReadTargets, Confidence::Low);
    let v = validate(&sel, &registry(), Intent::Edit, &empty, &Budget::default());
    assert!(!v.fell_back);
    assert_eq!(v.selection.read_targets, sel.read_targets);
    assert_eq!(v.selection.confidence, Confidence::Low);
    let again = validate(
        &v.selection,
        &registry(),
        Intent::Edit,
        &empty,
        &Budget::default(),
    );
    assert_eq!(again.selection, v.selection);
    assert_eq!(again.drops, vec![]);
}

#[test]
fn a_quote_must_be_a_meaningful_span_not_any_substring() {
    let mut sel = selection(Action::AnswerFromReport, Confidence::Medium);
    sel.primary = vec![id(1)];
    sel.flow = vec![
        // One character, observed: in every file, so evidence of nothing.
        link(1, "a", "f", "e"),
        // Long enough, but it starts inside a word (`router.add` cut to `uter.add`).
        link(1, "b", "f", "uter.add(\"/\", Panel);"),
        // Whole tokens, at least twelve non-space characters.
        link(1, "c", "f", "router.add(\"/\", Panel)"),
        // A whole observed line, however short.
        link(8, "d", "f", "export const row17 = 17;"),
    ];
    let v = run(&sel, Intent::Locate);
    let dropped: Vec<&str> = v
        .drops
        .iter()
        .filter(|d| d.rule == Rule::QuoteUnverified)
        .map(|d| d.reason.as_str())
        .collect();
    assert_eq!(dropped.len(), 2, "{:?}", v.drops);
    assert!(dropped.iter().all(|r| r.contains("meaningful span")));
    let kept: Vec<&str> = v.selection.flow.iter().map(|l| l.role.as_str()).collect();
    assert_eq!(kept, ["c", "d"]);
}

#[test]
fn cited_files_deleted_or_changed_on_disk_are_dropped_with_a_reason() {
    let mut sel = selection(Action::ReadTargets, Confidence::High);
    sel.primary = vec![id(1), id(8)];
    sel.flow = vec![
        link(1, "a", "f", "router.add(\"/\", Panel);"),
        link(8, "b", "f", "export const row17 = 17;"),
    ];
    sel.read_targets = vec![read_target(1, "change it", true)];
    let reg = registry();
    let path_of = |n: u32| reg.get(id(n)).unwrap().path.clone();
    let (gone, edited) = (path_of(1), path_of(8));
    let read_now = |p: &str| {
        if p == gone {
            None
        } else if p == edited {
            Some("export const row17 = 18;\n".to_owned())
        } else {
            Some(String::new())
        }
    };
    let v = sightline_validate::validate_on_disk(
        &sel,
        &reg,
        Intent::Edit,
        &fallback(),
        &Budget::default(),
        &read_now,
    );
    let stale: Vec<&str> = v
        .drops
        .iter()
        .filter(|d| d.rule == Rule::StaleFile)
        .map(|d| d.what.as_str())
        .collect();
    assert_eq!(
        stale,
        [
            "primary c1",
            "read target c1",
            "flow link c1",
            "flow link c8"
        ]
    );
    assert!(v.selection.confidence <= Confidence::Medium);
}

#[test]
fn a_search_scope_must_be_a_path_of_the_repository() {
    let reg = registry();
    let path = reg.get(id(1)).unwrap().path.clone();
    let dir = path
        .rsplit_once('/')
        .map_or(String::new(), |(d, _)| d.to_owned());
    let scoped = |scope: &str| {
        let mut sel = selection(Action::TargetedGapSearch, Confidence::Medium);
        sel.primary = vec![id(1)];
        sel.search_targets = vec![search("term", Some(scope))];
        let v = run(&sel, Intent::Locate);
        let scope = v.selection.search_targets[0].scope.clone();
        let dropped = v.drops.iter().any(|d| d.rule == Rule::ForeignScope);
        (scope, dropped)
    };
    for kept in [
        dir.clone(),
        format!("{dir}/**/*.ts"),
        "**/*.ts".to_owned(),
        path,
    ] {
        assert_eq!(scoped(&kept), (Some(kept.clone()), false), "{kept}");
    }
    for foreign in [
        "/etc",
        "../outside",
        "the whole app",
        "nowhere/at/all",
        "a\nb",
    ] {
        assert_eq!(scoped(foreign), (None, true), "{foreign:?}");
    }
}

/// An indented line quoted from a file that has not changed is not "changed on disk":
/// the quote keeps the line's indentation, the file's text is compared whitespace-
/// normalised, so both must be normalised alike.
#[test]
fn an_indented_quote_from_an_unchanged_file_is_kept() {
    let reg = registry();
    let queue = reg
        .iter()
        .find(|c| {
            c.path == "src/services/queue.ts"
                && c.observed.iter().any(|o| o.text.contains("response.ok"))
        })
        .expect("the fixture reads src/services/queue.ts")
        .id;
    let mut sel = selection(Action::ReadTargets, Confidence::Medium);
    sel.primary = vec![queue];
    sel.flow = vec![link(
        queue.0,
        "data",
        "throws on a failed response",
        "if (!response.ok) {",
    )];
    let unchanged = |p: &str| (p == "src/services/queue.ts").then(|| format!("\n\n{QUEUE_LOAD}"));
    let v = sightline_validate::validate_on_disk(
        &sel,
        &reg,
        Intent::Explain,
        &fallback(),
        &Budget::default(),
        &unchanged,
    );
    assert_eq!(v.selection.flow.len(), 1, "{:?}", v.drops);
    assert!(
        v.drops.iter().all(|d| d.rule != Rule::StaleFile),
        "{:?}",
        v.drops
    );
}

/// A registry with a read of lines 1-20 and, inside it, a declaration 5-10 the read
/// labelled: both hold their own lines of the text.
fn read_with_a_declaration() -> sightline_registry::Registry {
    use sightline_base::{CandidateSymbol, LineRange, Location, ObservedText, Sighting, ToolName};
    let text = |r: LineRange| ObservedText {
        lines: r,
        text: (r.start..=r.end)
            .map(|n| format!("statement_number_{n}();\n"))
            .collect(),
    };
    let sighting = |r: LineRange, symbols: Vec<CandidateSymbol>| Sighting {
        path: "src/a.ts".into(),
        traits: sightline_base::PathTraits::of("src/a.ts"),
        location: Location::Lines(r),
        range: Some(r),
        symbols,
        reason: "read".into(),
        score: None,
        search: None,
        matched_terms: Vec::new(),
        text: Some(text(r)),
    };
    let method = CandidateSymbol {
        name: "save".into(),
        qualified: "Store.save".into(),
        kind: "method".into(),
        line: 5,
    };
    let mut registry = sightline_registry::Registry::new();
    registry.record_sightings(
        0,
        ToolName::ReadFile,
        [
            sighting(LineRange::new(1, 20), Vec::new()),
            sighting(LineRange::new(5, 10), vec![method]),
        ],
    );
    registry
}

#[test]
fn a_quote_is_cited_at_the_declaration_that_holds_it() {
    let registry = read_with_a_declaration();
    let sel = Selection {
        primary: vec![id(1)],
        flow: vec![link(1, "entry", "saves", "statement_number_7();")],
        ..selection(Action::AnswerFromReport, Confidence::Medium)
    };
    let v = validate(&sel, &registry, Intent::Explain, &sel, &Budget::default());
    assert_eq!(v.selection.flow[0].candidate, id(2), "{:?}", v.drops);
    assert_eq!(v.selection.primary, vec![id(2)]);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::Narrowed, "flow link c1"),
            (Rule::Narrowed, "primary c1")
        ]
    );
    assert_eq!(
        v.selection.confidence,
        Confidence::Medium,
        "a narrowing lowers nothing"
    );
    // A quote outside the declaration stays at the read.
    let outside = Selection {
        flow: vec![link(1, "entry", "saves", "statement_number_15();")],
        ..sel.clone()
    };
    let v = validate(
        &outside,
        &registry,
        Intent::Explain,
        &outside,
        &Budget::default(),
    );
    assert_eq!(v.selection, outside);
    // Validating the narrowed selection again changes nothing.
    let narrowed = validate(&sel, &registry, Intent::Explain, &sel, &Budget::default()).selection;
    let again = validate(
        &narrowed,
        &registry,
        Intent::Explain,
        &narrowed,
        &Budget::default(),
    );
    assert_eq!(again.selection, narrowed);
    assert!(again.drops.is_empty());
}

/// The schema's `maxLength` counts characters as submitted, and so does validation.
#[test]
fn a_quote_is_as_long_as_submitted() {
    use sightline_base::{LineRange, Location, ObservedText, Sighting, ToolName};
    let budget = Budget::default();
    let line = format!("        {}", "x".repeat(budget.max_quote_chars - 8));
    assert_eq!(line.chars().count(), budget.max_quote_chars);
    let mut registry = sightline_registry::Registry::new();
    let at = LineRange::new(3, 3);
    registry.record_sightings(
        0,
        ToolName::ReadFile,
        [Sighting {
            path: "src/a.ts".into(),
            traits: sightline_base::PathTraits::of("src/a.ts"),
            location: Location::Lines(at),
            range: Some(at),
            symbols: Vec::new(),
            reason: "read".into(),
            score: None,
            search: None,
            matched_terms: Vec::new(),
            text: Some(ObservedText {
                lines: at,
                text: format!("{line}\n"),
            }),
        }],
    );
    // The same line with one more space of indentation verifies just as well.
    for (quote, kept) in [(line.clone(), true), (format!(" {line}"), false)] {
        let sel = Selection {
            primary: vec![id(1)],
            flow: vec![link(1, "a", "f", &quote)],
            ..selection(Action::AnswerFromReport, Confidence::Medium)
        };
        let v = validate(&sel, &registry, Intent::Explain, &sel, &budget);
        let cut = v.drops.iter().any(|d| d.rule == Rule::TooLong);
        assert_eq!(
            cut,
            !kept,
            "{} characters: {:?}",
            quote.chars().count(),
            v.drops
        );
    }
}

#[test]
fn evidence_lines_must_read_so_at_the_line_they_name() {
    use sightline_registry::EvidenceLine;
    let line = |line: u32, text: &str| EvidenceLine {
        line,
        text: text.to_owned(),
    };
    let mut sel = selection(Action::AnswerFromReport, Confidence::Low);
    sel.primary = vec![id(1)];
    let mut l = link(
        1,
        "entry",
        "f",
        "export function buildRoutes(router: Router) {",
    );
    l.evidence = vec![
        // As observed at line 6, whitespace aside.
        line(6, "router.add(\"/queue/:id\",   openQueue);"),
        // Observed, but at line 5, not 7.
        line(7, "router.add(\"/\", Panel);"),
        // The quote's own line, again.
        line(4, "export function buildRoutes(router: Router) {"),
        // Outside the candidate's range (c1 is 1-12).
        line(31, "private handlers = new Map<string, Handler>();"),
        // Blank.
        line(8, "   "),
    ];
    sel.flow = vec![l];
    let v = run(&sel, Intent::Explain);
    assert_eq!(
        rules(&v),
        vec![
            (Rule::QuoteUnverified, "flow link c1 line 7"),
            (Rule::Duplicate, "flow link c1 line 4"),
            (Rule::QuoteUnverified, "flow link c1 line 31"),
            (Rule::QuoteUnverified, "flow link c1 line 8"),
        ]
    );
    assert_eq!(
        v.selection.flow[0].evidence,
        vec![line(6, "router.add(\"/queue/:id\",   openQueue);")]
    );
    // Validating again changes nothing.
    let again = run(&v.selection, Intent::Explain);
    assert_eq!(again.drops, vec![]);
}
