//! The observe stage: index a repository with tree-sitter and answer typed exploration
//! tool calls over it.
//!
//! Contract: the input is a root directory. [`Index::open`] walks it (honouring ignore
//! files), loads the source files and manifests of the registered languages
//! ([`LANGUAGES`], each a [`Language`] of its own crate), and sets them as salsa inputs: one [`SourceFile`] per file and one [`Workspace`] holding the root and the
//! files sorted by path. Everything else is derived by tracked functions in [`db`]: per-file
//! [`FileFacts`] (declarations, imports, usages, heritage) and shapes, the workspace graph of
//! resolved edges ([`graph`]), and term statistics ([`idf::TermStats`], [`terms`]) that
//! weigh a query's words ([`query::QueryTerms`]). [`Index::refresh`] re-reads only files
//! whose stamp changed and salsa re-derives what depends on them; a persistent cache
//! ([`CacheMode`]) keyed by content hash makes a fresh process start warm; a file watcher
//! ([`watch::Freshness`]) tells the index which paths changed, so a refresh with nothing
//! changed stats nothing. Four tools answer
//! over it with typed arguments, typed results and a [`tools::ToolError`] naming the bad
//! input: [`tools::explore_code`] (the graph), [`tools::grep`], [`tools::read_file`] and
//! [`tools::list_files`] (the tree, through a [`paths::RepoRoot`]).
//!
//! Invariants:
//! - Never panics on file contents: unparsable source yields facts with `parse_errors`
//!   counted, and configuration problems become diagnostics, never failures.
//! - Every skipped file is counted by reason ([`IndexReport::skipped`], the tools'
//!   [`tools::SkipCounts`]): too large, binary, minified, generated, dependency directory, …
//! - Paths never escape the root: a tool path with `..`, an absolute path, or a symlink that
//!   resolves outside the root (or into `.git`) is refused as a [`paths::PathError`]; the
//!   walk never follows symlinks.
//! - Line ranges are 1-based and inclusive ([`LineRange`]) and lie within their file.
//!
//! Embedding it on its own: index a directory and ask `explore_code` for a name.
//!
//! ```
//! use sightline_observe::tools::explore_code::{self, ExploreArgs};
//! use sightline_observe::{CacheMode, Index, IndexOptions};
//!
//! let dir = tempfile::tempdir().unwrap();
//! std::fs::write(
//!     dir.path().join("drafts.ts"),
//!     "export function saveDraft(d: string) {\n  return d.trim();\n}\n",
//! )
//! .unwrap();
//!
//! let options = IndexOptions { cache: CacheMode::Disabled, ..IndexOptions::default() };
//! let index = Index::open(dir.path(), &options).unwrap();
//! assert_eq!(index.report().source_files, 1);
//!
//! let found = explore_code::run(index.db(), index.workspace(), &ExploreArgs::new("saveDraft"))
//!     .unwrap();
//! let file = &found.files[0];
//! assert_eq!(file.path, "drafts.ts");
//! let window = &file.windows[0];
//! assert!(window.lines.start >= 1 && window.lines.end <= 3, "within the file's 3 lines");
//! assert!(window.text.contains("saveDraft"));
//! ```

#![warn(missing_docs)]

pub mod idf;
mod languages;
pub mod literal;
mod not_indexed;
pub mod path_traits;
pub mod paths;
pub mod postings;
pub mod query;
pub mod resolve;
mod stem;
mod stop;
pub mod terms;
pub mod tools;
pub mod walk;
pub mod watch;

pub mod cache;
pub mod db;
pub mod graph;
mod index;
pub mod memory;
mod mirrors;
mod resolution;
pub mod search;
mod shape;
pub mod sizing;

pub use sightline_base::escape;

pub use db::{Db, ObserveDatabase, SourceFile, Workspace};
pub use index::{CacheMode, Index, IndexError, IndexOptions, IndexReport, Progress, RefreshReport};

/// The shared facts, under the name the stages' code reads them by.
use sightline_lang as facts;

pub use languages::LANGUAGES;
pub use not_indexed::NotIndexed;
pub use sightline_lang::{
    ByteRange, DeclIndex, DeclKind, Declaration, FileFacts, Heritage, HeritageKind, Import,
    ImportedName, LangId, Language, Languages, LineRange, Usage, UsageKind,
};
