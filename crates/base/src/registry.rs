//! The candidate registry: every observation becomes candidates with stable IDs.
//!
//! One place, one ID, across every tool of a session:
//! - a window, a read, a definition or a listed file is a location by its path and line
//!   range (or no range); the same location seen again is the same candidate, and so is
//!   a range [`near_identical`] to a candidate's (a read two lines wider than a method
//!   already shown is that method);
//! - a line hit (grep, a reference) is the line it matched. Its place is the innermost
//!   declaration around the line when that declaration is short
//!   ([`SHORT_DECLARATION_LINES`]), and otherwise the hit with its context lines, never a
//!   whole class: [`hit_range`]. At a declaration it joins a candidate near-identical to
//!   that declaration; on its own lines, the smallest candidate already holding the line
//!   up to the short limit that a searching tool showed (a span only reads covered is not
//!   a place: the report cites the hit's lines, not the read's);
//! - a candidate's range never changes, and the text it holds lies within its range: what
//!   a sighting showed past the candidate's range is not kept for it.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use crate::candidate::{Candidate, CandidateSymbol, ObservedText, Provenance};
use crate::id::CandidateId;
use crate::lines::LineRange;
use crate::path_traits::PathTraits;
use crate::search_components::ScoreComponents;
use crate::tool::ToolName;

/// A declaration this long or shorter is one place for a line hit inside it: the
/// candidate is the declaration. A hit inside a longer one is cited as its own lines.
///
/// Why 60: it is what an agent reads in one go (a screen and a half, half the widest read
/// target validation accepts), and it holds almost every function while leaving out the
/// long classes and modules the limit is for. Over the declarations of the 16
/// TypeScript/JavaScript and Python evaluation repositories (non-test files; `cargo run
/// --release -p sightline-observe --example decl_lengths -- ROOT…`): 91% of the 14,853
/// functions and methods span at most 60 lines (medians 13 and 6), while 34% of the 884
/// classes are longer (their 90th percentile is 216 lines). At 40, 18% of functions would
/// lose their declaration as their place; at 80, 6% more classes would be cited whole.
pub const SHORT_DECLARATION_LINES: u32 = 60;

/// Two ranges are one place when each end moves by at most the shorter range's length
/// divided by this: a read that adds a decorator line or a closing brace to a method
/// already shown is that method; two 7-line ranges must match exactly.
pub const NEAR_IDENTICAL_DIVISOR: u32 = 8;

/// Whether `a` and `b` are near-identical ranges (see [`NEAR_IDENTICAL_DIVISOR`]).
pub fn near_identical(a: LineRange, b: LineRange) -> bool {
    let slack = a.len().min(b.len()) / NEAR_IDENTICAL_DIVISOR;
    a.start.abs_diff(b.start) <= slack && a.end.abs_diff(b.end) <= slack
}

/// The place of a line hit: its innermost declaration `innermost` when that is short
/// ([`SHORT_DECLARATION_LINES`]), else `shown`, the lines shown with the hit (the hit
/// and its context).
pub fn hit_range(innermost: Option<LineRange>, shown: LineRange) -> LineRange {
    match innermost {
        Some(d) if d.len() <= SHORT_DECLARATION_LINES => d,
        _ => shown,
    }
}

/// Declaration boundaries of indexed files, so line hits and reads can snap to them.
pub trait Outline {
    /// The innermost declaration containing `line` of `path`: its whole range and symbol.
    fn declaration_at(&self, path: &str, line: u32) -> Option<(LineRange, CandidateSymbol)>;
    /// Declarations whose signature line falls inside `range` (for labelling read windows).
    fn declarations_in(&self, path: &str, range: LineRange) -> Vec<CandidateSymbol>;
    /// What `path` says about its file: the cross-ecosystem conventions by default; an
    /// outline that knows the file's language adds the language's own.
    fn path_traits(&self, path: &str) -> PathTraits {
        PathTraits::of(path)
    }
    /// Every declaration sharing a line with `range`, with its whole range, in source
    /// order (a parent before its children). None by default.
    fn declarations_overlapping(
        &self,
        _path: &str,
        _range: LineRange,
    ) -> Vec<(LineRange, CandidateSymbol)> {
        Vec::new()
    }
}

/// An outline that knows no declarations: every observation keeps its own range.
pub struct NoOutline;

impl Outline for NoOutline {
    fn declaration_at(&self, _: &str, _: u32) -> Option<(LineRange, CandidateSymbol)> {
        None
    }
    fn declarations_in(&self, _: &str, _: LineRange) -> Vec<CandidateSymbol> {
        Vec::new()
    }
}

