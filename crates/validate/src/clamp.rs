//! Rule 3: clamp to the budget. Ranges are never rewritten (the registry's range is the
//! observed one; a narrower range would be invented), so clamping means dropping: read
//! targets without a range or wider than the budget, over-long text fields, repeats, and
//! entries past the count limits (the first ones are kept, in the model's order).

use sightline_base::Registry;
use sightline_base::selection::{
    MAX_FLOW, MAX_MISSING, MAX_PRIMARY, MAX_READ_TARGETS, MAX_SEARCH_TARGETS,
};

use crate::budget::Budget;
use crate::outcome::Rule;
use crate::pass::{Pass, drop_of, retain_or_record};

pub(crate) fn clamp(pass: &mut Pass, registry: &Registry, budget: &Budget) {
    clamp_read_ranges(pass, registry, budget);
    clamp_lengths(pass, budget);
    drop_repeats(pass);
    enforce_counts(pass);
}

fn clamp_read_ranges(pass: &mut Pass, registry: &Registry, budget: &Budget) {
    retain_or_record(&mut pass.sel.read_targets, &mut pass.drops, |t, _| {
        let what = format!("read target {}", t.candidate);
        match registry.get(t.candidate).and_then(|c| c.range) {
            None => Err(drop_of(
                Rule::NoRange,
                what,
                "the candidate has no line range to read",
            )),
            Some(r) if r.len() > budget.max_range_lines => Err(drop_of(
                Rule::RangeTooWide,
                what,
                format!(
                    "its range spans {} lines; at most {} are allowed",
                    r.len(),
                    budget.max_range_lines
                ),
            )),
            Some(_) => Ok(()),
        }
    });
}

fn chars(s: &str) -> usize {
    s.chars().count()
}

fn too_long(field: &str, len: usize, max: usize) -> Option<String> {
    (len > max).then(|| format!("its {field} has {len} characters; at most {max} are allowed"))
}

fn clamp_lengths(pass: &mut Pass, budget: &Budget) {
    let sel = &mut pass.sel;
    retain_or_record(&mut sel.flow, &mut pass.drops, |l, _| {
        // As submitted, like the schema's `maxLength`.
        let quote_len = chars(&l.quote);
        let reason = too_long("role", chars(&l.role), budget.max_term_chars)
            .or_else(|| too_long("fact", chars(&l.fact), budget.max_text_chars))
            .or_else(|| too_long("quote", quote_len, budget.max_quote_chars));
        match reason {
            Some(r) => Err(drop_of(
                Rule::TooLong,
                format!("flow link {}", l.candidate),
                r,
            )),
            None => Ok(()),
        }
    });
    // An evidence line is a quote of one line: the same length limit.
    for link in &mut sel.flow {
        let id = link.candidate;
        retain_or_record(&mut link.evidence, &mut pass.drops, |e, _| {
            match too_long("evidence line", chars(&e.text), budget.max_quote_chars) {
                Some(r) => Err(drop_of(
                    Rule::TooLong,
                    format!("flow link {id} line {}", e.line),
                    r,
                )),
                None => Ok(()),
            }
        });
    }
    retain_or_record(
        &mut sel.read_targets,
        &mut pass.drops,
        |t, _| match too_long("purpose", chars(&t.purpose), budget.max_text_chars) {
            Some(r) => Err(drop_of(
                Rule::TooLong,
                format!("read target {}", t.candidate),
                r,
            )),
            None => Ok(()),
        },
    );
    retain_or_record(&mut sel.missing, &mut pass.drops, |m, _| {
        if m.trim().is_empty() {
            return Err(drop_of(Rule::Blank, "missing entry", "it is blank"));
        }
        match too_long("text", chars(m), budget.max_text_chars) {
            Some(r) => Err(drop_of(
                Rule::TooLong,
                format!("missing {:?}", preview(m)),
                r,
            )),
            None => Ok(()),
        }
    });
    retain_or_record(&mut sel.search_targets, &mut pass.drops, |s, _| {
        let what = format!("search target {:?}", preview(&s.term));
        if s.term.trim().is_empty() {
            return Err(drop_of(Rule::Blank, what, "its term is blank"));
        }
        let reason = too_long("term", chars(&s.term), budget.max_term_chars).or_else(|| {
            s.scope
                .as_deref()
                .and_then(|sc| too_long("scope", chars(sc), budget.max_text_chars))
        });
        match reason {
            Some(r) => Err(drop_of(Rule::TooLong, what, r)),
            None => Ok(()),
        }
    });
}

