//! The hard character budget. When the report does not fit, whole optional parts are left
//! out in a fixed order, re-rendering after each, until it fits:
//!
//! 1. evidence lines beside a link's quote, last place first (the quote stays);
//! 2. runners-up on the `also:` line, last first (the JSON block still lists them);
//! 3. primary places without a flow link, last first (the JSON block still lists them);
//! 4. flow links, last first, down to the first link (a link keeps its quote: a fact
//!    without its evidence is the thing reports must not contain);
//! 5. read lines, last first (the JSON block still lists their ranges);
//! 6. search lines, last first;
//! 7. missing entries, last first, then the `checked:` line;
//! 8. the remaining flow link, then the remaining primary places, last first;
//! 9. JSON runners-up, then JSON read entries, then JSON primary entries, each last first.
//!
//! Nothing is ever cut inside a line or a JSON value, and facts are never shortened. The
//! header, the skip outcome and the JSON block's action and confidence always stay; a
//! budget smaller than those gets them anyway.

use crate::Report;
use crate::parts::Parts;
use crate::text;

/// The report's default size limit, in characters.
pub const DEFAULT_BUDGET_CHARS: usize = 2_500;

pub(crate) fn fit(mut parts: Parts, budget_chars: usize) -> Report {
    loop {
        let (text, prose_len) = text::write(&parts);
        if text.chars().count() <= budget_chars || !drop_next(&mut parts) {
            return Report {
                text,
                prose_len,
                json: parts.json,
            };
        }
    }
}

/// Removes the next optional part in the fixed order; false when nothing is left to remove.
fn drop_next(p: &mut Parts) -> bool {
    if let Some(item) = p
        .flow
        .iter_mut()
        .rev()
        .find(|f| f.quote.iter().any(|q| q.evidence))
        && let Some(i) = item.quote.iter().rposition(|q| q.evidence)
    {
        item.quote.remove(i);
        return true;
    }
    // A runner-up is the ranking's guess past what it cites: it goes before any cited place.
    if p.also.pop().is_some() {
        return true;
    }
    let unlinked = p
        .primary
        .iter()
        .rposition(|item| !p.flow.iter().any(|f| f.place == item.place));
    if let Some(i) = unlinked {
        p.primary.remove(i);
        return true;
    }
    if p.flow.len() > 1 {
        p.flow.pop();
        return true;
    }
    if p.read.pop().is_some()
        || p.search.pop().is_some()
        || p.missing.pop().is_some()
        || p.checked.take().is_some()
    {
        return true;
    }
    if p.flow.pop().is_some() || p.primary.pop().is_some() {
        return true;
    }
    p.json.also.pop().is_some() || p.json.read.pop().is_some() || p.json.primary.pop().is_some()
}
