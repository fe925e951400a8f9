//! Scanning one source text and a whole workspace.

use std::path::Path;

use crate::banlist::BanList;
use crate::error::GuardError;
use crate::lexer::lex;
use crate::literals::Matcher;
use crate::report::{Finding, FindingKind, Report, Waived};
use crate::structure;
use crate::waiver::{self, Parsed};
use crate::walk;

/// A ban list compiled for scanning; build once, scan many files.
pub struct Scanner<'a> {
    list: &'a BanList,
    matcher: Matcher,
}

impl<'a> Scanner<'a> {
    /// A scanner for the literals of `list`.
    pub fn new(list: &'a BanList) -> Self {
        Self {
            list,
            matcher: Matcher::new(list),
        }
    }

    /// Scans the text of one production file; `path` labels the findings. The whole text
    /// is scanned: callers cut test code off first (see [`walk::production_part`]).
    pub fn scan_text(&self, path: &str, text: &str) -> Report {
        let mut raw = Vec::new();
        for (index, line) in text.lines().enumerate() {
            for m in self.matcher.scan_line(line) {
                let literal = &self.list.literals[m.literal];
                raw.push(finding(
                    path,
                    index + 1,
                    m.column,
                    FindingKind::BannedLiteral {
                        literal: literal.text.clone(),
                        group: literal.group.clone(),
                        matched: m.matched,
                    },
                ));
            }
        }
        let tokens = lex(text);
        for (line, column, kind) in structure::check(&tokens) {
            raw.push(finding(path, line, column, kind));
        }

        let mut report = Report {
            files_scanned: 1,
            ..Report::default()
        };
        let mut waivers = Vec::new();
        for parsed in waiver::collect(path, &tokens) {
            match parsed {
                Parsed::Waiver(w) => waivers.push((w, false)),
                Parsed::Malformed(line, column, kind) => {
                    report.findings.push(finding(path, line, column, kind));
                }
            }
        }
        for f in raw {
            match waivers.iter_mut().find(|(w, _)| w.covers(&f)) {
                Some((w, used)) => {
                    *used = true;
                    report.waived.push(Waived {
                        finding: f,
                        reason: w.reason.clone(),
                    });
                }
                None => report.findings.push(f),
            }
        }
        for (w, used) in waivers {
            if !used {
                report.findings.push(finding(
                    path,
                    w.line,
                    1,
                    FindingKind::UnusedWaiver { check: w.check },
                ));
            }
        }
        report.sort();
        report
    }
}

fn finding(path: &str, line: usize, column: usize, kind: FindingKind) -> Finding {
    Finding {
        path: path.to_string(),
        line,
        column,
        kind,
    }
}

/// Scans one source text with `list` (test code is not cut off).
pub fn scan_source(path: &str, text: &str, list: &BanList) -> Report {
    Scanner::new(list).scan_text(path, text)
}

/// Scans the production sources of the workspace at `root` (see [`walk`] for which files
/// those are).
pub fn scan_workspace(root: &Path, list: &BanList) -> Result<Report, GuardError> {
    let roots = walk::source_roots(root)?;
    if roots.is_empty() {
        return Err(GuardError::NothingToScan {
            root: root.to_path_buf(),
        });
    }
    let scanner = Scanner::new(list);
    let mut report = Report::default();
    for src in roots {
        for file in walk::rust_files(&src)? {
            let text = std::fs::read_to_string(&file).map_err(|source| GuardError::Io {
                path: file.clone(),
                source,
            })?;
            let label = walk::display_path(root, &file);
            report.absorb(scanner.scan_text(&label, walk::production_part(&text)));
        }
    }
    report.sort();
    Ok(report)
}
