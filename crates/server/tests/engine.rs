//! The tool bodies without the protocol: sessions, validation through `submit_json`,
//! freshness and the error messages a model sees.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_registry::{RegistryDatabase, ToolCall};
use sightline_server::{CallError, Engine, MAX_OPEN_SESSIONS};

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app")
}

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in std::fs::read_dir(from).unwrap() {
        let entry = entry.unwrap();
        let target = to.join(entry.file_name());
        if entry.file_type().unwrap().is_dir() {
            copy_dir(&entry.path(), &target);
        } else {
            std::fs::copy(entry.path(), &target).unwrap();
        }
    }
}

fn engine() -> (tempfile::TempDir, Engine) {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), dir.path());
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open_with_db(RegistryDatabase::default(), dir.path(), &options).unwrap();
    (dir, Engine::new(index))
}

/// [`engine`] kept fresh by a file watcher, or `None` where this machine cannot watch.
fn watched_engine() -> Option<(tempfile::TempDir, Engine)> {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), dir.path());
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let (freshness, observer) =
        sightline_observe::watch::Freshness::watch(dir.path(), sightline_observe::LANGUAGES)
            .ok()?;
    let index = Index::open_observed(
        RegistryDatabase::default(),
        dir.path(),
        &options,
        Some(observer),
    )
    .unwrap();
    Some((dir, Engine::new(index).with_freshness(freshness)))
}

fn params<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).unwrap()
}

fn explore_code(query: &str) -> ToolCall {
    ToolCall::ExploreCode(sightline_observe::tools::explore_code::ExploreArgs::new(
        query,
    ))
}

fn start(engine: &mut Engine, query: &str) -> (String, sightline_server::CallOut) {
    let reply = engine.call(None, explore_code(query)).unwrap();
    (reply.structured.session.clone(), reply.structured)
}

#[test]
fn a_session_accumulates_calls_and_closes_on_an_accepted_submission() {
    let (_dir, mut engine) = engine();
    let (id, first) = start(&mut engine, "validateDraft");
    assert!(!first.new_candidates.is_empty());
    let grep = ToolCall::Grep(params(json!({"pattern": "handleSave"})));
    let second = engine.call(Some(&id), grep).unwrap();
    assert_eq!(second.structured.session, id);
    // IDs continue within the session instead of starting again at c1.
    let first_ids: Vec<_> = first.new_candidates.iter().map(|c| c.id).collect();
    assert!(
        second
            .structured
            .new_candidates
            .iter()
            .all(|c| !first_ids.contains(&c.id))
    );

    let bad = engine.submit(params(json!({"session": id, "primary": ["c1"]})));
    let Err(CallError::Selection(e)) = bad else {
        panic!("expected a selection error, got {bad:?}")
    };
    assert!(e.to_string().contains("action"), "{e}");
    assert_eq!(
        engine.open_sessions(),
        1,
        "a rejected selection keeps the session"
    );

    let good = json!({
        "session": id, "primary": ["c1"], "action": "read_targets", "confidence": "high",
        "read_targets": [{"candidate": "c1", "purpose": "change the check", "required": true}],
    });
    let report = engine.submit(params(good)).unwrap();
    assert_eq!(
        report.structured.primary[0].path,
        first.new_candidates[0].path
    );
    assert_eq!(engine.open_sessions(), 0);
    let again = engine.call(Some(&id), ToolCall::ListFiles(params(json!({}))));
    assert!(matches!(again, Err(CallError::UnknownSession { .. })));
}

#[test]
fn a_new_session_is_named_on_the_first_line_and_nothing_more() {
    let (_dir, mut engine) = engine();
    let grep = || ToolCall::Grep(params(json!({"pattern": "handleSave"})));
    let first = engine.call(None, grep()).unwrap();
    let id = first.structured.session.clone();
    assert!(
        first.text.starts_with(&format!("session {id}\n")),
        "{}",
        first.text
    );
    let second = engine.call(None, grep()).unwrap();
    let next = second.structured.session.clone();
    assert_ne!(id, next, "a call without a session starts another");
    assert!(
        second.text.starts_with(&format!("session {next}\n")),
        "{}",
        second.text
    );
    assert_eq!(
        first.text.split_once('\n').map(|(_, rest)| rest),
        second.text.split_once('\n').map(|(_, rest)| rest),
        "the same result under either line"
    );
}

