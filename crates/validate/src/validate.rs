//! The validation entry point: runs the rules in order, falls back when nothing survives,
//! and names a critical gap for the caller's continuation rounds.

use sightline_base::{Action, Confidence, Intent, Registry, Selection};

use crate::budget::Budget;
use crate::outcome::{CriticalGap, Drop, DroppedRead, Rule, Validated};
use crate::pass::Pass;
use crate::stale::ReadNow;
use crate::{clamp, confidence, intent, known, narrow, quote, runners, scope, stale};

/// Validates `selection` against `registry` for `intent`. Only removes or lowers; when no
/// primary candidate and no flow link survive, returns `fallback` (validated by the same
/// rules, at low confidence) instead. Validating the result again changes nothing.
pub fn validate(
    selection: &Selection,
    registry: &Registry,
    intent: Intent,
    fallback: &Selection,
    budget: &Budget,
) -> Validated {
    validate_with(selection, registry, intent, fallback, budget, None)
}

/// [`validate`], and every cited file is read again through `read_now`: a file deleted
/// since it was observed is dropped, and so is a quote its current text no longer holds.
pub fn validate_on_disk(
    selection: &Selection,
    registry: &Registry,
    intent: Intent,
    fallback: &Selection,
    budget: &Budget,
    read_now: ReadNow,
) -> Validated {
    validate_with(
        selection,
        registry,
        intent,
        fallback,
        budget,
        Some(read_now),
    )
}

fn validate_with(
    selection: &Selection,
    registry: &Registry,
    intent: Intent,
    fallback: &Selection,
    budget: &Budget,
    read_now: Option<ReadNow>,
) -> Validated {
    // The deterministic selection's missing parts are the query's words no code mentions:
    // its confidence was calibrated with them (see `confidence`).
    let deterministic = selection == fallback;
    let cap = (!deterministic).then_some(fallback.confidence);
    let pass = run_rules(selection, registry, intent, budget, read_now, cap);
    let critical_gap = critical_gap(&pass, selection, intent, registry);
    // A deliberate "nothing relevant" verdict is an outcome, not a gutted selection; the
    // fallback would pad it with places the model judged irrelevant.
    let gutted = pass.sel.primary.is_empty()
        && pass.sel.flow.is_empty()
        && pass.sel.action != Action::SkipExploreResult;
    if !gutted {
        let dropped_reads =
            DroppedRead::find(&selection.read_targets, &pass.sel.read_targets, &pass.drops);
        return Validated {
            selection: pass.sel,
            drops: pass.drops,
            fell_back: false,
            critical_gap,
            dropped_reads,
        };
    }
    let mut backup = run_rules(fallback, registry, intent, budget, read_now, None);
    confidence::lower(
        &mut backup,
        Confidence::Low,
        "this is the deterministic fallback",
    );
    let mut drops = pass.drops;
    if backup.sel.primary.is_empty() && backup.sel.flow.is_empty() {
        // The fallback has nothing either: keep what little of the submission survived
        // (read targets, missing parts), at low confidence.
        let mut kept = Pass {
            sel: pass.sel,
            drops,
        };
        confidence::lower(
            &mut kept,
            Confidence::Low,
            "nothing survived and the fallback is empty",
        );
        let dropped_reads =
            DroppedRead::find(&selection.read_targets, &kept.sel.read_targets, &kept.drops);
        return Validated {
            selection: kept.sel,
            drops: kept.drops,
            fell_back: false,
            critical_gap,
            dropped_reads,
        };
    }
    drops.push(Drop {
        rule: Rule::Fallback,
        what: "selection".to_owned(),
        reason:
            "no primary candidate or flow link survived; the deterministic fallback replaced it"
                .to_owned(),
    });
    drops.extend(backup.drops.into_iter().map(|d| Drop {
        what: format!("fallback {}", d.what),
        ..d
    }));
    Validated {
        selection: backup.sel,
        drops,
        fell_back: true,
        critical_gap,
        // The fallback's read targets are not the submission's: nothing to mark in place.
        dropped_reads: Vec::new(),
    }
}

/// Rules 1-5, in order. `cap`: the deterministic selection's calibrated level when
/// `selection` is another one, `None` when it is that one (see
/// [`confidence::lower_confidence`]).
fn run_rules(
    selection: &Selection,
    registry: &Registry,
    intent: Intent,
    budget: &Budget,
    read_now: Option<ReadNow>,
    cap: Option<Confidence>,
) -> Pass {
    let mut pass = Pass::new(selection);
    known::drop_unknown_ids(&mut pass, registry);
    if let Some(read_now) = read_now {
        stale::drop_stale(&mut pass, registry, read_now);
    }
    scope::drop_foreign_scopes(&mut pass, registry);
    quote::drop_unverified(&mut pass, registry);
    narrow::narrow_to_declarations(&mut pass, registry);
    quote::drop_unverified_evidence(&mut pass, registry);
    clamp::clamp(&mut pass, registry, budget);
    runners::fit_runners_up(&mut pass, registry);
    intent::fit_action(&mut pass, intent);
    confidence::lower_confidence(&mut pass, cap);
    pass
}

/// The first gap specific enough to send the model back for evidence: a quote that failed,
/// a part the model named as missing, or no exact range for an intent that needs one.
fn critical_gap(
    pass: &Pass,
    submitted: &Selection,
    intent: Intent,
    registry: &Registry,
) -> Option<CriticalGap> {
    let failed_quote = submitted.flow.iter().find(|l| {
        registry
            .get(l.candidate)
            .is_some_and(|c| quote::verify(&l.quote, c).is_err())
    });
    if let Some(l) = failed_quote {
        return Some(CriticalGap::UnverifiedQuote {
            candidate: l.candidate,
            quote: l.quote.clone(),
        });
    }
    if let Some(m) = submitted.missing.iter().find(|m| !m.trim().is_empty()) {
        return Some(CriticalGap::Missing { what: m.clone() });
    }
    if intent.needs_ranges() {
        let ranged = |id| registry.get(id).is_some_and(|c| c.range.is_some());
        let any = pass.sel.primary.iter().any(|&id| ranged(id))
            || pass.sel.read_targets.iter().any(|t| ranged(t.candidate));
        if !any {
            return Some(CriticalGap::NoRangedCandidate);
        }
    }
    None
}
