//! A candidate: one observed location, with everything later stages need to rank it,
//! verify quotes against it and cite it.

use crate::id::CandidateId;
use crate::lines::LineRange;
use crate::path_traits::PathTraits;
use crate::search_components::ScoreComponents;
use crate::tool::ToolName;
use serde::{Deserialize, Serialize};

/// Estimated tokens per source line when no text was observed (measured on TypeScript:
/// about 4, not the 8 the predecessor assumed).
pub const TOKENS_PER_LINE: u32 = 4;

/// A declaration a tool named at the candidate's location.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CandidateSymbol {
    /// The declared name (`save`).
    pub name: String,
    /// The name with its enclosing declarations (`RecordStore.save`).
    pub qualified: String,
    /// The declaration kind as the observe stage spells it (`function`, `class`, `method`, …).
    pub kind: String,
    /// 1-based line of the declaration's signature.
    pub line: u32,
}

/// Which tool saw the candidate and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Provenance {
    /// Index of the tool call in the session.
    pub call: u32,
    /// The tool that made the call.
    pub tool: ToolName,
    /// Why the tool showed the location, in the tool's words.
    pub reason: String,
    /// The tool's own score for it, when the tool ranks.
    pub score: Option<f64>,
}

/// Source text a tool showed for part of the candidate, kept untruncated for quote checks.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ObservedText {
    /// The lines the text covers.
    pub lines: LineRange,
    /// The text exactly as the tool showed it, one `
    /// ` per line.
    pub text: String,
}

/// One observed location with a stable ID: the only thing a model can select and the only
/// source of the paths and ranges a report prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// The ID tools printed for this location (`c7`).
    pub id: CandidateId,
    /// Repo-relative, forward slashes.
    pub path: String,
    /// `None` for observations without a location inside the file (listings).
    pub range: Option<LineRange>,
    /// Declarations tools named here, without repeats.
    pub symbols: Vec<CandidateSymbol>,
    /// Every tool call that showed this location, in call order.
    pub provenance: Vec<Provenance>,
    /// What the path alone says about the file (test, vendored, generated, …).
    pub traits: PathTraits,
    /// Query terms the tools matched here.
    pub matched_terms: Vec<String>,
    /// Source text tools showed for parts of the candidate, for quote checks.
    pub observed: Vec<ObservedText>,
    /// Estimated tokens a read of the candidate costs (its lines or its observed text).
    pub est_tokens: u32,
    /// The unweighted features the ranking tool (explore_code's search) computed for the
    /// candidate's file, the strongest seen; `None` when no ranking tool showed it. The
    /// rank stage weighs them; nothing before it does.
    #[serde(default)]
    pub search: Option<ScoreComponents>,
}

impl Candidate {
    /// Whether any tool showed source text for this candidate.
    pub fn has_text(&self) -> bool {
        !self.observed.is_empty()
    }

    /// Line `line` of the file as a tool showed it for this candidate, if one did.
    pub fn observed_line(&self, line: u32) -> Option<&str> {
        self.observed.iter().find_map(|o| {
            if !o.lines.contains_line(line) {
                return None;
            }
            o.text.lines().nth((line - o.lines.start) as usize)
        })
    }

    /// A short label: the first symbol's qualified name, else the file name.
    pub fn label(&self) -> &str {
        self.symbols
            .first()
            .map(|s| s.qualified.as_str())
            .unwrap_or_else(|| self.path.rsplit('/').next().unwrap_or(&self.path))
    }

    pub(crate) fn refresh_tokens(&mut self) {
        let observed_chars: usize = self.observed.iter().map(|o| o.text.len()).sum();
        let by_lines = self.range.map_or(0, |r| r.len() * TOKENS_PER_LINE);
        let by_text = (observed_chars / 4) as u32;
        self.est_tokens = by_lines.max(by_text);
    }
}
