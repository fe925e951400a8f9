//! The navigation tools as a model reads them in a session: one line per hit, each hit
//! labelled with a candidate ID that resolves to a place holding the printed line, and
//! IDs usable as names.

mod common;

use proptest::prelude::*;
use serde_json::{Value, json};
use sightline_agent::ExploreSession;
use sightline_registry::{CandidateId, Intent, Registry};

fn text_of(
    session: &ExploreSession,
    index: &mut sightline_observe::Index<sightline_registry::RegistryDatabase>,
    tool: &str,
    args: Value,
) -> String {
    let outcome = session.call_json(index, tool, &args);
    assert!(!outcome.is_error, "{tool} {args}: {}", outcome.text);
    outcome.text
}

#[test]
fn each_navigation_tool_as_a_model_reads_it() {
    let mut index = common::open_fixture();
    let session =
        ExploreSession::new(&mut index, "where is a record saved", Intent::Locate).unwrap();
    let def = text_of(
        &session,
        &mut index,
        "definition",
        json!({"name": "RecordStore.save"}),
    );
    insta::assert_snapshot!("definition", def);
    let uses = text_of(
        &session,
        &mut index,
        "references",
        json!({"name": "RecordStore.save"}),
    );
    insta::assert_snapshot!("references", uses);
    let calls = text_of(
        &session,
        &mut index,
        "references",
        json!({"name": "RecordStore.save", "callees": true}),
    );
    insta::assert_snapshot!("callees", calls);
    let file = text_of(
        &session,
        &mut index,
        "outline",
        json!({"path": "src/state/recordStore.ts"}),
    );
    insta::assert_snapshot!("outline_file", file);
    let dir = text_of(
        &session,
        &mut index,
        "outline",
        json!({"path": "src/components"}),
    );
    insta::assert_snapshot!("outline_directory", dir);
    let read = text_of(
        &session,
        &mut index,
        "read_file",
        json!({"path": "src/state/recordStore.ts", "start_line": 9, "end_line": 34}),
    );
    insta::assert_snapshot!("read_labels_declarations", read);
    let miss = text_of(
        &session,
        &mut index,
        "definition",
        json!({"name": "RecordStroe"}),
    );
    insta::assert_snapshot!("definition_nearest", miss);
    session.close(&mut index);
}

#[test]
fn a_known_declaration_keeps_its_id_across_tools_and_an_id_names_it() {
    let mut index = common::open_fixture();
    let session = ExploreSession::new(&mut index, "save", Intent::Locate).unwrap();
    let def = session.call_json(
        &mut index,
        "definition",
        &json!({"name": "RecordStore.save"}),
    );
    let id = def.new_ids[0];
    let registry = session.registry(&index);
    let place = registry.get(id).unwrap().clone();
    let range = place.range.unwrap();
    // The outline and a read of it show the same ID, and mint none.
    let outline = session.call_json(&mut index, "outline", &json!({"path": place.path}));
    assert!(
        outline.text.contains(&format!("[{id}]")),
        "{}",
        outline.text
    );
    let read = session.call_json(
        &mut index,
        "read_file",
        &json!({"path": place.path, "start_line": range.start, "end_line": range.end}),
    );
    assert!(read.new_ids.is_empty(), "{}", read.text);
    assert!(read.text.contains(&format!("[{id}]")), "{}", read.text);
    // A read around it is another place, and labels it inside.
    let around = session.call_json(
        &mut index,
        "read_file",
        &json!({"path": place.path, "start_line": range.start - 3, "end_line": range.end + 3}),
    );
    assert!(
        around
            .text
            .contains(&format!("[{id} {}-{}]", range.start, range.end)),
        "{}",
        around.text
    );
    // The ID as a name: the uses of that declaration.
    let by_id = session.call_json(&mut index, "references", &json!({"name": id.to_string()}));
    let by_name = session.call_json(
        &mut index,
        "references",
        &json!({"name": "RecordStore.save"}),
    );
    assert!(!by_id.is_error, "{}", by_id.text);
    assert_eq!(by_id.text, by_name.text);
    let unknown = session.call_json(&mut index, "definition", &json!({"name": "c999"}));
    assert!(
        unknown.is_error && unknown.text.contains("c999"),
        "{}",
        unknown.text
    );
}

