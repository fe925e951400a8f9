//! Rule 3b: the runners-up name files the report does not otherwise cite, and together with
//! the primary places' files at most [`MAX_NAMED_FILES`]. A runner-up in a primary place's
//! file, a second one in the same file, or one past the count is dropped; none is added
//! when a primary place is dropped (a runner-up is never promoted, the list never padded).

use std::collections::HashSet;

use sightline_base::Registry;
use sightline_base::selection::MAX_NAMED_FILES;

use crate::outcome::Rule;
use crate::pass::{Pass, drop_of, retain_or_record};

pub(crate) fn fit_runners_up(pass: &mut Pass, registry: &Registry) {
    let path = |id| registry.get(id).map(|c| c.path.as_str());
    let primary: HashSet<&str> = pass.sel.primary.iter().filter_map(|&id| path(id)).collect();
    let room = MAX_NAMED_FILES.saturating_sub(primary.len());
    let mut named: HashSet<&str> = HashSet::new();
    retain_or_record(&mut pass.sel.runners_up, &mut pass.drops, |&id, _| {
        let what = || format!("runner-up {id}");
        // Rule 1 has dropped unknown IDs already; one that slipped through names no file.
        let Some(file) = path(id) else {
            return Err(drop_of(
                Rule::UnknownId,
                what(),
                "no tool observed this candidate",
            ));
        };
        if primary.contains(file) {
            return Err(drop_of(
                Rule::Duplicate,
                what(),
                "its file is a primary place's",
            ));
        }
        if !named.insert(file) {
            return Err(drop_of(
                Rule::Duplicate,
                what(),
                "its file is an earlier runner-up's",
            ));
        }
        if named.len() > room {
            return Err(drop_of(
                Rule::OverCount,
                what(),
                format!("a report names at most {MAX_NAMED_FILES} files"),
            ));
        }
        Ok(())
    });
}
