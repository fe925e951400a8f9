//! Rule 1b: what was observed may have changed on disk since. Every cited file is read
//! again at validation time: a deleted file is dropped from every section, and a flow
//! link whose quote is no longer in the file's current text is dropped, each with a reason.

use std::collections::HashMap;

use sightline_base::{CandidateId, Registry};

use crate::outcome::Rule;
use crate::pass::{Pass, drop_of, retain_or_record};
use crate::quote::{normalize, verify};

/// Reads a cited file's current text; `None` when it is gone or unreadable.
pub type ReadNow<'a> = &'a dyn Fn(&str) -> Option<String>;

const DELETED: &str = "the file was deleted or became unreadable after it was observed";
const CHANGED: &str = "the file changed after it was observed and no longer holds the quote";

pub(crate) fn drop_stale(pass: &mut Pass, registry: &Registry, read_now: ReadNow) {
    // Each cited file is read once; kept as read (evidence lines are checked by number)
    // and whitespace-normalised like quotes are.
    let mut now: HashMap<&str, Option<(String, String)>> = HashMap::new();
    let cited = pass
        .sel
        .primary
        .iter()
        .copied()
        .chain(pass.sel.flow.iter().map(|l| l.candidate))
        .chain(pass.sel.read_targets.iter().map(|t| t.candidate))
        .chain(pass.sel.runners_up.iter().copied());
    for id in cited {
        if let Some(c) = registry.get(id) {
            now.entry(c.path.as_str())
                .or_insert_with(|| read_now(&c.path).map(|t| (normalize(&t), t)));
        }
    }
    let deleted = |id: CandidateId| {
        registry
            .get(id)
            .is_some_and(|c| matches!(now.get(c.path.as_str()), Some(None)))
    };
    let sel = &mut pass.sel;
    retain_or_record(&mut sel.primary, &mut pass.drops, |&id, _| {
        match deleted(id) {
            true => Err(drop_of(Rule::StaleFile, format!("primary {id}"), DELETED)),
            false => Ok(()),
        }
    });
    retain_or_record(
        &mut sel.runners_up,
        &mut pass.drops,
        |&id, _| match deleted(id) {
            true => Err(drop_of(Rule::StaleFile, format!("runner-up {id}"), DELETED)),
            false => Ok(()),
        },
    );
    retain_or_record(
        &mut sel.read_targets,
        &mut pass.drops,
        |t, _| match deleted(t.candidate) {
            true => Err(drop_of(
                Rule::StaleFile,
                format!("read target {}", t.candidate),
                DELETED,
            )),
            false => Ok(()),
        },
    );
    retain_or_record(&mut sel.flow, &mut pass.drops, |l, _| {
        let what = || format!("flow link {}", l.candidate);
        if deleted(l.candidate) {
            return Err(drop_of(Rule::StaleFile, what(), DELETED));
        }
        let Some(c) = registry.get(l.candidate) else {
            return Ok(());
        };
        let Some(Some((text, _))) = now.get(c.path.as_str()) else {
            return Ok(());
        };
        // Quotes that do not verify at all are the quote rule's to drop. The matched lines
        // keep their indentation; the file's text is whitespace-normalised, so they are too.
        match verify(&l.quote, c) {
            Ok(lines) if !text.contains(&normalize(&lines.join(" "))) => {
                Err(drop_of(Rule::StaleFile, what(), CHANGED))
            }
            _ => Ok(()),
        }
    });
    // An evidence line names its line: the file must still read so there.
    for link in &mut pass.sel.flow {
        let Some(Some((_, raw))) = registry
            .get(link.candidate)
            .and_then(|c| now.get(c.path.as_str()))
        else {
            continue;
        };
        let candidate = link.candidate;
        retain_or_record(&mut link.evidence, &mut pass.drops, |e, _| {
            let current = raw.lines().nth(e.line.saturating_sub(1) as usize);
            match current.is_some_and(|l| e.line > 0 && normalize(l) == normalize(&e.text)) {
                true => Ok(()),
                false => Err(drop_of(
                    Rule::StaleFile,
                    format!("flow link {candidate} line {}", e.line),
                    CHANGED,
                )),
            }
        });
    }
}
