//! The language seam: what the pipeline knows about a source language sits behind one
//! trait, [`Language`], implemented once per language crate, and everything a language
//! produces is plain data defined here.
//!
//! Contract:
//! - [`Language`] says which files are a language's sources and manifests, extracts a
//!   file's [`FileFacts`], builds the language's configuration from its manifests
//!   ([`LanguageConfig`]), resolves an import to a file, a package or nothing
//!   ([`Resolution`]), says how its files see each other (self receivers, a default
//!   export, packages whose files share their top-level names) and what its paths mean
//!   (tests, declaration-only files, generated files, dependency and build directories).
//! - [`Languages`] is a registration list; a [`LangId`] is a position in it plus the
//!   language's dialect (grammar variant) for a file, not a closed list of names.
//! - Nothing here names a language: the facts are a shared vocabulary, and the helpers
//!   ([`syntax`], [`path`], [`conventions`]) are what every extractor and resolver needs.
//!
//! Invariants every language keeps (the `testing` feature's conformance checks test
//! them): extraction and resolution never panic; every fact lies inside its file (lines
//! within `1..=line_count`, parents before children, usages inside existing
//! declarations); a resolution never names a path outside the repository; everything is
//! a pure function of its inputs.
//!
//! ```
//! use sightline_lang::{Dialect, FileFacts, Language, Languages, ResolveCx, Resolution};
//!
//! /// A language whose files import nothing: one grammar, `.none` files.
//! struct Plain;
//!
//! impl Language for Plain {
//!     fn name(&self) -> &'static str { "plain" }
//!     fn facts_version(&self) -> u32 { 1 }
//!     fn dialect(&self, file_name: &str) -> Option<Dialect> {
//!         file_name.ends_with(".none").then_some(0)
//!     }
//!     fn extract(&self, _: Dialect, text: &str) -> FileFacts {
//!         FileFacts { line_count: sightline_lang::count_lines(text), ..FileFacts::default() }
//!     }
//!     fn resolve(&self, _: &ResolveCx<'_>, _: &str, _: &str) -> Resolution {
//!         Resolution::External
//!     }
//! }
//!
//! static LANGUAGES: Languages = Languages::new(&[&Plain]);
//! let id = LANGUAGES.of_path("src/a.none").unwrap();
//! assert_eq!((id.language, id.dialect), (0, 0));
//! assert!(LANGUAGES.of_path("src/a.txt").is_none());
//! ```

#![warn(missing_docs)]

mod config;
pub mod conventions;
mod facts;
mod language;
pub mod path;
mod resolve;
pub mod syntax;
#[cfg(any(test, feature = "testing"))]
pub mod testing;

pub use config::{ConfigDiagnostic, ConfigInput, DynEq, LanguageConfig, NoConfig};
pub use facts::*;
pub use language::{Dialect, LangId, Language, Languages};
pub use resolve::{FileSet, Resolution, ResolveCx};
