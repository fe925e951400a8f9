//! The languages the pipeline reads: one registration line per language crate. Adding a
//! language is a crate implementing [`sightline_lang::Language`], its dependency in this
//! crate's manifest, and an entry here; nothing else in the pipeline names a language.

use sightline_lang::Languages;

/// Every language the index reads by default, in the order file names are matched.
pub static LANGUAGES: Languages = Languages::new(&[
    &sightline_lang_typescript::TypeScript,
    &sightline_lang_python::Python,
    &sightline_lang_go::Go,
    &sightline_lang_rust::Rust,
    &sightline_lang_java::Java,
]);
