//! Which chain the deterministic explore traces for a question that names a function and
//! says in words where it leads.
//! "How does X reach Y" ranks its start well (X is named, or its words are) and the steps
//! after it nowhere: they match no word of the question. So from the best-ranked function
//! or method the question names, the calls the graph resolved are followed a
//! few levels down, and the declaration reached whose name holds the most of the
//! question's other words (at least two, by their weight in this repository; the
//! shallower on a tie) is where the chain ends. The
//! chain to it (`references` with `to`) is recorded in the session: its steps become
//! places, and the report shows them as its flow ([`sightline_rank::chain_flow`],
//! applied by [`crate::ExploreSession::finish_traced`]).

use sightline_observe::DeclKind;
use sightline_observe::Index;
use sightline_observe::query::QueryTerms;
use sightline_observe::terms::term_words;
use sightline_observe::tools::nav::Target;
use sightline_observe::tools::nav::references::{self, CalleeHit, ReferencesArgs};
use sightline_rank::chain_flow::fits;
use sightline_registry::selection::MAX_FLOW;
use sightline_registry::{RegistryDatabase, ToolCall};

use crate::ExploreSession;

/// Levels of calls followed from the start: a flow a question asks about is a handful of
/// calls deep, and a chain longer than the report's flow is not shown anyway.
pub const TRACED_DEPTH: u32 = (MAX_FLOW - 1) as u32;
/// Query words a declaration's name must hold (beyond the start's own) to end a chain:
/// one shared word (`add`, `get`, `handle`) names half the repository's methods.
pub const END_TERMS: usize = 2;
/// The best places searched for the declaration the question names: the ranking puts a
/// declaration named as written near the top, though a type whose words the question
/// also uses may come first.
const START_PLACES: usize = 8;
/// Ends tried, best first, before the probe gives up: each is one chain search.
const TRIED_ENDS: usize = 4;
/// Most declarations the calls followed may list.
const TRACED_CALLEES: usize = 300;

/// The `references` call with `to` from the best-ranked function or method the question
/// names to the declaration it reaches that the question's other words name best, or
/// `None` when no such start is among the best places, or nothing it reaches is named by
/// two words of the question it is not itself named by, or no chain would fit the report.
pub fn chain_call(index: &Index<RegistryDatabase>, session: &ExploreSession) -> Option<ToolCall> {
    let run = session.ranked(index);
    // The question names where the flow starts (`Client.get`, `app.fetch`): a start found
    // by its words alone is as often a namesake, and a chain from it explains nothing.
    let (path, sym) = run
        .packet
        .entries
        .iter()
        .take(START_PLACES)
        .filter_map(|e| {
            let c = run.registry.get(e.id)?;
            Some((c.path.clone(), c.symbols.first()?.clone()))
        })
        .find(|(_, sym)| {
            let callable = [DeclKind::Function, DeclKind::Method]
                .iter()
                .any(|k| k.as_str() == sym.kind);
            callable
                && run
                    .terms
                    .known_literals()
                    .any(|l| l.names(&sym.name, &sym.qualified))
        })?;
    let start = Target {
        name: sym.qualified.clone(),
        path: Some(path),
        line: Some(sym.line),
    };
    let callees = ReferencesArgs {
        target: start.clone(),
        callees: true,
        depth: TRACED_DEPTH,
        max_results: TRACED_CALLEES,
        ..ReferencesArgs::new("")
    };
    let reached = references::run(index.db(), index.workspace(), &callees).ok()?;
    let own = term_words(&sym.qualified);
    // The best-named ends first; the first whose chain the report can show whole wins.
    for end in ends(&reached.calls, &run.terms, &own)
        .into_iter()
        .take(TRIED_ENDS)
    {
        let args = ReferencesArgs {
            target: start.clone(),
            to: Some(end.callee.qualified.clone()),
            ..ReferencesArgs::new("")
        };
        let Some(chain) = references::run(index.db(), index.workspace(), &args)
            .ok()
            .and_then(|r| r.chain)
        else {
            continue;
        };
        if fits(&chain) && !chain.reversed {
            return Some(ToolCall::References(args));
        }
    }
    None
}

/// The resolved callees whose qualified names hold at least [`END_TERMS`] query terms that
/// `own` (the start's words) does not hold, the most weight of them first, then the
/// shallower, then the earlier listed.
fn ends<'a>(calls: &'a [CalleeHit], terms: &QueryTerms, own: &[String]) -> Vec<&'a CalleeHit> {
    let mut scored: Vec<(f64, usize, &CalleeHit)> = calls
        .iter()
        .enumerate()
        .filter(|(_, c)| c.certain)
        .filter_map(|(i, c)| {
            let (count, weight) = named_terms(&c.callee.qualified, terms, own);
            (count >= END_TERMS).then_some((weight, i, c))
        })
        .collect();
    scored.sort_by(|a, b| {
        b.0.total_cmp(&a.0)
            .then(a.2.depth.cmp(&b.2.depth))
            .then(a.1.cmp(&b.1))
    });
    scored.into_iter().map(|(_, _, c)| c).collect()
}

/// How many distinct query terms are among `name`'s words and not in `own`, and their
/// summed weight.
fn named_terms(name: &str, terms: &QueryTerms, own: &[String]) -> (usize, f64) {
    let mut seen: Vec<String> = Vec::new();
    let mut weight = 0.0;
    for word in term_words(name) {
        if own.contains(&word) || seen.contains(&word) {
            continue;
        }
        if let Some(t) = terms.get(&word).filter(|t| !t.compound) {
            weight += t.idf;
            seen.push(word);
        }
    }
    (seen.len(), weight)
}
