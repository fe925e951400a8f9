//! A session's ranking is a tracked function: derived once per change of the session's
//! calls, shared by every later ask, and equal to ranking the same calls directly.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use salsa::Setter as _;
use sightline_observe::tools::explore_code::{self, ExploreArgs};
use sightline_observe::{CacheMode, Index, IndexOptions};
use sightline_rank::{Weights, finish_with, ranked};
use sightline_registry::{Intent, Observation, RecordedCall, RegistryDatabase, ToolCall};

type Log = Arc<Mutex<Vec<String>>>;

fn counted_index() -> (Index<RegistryDatabase>, Log) {
    let log: Log = Arc::default();
    let sink = log.clone();
    let db = RegistryDatabase::with_event_hook(move |event| {
        if let salsa::EventKind::WillExecute { database_key } = event.kind {
            sink.lock().unwrap().push(format!("{database_key:?}"));
        }
    });
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app");
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    (Index::open_with_db(db, &root, &options).unwrap(), log)
}

fn rankings_executed(log: &Log) -> usize {
    let log = log.lock().unwrap();
    log.iter()
        .filter(|k| k.starts_with("session_ranking("))
        .count()
}

fn explore_call(index: &Index<RegistryDatabase>, query: &str) -> RecordedCall {
    let args = ExploreArgs::new(query);
    let result = explore_code::run(index.db(), index.workspace(), &args).unwrap();
    RecordedCall {
        call: ToolCall::ExploreCode(args),
        observation: Observation::ExploreCode(result),
    }
}

#[test]
fn a_ranking_is_derived_once_per_change_of_the_calls() {
    let (mut index, log) = counted_index();
    let ws = index.workspace();
    let session = index
        .db_mut()
        .open_session(ws, "save record store".into(), Intent::Locate);
    let first = explore_call(&index, "save record store");
    session.set_calls(index.db_mut()).to(vec![first.clone()]);

    let weights = *Weights::fitted();
    let a = ranked(index.db(), session, &weights);
    let b = ranked(index.db(), session, &weights);
    assert_eq!(rankings_executed(&log), 1, "a second ask is a lookup");
    assert!(Arc::ptr_eq(&a, &b));

    // The memo is what ranking the same calls directly gives.
    let direct = finish_with(index.db(), session, &weights);
    assert_eq!(a.packet, direct.packet);
    assert_eq!(a.selection, direct.selection);

    // Other weights are another ranking, and keep the first one's memo.
    let other = Weights::structural();
    let _ = ranked(index.db(), session, &other);
    assert_eq!(rankings_executed(&log), 2);
    let _ = ranked(index.db(), session, &weights);
    assert_eq!(rankings_executed(&log), 2);

    // A new call re-derives the ranking once.
    let second = explore_call(&index, "shape area");
    session.set_calls(index.db_mut()).to(vec![first, second]);
    let c = ranked(index.db(), session, &weights);
    let _ = ranked(index.db(), session, &weights);
    assert_eq!(rankings_executed(&log), 3);
    assert!(c.registry.len() >= a.registry.len());
}
