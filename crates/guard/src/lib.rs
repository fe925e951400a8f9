//! Sightline's genericity guard.
//!
//! Production code must not know the repositories it is measured on, nor the vocabulary
//! of their tasks (DESIGN.md, section 3). This crate makes that a failing check:
//!
//! - **banned literals** from a ban list (`guard.toml` at the repository root, plus any
//!   extra lists) are searched case-insensitively in the whole text of production sources
//!   (code, strings and comments alike), on word boundaries of identifiers and strings;
//! - **forbidden structures** a scan can see: English lexicons written as long string
//!   arrays, and regexes built where the query is handled (see [`structure`]).
//!
//! Heuristic findings can be waived with a reasoned comment (see [`waiver`]); waived
//! findings are listed in the report.
//!
//! Invariants: a scan never fails on what it finds (findings are data in a [`Report`]);
//! it fails ([`GuardError`]) only when it cannot be trusted: an unreadable file, a ban
//! list that does not parse, or a root with nothing to scan. A waiver must name its check
//! and give a reason, and a waiver with nothing to waive is itself a finding.
//!
//! Embedding it on one source text:
//!
//! ```
//! use std::path::Path;
//! use sightline_guard::{BanList, FindingKind, scan_source};
//!
//! let list = BanList::parse(
//!     "[[group]]\nname = \"example\"\nwhy = \"a name code must not know\"\nliterals = [\"zorblax\"]\n",
//!     Path::new("inline.toml"),
//! )?;
//! let report = scan_source("crates/x/src/lib.rs", "fn zorblax_rank() {}\n", &list);
//! assert!(report.has_findings());
//! assert!(matches!(report.findings[0].kind, FindingKind::BannedLiteral { .. }));
//! assert!(!scan_source("crates/x/src/lib.rs", "fn rank() {}\n", &list).has_findings());
//! # Ok::<(), sightline_guard::GuardError>(())
//! ```
//!
//! Over the workspace, as `cargo xtask guard` runs it:
//!
//! ```no_run
//! use std::path::Path;
//! let root = Path::new(".");
//! let list = sightline_guard::BanList::load(&root.join("guard.toml"))?;
//! let report = sightline_guard::scan_workspace(root, &list)?;
//! println!("{report}");
//! # Ok::<(), sightline_guard::GuardError>(())
//! ```

#![warn(missing_docs)]

pub mod banlist;
pub mod error;
pub mod lexer;
pub mod literals;
pub mod report;
pub mod scan;
pub mod structure;
pub mod waiver;
pub mod walk;
pub mod words;

pub use banlist::{BanList, Group, Literal, Pattern};
pub use error::GuardError;
pub use report::{Check, Finding, FindingKind, RegexScope, Report, Waived, Waiver};
pub use scan::{Scanner, scan_source, scan_workspace};

/// Environment variable naming extra ban list files (separated like `PATH`), for lists
/// that are not in the repository.
pub const EXTRA_ENV: &str = "SIGHTLINE_GUARD_EXTRA";

/// File name of the repository's ban list, at the workspace root.
pub const BAN_LIST_FILE: &str = "guard.toml";
