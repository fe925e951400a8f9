//! The working state of one validation pass: the selection being narrowed and the record
//! of what was dropped, so every rule records its reason the same way.

use sightline_base::Selection;

use crate::outcome::{Drop, Rule};

pub(crate) struct Pass {
    pub sel: Selection,
    pub drops: Vec<Drop>,
}

impl Pass {
    pub fn new(sel: &Selection) -> Pass {
        Pass {
            sel: sel.clone(),
            drops: Vec::new(),
        }
    }

    pub fn record(&mut self, rule: Rule, what: impl Into<String>, reason: impl Into<String>) {
        self.drops.push(Drop {
            rule,
            what: what.into(),
            reason: reason.into(),
        });
    }

    pub fn removed_anything(&self) -> bool {
        self.drops.iter().any(|d| d.rule.is_removal())
    }
}

/// Keeps the items `keep` accepts, in order; `keep` returns the drop it wants recorded
/// otherwise. Order is never changed.
pub(crate) fn retain_or_record<T>(
    items: &mut Vec<T>,
    drops: &mut Vec<Drop>,
    mut keep: impl FnMut(&T, &[T]) -> Result<(), Drop>,
) {
    let mut kept: Vec<T> = Vec::with_capacity(items.len());
    for item in items.drain(..) {
        match keep(&item, &kept) {
            Ok(()) => kept.push(item),
            Err(d) => drops.push(d),
        }
    }
    *items = kept;
}

pub(crate) fn drop_of(rule: Rule, what: impl Into<String>, reason: impl Into<String>) -> Drop {
    Drop {
        rule,
        what: what.into(),
        reason: reason.into(),
    }
}