/// An ID means something only in the session that showed it: a call naming one without a
/// session continues the latest session (and names it), where the ID was shown.
#[test]
fn an_id_without_a_session_is_read_in_the_latest_session() {
    let (_dir, mut engine) = engine();
    let shown = engine
        .call(
            None,
            ToolCall::Grep(params(json!({"pattern": "handleSave"}))),
        )
        .unwrap();
    let id = shown.structured.session.clone();
    let declared = shown
        .structured
        .new_candidates
        .iter()
        .find(|c| c.path == "src/handlers/save.ts")
        .expect("the declaration's hit");
    let by_id = engine
        .call(
            None,
            ToolCall::Definition(params(json!({"name": declared.id.to_string()}))),
        )
        .unwrap();
    assert_eq!(by_id.structured.session, id);
    assert!(
        by_id
            .text
            .starts_with(&format!("session {id}\nsrc/handlers/save.ts:")),
        "{}",
        by_id.text
    );
    assert_eq!(engine.open_sessions(), 1, "no session was started for it");
    // The ID of an import line, which no declaration holds, says so.
    let import = shown.structured.new_candidates[0].id;
    assert!(
        shown.text.contains(&format!("2:[{import}] import")),
        "{}",
        shown.text
    );
    let line = engine
        .call(
            None,
            ToolCall::References(params(json!({"name": import.to_string()}))),
        )
        .unwrap();
    assert!(
        line.text.contains("no declaration holds that line"),
        "{}",
        line.text
    );
    // A name, not an ID, still starts a session of its own.
    let by_name = engine
        .call(
            None,
            ToolCall::Definition(params(json!({"name": "handleSave"}))),
        )
        .unwrap();
    assert_ne!(by_name.structured.session, id);
}

#[test]
fn every_session_tool_can_start_a_session_and_submit_sets_the_intent() {
    let (_dir, mut engine) = engine();
    for call in [
        ToolCall::Grep(params(json!({"pattern": "handleSave"}))),
        ToolCall::Definition(params(json!({"name": "handleSave"}))),
        ToolCall::References(params(json!({"name": "handleSave"}))),
        ToolCall::Outline(params(json!({"path": "src/handlers"}))),
        ToolCall::ReadFile(params(json!({"path": "src/handlers/save.ts"}))),
        ToolCall::ListFiles(params(json!({"path": "src"}))),
    ] {
        let reply = engine.call(None, call).unwrap();
        let id = reply.structured.session.clone();
        assert!(
            reply.text.starts_with(&format!("session {id}\n")),
            "{}",
            reply.text
        );
        let next = engine
            .call(
                Some(&id),
                ToolCall::Grep(params(json!({"pattern": "validateDraft"}))),
            )
            .unwrap();
        assert_eq!(next.structured.session, id);
        assert!(!next.text.starts_with("session "), "{}", next.text);
    }
    // The intent of a session a definition started is locate until the submission says:
    // an edit report cannot be answered from the report alone.
    let reply = engine
        .call(
            None,
            ToolCall::Definition(params(json!({"name": "handleSave"}))),
        )
        .unwrap();
    let id = reply.structured.session.clone();
    let report = engine
        .submit(params(json!({
            "session": id, "intent": "edit", "primary": ["c1"],
            "action": "answer_from_report", "confidence": "medium",
        })))
        .unwrap();
    assert_ne!(
        report.structured.action,
        sightline_registry::Action::AnswerFromReport
    );
}

#[test]
fn a_failed_first_call_leaves_no_session() {
    let (_dir, mut engine) = engine();
    let empty = engine.call(None, explore_code("  "));
    assert!(matches!(empty, Err(CallError::Tool(_))), "{empty:?}");
    assert_eq!(engine.open_sessions(), 0);
}

#[test]
fn tool_failures_in_a_session_are_errors_with_the_reason() {
    let (_dir, mut engine) = engine();
    let (id, _) = start(&mut engine, "validateDraft");
    let outside = ToolCall::ReadFile(params(json!({"path": "../outside.ts"})));
    let Err(CallError::Tool(message)) = engine.call(Some(&id), outside) else {
        panic!("a path outside the root must fail")
    };
    assert!(message.contains("outside.ts"), "{message}");
    let unknown = engine.call(Some("s999"), ToolCall::ListFiles(params(json!({}))));
    assert!(matches!(unknown, Err(CallError::UnknownSession { .. })));
    let garbage = engine.call(Some("nonsense"), ToolCall::ListFiles(params(json!({}))));
    assert!(matches!(garbage, Err(CallError::UnknownSession { .. })));
}

#[test]
fn only_the_most_recent_sessions_are_kept() {
    let (_dir, mut engine) = engine();
    let (oldest, _) = start(&mut engine, "validateDraft");
    for _ in 0..MAX_OPEN_SESSIONS {
        start(&mut engine, "handleSave");
    }
    assert_eq!(engine.open_sessions(), MAX_OPEN_SESSIONS);
    let evicted = engine.call(Some(&oldest), ToolCall::ListFiles(params(json!({}))));
    assert!(matches!(evicted, Err(CallError::UnknownSession { .. })));
}