/// Every candidate of one explore session, by ID and by path. Sightings merge under the
/// rules in the module doc; IDs are never reused or renumbered.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Registry {
    candidates: Vec<Candidate>,
    /// Every location ever sighted (a window's or read's range, a grep hit's line, none
    /// for a file), per path, with the candidate it went to: the same sighting always
    /// lands on the same ID, and the text labels each location with it.
    sighted: std::collections::BTreeMap<String, Vec<(Location, CandidateId)>>,
    #[serde(skip)]
    by_path: HashMap<String, Vec<usize>>,
}

/// What a tool showed of a file, the key of "one location, one ID".
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Location {
    /// The file as a whole (a listing).
    File,
    /// A window or read of exactly these lines.
    Lines(LineRange),
    /// A grep hit on this line.
    Hit(u32),
}

impl Location {
    /// A window or read of `range`, or the whole file when there is none.
    pub fn of(range: Option<LineRange>) -> Location {
        range.map_or(Location::File, Location::Lines)
    }
}

/// One location an observation reports, before it is merged into the registry. The
/// registry stage turns each tool's result into sightings; this crate only merges them.
#[derive(Clone, Debug, PartialEq)]
pub struct Sighting {
    /// Repo-relative, forward slashes.
    pub path: String,
    /// What was shown of the file: the key of "one location, one ID".
    pub location: Location,
    /// The candidate's range when this sighting creates one.
    pub range: Option<LineRange>,
    /// Declarations the tool named at this location.
    pub symbols: Vec<CandidateSymbol>,
    /// Why the tool showed it, in the tool's words.
    pub reason: String,
    /// The tool's own score, when it ranks.
    pub score: Option<f64>,
    /// The search's unweighted components, when the ranking tool showed it.
    pub search: Option<ScoreComponents>,
    /// Query terms the tool matched here.
    pub matched_terms: Vec<String>,
    /// Verbatim source text the tool showed, when it showed any.
    pub text: Option<ObservedText>,
    /// What the path says about the file ([`Outline::path_traits`]); a new candidate
    /// keeps the traits of the sighting that created it.
    pub traits: PathTraits,
}

impl Registry {
    /// An empty registry.
    pub fn new() -> Registry {
        Registry::default()
    }

    /// How many candidates it holds.
    pub fn len(&self) -> usize {
        self.candidates.len()
    }

    /// Whether it holds no candidate.
    pub fn is_empty(&self) -> bool {
        self.candidates.is_empty()
    }

    /// The candidate with this ID, if it was ever assigned.
    pub fn get(&self, id: CandidateId) -> Option<&Candidate> {
        // IDs start at 1 and are dense.
        let i = (id.0 as usize).checked_sub(1)?;
        self.candidates.get(i)
    }

    /// Every candidate, in ID order.
    pub fn iter(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter()
    }

