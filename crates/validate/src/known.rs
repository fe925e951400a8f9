//! Rule 1: every ID must name a candidate the registry holds; the model can only cite
//! places a tool showed it.

use sightline_base::{CandidateId, Registry};

use crate::outcome::Rule;
use crate::pass::{Pass, drop_of, retain_or_record};

pub(crate) fn drop_unknown_ids(pass: &mut Pass, registry: &Registry) {
    let unknown = |id: CandidateId| registry.get(id).is_none();
    let reason = "no tool observed this candidate";
    let sel = &mut pass.sel;
    retain_or_record(&mut sel.primary, &mut pass.drops, |&id, _| {
        if unknown(id) {
            Err(drop_of(Rule::UnknownId, format!("primary {id}"), reason))
        } else {
            Ok(())
        }
    });
    retain_or_record(&mut sel.flow, &mut pass.drops, |l, _| {
        if unknown(l.candidate) {
            Err(drop_of(
                Rule::UnknownId,
                format!("flow link {}", l.candidate),
                reason,
            ))
        } else {
            Ok(())
        }
    });
    retain_or_record(&mut sel.runners_up, &mut pass.drops, |&id, _| {
        if unknown(id) {
            Err(drop_of(Rule::UnknownId, format!("runner-up {id}"), reason))
        } else {
            Ok(())
        }
    });
    retain_or_record(&mut sel.read_targets, &mut pass.drops, |t, _| {
        if unknown(t.candidate) {
            Err(drop_of(
                Rule::UnknownId,
                format!("read target {}", t.candidate),
                reason,
            ))
        } else {
            Ok(())
        }
    });
}