#[test]
fn an_edit_between_calls_is_seen_by_the_next_call() {
    let (dir, engine) = engine();
    an_edit_between_calls_is_seen_by_the_next_call_of(dir, engine);
}

/// No wait between the edit and the call: the watcher's fence makes the call see it.
#[test]
fn an_edit_between_calls_is_seen_by_the_next_call_of_a_watching_engine() {
    let Some((dir, engine)) = watched_engine() else {
        eprintln!("skipped: this machine cannot watch a directory");
        return;
    };
    assert!(engine.is_watching());
    an_edit_between_calls_is_seen_by_the_next_call_of(dir, engine);
}

fn an_edit_between_calls_is_seen_by_the_next_call_of(dir: tempfile::TempDir, mut engine: Engine) {
    let name = "reconcileQuokkaLedger";
    // The fixture's save.ts has 22 lines; the added function starts below them.
    let added = |c: &sightline_server::CandidateOut| {
        c.path == "src/handlers/save.ts" && c.start.is_some_and(|s| s > 22)
    };
    let (_, before) = start(&mut engine, name);
    assert!(!before.new_candidates.iter().any(added), "{before:?}");
    let file = dir.path().join("src/handlers/save.ts");
    let mut text = std::fs::read_to_string(&file).unwrap();
    text.push_str(&format!(
        "\nexport function {name}(total: number): number {{\n  return total * 2;\n}}\n"
    ));
    std::fs::write(&file, text).unwrap();
    let (_, after) = start(&mut engine, name);
    assert!(after.new_candidates.iter().any(added), "{after:?}");
}

#[test]
fn explore_reports_only_paths_that_exist() {
    let (dir, mut engine) = engine();
    let reply = engine
        .explore(&params(
            json!({"query": "validateDraft handleSave", "intent": "edit"}),
        ))
        .unwrap();
    assert!(!reply.structured.primary.is_empty(), "{}", reply.text);
    for place in &reply.structured.primary {
        assert!(dir.path().join(&place.path).is_file(), "{}", place.path);
    }
    for read in &reply.structured.read {
        assert!(dir.path().join(&read.path).is_file(), "{}", read.path);
    }
    assert_eq!(engine.open_sessions(), 0, "explore keeps no session");
}

#[test]
fn explore_selects_with_a_configured_value_model() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    use sightline_agent::Budgets;
    use sightline_agent::testing::{ScriptedProvider, Turn, response_with_calls};
    use sightline_server::ValueModel;

    let submitted = Arc::new(AtomicUsize::new(0));
    let seen = Arc::clone(&submitted);
    let submit = json!({
        "primary": ["c1"], "action": "read_targets", "confidence": "medium",
        "read_targets": [{"candidate": "c1", "purpose": "change the check", "required": true}],
    });
    let provider = ScriptedProvider::new([
        Turn::call("explore_code", json!({"query": "validateDraft"})),
        Turn::computed(move |_| {
            seen.fetch_add(1, Ordering::SeqCst);
            Ok(response_with_calls(vec![(
                "submit_report".to_owned(),
                submit.to_string(),
            )]))
        }),
    ]);
    let (dir, engine) = engine();
    let mut engine =
        engine.with_value_model(ValueModel::new(Box::new(provider), Budgets::default()));
    let reply = engine
        .explore(&params(json!({"query": "validateDraft", "intent": "edit"})))
        .unwrap();
    assert_eq!(submitted.load(Ordering::SeqCst), 1, "the model submitted");
    assert_eq!(reply.structured.read.len(), 1, "{}", reply.text);
    assert!(reply.structured.read[0].required);
    assert!(dir.path().join(&reply.structured.read[0].path).is_file());
}

#[test]
fn a_submission_hears_what_validation_removed() {
    let (_dir, mut engine) = engine();
    let (id, _) = start(&mut engine, "validateDraft");
    let reply = engine
        .submit(params(json!({
            "session": id, "intent": "edit", "primary": ["c1", "c99"],
            "action": "answer_from_report", "confidence": "high",
        })))
        .unwrap();
    let note = reply.validation.expect("drops are reported");
    assert!(note.contains("c99"), "{note}");
    assert!(note.contains("action"), "{note}");
    assert!(
        !reply.text.contains("validation:"),
        "the report text stays the report"
    );
}

