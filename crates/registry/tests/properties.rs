//! Registry invariants over random sequences of real tool calls on the fixture project.

use std::collections::BTreeSet;
use std::path::PathBuf;

use proptest::prelude::*;
use sightline_base::{SHORT_DECLARATION_LINES, near_identical};
use sightline_observe::paths::RepoRoot;
use sightline_observe::tools::explore_code::{self, ExploreArgs};
use sightline_observe::tools::grep::{self, GrepArgs};
use sightline_observe::tools::read_file::{self, ReadFileArgs};
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::registry::UNREAD_FILES_SHOWN;
use sightline_registry::{
    DbOutline, Location, Observation, Outline, RecordObservation as _, Registry,
};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app")
}

#[derive(Clone, Debug)]
enum Call {
    Explore(String),
    Grep(String),
    Read(String, u32, u32),
}

const WORDS: &[&str] = &[
    "save", "record", "store", "shape", "area", "render", "row", "format", "client", "post",
];
const FILES: &[&str] = &[
    "src/state/recordStore.ts",
    "src/api/client.ts",
    "src/handlers/save.ts",
    "src/shapes/circle.ts",
];

fn call() -> impl Strategy<Value = Call> {
    prop_oneof![
        proptest::sample::subsequence(WORDS, 1..3).prop_map(|w| Call::Explore(w.join(" "))),
        proptest::sample::select(WORDS).prop_map(|w| Call::Grep(w.to_owned())),
        (proptest::sample::select(FILES), 1u32..40, 0u32..30).prop_map(|(f, s, n)| Call::Read(
            f.to_owned(),
            s,
            s + n
        )),
    ]
}

fn observe(index: &Index, root: &RepoRoot, c: &Call) -> Observation {
    let r = match c {
        Call::Explore(q) => explore_code::run(index.db(), index.workspace(), &ExploreArgs::new(q))
            .map(Observation::ExploreCode),
        Call::Grep(p) => grep::run(root, &GrepArgs::new(p)).map(Observation::Grep),
        Call::Read(f, s, e) => {
            let mut a = ReadFileArgs::new(f);
            a.start_line = Some(*s);
            a.end_line = Some(*e);
            read_file::run(root, &a).map(Observation::ReadFile)
        }
    };
    r.unwrap_or_else(|e| Observation::Error(e.to_string()))
}

fn record_all(index: &Index, observations: &[Observation]) -> Registry {
    let outline = DbOutline {
        db: index.db(),
        ws: index.workspace(),
    };
    let mut reg = Registry::new();
    for (i, o) in observations.iter().enumerate() {
        reg.record(i as u32, o, &outline);
    }
    reg
}

/// Every location an observation shows: windows and reads by their lines, grep hits by
/// their line, listed files (and files past the cap, as many as the text lists) whole.
fn locations(o: &Observation) -> Vec<(String, Location)> {
    match o {
        Observation::ExploreCode(r) => r
            .files
            .iter()
            .flat_map(|f| {
                f.windows
                    .iter()
                    .map(|w| (f.path.clone(), Location::Lines(w.place())))
            })
            .chain(
                r.more_files
                    .iter()
                    .take(UNREAD_FILES_SHOWN)
                    .map(|m| (m.path.clone(), Location::of(m.best_range))),
            )
            .collect(),
        Observation::Grep(r) => r
            .matches
            .iter()
            .map(|m| (m.path.clone(), Location::Hit(m.line)))
            .collect(),
        _ => Vec::new(),
    }
}