/// Every label printed with a line number (`23 [c8 20-30]`, `23: [c8 …]`, ` 250 [c32 …]`)
/// names a candidate whose range holds that line; every label after `path:a-b` (or a
/// read's `path:a-b of N`) names a candidate of that path whose range shares a line with a-b.
fn labels_hold_their_lines(text: &str, registry: &Registry) -> Result<(), String> {
    let mut heading: Option<String> = None;
    // A callee listing's callers: (indent, path) of the lines above, the header first
    // (indent none); a callee printed as `:a-b` is in its caller's file.
    let mut callers: Vec<(Option<usize>, String)> = Vec::new();
    for line in text.lines() {
        let indent = line.len() - line.trim_start().len();
        let mut line_path: Option<String> = None;
        if line.ends_with(" uses:") {
            let path = line.split(':').next().unwrap_or("").to_owned();
            callers = vec![(None, path)];
        } else if !callers.is_empty() {
            while callers.len() > 1 && callers.last().is_some_and(|(i, _)| *i >= Some(indent)) {
                callers.pop();
            }
            let printed = line
                .trim_start()
                .split(' ')
                .find(|w| w.contains(':'))
                .map(|w| w.split(':').next().unwrap_or(""));
            if let Some(printed) = printed {
                let path = if printed.is_empty() {
                    callers.last().map(|(_, p)| p.clone()).unwrap_or_default()
                } else {
                    printed.to_owned()
                };
                callers.push((Some(indent), path.clone()));
                line_path = Some(path);
            }
        }
        if let Some(p) = line
            .strip_prefix("## ")
            .or_else(|| line.strip_prefix("#### "))
            .or_else(|| {
                line.contains(" of ")
                    .then_some(line)
                    .filter(|l| read_header(l))
            })
        {
            heading = Some(p.split([':', ' ']).next().unwrap_or(p).to_owned());
        } else if let Some(p) = line.strip_prefix("  ")
            && !p.starts_with(' ')
            && let Some(first) = p.split(' ').next()
            && !first.contains(':')
            && first.contains(['/', '.'])
            && !first.starts_with(|c: char| c.is_ascii_digit())
        {
            // explore_code's signature section: a path alone heads its files' lines.
            heading = Some(first.to_owned());
        }
        let Some(open) = line.find("[c") else {
            continue;
        };
        let Some(close) = line[open..].find(']') else {
            continue;
        };
        let Ok(id) = line[open..open + close + 1].parse::<CandidateId>() else {
            continue;
        };
        let c = registry
            .get(id)
            .ok_or(format!("{id} printed but unknown: {line}"))?;
        let before = line[..open].trim_end();
        // A read's header: `path:a-b of N`.
        let before = match before.rsplit_once(" of ") {
            Some((range, total)) if total.parse::<u32>().is_ok() => range,
            _ => before,
        };
        let number = before.trim_start().trim_end_matches([':', '?']);
        if let Ok(n) = number.parse::<u32>() {
            if !c.range.is_some_and(|r| r.contains_line(n)) {
                return Err(format!("{id} {:?} does not hold line {n}: {line}", c.range));
            }
            if let Some(h) = &heading
                && h != &c.path
                && !line.contains(&c.path)
            {
                return Err(format!(
                    "{id} is in {} but printed under {h}: {line}",
                    c.path
                ));
            }
            continue;
        }
        if let Some((path, range)) = before.rsplit_once(':') {
            let path = path.rsplit(' ').next().unwrap_or(path);
            let path = match &line_path {
                Some(resolved) if path.is_empty() => resolved.as_str(),
                _ => path,
            };
            let (a, b) = range.split_once('-').unwrap_or((range, range));
            if let (Ok(a), Ok(b)) = (a.parse::<u32>(), b.parse::<u32>()) {
                let shown = sightline_base::LineRange::new(a, b);
                if c.path != path || !c.range.is_some_and(|r| r.overlaps(&shown)) {
                    return Err(format!(
                        "{id} {} {:?} is not {path}:{a}-{b}: {line}",
                        c.path, c.range
                    ));
                }
            }
        }
    }
    Ok(())
}