/// The start of a long string, for naming it in a drop record.
fn preview(s: &str) -> String {
    const PREVIEW_CHARS: usize = 40;
    if chars(s) <= PREVIEW_CHARS {
        s.to_owned()
    } else {
        format!("{}…", s.chars().take(PREVIEW_CHARS).collect::<String>())
    }
}

fn drop_repeats(pass: &mut Pass) {
    let sel = &mut pass.sel;
    let reason = "it repeats an earlier entry";
    retain_or_record(&mut sel.primary, &mut pass.drops, |id, kept| {
        if kept.contains(id) {
            Err(drop_of(Rule::Duplicate, format!("primary {id}"), reason))
        } else {
            Ok(())
        }
    });
    // Two links about one candidate can carry two facts; only an exact repeat is noise.
    retain_or_record(&mut sel.flow, &mut pass.drops, |l, kept| {
        if kept.contains(l) {
            Err(drop_of(
                Rule::Duplicate,
                format!("flow link {}", l.candidate),
                reason,
            ))
        } else {
            Ok(())
        }
    });
    retain_or_record(&mut sel.read_targets, &mut pass.drops, |t, kept| {
        if kept.iter().any(|k| k.candidate == t.candidate) {
            Err(drop_of(
                Rule::Duplicate,
                format!("read target {}", t.candidate),
                reason,
            ))
        } else {
            Ok(())
        }
    });
    retain_or_record(&mut sel.missing, &mut pass.drops, |m, kept| {
        if kept.contains(m) {
            Err(drop_of(
                Rule::Duplicate,
                format!("missing {:?}", preview(m)),
                reason,
            ))
        } else {
            Ok(())
        }
    });
    retain_or_record(&mut sel.search_targets, &mut pass.drops, |s, kept| {
        if kept.contains(s) {
            Err(drop_of(
                Rule::Duplicate,
                format!("search target {:?}", preview(&s.term)),
                reason,
            ))
        } else {
            Ok(())
        }
    });
}

/// Keeps the first `max` entries, naming each dropped one.
fn truncate<T>(
    items: &mut Vec<T>,
    max: usize,
    pass_drops: &mut Vec<crate::outcome::Drop>,
    name: impl Fn(&T) -> String,
) {
    if items.len() > max {
        for item in items.drain(max..) {
            pass_drops.push(drop_of(
                Rule::OverCount,
                name(&item),
                format!("only the first {max} are kept"),
            ));
        }
    }
}

fn enforce_counts(pass: &mut Pass) {
    let sel = &mut pass.sel;
    let drops = &mut pass.drops;
    truncate(&mut sel.primary, MAX_PRIMARY, drops, |id| {
        format!("primary {id}")
    });
    truncate(&mut sel.flow, MAX_FLOW, drops, |l| {
        format!("flow link {}", l.candidate)
    });
    truncate(&mut sel.read_targets, MAX_READ_TARGETS, drops, |t| {
        format!("read target {}", t.candidate)
    });
    truncate(&mut sel.missing, MAX_MISSING, drops, |m| {
        format!("missing {:?}", preview(m))
    });
    truncate(&mut sel.search_targets, MAX_SEARCH_TARGETS, drops, |s| {
        format!("search target {:?}", preview(&s.term))
    });
}
