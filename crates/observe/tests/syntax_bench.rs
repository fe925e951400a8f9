//! Throughput check for syntax extraction over a real source tree (ignored by default):
//!
//! `SYNTAX_BENCH_DIR=/path/to/repo cargo test --release -p sightline-observe --test syntax_bench -- --ignored --nocapture`

use std::path::{Path, PathBuf};
use std::time::Instant;

use rayon::prelude::*;
use sightline_observe::{LANGUAGES, LangId};

fn extract_facts(lang: LangId, text: &str) -> sightline_observe::FileFacts {
    LANGUAGES.of(lang).unwrap().extract(lang.dialect, text)
}

/// The grammar a language parses a dialect with (for the parse-only timing).
fn grammar(lang: LangId) -> tree_sitter::Language {
    let language = LANGUAGES.of(lang).unwrap();
    language
        .grammar(lang.dialect)
        .unwrap_or_else(|| panic!("{} names no tree-sitter grammar", language.name()))
}

fn collect(dir: &Path, out: &mut Vec<(PathBuf, LangId)>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if name.starts_with('.') || name == "node_modules" {
            continue;
        }
        if path.is_dir() {
            collect(&path, out);
        } else if let Some(lang) = LANGUAGES.of_path(&name) {
            out.push((path, lang));
        }
    }
}

#[test]
#[ignore]
fn syntax_bench_tree() {
    let Ok(root) = std::env::var("SYNTAX_BENCH_DIR") else {
        return;
    };
    let mut files = Vec::new();
    collect(Path::new(&root), &mut files);
    let sources: Vec<(String, LangId)> = files
        .iter()
        .filter_map(|(p, l)| std::fs::read_to_string(p).ok().map(|s| (s, *l)))
        .collect();
    let bytes: usize = sources.iter().map(|(s, _)| s.len()).sum();
    let start = Instant::now();
    let facts: Vec<_> = sources
        .par_iter()
        .map(|(s, l)| extract_facts(*l, s))
        .collect();
    let elapsed = start.elapsed();
    let decls: usize = facts.iter().map(|f| f.decls.len()).sum();
    let usages: usize = facts.iter().map(|f| f.usages.len()).sum();
    let errors = facts.iter().filter(|f| f.parse_errors > 0).count();
    // Parsing alone, on one thread, to see what extraction adds on top of it.
    let parse_only = Instant::now();
    let mut parser = tree_sitter::Parser::new();
    for (text, lang) in &sources {
        parser.set_language(&grammar(*lang)).unwrap();
        drop(parser.parse(text, None));
    }
    let parse_only = parse_only.elapsed();
    let serial = Instant::now();
    for (text, lang) in &sources {
        drop(extract_facts(*lang, text));
    }
    let serial = serial.elapsed();
    eprintln!("one thread: parse only {parse_only:?}, parse + extract {serial:?}");
    eprintln!(
        "{} files, {:.1} MB in {:?} ({:.1} MB/s, {} threads); {decls} decls, {usages} usages, {errors} files with errors",
        sources.len(),
        bytes as f64 / 1e6,
        elapsed,
        bytes as f64 / 1e6 / elapsed.as_secs_f64(),
        rayon::current_num_threads()
    );
}
