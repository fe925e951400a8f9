//! The navigation tools answer any name a model may send, words repeated, case mixed,
//! qualified or not, punctuation and all: a hit, nearest names or an error, never a panic
//! (debug builds check every subtraction, so a count that can underflow fails here); a
//! name found only in another case is said to be.

mod common;

use proptest::prelude::*;
use sightline_observe::tools::nav::Spot;
use sightline_observe::tools::nav::definition::{self, DefinitionArgs};
use sightline_observe::tools::nav::outline::{self, OutlineArgs};
use sightline_observe::tools::nav::references::{self, ReferencesArgs};

fn no_tag(_: &str, _: Spot) -> Option<String> {
    None
}

/// Names built from the fixture's own words, so near and partial matches are exercised
/// and not only misses.
fn name() -> impl Strategy<Value = String> {
    let word = prop::sample::select(vec![
        "record", "Record", "save", "Save", "store", "Store", "post", "load", "all", "x", "",
    ]);
    let sep = prop::sample::select(vec!["", "", ".", "_", "::", " ", "-", "/"]);
    prop::collection::vec((word, sep), 1..6).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(w, s)| format!("{w}{s}"))
            .collect::<String>()
    })
}

/// One index for every case: building it is most of a case's time.
#[test]
fn any_name_gets_an_answer_without_a_panic() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let mut runner = proptest::test_runner::TestRunner::new(ProptestConfig::with_cases(300));
    runner
        .run(&(name(), any::<bool>()), |(name, body)| {
            let mut def = DefinitionArgs::new(name.clone());
            def.body = body;
            if let Ok(found) = definition::run(db, ws, &def) {
                let text = found.render_tagged(&no_tag);
                // A case-folded answer has hits, none spelled as asked, says so first, and
                // suggests no spelling of the asked name in another case.
                let last = name.rsplit(['.', ':', '#']).next().unwrap_or("").trim();
                if found.case_folded {
                    prop_assert!(!found.hits.is_empty(), "{name:?}");
                    // None is spelled as asked: its qualified name's segments differ from
                    // the asked ones' as spelled (`recordstore.save` finds
                    // `RecordStore.save`, whose own name is spelled alike).
                    let asked: Vec<&str> = name
                        .split(['.', ':', '#'])
                        .map(str::trim)
                        .filter(|s| !s.is_empty())
                        .collect();
                    prop_assert!(
                        found.hits.iter().all(|h| {
                            let own: Vec<&str> = h.qualified.split('.').collect();
                            let k = own.len().min(asked.len());
                            own[own.len() - k..] != asked[asked.len() - k..]
                        }),
                        "{name:?}"
                    );
                    prop_assert!(text.contains("is declared only in another case"), "{text}");
                    prop_assert!(
                        found
                            .nearest
                            .iter()
                            .all(|n| !n.name.eq_ignore_ascii_case(last)),
                        "{name:?}: {:?}",
                        found.nearest
                    );
                } else if !found.hits.is_empty() {
                    prop_assert!(found.nearest.is_empty(), "{name:?}: {:?}", found.nearest);
                }
            }
            let mut uses = ReferencesArgs::new(name.clone());
            uses.callees = body;
            if let Ok(found) = references::run(db, ws, &uses) {
                let _ = found.render_tagged(&no_tag);
            }
            if let Ok(found) = outline::run(db, ws, &OutlineArgs::new(name)) {
                let _ = found.render_tagged(&no_tag);
            }
            Ok(())
        })
        .unwrap();
}