/// Whether `line` is a read's header, `path:a-b of N …`.
fn read_header(line: &str) -> bool {
    let mut words = line.split(' ');
    let (Some(first), Some("of"), Some(total)) = (words.next(), words.next(), words.next()) else {
        return false;
    };
    let range = first.rsplit_once(':').map_or("", |(_, r)| r);
    total.parse::<u32>().is_ok()
        && range
            .split_once('-')
            .is_some_and(|(a, b)| a.parse::<u32>().is_ok() && b.parse::<u32>().is_ok())
}

const NAMES: &[&str] = &[
    "save",
    "RecordStore",
    "RecordStore.save",
    "postRecord",
    "Shape",
    "handleSave",
    "area",
    "describeShape",
    "createId",
    "ApiError",
    "recordStore",
];
const PATHS: &[&str] = &[
    "src/state/recordStore.ts",
    "src/shapes",
    "src/api/client.ts",
    "src",
    "src/components/RecordPanel.tsx",
];

fn call() -> impl Strategy<Value = (String, Value)> {
    prop_oneof![
        proptest::sample::select(NAMES).prop_map(|n| ("definition".to_owned(), json!({"name": n}))),
        (proptest::sample::select(NAMES), any::<bool>())
            .prop_map(|(n, c)| ("references".to_owned(), json!({"name": n, "callees": c}))),
        (
            proptest::sample::select(NAMES),
            proptest::sample::select(NAMES)
        )
            .prop_map(|(n, to)| ("references".to_owned(), json!({"name": n, "to": to}))),
        proptest::sample::select(PATHS).prop_map(|p| ("outline".to_owned(), json!({"path": p}))),
        (proptest::sample::select(NAMES), 0u32..3)
            .prop_map(|(n, c)| ("grep".to_owned(), json!({"pattern": n, "context": c}))),
        (
            proptest::sample::select(&PATHS[..3]).prop_filter("files", |p| p.contains('.')),
            1u32..30,
            0u32..40
        )
            .prop_map(|(p, s, n)| (
                "read_file".to_owned(),
                json!({"path": p, "start_line": s, "end_line": s + n})
            )),
        proptest::sample::select(NAMES)
            .prop_map(|n| ("explore_code".to_owned(), json!({"query": n}))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 16, ..ProptestConfig::default() })]

    #[test]
    fn every_printed_id_resolves_to_a_place_holding_its_line(calls in proptest::collection::vec(call(), 1..7)) {
        let mut index = common::open_fixture();
        let session = ExploreSession::new(&mut index, "record", Intent::Locate).unwrap();
        for (tool, args) in &calls {
            let outcome = session.call_json(&mut index, tool, args);
            let registry = session.registry(&index);
            let checked = labels_hold_their_lines(&outcome.text, &registry);
            prop_assert!(checked.is_ok(), "{tool} {args}: {:?}\n{}", checked, outcome.text);
        }
        session.close(&mut index);
    }
}

/// A path that does not exist is an error that names the paths nearest it, for every
/// tool that reads the file tree; one with nothing near is the plain error.
#[test]
fn a_missing_path_is_answered_with_the_paths_nearest_it() {
    let mut index = common::open_fixture();
    let session = ExploreSession::new(&mut index, "record", Intent::Locate).unwrap();
    for (tool, args) in [
        ("grep", json!({"pattern": "save", "path": "api/client.ts"})),
        ("read_file", json!({"path": "api/client.ts"})),
    ] {
        let outcome = session.call_json(&mut index, tool, &args);
        assert!(outcome.is_error, "{tool}: {}", outcome.text);
        assert!(
            outcome.text.contains(
                "path `api/client.ts` does not exist in the repository; nearest: `src/api/client.ts`"
            ),
            "{tool}: {}",
            outcome.text
        );
    }
    let outcome = session.call_json(&mut index, "read_file", &json!({"path": "zzz/nothing.rs"}));
    assert!(outcome.is_error);
    assert!(!outcome.text.contains("nearest"), "{}", outcome.text);
    session.close(&mut index);
}
