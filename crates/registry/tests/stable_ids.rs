//! One place, one ID: whatever a session's calls observe, in any order, a candidate's
//! range never changes after it is created, the same location always gets the same ID, a
//! line hit lands on a tight candidate that holds its line, and a read of a known
//! declaration reuses its ID.

use proptest::prelude::*;
use sightline_base::{SHORT_DECLARATION_LINES, near_identical};
use sightline_observe::LineRange;
use sightline_observe::tools::grep::{GrepMatch, GrepResult};
use sightline_observe::tools::read_file::ReadFileResult;
use sightline_registry::{
    CandidateSymbol, Location, Observation, Outline, RecordObservation as _, Registry, ToolName,
};

const PATH: &str = "src/a.ts";
const FILE_LINES: u32 = 200;

/// Nested declarations: a long class 5-150 with methods 10-20 and 25-45 (with an inner
/// function 30-35), and a short class 160-190 with a method 165-180.
struct Nested;

/// In source order (a parent before its children).
const DECLS: [(u32, u32); 6] = [
    (5, 150),
    (10, 20),
    (25, 45),
    (30, 35),
    (160, 190),
    (165, 180),
];

fn symbol(s: u32) -> CandidateSymbol {
    CandidateSymbol {
        name: format!("d{s}"),
        qualified: format!("d{s}"),
        kind: "function".into(),
        line: s,
    }
}

impl Outline for Nested {
    fn declaration_at(&self, _: &str, line: u32) -> Option<(LineRange, CandidateSymbol)> {
        let (s, e) = DECLS
            .iter()
            .copied()
            .filter(|&(s, e)| s <= line && line <= e)
            .min_by_key(|&(s, e)| e - s)?;
        Some((LineRange::new(s, e), symbol(s)))
    }
    fn declarations_in(&self, _: &str, range: LineRange) -> Vec<CandidateSymbol> {
        DECLS
            .iter()
            .filter(|(s, _)| range.contains_line(*s))
            .map(|&(s, _)| symbol(s))
            .collect()
    }
    fn declarations_overlapping(
        &self,
        _: &str,
        range: LineRange,
    ) -> Vec<(LineRange, CandidateSymbol)> {
        DECLS
            .iter()
            .map(|&(s, e)| (LineRange::new(s, e), symbol(s)))
            .filter(|(r, _)| r.overlaps(&range))
            .collect()
    }
}

#[derive(Clone, Debug)]
enum Call {
    Read(u32, u32),
    Grep(u32),
}

fn observation(call: &Call) -> Observation {
    match *call {
        Call::Read(start, end) => Observation::ReadFile(ReadFileResult {
            path: PATH.into(),
            start_line: start,
            end_line: end,
            total_lines: FILE_LINES,
            truncated: false,
            text: (start..=end).map(|n| format!("line {n}\n")).collect(),
            invalid_utf8: false,
            line_cut: false,
        }),
        Call::Grep(line) => Observation::Grep(GrepResult {
            matches: vec![GrepMatch {
                path: PATH.into(),
                line,
                text: format!("line {line}"),
                truncated: false,
                context_before: Vec::new(),
                context_after: Vec::new(),
            }],
            ..GrepResult::default()
        }),
    }
}

fn location(call: &Call) -> Location {
    match *call {
        Call::Read(s, e) => Location::Lines(LineRange::new(s, e)),
        Call::Grep(l) => Location::Hit(l),
    }
}

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        (1..FILE_LINES, 0..80u32).prop_map(|(s, w)| Call::Read(s, (s + w).min(FILE_LINES))),
        (1..=FILE_LINES).prop_map(Call::Grep),
    ]
}

fn innermost_len(line: u32) -> u32 {
    Nested
        .declaration_at(PATH, line)
        .map_or(0, |(r, _)| r.len())
}

proptest! {
    #[test]
    fn ranges_never_change_and_locations_keep_their_ids(calls in prop::collection::vec(call(), 1..24)) {
        let mut registry = Registry::new();
        let mut seen = Vec::new();
        for (i, call) in calls.iter().enumerate() {
            let before: Vec<_> = registry.iter().map(|c| (c.id, c.range)).collect();
            registry.record(i as u32, &observation(call), &Nested);
            // No existing candidate changed its range (a read never widens a window).
            for (id, range) in &before {
                prop_assert_eq!(registry.get(*id).unwrap().range, *range);
            }
            let here = location(call);
            let c = registry.at(PATH, here).expect("every sighted location has an ID");
            match call {
                // A read is a candidate of what was read, or of a place nearly the same.
                Call::Read(s, e) => prop_assert!(
                    c.range.is_some_and(|r| near_identical(r, LineRange::new(*s, *e))),
                    "read {s}-{e} went to {:?}", c.range
                ),
                // A hit, one holding its line, no wider than the short limit unless its
                // innermost declaration is.
                Call::Grep(line) => {
                    let r = c.range.unwrap();
                    prop_assert!(r.contains_line(*line));
                    prop_assert!(
                        r.len() <= SHORT_DECLARATION_LINES.max(innermost_len(*line)),
                        "hit {line} went to {r:?}"
                    );
                    // Outside a short declaration, never a span only reads showed: the
                    // report cites the hit's lines, not the read's (a read of exactly the
                    // hit's line is that same place, so it keeps its one ID).
                    if innermost_len(*line) == 0 || innermost_len(*line) > SHORT_DECLARATION_LINES {
                        prop_assert!(
                            r == LineRange::new(*line, *line)
                                || c.provenance.first().is_some_and(|p| p.tool != ToolName::ReadFile),
                            "hit {line} joined the read {r:?}"
                        );
                    }
                }
            }
            seen.push((here, c.id));
            // Every location seen so far still maps to the ID it got first.
            for (loc, id) in &seen {
                prop_assert_eq!(registry.at(PATH, *loc).map(|c| c.id), Some(*id));
            }
            // What a candidate holds of the text lies within its range.
            for c in registry.iter() {
                let r = c.range.unwrap();
                prop_assert!(c.observed.iter().all(|o| r.contains(&o.lines)), "{c:?}");
            }
        }
    }

    #[test]
    fn a_read_of_a_known_declaration_reuses_its_id(
        calls in prop::collection::vec(call(), 0..12),
        decl in proptest::sample::select(DECLS.to_vec()),
        slack in 0u32..3,
    ) {
        let mut registry = Registry::new();
        for (i, call) in calls.iter().enumerate() {
            registry.record(i as u32, &observation(call), &Nested);
        }
        // The declaration becomes known through a hit on its signature line (a short one
        // is the hit's place) or a read of exactly its lines (a long one).
        let (s, e) = decl;
        let known = if e - s < SHORT_DECLARATION_LINES { Call::Grep(s) } else { Call::Read(s, e) };
        let n = calls.len() as u32;
        registry.record(n, &observation(&known), &Nested);
        let id = registry.at(PATH, location(&known)).unwrap().id;
        prop_assert_eq!(registry.get(id).unwrap().range, Some(LineRange::new(s, e)));
        // A read of it, a line or two wider where the declaration is long enough for that
        // to be near-identical, is the same candidate.
        let wide = (e - s + 1) / sightline_base::NEAR_IDENTICAL_DIVISOR;
        let slack = slack.min(wide);
        let read = Call::Read(s.saturating_sub(slack).max(1), (e + slack).min(FILE_LINES));
        registry.record(n + 1, &observation(&read), &Nested);
        prop_assert_eq!(registry.at(PATH, location(&read)).map(|c| c.id), Some(id));
    }
}