/// Whether `reg` gives every location of `observations` a candidate that is its lines or
/// near-identical to them (a window) or holds its line (a hit), and a hit a candidate no
/// wider than the short-declaration limit unless its innermost declaration is wider.
fn every_location_resolves(
    reg: &Registry,
    observations: &[Observation],
    outline: &dyn Outline,
) -> Result<(), String> {
    for (path, loc) in observations.iter().flat_map(locations) {
        let c = reg
            .at(&path, loc)
            .ok_or(format!("{path} {loc:?} has no candidate"))?;
        let fits = match loc {
            Location::Lines(r) => c.range.is_some_and(|cr| near_identical(cr, r)),
            Location::Hit(line) => c.range.is_some_and(|r| {
                let innermost = outline
                    .declaration_at(&path, line)
                    .map_or(0, |(d, _)| d.len());
                r.contains_line(line) && r.len() <= SHORT_DECLARATION_LINES.max(innermost)
            }),
            Location::File => c.range.is_none(),
        };
        if !fits {
            return Err(format!("{path} {loc:?} went to {:?}", c.range));
        }
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, ..ProptestConfig::default() })]

    #[test]
    fn ids_are_dense_stable_and_locations_are_real(calls in proptest::collection::vec(call(), 1..6)) {
        let index = Index::open(&fixture(), &IndexOptions { cache: CacheMode::Disabled, progress: None }).unwrap();
        let root = RepoRoot::new(fixture()).unwrap();
        let observations: Vec<Observation> = calls.iter().map(|c| observe(&index, &root, c)).collect();
        let reg = record_all(&index, &observations);
        for (i, c) in reg.iter().enumerate() {
            prop_assert_eq!(c.id.0 as usize, i + 1);
            let text = std::fs::read_to_string(fixture().join(&c.path));
            prop_assert!(text.is_ok(), "{} is not a file of the root", c.path);
            let lines = text.unwrap().lines().count() as u32;
            if let Some(r) = c.range {
                prop_assert!(1 <= r.start && r.start <= r.end && r.end <= lines, "{}:{:?} outside 1..={}", c.path, r, lines);
            }
        }
        // The same calls give the same registry.
        prop_assert_eq!(&reg, &record_all(&index, &observations));
        // Recording everything again adds nothing.
        let mut again = reg.clone();
        again.reindex();
        let outline = DbOutline { db: index.db(), ws: index.workspace() };
        let before = again.len();
        for (i, o) in observations.iter().enumerate() {
            again.record(i as u32, o, &outline);
        }
        prop_assert_eq!(again.len(), before);
        // Arrival order changes IDs (and which candidate a hit joins), never whether each
        // location resolves to a candidate that is or holds it.
        let mut reversed = observations.clone();
        reversed.reverse();
        let rev = record_all(&index, &reversed);
        let outline = DbOutline { db: index.db(), ws: index.workspace() };
        let resolves = every_location_resolves(&reg, &observations, &outline);
        prop_assert!(resolves.is_ok(), "{:?}", resolves);
        let resolves = every_location_resolves(&rev, &observations, &outline);
        prop_assert!(resolves.is_ok(), "{:?}", resolves);
        // What a candidate holds of the text lies within its range.
        for c in reg.iter() {
            for o in &c.observed {
                prop_assert!(c.range.is_none_or(|r| r.contains(&o.lines)), "{:?} holds {:?}", c.range, o.lines);
                prop_assert_eq!(o.text.lines().count() as u32, o.lines.len());
            }
        }
        let paths = |r: &Registry| r.iter().map(|c| c.path.clone()).collect::<BTreeSet<_>>();
        prop_assert_eq!(paths(&reg), paths(&rev));
    }
}

#[test]
fn the_same_location_seen_by_two_tools_is_one_candidate() {
    let index = Index::open(
        &fixture(),
        &IndexOptions {
            cache: CacheMode::Disabled,
            progress: None,
        },
    )
    .unwrap();
    let root = RepoRoot::new(fixture()).unwrap();
    let explore = observe(&index, &root, &Call::Explore("postRecord".into()));
    let grep = observe(&index, &root, &Call::Grep("postRecord(draft".into()));
    let reg = record_all(&index, &[explore, grep]);
    let in_client: Vec<_> = reg
        .in_file("src/api/client.ts")
        .filter(|c| c.symbols.iter().any(|s| s.name == "postRecord"))
        .collect();
    assert_eq!(in_client.len(), 1, "{in_client:#?}");
    let tools: BTreeSet<_> = in_client[0].provenance.iter().map(|p| p.tool).collect();
    assert_eq!(tools.len(), 2, "{:?}", in_client[0].provenance);
}