    /// Candidates of one file, in ID order.
    pub fn in_file<'a>(&'a self, path: &str) -> impl Iterator<Item = &'a Candidate> + 'a {
        self.by_path
            .get(path)
            .into_iter()
            .flatten()
            .map(|&i| &self.candidates[i])
    }

    /// The candidate a sighted location of `path` went to.
    pub fn at(&self, path: &str, location: Location) -> Option<&Candidate> {
        let (_, id) = self
            .sighted
            .get(path)?
            .iter()
            .find(|(l, _)| *l == location)?;
        self.get(*id)
    }

    /// Merges the sightings of tool call number `call` (made with `tool`); returns the IDs
    /// they touched in the order they are listed (new or existing, without repeats).
    pub fn record_sightings(
        &mut self,
        call: u32,
        tool: ToolName,
        sightings: impl IntoIterator<Item = Sighting>,
    ) -> Vec<CandidateId> {
        let mut touched = Vec::new();
        for s in sightings {
            let id = self.merge(call, tool, s);
            if !touched.contains(&id) {
                touched.push(id);
            }
        }
        touched
    }

    fn merge(&mut self, call: u32, tool: ToolName, s: Sighting) -> CandidateId {
        let provenance = Provenance {
            call,
            tool,
            reason: s.reason.clone(),
            score: s.score,
        };
        let seen_before = self
            .sighted
            .get(&s.path)
            .and_then(|v| v.iter().find(|(r, _)| *r == s.location))
            .map(|(_, id)| id.0 as usize - 1);
        let slot = seen_before.or_else(|| self.find_slot(&s));
        let i = match slot {
            Some(i) => i,
            None => {
                let traits = s.traits;
                let id = CandidateId(self.candidates.len() as u32 + 1);
                self.candidates.push(Candidate {
                    id,
                    path: s.path.clone(),
                    range: s.range,
                    symbols: Vec::new(),
                    provenance: Vec::new(),
                    traits,
                    matched_terms: Vec::new(),
                    observed: Vec::new(),
                    est_tokens: 0,
                    search: None,
                });
                let i = self.candidates.len() - 1;
                self.by_path.entry(s.path.clone()).or_default().push(i);
                i
            }
        };
        let c = &mut self.candidates[i];
        if seen_before.is_none() {
            self.sighted
                .entry(s.path.clone())
                .or_default()
                .push((s.location, c.id));
        }
        if let Some(new) = s.search
            && c.search.is_none_or(|have| have.sum() < new.sum())
        {
            c.search = Some(new);
        }
        if !c.provenance.contains(&provenance) {
            c.provenance.push(provenance);
        }
        for sym in s.symbols {
            if !c
                .symbols
                .iter()
                .any(|x| x.qualified == sym.qualified && x.line == sym.line)
            {
                c.symbols.push(sym);
            }
        }
        for t in s.matched_terms {
            if !c.matched_terms.contains(&t) {
                c.matched_terms.push(t);
            }
        }
        if let Some(text) = s.text.and_then(|t| within(t, c.range))
            && !c.observed.contains(&text)
        {
            c.observed.push(text);
        }
        c.refresh_tokens();
        c.id
    }

    /// The existing candidate a sighting belongs to, if any (the rules in the module doc).
    fn find_slot(&self, s: &Sighting) -> Option<usize> {
        let same_file = self.by_path.get(&s.path)?;
        let range_of = |i: usize| self.candidates[i].range;
        let exact = same_file.iter().copied().find(|&i| range_of(i) == s.range);
        if exact.is_some() {
            return exact;
        }
        let range = s.range?;
        let ranged = || {
            same_file
                .iter()
                .copied()
                .filter_map(move |i| Some((i, range_of(i)?)))
        };
        match s.location {
            Location::Hit(line) => {
                // At a declaration: a candidate that is that declaration (near enough);
                // the declaration is the place, not a narrower view a read happened to
                // take. On its own lines: any candidate holding the line up to the short
                // limit that a tool showed as a place, not a span only reads covered
                // (no declaration that short holds the line, so such a candidate is never
                // one; the report cites the hit's lines, not the read's).
                let joins = |i: usize, r: LineRange| {
                    if s.symbols.is_empty() {
                        r.len() <= range.len().max(SHORT_DECLARATION_LINES) && !self.only_read(i)
                    } else {
                        near_identical(r, range)
                    }
                };
                ranged()
                    .filter(|(i, r)| r.contains_line(line) && joins(*i, *r))
                    .min_by_key(|(i, r)| (r.len(), *i))
                    .map(|(i, _)| i)
            }
            Location::Lines(_) => ranged()
                .filter(|(_, r)| near_identical(*r, range))
                .min_by_key(|(i, r)| {
                    (
                        r.start.abs_diff(range.start) + r.end.abs_diff(range.end),
                        *i,
                    )
                })
                .map(|(i, _)| i),
            Location::File => None,
        }
    }
}

impl Registry {
    /// Whether only reads ever showed candidate `i`: its range is a span a read covered
    /// (or a declaration inside one), not a place a searching tool showed.
    fn only_read(&self, i: usize) -> bool {
        self.candidates[i]
            .provenance
            .iter()
            .all(|p| p.tool == ToolName::ReadFile)
    }
}

/// `text` cut to the lines of `range` (a candidate's), `None` when it shows none of them;
/// whole when the candidate has no range (a file).
fn within(text: ObservedText, range: Option<LineRange>) -> Option<ObservedText> {
    let Some(range) = range else {
        return Some(text);
    };
    if range.contains(&text.lines) {
        return Some(text);
    }
    if !range.overlaps(&text.lines) {
        return None;
    }
    let start = text.lines.start.max(range.start);
    let end = text.lines.end.min(range.end);
    let skip = (start - text.lines.start) as usize;
    let take = (end - start + 1) as usize;
    let kept: String = text
        .text
        .split_inclusive('\n')
        .skip(skip)
        .take(take)
        .collect();
    Some(ObservedText {
        lines: LineRange::new(start, end),
        text: kept,
    })
}

impl Registry {
    /// Rebuilds the path index after deserialization.
    pub fn reindex(&mut self) {
        self.by_path.clear();
        for (i, c) in self.candidates.iter().enumerate() {
            self.by_path.entry(c.path.clone()).or_default().push(i);
        }
    }
}
