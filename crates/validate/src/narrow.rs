//! Rule 2b: a quote is cited at the declaration that holds it. A flow link citing a wide
//! candidate (a read of three methods) whose quote lies in a declaration the registry also
//! holds inside it (a short declaration the read labelled, a definition, a hit's method)
//! cites that declaration instead, and so does the same ID among the primary places. This
//! only tightens: the new candidate lies within the cited one, is a declaration a tool
//! showed, and holds the quote in its own observed text; nothing is added or reordered.

use sightline_base::{Candidate, CandidateId, Registry};

use crate::outcome::Rule;
use crate::pass::Pass;
use crate::quote::verify;

/// The smallest declaration candidate strictly inside `c` whose own observed text holds
/// `quote`.
fn holder<'a>(registry: &'a Registry, c: &Candidate, quote: &str) -> Option<&'a Candidate> {
    let range = c.range?;
    registry
        .in_file(&c.path)
        .filter(|d| d.id != c.id && !d.symbols.is_empty())
        .filter(|d| d.range.is_some_and(|r| range.contains(&r) && r != range))
        .filter(|d| verify(quote, d).is_ok())
        .min_by_key(|d| (d.range.map_or(u32::MAX, |r| r.len()), d.id))
}

pub(crate) fn narrow_to_declarations(pass: &mut Pass, registry: &Registry) {
    // Each cited ID's narrowings, so a primary entry follows only a consistent one.
    let mut narrowed: Vec<(CandidateId, Option<CandidateId>)> = Vec::new();
    for i in 0..pass.sel.flow.len() {
        let link = &pass.sel.flow[i];
        let Some(c) = registry.get(link.candidate) else {
            continue;
        };
        let to = holder(registry, c, &link.quote).map(|d| d.id);
        match narrowed.iter_mut().find(|(from, _)| *from == c.id) {
            Some((_, seen)) if *seen != to => *seen = None,
            Some(_) => {}
            None => narrowed.push((c.id, to)),
        }
        let Some(to) = to else {
            continue;
        };
        let from = c.id;
        pass.sel.flow[i].candidate = to;
        let (what, at) = describe(registry, to);
        pass.record(
            Rule::Narrowed,
            format!("flow link {from}"),
            format!("cited as {to}{what}, the declaration {at} that holds the quote"),
        );
    }
    for (from, to) in narrowed {
        let Some(to) = to else { continue };
        let Some(at) = pass.sel.primary.iter().position(|&id| id == from) else {
            continue;
        };
        if pass.sel.primary.contains(&to) {
            pass.sel.primary.remove(at);
        } else {
            pass.sel.primary[at] = to;
        }
        pass.record(
            Rule::Narrowed,
            format!("primary {from}"),
            format!("cited as {to}, where its flow link's quote is"),
        );
    }
}

/// ` (Store.save)` and `at src/a.ts:28-33` for a candidate.
fn describe(registry: &Registry, id: CandidateId) -> (String, String) {
    let Some(c) = registry.get(id) else {
        return (String::new(), String::new());
    };
    let what = c
        .symbols
        .first()
        .map(|s| format!(" ({})", s.qualified))
        .unwrap_or_default();
    let at = match c.range {
        Some(r) => format!("at {}:{}-{}", c.path, r.start, r.end),
        None => format!("in {}", c.path),
    };
    (what, at)
}