#[test]
fn a_file_deleted_after_it_was_observed_is_not_cited() {
    let (dir, mut engine) = engine();
    let (id, first) = start(&mut engine, "validateDraft");
    let cited = first.new_candidates[0].clone();
    std::fs::remove_file(dir.path().join(&cited.path)).unwrap();
    let reply = engine
        .submit(params(json!({
            "session": id, "primary": [cited.id.to_string()],
            "action": "read_targets", "confidence": "high",
            "read_targets": [{"candidate": cited.id.to_string(), "purpose": "change it", "required": true}],
        })))
        .unwrap();
    assert!(
        reply
            .structured
            .primary
            .iter()
            .all(|p| p.path != cited.path),
        "{:?}",
        reply.structured.primary
    );
    let note = reply.validation.expect("the drop is reported");
    assert!(note.contains("deleted"), "{note}");
}

/// A long-running server must not keep what finished sessions held: every closed, evicted
/// or failed session gives its storage back, so the inputs allocated stay bounded by the
/// sessions open at once however many calls are answered (the soak, bounded in calls).
#[test]
fn storage_of_finished_and_evicted_sessions_is_reused_not_accumulated() {
    let (_dir, mut engine) = engine();
    for round in 0..120 {
        let query = format!("validateDraft handleSave {round}");
        engine
            .explore(&params(json!({"query": query, "intent": "explain"})))
            .unwrap();
        // More sessions than the server keeps: the oldest are evicted.
        let (id, _) = start(&mut engine, &query);
        if round % 3 == 0 {
            let grep = ToolCall::Grep(params(json!({"pattern": "handleSave"})));
            engine.call(Some(&id), grep).unwrap();
            let done = json!({"session": id, "primary": ["c1"], "action": "read_targets", "confidence": "low"});
            engine.submit(params(done)).unwrap();
        }
        // A first call that fails does not keep its session either.
        let bad = engine.call(None, explore_code(""));
        assert!(bad.is_err() || engine.open_sessions() <= MAX_OPEN_SESSIONS);
    }
    assert!(engine.open_sessions() <= MAX_OPEN_SESSIONS);
    assert!(
        engine.sessions_allocated() <= MAX_OPEN_SESSIONS + 2,
        "{} session inputs allocated for at most {MAX_OPEN_SESSIONS} open sessions",
        engine.sessions_allocated()
    );
}

/// Every file of the tree with its length, modification time and content.
fn tree_state(root: &Path) -> Vec<(PathBuf, u64, std::time::SystemTime, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![root.to_owned()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            let meta = std::fs::symlink_metadata(&path).unwrap();
            if meta.is_dir() {
                stack.push(path.clone());
            }
            let content = if meta.is_file() {
                std::fs::read(&path).unwrap()
            } else {
                Vec::new()
            };
            out.push((path, meta.len(), meta.modified().unwrap(), content));
        }
    }
    out.sort();
    out
}

/// The README's read-only guarantee: indexing (with the persistent cache on) and every
/// tool leave the repository exactly as they found it: no file added, changed or touched.
#[test]
fn no_tool_writes_into_the_repository() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(&fixture(), dir.path());
    let before = tree_state(dir.path());
    let cache = tempfile::tempdir().unwrap();
    let options = IndexOptions {
        cache: CacheMode::Dir(cache.path().to_owned()),
        progress: None,
    };
    // Watching too, where the machine can: the watcher's fence files are written outside
    // the repository.
    let (freshness, observer) = match sightline_observe::watch::Freshness::watch(
        dir.path(),
        sightline_observe::LANGUAGES,
    ) {
        Ok((freshness, observer)) => (freshness, Some(observer)),
        Err(_) => (sightline_observe::watch::Freshness::walk(), None),
    };
    let index =
        Index::open_observed(RegistryDatabase::default(), dir.path(), &options, observer).unwrap();
    index.save_cache().unwrap();
    let mut engine = Engine::new(index).with_freshness(freshness);
    engine
        .explore(&params(json!({"query": "validateDraft", "intent": "edit"})))
        .unwrap();
    let (id, _) = start(&mut engine, "handleSave");
    for call in [
        json!({"tool": "grep", "args": {"pattern": "handleSave", "context": 2}}),
        json!({"tool": "read_file", "args": {"path": "package.json"}}),
        json!({"tool": "list_files", "args": {"path": "."}}),
        json!({"tool": "definition", "args": {"name": "handleSave", "body": true}}),
        json!({"tool": "references", "args": {"name": "handleSave"}}),
        json!({"tool": "outline", "args": {"path": "src"}}),
    ] {
        let call: ToolCall = params(call);
        engine.call(Some(&id), call).unwrap();
    }
    let done =
        json!({"session": id, "primary": ["c1"], "action": "read_targets", "confidence": "low"});
    engine.submit(params(done)).unwrap();
    assert_eq!(tree_state(dir.path()), before);
}

