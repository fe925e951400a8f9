//! The repository's names nearest to one that matches nothing, so an unknown name gets a
//! next step instead of an empty answer: the same name in another case first, then names
//! a few edits away (a typo), then names sharing most of its sub-words (`saveDraft` for
//! `saveDraftRecord`). Only the repository's own declared names are candidates.

use serde::{Deserialize, Serialize};

use super::{DeclAt, in_scope};
use crate::db::{Db, Workspace};
use crate::graph::Graph;
use crate::terms::{split_identifier, term_words};

/// How many names a miss suggests.
pub const NEAREST_NAMES: usize = 5;

/// A suggested name.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NearName {
    /// The declared name.
    pub name: String,
    /// How many declarations have it.
    pub definitions: usize,
    /// The first one's path and signature line.
    pub path: String,
    /// Its signature line.
    pub line: u32,
}

/// The least [`distance`] of a name near `wanted` only by shared sub-words; nearer ones
/// are the name in another case or a few edits from it.
pub(crate) const SUB_WORDS: u32 = 10;

/// The least distance of a type's member near `wanted` only by a stemmed word they share
/// ([`nearest_members`]): after every name [`distance`] finds near.
const STEMMED_MEMBER: u32 = 30;

/// Lower is nearer; `None` when `name` is not near `wanted` at all.
fn distance(name: &str, wanted: &str, wanted_words: &[String]) -> Option<u32> {
    if name.eq_ignore_ascii_case(wanted) {
        return Some(0);
    }
    // A typo: a few edits for a long name, one for a short one.
    let bound = (wanted.chars().count() / 4).clamp(1, 3);
    let (n, w) = (name.chars().count(), wanted.chars().count());
    if n.abs_diff(w) <= bound
        && let Some(d) = edits(name, wanted, bound)
    {
        return Some(1 + d as u32);
    }
    // Shared sub-words: most of the wanted name's words, and most of the found name's.
    let long: Vec<&String> = wanted_words.iter().filter(|w| w.len() >= 3).collect();
    let lower = name.to_ascii_lowercase();
    if long.is_empty() || !long.iter().any(|w| lower.contains(w.as_str())) {
        return None;
    }
    let words = split_identifier(name);
    let shared = wanted_words.iter().filter(|w| words.contains(w)).count();
    // A repeated word (`saveSave`) can be shared more often than the other name has words.
    let union = (wanted_words.len() + words.len())
        .saturating_sub(shared)
        .max(shared);
    // At least half the words of both together, and at least one long one.
    (shared > 0 && 2 * shared >= union).then(|| SUB_WORDS + (10 * (union - shared) / union) as u32)
}

/// Case-insensitive edit distance of `a` and `b` when it is at most `bound`.
fn edits(a: &str, b: &str, bound: usize) -> Option<usize> {
    let a: Vec<char> = a.chars().map(|c| c.to_ascii_lowercase()).collect();
    let b: Vec<char> = b.chars().map(|c| c.to_ascii_lowercase()).collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.iter().enumerate() {
        let mut prev = row[0];
        row[0] = i + 1;
        let mut best = row[0];
        for (j, cb) in b.iter().enumerate() {
            let here = (prev + usize::from(ca != cb))
                .min(row[j] + 1)
                .min(row[j + 1] + 1);
            prev = row[j + 1];
            row[j + 1] = here;
            best = best.min(here);
        }
        if best > bound {
            return None;
        }
    }
    (row[b.len()] <= bound).then_some(row[b.len()])
}

/// Up to `limit` declared names nearest to `wanted`, each with its distance (lower is
/// nearer), nearest first (ties: more definitions, then the name), each with its first
/// definition in `scope`.
pub(crate) fn scored_nearest(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    wanted: &str,
    scope: Option<&str>,
    limit: usize,
) -> Vec<(u32, NearName)> {
    let wanted_words = split_identifier(wanted);
    let mut scored: Vec<(u32, usize, &str, &[crate::graph::NodeId])> = graph
        .names
        .iter()
        .filter_map(|(name, nodes)| {
            let d = distance(name, wanted, &wanted_words)?;
            Some((d, nodes.len(), name, nodes))
        })
        .collect();
    scored.sort_by(|a, b| a.0.cmp(&b.0).then(b.1.cmp(&a.1)).then(a.2.cmp(b.2)));
    scored
        .into_iter()
        .filter_map(|(d, _, name, nodes)| {
            let first = nodes
                .iter()
                .filter_map(|n| DeclAt::at(db, ws, n.file, n.decl_index()?))
                .find(|d| scope.is_none_or(|s| in_scope(&d.path, s)))?;
            Some((
                d,
                NearName {
                    name: name.to_owned(),
                    definitions: nodes.len(),
                    line: first.declaration().signature_line,
                    path: first.path,
                },
            ))
        })
        .take(limit)
        .collect()
}

