//! The report text. Layout (the last part is a fenced `json` block):
//!
//! ```text
//! query: <query> | intent: edit | confidence: medium | action: read_targets
//! flow:
//! 1. src/a.ts:18-44 (entry) - fact
//! > quote line
//! 2. src/a.ts:60-70 (handler) - fact
//! primary:
//! 3. src/b.ts:3-9 - label              primary candidates not in the flow
//! 4. src/c.ts:1-5 - label · read (required): purpose
//! missing: x; y
//! read:
//! 5. src/d.ts:3-9 - purpose (required)
//! search: `term` in `scope`
//! {"action":…,"confidence":…,"primary":[{…,"read":true,"required":true}],"read":[…]}
//! ```
//!
//! Items are numbered across sections and every item writes its path in full: a bracketed
//! back-reference (`[2]:3-9`) would read like a candidate ID and make the reader look up
//! another line. A read target at a place the flow or primary list already cites is
//! marked on that item (`· read`) instead of citing the path a second time: each path
//! appears once outside the JSON, and the JSON block flags a read target on its primary
//! place ([`crate::BlockJson`]) instead of repeating the place.

use std::fmt::Write as _;

use sightline_base::Action;

use crate::parts::{Parts, Place, ReadItem};

/// Longest query echoed in the header; the query is the caller's, the rest is the budget's.
const MAX_QUERY_CHARS: usize = 200;

/// The outcome line for `skip_explore_result`.
const SKIP_LINE: &str = "nothing relevant found; proceed without it";

/// Numbers items across sections.
struct Places {
    next_item: usize,
}

impl Places {
    /// The location text for the next item, and advances the item number.
    fn cite(&mut self, place: &Place) -> (usize, String) {
        let n = self.next_item;
        self.next_item += 1;
        let path = &place.path;
        let loc = match place.range {
            Some(r) if r.start == r.end => format!("{path}:{}", r.start),
            Some(r) => format!("{path}:{}-{}", r.start, r.end),
            None => path.clone(),
        };
        (n, loc)
    }

    /// The next item number for a place that is not in the registry (a dropped target
    /// naming an unknown candidate): no path can be written for it.
    fn cite_unknown(&mut self) -> (usize, String) {
        let n = self.next_item;
        self.next_item += 1;
        (n, "an unknown candidate".to_owned())
    }
}

fn header(parts: &Parts) -> String {
    let q: String = if parts.query.chars().count() > MAX_QUERY_CHARS {
        format!(
            "{}…",
            parts
                .query
                .chars()
                .take(MAX_QUERY_CHARS)
                .collect::<String>()
        )
    } else {
        parts.query.clone()
    };
    format!(
        "query: {q} | intent: {} | confidence: {} | action: {}",
        parts.intent.as_str(),
        confidence_str(parts.confidence),
        parts.action.as_str()
    )
}

pub(crate) fn confidence_str(c: sightline_base::Confidence) -> &'static str {
    match c {
        sightline_base::Confidence::High => "high",
        sightline_base::Confidence::Medium => "medium",
        sightline_base::Confidence::Low => "low",
    }
}

/// ` (role) - text`, leaving out what is blank.
fn tail(role: Option<&str>, text: &str) -> String {
    let mut out = String::new();
    if let Some(r) = role.filter(|r| !r.is_empty()) {
        let _ = write!(out, " ({r})");
    }
    if !text.is_empty() {
        let _ = write!(out, " - {text}");
    }
    out
}

/// The whole report text for `parts`.
pub(crate) fn write(parts: &Parts) -> String {
    let mut out = header(parts);
    out.push('\n');
    if parts.action == Action::SkipExploreResult {
        out.push_str(SKIP_LINE);
        out.push('\n');
    }
    let mut places = Places { next_item: 1 };
    let cited: Vec<&Place> = parts
        .flow
        .iter()
        .map(|f| &f.place)
        .chain(parts.primary.iter().map(|p| &p.place))
        .collect();
    // Kept read targets at a cited place, by place: written on that item.
    let (on_items, listed): (Vec<&ReadItem>, Vec<&ReadItem>) = parts
        .read
        .iter()
        .partition(|r| r.dropped.is_none() && r.place.as_ref().is_some_and(|p| cited.contains(&p)));
    let read_mark = |place: &Place| -> String {
        let here: Vec<&&ReadItem> = on_items
            .iter()
            .filter(|r| r.place.as_ref() == Some(place))
            .collect();
        if here.is_empty() {
            return String::new();
        }
        let required = if here.iter().any(|r| r.required) {
            " (required)"
        } else {
            ""
        };
        let purposes: Vec<&str> = here
            .iter()
            .map(|r| r.purpose.as_str())
            .filter(|p| !p.is_empty())
            .collect();
        if purposes.is_empty() {
            format!(" · read{required}")
        } else {
            format!(" · read{required}: {}", purposes.join("; "))
        }
    };
    if !parts.flow.is_empty() {
        out.push_str("flow:\n");
    }
    for f in &parts.flow {
        let (n, loc) = places.cite(&f.place);
        let mark = read_mark(&f.place);
        let _ = writeln!(out, "{n}. {loc}{}{mark}", tail(Some(&f.role), &f.fact));
        for line in &f.quote {
            let _ = writeln!(out, "> {line}");
        }
    }
    if !parts.primary.is_empty() {
        out.push_str("primary:\n");
    }
    for p in &parts.primary {
        let (n, loc) = places.cite(&p.place);
        let mark = read_mark(&p.place);
        let _ = writeln!(out, "{n}. {loc}{}{mark}", tail(None, &p.label));
    }
    if !parts.missing.is_empty() {
        let _ = writeln!(out, "missing: {}", parts.missing.join("; "));
    }
    if !listed.is_empty() {
        out.push_str("read:\n");
    }
    for r in listed {
        let (n, loc) = match &r.place {
            Some(place) => places.cite(place),
            None => places.cite_unknown(),
        };
        if let Some(reason) = &r.dropped {
            let _ = writeln!(out, "{n}. (dropped) {loc} - {reason}");
            continue;
        }
        let required = if r.required { " (required)" } else { "" };
        let _ = writeln!(out, "{n}. {loc}{}{required}", tail(None, &r.purpose));
    }
    for s in &parts.search {
        match &s.scope {
            Some(scope) if !scope.is_empty() => {
                let _ = writeln!(out, "search: `{}` in `{scope}`", s.term);
            }
            _ => {
                let _ = writeln!(out, "search: `{}`", s.term);
            }
        }
    }
    // Serializing plain strings, numbers and enums cannot fail; an empty object would still
    // be valid JSON if it ever did.
    let json = serde_json::to_string(&crate::json::BlockJson::from(&parts.json))
        .unwrap_or_else(|_| "{}".to_owned());
    let json = sightline_base::escape::json_in_fence(&json);
    let _ = write!(out, "```json\n{json}\n```\n");
    out
}