#[test]
fn a_hit_in_a_long_class_is_its_own_line_and_one_in_a_short_method_is_the_method() {
    let mut registry = Registry::new();
    // Line 7 is in the long class only: the hit is cited as its line, never the class.
    registry.record(0, &observation(&Call::Grep(7)), &Nested);
    let c = registry.at(PATH, Location::Hit(7)).unwrap();
    assert_eq!(c.range, Some(LineRange::new(7, 7)));
    assert!(c.symbols.is_empty(), "the line is not the class");
    // Line 26 is in the method 25-45: the method is the place.
    registry.record(1, &observation(&Call::Grep(26)), &Nested);
    let c = registry.at(PATH, Location::Hit(26)).unwrap();
    assert_eq!(c.range, Some(LineRange::new(25, 45)));
    // Line 170 is in the method 165-180 of the short class: the innermost place.
    registry.record(2, &observation(&Call::Grep(170)), &Nested);
    let c = registry.at(PATH, Location::Hit(170)).unwrap();
    assert_eq!(c.range, Some(LineRange::new(165, 180)));
}

#[test]
fn a_hit_inside_a_read_of_its_declaration_joins_it_and_near_identical_reads_too() {
    let mut registry = Registry::new();
    registry.record(0, &observation(&Call::Read(25, 45)), &Nested);
    registry.record(1, &observation(&Call::Grep(26)), &Nested);
    assert_eq!(
        registry.len(),
        1,
        "the hit joins the read of its declaration"
    );
    // 24-46 differs from 25-45 by a line at each end: the same place.
    registry.record(2, &observation(&Call::Read(24, 46)), &Nested);
    assert_eq!(registry.len(), 1);
    // 20-50 is another place.
    registry.record(3, &observation(&Call::Read(20, 50)), &Nested);
    assert_eq!(registry.len(), 2);
    assert_eq!(
        registry.iter().next().unwrap().range,
        Some(LineRange::new(25, 45))
    );
}

#[test]
fn a_hit_outside_short_declarations_is_its_own_place_even_inside_a_read() {
    let mut registry = Registry::new();
    // 50-80 lies in the long class 5-150 only; a read of it is a span, not a place.
    registry.record(0, &observation(&Call::Read(50, 80)), &Nested);
    registry.record(1, &observation(&Call::Grep(60)), &Nested);
    let hit = registry.at(PATH, Location::Hit(60)).unwrap();
    assert_eq!(hit.range, Some(LineRange::new(60, 60)));
    // Inside a short declaration the read of it is the place.
    registry.record(3, &observation(&Call::Read(165, 180)), &Nested);
    registry.record(4, &observation(&Call::Grep(170)), &Nested);
    assert_eq!(
        registry.at(PATH, Location::Hit(170)).unwrap().range,
        Some(LineRange::new(165, 180))
    );
}

#[test]
fn a_read_over_several_declarations_labels_each_short_one() {
    let mut registry = Registry::new();
    // 8-50 covers the methods 10-20 and 25-45 (and 30-35 inside 25-45).
    registry.record(0, &observation(&Call::Read(8, 50)), &Nested);
    let ranges: Vec<_> = registry.iter().filter_map(|c| c.range).collect();
    assert_eq!(
        ranges,
        [
            LineRange::new(8, 50),
            LineRange::new(10, 20),
            LineRange::new(25, 45)
        ]
    );
    // Each holds its own lines of the read, for quotes.
    let method = registry
        .at(PATH, Location::Lines(LineRange::new(25, 45)))
        .unwrap();
    assert_eq!(method.observed[0].lines, LineRange::new(25, 45));
    assert!(method.observed[0].text.starts_with("line 25\n"));
    let text = sightline_registry::annotate::render_observation(
        &observation(&Call::Read(8, 50)),
        &registry,
    );
    assert!(text.contains("\n10 [c2 10-20] line 10"), "{text}");
    assert!(text.contains("\n25 [c3 25-45] line 25"), "{text}");
}
