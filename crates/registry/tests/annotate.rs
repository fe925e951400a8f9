//! Tool results rendered for a model carry the IDs the registry assigned, and only those.

use std::path::PathBuf;

use sightline_observe::paths::RepoRoot;
use sightline_observe::tools::explore_code::{self, ExploreArgs};
use sightline_observe::tools::grep::{self, GrepArgs};
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::annotate::render_observation;
use sightline_registry::{DbOutline, Observation, RecordObservation as _, Registry};

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app")
}

fn open_fixture() -> Index {
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    Index::open(&fixture(), &options).unwrap()
}

#[test]
fn annotated_observations_cite_registered_ids() {
    let index = open_fixture();
    let root = RepoRoot::new(fixture()).unwrap();
    let outline = DbOutline {
        db: index.db(),
        ws: index.workspace(),
    };
    let mut registry = Registry::new();
    let mut args = ExploreArgs::new("postRecord");
    args.max_files = 2;
    let explore =
        Observation::ExploreCode(explore_code::run(index.db(), index.workspace(), &args).unwrap());
    registry.record(0, &explore, &outline);
    let grep = Observation::Grep(grep::run(&root, &GrepArgs::new("recordStore.save")).unwrap());
    registry.record(1, &grep, &outline);

    let explore_text = render_observation(&explore, &registry);
    let grep_text = render_observation(&grep, &registry);
    insta::assert_snapshot!("explore_with_ids", explore_text);
    insta::assert_snapshot!("grep_with_ids", grep_text);

    // Every `[cN]` shown names a registered candidate.
    for text in [&explore_text, &grep_text] {
        for piece in text.split('[').skip(1) {
            let Some(id) = piece.split(']').next() else {
                continue;
            };
            if let Ok(id) = id.parse::<sightline_registry::CandidateId>() {
                assert!(registry.get(id).is_some(), "{id} shown but not registered");
            }
        }
    }
}

/// A grep over the fixture, recorded in a fresh registry and rendered as the model reads
/// it, with that registry.
fn rendered_grep(args: &GrepArgs) -> (String, Registry) {
    let index = open_fixture();
    let root = RepoRoot::new(fixture()).unwrap();
    let outline = DbOutline {
        db: index.db(),
        ws: index.workspace(),
    };
    let mut registry = Registry::new();
    let grep = Observation::Grep(grep::run(&root, args).unwrap());
    registry.record(0, &grep, &outline);
    (render_observation(&grep, &registry), registry)
}

#[test]
fn grep_context_reaches_the_model_and_only_match_lines_carry_ids() {
    let (text, _) = rendered_grep(&GrepArgs {
        context: 2,
        ..GrepArgs::new("recordStore.save")
    });
    let context: Vec<&str> = text.lines().filter(|l| is_context(l)).collect();
    assert!(context.len() >= 2, "context lines missing:\n{text}");
    assert!(context.iter().all(|l| !l.contains("[c")), "{text}");
    assert!(text.contains(":[c"), "match line lost its ID:\n{text}");
}

