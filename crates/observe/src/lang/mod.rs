//! The language seam: everything the engine knows about one source language sits behind
//! [`Language`] — which files are its sources and manifests, how a file becomes
//! [`FileFacts`], how an import specifier becomes a file, and its path conventions.
//! The rest of the pipeline (graph, terms, ranking, sizing, tools) works on the shared
//! facts and never asks which language a file is in.
//!
//! Adding a language: a grammar and an extractor under `syntax/`, a resolver under
//! `resolve/`, one implementation here, and an entry in [`LANGUAGES`]. File-name
//! conventions that every stage reads (test files, declaration-only files) live with
//! `PathTraits` in the base crate, which cannot depend on this one.

mod python;
mod typescript;

use crate::facts::{FileFacts, Lang};
use crate::resolve::{Resolution, Resolver};

pub(crate) use python::Python;
pub(crate) use typescript::TypeScript;

/// One source language (or a family sharing a resolver, like TypeScript and JavaScript).
pub trait Language: Send + Sync + 'static {
    /// A short display name.
    fn name(&self) -> &'static str;
    /// The grammar for a file extension (without the dot), if this language owns it.
    fn lang_for_extension(&self, ext: &str) -> Option<Lang>;
    /// Whether a file name is configuration that module resolution reads.
    fn is_manifest(&self, file_name: &str) -> bool;
    /// Whether a directory name holds installed third-party code or build caches that are
    /// never indexed.
    fn is_dependency_dir(&self, dir_name: &str) -> bool;
    /// Whether a directory name is where this language's packaging tools write build
    /// output, pruned only next to one of its manifests (see `has_packaging_manifest`).
    fn is_build_output_dir(&self, _dir_name: &str) -> bool {
        false
    }
    /// File names that mark a directory as a package's root for its packaging tools.
    fn packaging_manifests(&self) -> &'static [&'static str] {
        &[]
    }
    /// Parses one file of grammar `lang`. Never panics.
    fn extract_facts(&self, lang: Lang, text: &str) -> FileFacts;
    /// Resolves `specifier` as written in `from_file` (repo-relative).
    fn resolve(&self, resolver: &Resolver<'_>, from_file: &str, specifier: &str) -> Resolution;
    /// Whether a call receiver names the instance or class of the enclosing class.
    fn is_self_receiver(&self, receiver: &str) -> bool;
}

/// Every supported language, in the order extensions are looked up.
pub static LANGUAGES: [&dyn Language; 2] = [&TypeScript, &Python];

/// The position in [`LANGUAGES`] of the language owning a grammar: files of one language
/// share a module system and a name space, files of two never link by name.
pub(crate) fn language_index(lang: Lang) -> usize {
    match lang {
        Lang::TypeScript | Lang::Tsx => 0,
        Lang::Python => 1,
    }
}

/// The language owning a grammar.
pub(crate) fn language_of(lang: Lang) -> &'static dyn Language {
    LANGUAGES[language_index(lang)]
}

/// The language of a repo-relative path, by extension.
pub(crate) fn language_of_path(path: &str) -> Option<&'static dyn Language> {
    Lang::from_path(path).map(language_of)
}

/// Whether any language treats a directory name as installed dependencies or caches.
pub(crate) fn is_dependency_dir(dir_name: &str) -> bool {
    LANGUAGES.iter().any(|l| l.is_dependency_dir(dir_name))
}

/// Whether any language treats a file name as configuration its resolver reads.
pub(crate) fn is_manifest(file_name: &str) -> bool {
    LANGUAGES.iter().any(|l| l.is_manifest(file_name))
}

/// Whether any language treats a directory name as build output next to its manifests.
pub(crate) fn is_build_output_dir(dir_name: &str) -> bool {
    LANGUAGES.iter().any(|l| l.is_build_output_dir(dir_name))
}

/// Whether any language with build-output directories treats a file name as packaging
/// configuration (see [`has_packaging_manifest`]).
pub(crate) fn is_packaging_manifest(file_name: &str) -> bool {
    LANGUAGES
        .iter()
        .any(|l| l.packaging_manifests().contains(&file_name))
}

/// Whether a directory holds packaging configuration of a language that has build-output
/// directories (only then is a `build` directory beside it output rather than source).
pub(crate) fn has_packaging_manifest(dir: &std::path::Path) -> bool {
    LANGUAGES.iter().any(|l| {
        l.packaging_manifests()
            .iter()
            .any(|name| dir.join(name).is_file())
    })
}
