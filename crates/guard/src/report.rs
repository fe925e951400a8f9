//! Findings, waivers and the report that gathers them, with the one-line-per-finding text
//! format that `cargo xtask guard` prints.

use std::fmt;

/// The checks a waiver can name.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Check {
    /// A banned literal.
    Literal,
    /// A long array of short lowercase words (an English lexicon).
    Lexicon,
    /// A regex built where the query text is handled.
    QueryRegex,
}

impl Check {
    /// Every check, in report order.
    pub const ALL: [Check; 3] = [Check::Literal, Check::Lexicon, Check::QueryRegex];

    /// The name used in `allow(...)`.
    pub fn name(self) -> &'static str {
        match self {
            Check::Literal => "literal",
            Check::Lexicon => "lexicon",
            Check::QueryRegex => "query-regex",
        }
    }

    /// The check a waiver's `allow(<name>)` names, if any.
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Where a query-regex finding was seen.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum RegexScope {
    /// Inside this function, which mentions a query.
    Function(String),
    /// Outside any function, in a file that mentions a query.
    File,
}

/// What was found.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub enum FindingKind {
    /// A banned literal of the list.
    BannedLiteral {
        /// The literal as written in the list.
        literal: String,
        /// The group it belongs to.
        group: String,
        /// The source text it matched.
        matched: String,
    },
    /// A long array of short lowercase words.
    Lexicon {
        /// How many such words the array holds.
        count: usize,
        /// The first few of them.
        sample: Vec<String>,
    },
    /// A regex built where the query is handled.
    QueryRegex {
        /// The constructor or macro called.
        call: String,
        /// Where it was called.
        scope: RegexScope,
    },
    /// A lexicon cut into several short lists or match arms within one scope.
    SplitLexicon {
        /// How many short lowercase words the pieces hold together.
        count: usize,
        /// How many lists or arms they are split over.
        pieces: usize,
        /// The first few words.
        sample: Vec<String>,
    },
    /// A `guard:` comment that is not a valid waiver.
    BadWaiver {
        /// What is wrong with the comment.
        problem: String,
    },
    /// A valid waiver with nothing to waive: stale waivers would hide future findings.
    UnusedWaiver {
        /// The check the waiver names.
        check: Check,
    },
}

impl FindingKind {
    /// The check a waiver must name to waive this finding; `None` for waiver problems.
    pub fn check(&self) -> Option<Check> {
        match self {
            FindingKind::BannedLiteral { .. } => Some(Check::Literal),
            FindingKind::Lexicon { .. } | FindingKind::SplitLexicon { .. } => Some(Check::Lexicon),
            FindingKind::QueryRegex { .. } => Some(Check::QueryRegex),
            FindingKind::BadWaiver { .. } | FindingKind::UnusedWaiver { .. } => None,
        }
    }
}

/// One finding at `path:line:column` (1-based; path relative to the scanned root, with
/// `/` separators).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    /// Relative to the scanned root, `/`-separated.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column.
    pub column: usize,
    /// What was found.
    pub kind: FindingKind,
}

/// A waiver comment: `guard: allow(<check>) reason: <why>` in a `//` comment. It covers
/// its own line and the next one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiver {
    /// The file holding the comment, as in [`Finding::path`].
    pub path: String,
    /// The comment's 1-based line.
    pub line: usize,
    /// The check it waives.
    pub check: Check,
    /// The reason it gives (required).
    pub reason: String,
}

impl Waiver {
    /// Whether this waiver excuses `finding`: same file and check, on the waiver's line or the
    /// next.
    pub fn covers(&self, finding: &Finding) -> bool {
        finding.path == self.path
            && finding.kind.check() == Some(self.check)
            && (finding.line == self.line || finding.line == self.line + 1)
    }
}

/// A finding that a waiver excused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waived {
    /// The finding.
    pub finding: Finding,
    /// The waiver's reason.
    pub reason: String,
}

/// Result of a scan.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Report {
    /// Findings that were not waived, sorted by path, line and column.
    pub findings: Vec<Finding>,
    /// Findings that were waived, with the waiver's reason.
    pub waived: Vec<Waived>,
    /// How many source files were scanned.
    pub files_scanned: usize,
}

impl Report {
    /// True when the scan must fail.
    pub fn has_findings(&self) -> bool {
        !self.findings.is_empty()
    }

    pub(crate) fn absorb(&mut self, other: Report) {
        self.findings.extend(other.findings);
        self.waived.extend(other.waived);
        self.files_scanned += other.files_scanned;
    }

    pub(crate) fn sort(&mut self) {
        self.findings.sort();
        self.waived.sort_by(|a, b| a.finding.cmp(&b.finding));
    }
}

impl fmt::Display for FindingKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FindingKind::BannedLiteral {
                literal,
                group,
                matched,
            } => write!(
                f,
                "banned literal {literal:?} ({group}) matched {matched:?}"
            ),
            FindingKind::Lexicon { count, sample } => {
                let shown: Vec<String> = sample.iter().map(|w| format!("{w:?}")).collect();
                write!(
                    f,
                    "lexicon: {count} short lowercase word literals in one list ({}, ...)",
                    shown.join(", ")
                )
            }
            FindingKind::SplitLexicon {
                count,
                pieces,
                sample,
            } => {
                let shown: Vec<String> = sample.iter().map(|w| format!("{w:?}")).collect();
                write!(
                    f,
                    "lexicon: {count} short lowercase word literals split over {pieces} lists or match arms in one scope ({}, ...)",
                    shown.join(", ")
                )
            }
            FindingKind::QueryRegex { call, scope } => match scope {
                RegexScope::Function(name) => {
                    write!(f, "query regex: {call} in fn {name}, which handles a query")
                }
                RegexScope::File => {
                    write!(f, "query regex: {call} in a file that handles a query")
                }
            },
            FindingKind::BadWaiver { problem } => write!(f, "malformed waiver: {problem}"),
            FindingKind::UnusedWaiver { check } => write!(
                f,
                "unused waiver: allow({}) waives nothing on this line or the next",
                check.name()
            ),
        }
    }
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path, self.line, self.column, self.kind
        )
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for finding in &self.findings {
            writeln!(f, "{finding}")?;
        }
        if !self.waived.is_empty() {
            writeln!(f, "waivers:")?;
            for waived in &self.waived {
                writeln!(f, "  {} [reason: {}]", waived.finding, waived.reason)?;
            }
        }
        write!(
            f,
            "guard: {} finding{}, {} waived, {} file{} scanned",
            self.findings.len(),
            plural(self.findings.len()),
            self.waived.len(),
            self.files_scanned,
            plural(self.files_scanned)
        )
    }
}

fn plural(n: usize) -> &'static str {
    if n == 1 { "" } else { "s" }
}