/// `13-text`: a grep context line.
fn is_context(line: &str) -> bool {
    line.split_once('-')
        .is_some_and(|(n, _)| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// A grep hit's label carries its range only when the reader cannot see it: an ID whose
/// range is printed with the match, or that was labelled with its range earlier in the
/// result, is printed bare.
#[test]
fn grep_labels_leave_out_ranges_the_reader_sees() {
    // The test file's lines too (not folded), for their runs of one label; the class
    // `RecordStore` too (ignoring case), for a label whose range is not all printed.
    let (text, registry) = rendered_grep(&GrepArgs {
        context: 1,
        secondary: true,
        case_sensitive: Some(false),
        ..GrepArgs::new("recordStore")
    });
    insta::assert_snapshot!("grep_labels_with_context", text);

    let mut path = String::new();
    let mut printed: Vec<(String, u32)> = Vec::new();
    for line in text.lines() {
        if let Some(p) = line.strip_prefix("## ") {
            path = p.to_owned();
        } else if let Some(Ok(n)) = line.split_once([':', '-']).map(|(n, _)| n.parse::<u32>()) {
            printed.push((path.clone(), n));
        }
    }
    let mut labelled = std::collections::HashSet::new();
    for line in text.lines() {
        let Some((_, rest)) = line.split_once(":[") else {
            continue;
        };
        let label = rest.split(']').next().unwrap();
        let id: sightline_registry::CandidateId = label.split(' ').next().unwrap().parse().unwrap();
        let c = registry.get(id).unwrap();
        if label.contains(' ') {
            labelled.insert(id);
            continue;
        }
        let range = c.range.unwrap();
        let seen = (range.start..=range.end).all(|n| printed.contains(&(c.path.clone(), n)));
        assert!(
            seen || labelled.contains(&id),
            "{id} printed bare but its range {range:?} is not shown:\n{text}"
        );
    }
}

/// A match line printed without a label belongs to the label above it: its candidate is
/// the one last labelled in the same file, so a reader who carries the label down cites
/// the right place (with and without context between the hits).
#[test]
fn an_unlabelled_match_shares_the_label_above_it() {
    for context in [0, 1] {
        let (text, registry) = rendered_grep(&GrepArgs {
            context,
            secondary: true,
            ..GrepArgs::new("recordStore")
        });
        let mut path = String::new();
        let mut current: Option<sightline_registry::CandidateId> = None;
        let mut unlabelled = 0;
        for line in text.lines() {
            if let Some(p) = line.strip_prefix("## ") {
                path = p.to_owned();
                current = None;
                continue;
            }
            let Some((n, rest)) = line.split_once(':') else {
                continue;
            };
            let Ok(n) = n.parse::<u32>() else { continue };
            let hit = registry
                .at(&path, sightline_registry::Location::Hit(n))
                .map(|c| c.id);
            match rest.strip_prefix('[') {
                Some(label) => {
                    current = label.split([' ', ']']).next().unwrap().parse().ok();
                    assert_eq!(current, hit, "{path}:{n} labelled with another ID:\n{text}");
                }
                None => {
                    unlabelled += 1;
                    if hit.is_some() {
                        assert_eq!(hit, current, "{path}:{n} is not the label above's:\n{text}");
                    }
                }
            }
        }
        assert!(unlabelled > 0, "no unlabelled match to check:\n{text}");
    }
}

/// A read labels each declaration it shows whole at its signature line, with the range
/// only when the line number beside it does not already say it (a one-line declaration).
#[test]
fn a_read_labels_a_one_line_declaration_without_repeating_its_line() {
    use sightline_observe::tools::read_file::{self, ReadFileArgs};
    let index = open_fixture();
    let root = RepoRoot::new(fixture()).unwrap();
    let outline = DbOutline {
        db: index.db(),
        ws: index.workspace(),
    };
    let mut registry = Registry::new();
    let args: ReadFileArgs = serde_json::from_value(serde_json::json!({
        "path": "src/handlers/save.ts"
    }))
    .unwrap();
    let read = Observation::ReadFile(read_file::run(&root, &args).unwrap());
    registry.record(0, &read, &outline);
    let text = render_observation(&read, &registry);
    let constant = registry
        .iter()
        .find(|c| c.range.is_some_and(|r| r.start == 4 && r.end == 4))
        .expect("the one-line constant at line 4 is a candidate");
    assert!(
        text.contains(&format!("\n4 [{}] const MAX_TITLE_LENGTH", constant.id)),
        "{text}"
    );
    // A longer declaration keeps its range: the reader cannot see where it ends.
    let longer = registry
        .iter()
        .filter(|c| c.symbols.len() == 1)
        .find(|c| c.range.is_some_and(|r| r.len() > 1))
        .expect("a multi-line declaration inside the read");
    let r = longer.range.unwrap();
    assert!(
        text.contains(&format!("[{} {}-{}]", longer.id, r.start, r.end)),
        "{text}"
    );
    // A blank line is its number alone: no line ends in the space after a number.
    assert!(text.contains("\n3\n"), "{text}");
    assert!(!text.lines().any(|l| l.ends_with(' ')), "{text}");
}