/// `preview: true` validates and renders exactly as the submission would, says so, and
/// keeps the session open; the submission without it then closes the session.
#[test]
fn a_preview_renders_the_report_and_keeps_the_session_open() {
    let (_dir, mut engine) = engine();
    let (id, _) = start(&mut engine, "validateDraft");
    let selection = json!({"session": id, "primary": ["c1", "c999"], "action": "read_targets", "confidence": "high"});
    let mut preview = selection.clone();
    preview["preview"] = json!(true);
    let previewed = engine.submit(params(preview)).unwrap();
    assert_eq!(engine.open_sessions(), 1);
    let note = previewed.validation.clone().unwrap();
    assert!(
        note.contains("stays open") && note.contains("c999"),
        "{note}"
    );
    let submitted = engine.submit(params(selection)).unwrap();
    assert_eq!(engine.open_sessions(), 0);
    assert_eq!(previewed.text, submitted.text);
    assert_eq!(previewed.structured.primary, submitted.structured.primary);
}

#[test]
fn explore_answers_on_a_python_project_with_existing_paths() {
    let dir = tempfile::tempdir().unwrap();
    copy_dir(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/python_app"),
        dir.path(),
    );
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open_with_db(RegistryDatabase::default(), dir.path(), &options).unwrap();
    let mut engine = Engine::new(index);
    let reply = engine
        .explore(&params(
            json!({"query": "cart checkout applies a discount", "intent": "locate"}),
        ))
        .unwrap();
    assert!(!reply.structured.primary.is_empty(), "{}", reply.text);
    let primary = reply.structured.primary.iter().map(|p| &p.path);
    let read = reply.structured.read.iter().map(|r| &r.path);
    for path in primary.chain(read) {
        assert!(path.ends_with(".py"), "{path}");
        assert!(dir.path().join(path).is_file(), "{path}");
    }
}

fn read(path: &str) -> ToolCall {
    ToolCall::ReadFile(params(json!({ "path": path })))
}

/// Several reads in one call (`a.ts:3-9 b.ts`, as a shell chains `sed -n`) show exactly
/// what the same reads one at a time show in a fresh session, in the order asked, under
/// one session line; a read that fails leaves its error in its place.
#[test]
fn several_reads_in_one_call_show_what_the_reads_one_by_one_show() {
    let (_dir, mut engine) = engine();
    let listed = "src/main.tsx:2-6 src/types.ts missing.ts src/main.tsx:4";
    let joined = engine.call(None, read(listed)).unwrap();
    let id = joined.structured.session.clone();

    let mut one_by_one = String::new();
    let mut session: Option<String> = None;
    for entry in [
        "src/main.tsx:2-6",
        "src/types.ts",
        "missing.ts",
        "src/main.tsx:4",
    ] {
        let (path, range) = entry.split_once(':').unwrap_or((entry, ""));
        let (start, end) = range.split_once('-').unwrap_or((range, ""));
        let mut args = json!({ "path": path });
        if !start.is_empty() {
            args["start_line"] = json!(start.parse::<u32>().unwrap());
        }
        if !end.is_empty() {
            args["end_line"] = json!(end.parse::<u32>().unwrap());
        }
        match engine.call(session.as_deref(), ToolCall::ReadFile(params(args))) {
            Ok(reply) => {
                let text = reply.text.split_once('\n').filter(|_| session.is_none());
                one_by_one.push_str(text.map_or(&reply.text, |(_, rest)| rest));
                session = Some(reply.structured.session);
            }
            Err(CallError::Tool(why)) => one_by_one.push_str(&format!("{why}\n")),
            Err(other) => panic!("{other}"),
        }
    }
    let body = joined
        .text
        .strip_prefix(&format!("session {id}\n"))
        .unwrap_or_else(|| panic!("one session line first: {}", joined.text));
    assert_eq!(body, one_by_one);
    assert!(body.contains("error: path `missing.ts`"), "{body}");
    assert_eq!(joined.structured.text, joined.text);
}

#[test]
fn several_reads_that_all_fail_are_an_error_naming_each() {
    let (_dir, mut engine) = engine();
    let Err(CallError::Tool(why)) = engine.call(None, read("nope.ts other.ts:1-3")) else {
        panic!("every read failed: the call is an error");
    };
    assert!(why.contains("nope.ts") && why.contains("other.ts"), "{why}");
    assert_eq!(
        engine.open_sessions(),
        0,
        "a failed first call leaves no session"
    );
}