/// `members` and `elsewhere` (each with its distance) merged nearest first, a member
/// before a name elsewhere at the same distance, each name once, at most `limit`.
pub(crate) fn merge(
    members: Vec<(u32, NearName)>,
    elsewhere: Vec<(u32, NearName)>,
    limit: usize,
) -> Vec<NearName> {
    let mut all: Vec<(u32, bool, NearName)> = members
        .into_iter()
        .map(|(d, n)| (d, false, n))
        .chain(elsewhere.into_iter().map(|(d, n)| (d, true, n)))
        .collect();
    // Stable: each list keeps its own order among equals.
    all.sort_by_key(|(d, other, _)| (*d, *other));
    let mut out: Vec<NearName> = Vec::new();
    for (_, _, n) in all {
        if out.len() < limit && !out.iter().any(|o| o.name == n.name) {
            out.push(n);
        }
    }
    out
}

/// Up to `limit` members of `owners` (declarations nested in one, or attached to its name,
/// in its file) nearest to `wanted`: by [`distance`] first, then any that share a word with
/// it after stemming (`removeListener` for `dropListeners`), fewer unshared words first.
/// Empty when no owner has such a member.
pub(crate) fn nearest_members(
    owners: &[DeclAt],
    wanted: &str,
    limit: usize,
) -> Vec<(u32, NearName)> {
    let wanted_words = split_identifier(wanted);
    let mut wanted_terms = term_words(wanted);
    wanted_terms.sort_unstable();
    wanted_terms.dedup();
    let mut scored: Vec<(u32, NearName)> = Vec::new();
    for owner in owners {
        let decls = &owner.index.facts.decls;
        let own = owner.declaration();
        let belongs = |d: &sightline_lang::Declaration| {
            let attached = |d: &sightline_lang::Declaration| {
                d.attached_to.as_deref() == Some(own.name.as_str())
            };
            let mut at = d;
            // A member, a member of an `impl` block attached to the owner, or a method
            // attached to it by its receiver; a few levels deep at most.
            for _ in 0..4 {
                if attached(at) {
                    return true;
                }
                match at.parent {
                    Some(p) if p == owner.decl => return true,
                    Some(p) => match decls.get(p as usize) {
                        Some(up) => at = up,
                        None => return false,
                    },
                    None => return false,
                }
            }
            false
        };
        for d in decls.iter().filter(|d| belongs(d)) {
            let score = distance(&d.name, wanted, &wanted_words).or_else(|| {
                let mut terms = term_words(&d.name);
                terms.sort_unstable();
                terms.dedup();
                let shared = terms.iter().filter(|t| wanted_terms.contains(t)).count();
                // Both sides deduplicated, so `shared` is at most either's length.
                let union = terms.len() + wanted_terms.len() - shared;
                (shared > 0).then(|| STEMMED_MEMBER + (10 * (union - shared) / union.max(1)) as u32)
            });
            if let Some(score) = score
                && !scored.iter().any(|(_, n)| n.name == d.name)
            {
                scored.push((
                    score,
                    NearName {
                        name: d.name.clone(),
                        definitions: 1,
                        path: owner.path.clone(),
                        line: d.signature_line,
                    },
                ));
            }
        }
    }
    scored.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.line.cmp(&b.1.line)));
    scored.truncate(limit);
    scored
}

/// The first line of an answer that found `name` only in another case, said first so an
/// agent that asked for `saveRecord` does not take `SaveRecord` for it unawares, with the
/// names a typo away from it as spelled: ``saveRecord` is declared only in another case;
/// nearest: saveRecords (store/records.go:41)`.
pub(crate) fn render_case_folded(out: &mut String, name: &str, nearest: &[NearName]) {
    use std::fmt::Write as _;
    let _ = write!(
        out,
        "`{}` is declared only in another case",
        crate::escape::inline(name)
    );
    if nearest.is_empty() {
        out.push_str(":\n");
    } else {
        out.push_str("; ");
        render(out, nearest);
    }
}

/// `nearest: saveDraft (src/a.ts:12), restore (src/b.ts:4, +2 more)`.
pub(crate) fn render(out: &mut String, nearest: &[NearName]) {
    use std::fmt::Write as _;
    if nearest.is_empty() {
        out.push_str("no similar name is declared in the repository\n");
        return;
    }
    let names: Vec<String> = nearest
        .iter()
        .map(|n| {
            let more = match n.definitions {
                1 => String::new(),
                k => format!(", +{} more", k - 1),
            };
            format!(
                "{} ({}:{}{more})",
                crate::escape::inline(&n.name),
                crate::escape::inline(&n.path),
                n.line
            )
        })
        .collect();
    let _ = writeln!(out, "nearest: {}", names.join(", "));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        split_identifier(s)
    }

    #[test]
    fn case_then_typos_then_shared_words() {
        let d = |name: &str, wanted: &str| distance(name, wanted, &words(wanted));
        assert_eq!(d("BaseModel", "basemodel"), Some(0));
        assert_eq!(d("saveRecord", "saveRecrod"), Some(3));
        assert_eq!(
            d("saveDraft", "saveDraftRecord").map(|x| x >= 10),
            Some(true)
        );
        assert_eq!(d("render", "save"), None);
        // A repeated word is no arithmetic hazard.
        assert!(d("save", "saveSaveSave").is_some());
        assert_eq!(d("ab", "xy"), None);
    }

    #[test]
    fn edit_distance_is_bounded() {
        assert_eq!(edits("kitten", "sitting", 3), Some(3));
        assert_eq!(edits("kitten", "sitting", 2), None);
        assert_eq!(edits("Save", "save", 0), Some(0));
    }
}
