//! Paths of the index near one that does not exist, for the error a path argument gets:
//! an agent that guessed a layout (`src/pkg` where the package is `pkg`, `api/client.ts`
//! for `src/api/client.ts`) learns the path it meant instead of guessing again.

use std::collections::BTreeSet;

use crate::db::{Db, Workspace};

/// Up to `limit` indexed files or directories near `missing`, shortest first: those that
/// end with its segments, or with fewer of its last segments (its first ones dropped), the
/// most segments kept winning; else those whose last segment is its last one in another
/// case. Empty when none is near.
pub fn near_paths(db: &dyn Db, ws: Workspace, missing: &str, limit: usize) -> Vec<String> {
    let wanted: Vec<&str> = missing
        .split(['/', '\\'])
        .filter(|s| !s.is_empty() && *s != ".")
        .collect();
    let Some(last) = wanted.last() else {
        return Vec::new();
    };
    // Every indexed file and every directory above one.
    let mut existing: BTreeSet<&str> = BTreeSet::new();
    for file in ws.files(db) {
        let path = file.path(db).as_str();
        existing.insert(path);
        existing.extend(path.match_indices('/').map(|(i, _)| &path[..i]));
    }
    let shortest = |mut found: Vec<&str>| {
        found.sort_by_key(|p| (p.len(), *p));
        found.truncate(limit);
        found
            .into_iter()
            .map(str::to_owned)
            .collect::<Vec<String>>()
    };
    for drop in 0..wanted.len() {
        let suffix = wanted[drop..].join("/");
        let found: Vec<&str> = existing
            .iter()
            .copied()
            .filter(|p| {
                *p != missing
                    && (*p == suffix
                        || p.strip_suffix(suffix.as_str())
                            .is_some_and(|head| head.ends_with('/')))
            })
            .collect();
        if !found.is_empty() {
            return shortest(found);
        }
    }
    let found: Vec<&str> = existing
        .iter()
        .copied()
        .filter(|p| {
            p.rsplit('/')
                .next()
                .is_some_and(|name| name.eq_ignore_ascii_case(last))
        })
        .collect();
    shortest(found)
}
