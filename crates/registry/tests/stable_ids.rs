//! One location, one ID: whatever a session's calls observe, in any order, a candidate's
//! range never changes after it is created, the same location always gets the same ID,
//! and a grep hit lands on a candidate that holds its line.

use proptest::prelude::*;
use sightline_observe::LineRange;
use sightline_observe::tools::grep::{GrepMatch, GrepResult};
use sightline_observe::tools::read_file::ReadFileResult;
use sightline_registry::{
    CandidateSymbol, Location, Observation, Outline, RecordObservation as _, Registry,
};

const PATH: &str = "src/a.ts";
const FILE_LINES: u32 = 60;

/// Nested declarations: a class 5-50 with methods 10-20 and 25-45 (with an inner
/// function 30-35).
struct Nested;

const DECLS: [(u32, u32); 4] = [(30, 35), (10, 20), (25, 45), (5, 50)];

impl Outline for Nested {
    fn declaration_at(&self, _: &str, line: u32) -> Option<(LineRange, CandidateSymbol)> {
        // Innermost first: DECLS is ordered by width.
        let (s, e) = DECLS
            .iter()
            .copied()
            .filter(|&(s, e)| s <= line && line <= e)
            .min_by_key(|&(s, e)| e - s)?;
        let symbol = CandidateSymbol {
            name: format!("d{s}"),
            qualified: format!("d{s}"),
            kind: "function".into(),
            line: s,
        };
        Some((LineRange::new(s, e), symbol))
    }
    fn declarations_in(&self, _: &str, _: LineRange) -> Vec<CandidateSymbol> {
        Vec::new()
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
        (1..FILE_LINES, 0..30u32).prop_map(|(s, w)| Call::Read(s, (s + w).min(FILE_LINES))),
        (1..=FILE_LINES).prop_map(Call::Grep),
    ]
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
            // A read is a candidate of exactly what was read; a hit, one holding its line.
            match call {
                Call::Read(s, e) => prop_assert_eq!(c.range, Some(LineRange::new(*s, *e))),
                Call::Grep(line) => prop_assert!(c.range.is_some_and(|r| r.contains_line(*line))),
            }
            seen.push((here, c.id));
            // Every location seen so far still maps to the ID it got first.
            for (loc, id) in &seen {
                prop_assert_eq!(registry.at(PATH, *loc).map(|c| c.id), Some(*id));
            }
        }
    }
}

#[test]
fn a_hit_inside_a_window_joins_it_and_a_wider_declaration_does_not_capture_it() {
    let mut registry = Registry::new();
    // A read of the method 25-45, then a hit on line 26 (innermost declaration 25-45).
    registry.record(0, &observation(&Call::Read(25, 45)), &Nested);
    registry.record(1, &observation(&Call::Grep(26)), &Nested);
    assert_eq!(
        registry.len(),
        1,
        "the hit joins the read of its declaration"
    );
    // A read of 24-46 is a new candidate: ranges are never widened or merged.
    registry.record(2, &observation(&Call::Read(24, 46)), &Nested);
    assert_eq!(registry.len(), 2);
    assert_eq!(
        registry.iter().next().unwrap().range,
        Some(LineRange::new(25, 45))
    );
    // A hit on line 7 (inside the class only) becomes the class, not the 24-46 read.
    registry.record(3, &observation(&Call::Grep(7)), &Nested);
    let c = registry.at(PATH, Location::Hit(7)).unwrap();
    assert_eq!(c.range, Some(LineRange::new(5, 50)));
}
