//! Where the query's literals occur in the workspace: the declarations they name, the
//! paths they name, the texts holding them verbatim; and how specific each literal is here
//! (BM25's IDF over the source files it matched in any of those ways).
//!
//! Lookups go through the indexes the search already has: declaration names through the
//! per-chunk declaration words, texts through the postings of the literal's rarest term
//! (a text holding the literal holds its words), paths through the per-chunk table of the
//! keys a literal can name a path by.

use rustc_hash::{FxHashMap, FxHashSet};

use crate::db::{
    Db, SourceFile, Workspace, file_index, file_positions, path_literal_chunk, term_chunks,
    term_stats,
};
use crate::graph::{Graph, NodeId};
use crate::literal::{Literal, literal_idf};
use crate::query::QueryTerms;
use crate::terms::{compound_key, identifier_tokens, subword_count, term_words};

/// Most files whose text is read to confirm one literal: a literal whose rarest word is
/// in more files than this is not specific enough to be worth reading them all.
const MAX_TEXT_PROBES: usize = 200;

/// The literal components of one file: the summed IDF of the literals naming one of its
/// declarations, naming its path, and found in its text.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct FileLiterals {
    pub name: f64,
    pub path: f64,
    pub text: f64,
}

/// Everything the query's literals matched.
#[derive(Clone, Debug, Default)]
pub(crate) struct LiteralEvidence {
    /// By file position.
    pub files: FxHashMap<u32, FileLiterals>,
    /// Declarations a literal names, with the summed IDF of those literals.
    pub decls: FxHashMap<NodeId, f64>,
}

/// What one literal matched, by file position.
#[derive(Default)]
struct Matched {
    names: Vec<(u32, u32)>,
    paths: FxHashSet<u32>,
    texts: FxHashSet<u32>,
}

impl Matched {
    fn files(&self) -> FxHashSet<u32> {
        let mut all: FxHashSet<u32> = self.paths.union(&self.texts).copied().collect();
        all.extend(self.names.iter().map(|(f, _)| *f));
        all
    }
}

/// Sets each literal's `df` and `idf` in `terms` from the source files it matches.
pub fn resolve_literals(db: &dyn Db, ws: Workspace, terms: &mut QueryTerms) {
    let _ = literal_evidence(db, ws, None, terms);
}

/// Resolves the literals of `terms` (their `df` and `idf`) and returns what they matched;
/// declarations are mapped to graph nodes when `graph` is given.
pub(crate) fn literal_evidence(
    db: &dyn Db,
    ws: Workspace,
    graph: Option<&Graph>,
    terms: &mut QueryTerms,
) -> LiteralEvidence {
    let mut evidence = LiteralEvidence::default();
    if terms.literals.is_empty() {
        return evidence;
    }
    let stats = term_stats(db, ws);
    let documents = stats.documents;
    let positions = file_positions(db, ws);
    let chunks = term_chunks(db, ws);
    for lit in &mut terms.literals {
        let mut m = Matched::default();
        let lookup_keys = lit.path_lookup_keys();
        // Declarations named by the literal's last segment.
        let last = lit.segments.last().cloned().unwrap_or_default();
        let lookup = if lit.is_fragment() {
            None
        } else if subword_count(&last) > 1 {
            Some(compound_key(&last))
        } else {
            term_words(&last).into_iter().next()
        };
        if let Some(lookup) = lookup {
            for chunk in &chunks {
                let index = crate::db::indexed_decl_words(db, ws, *chunk);
                for r in index.get(&lookup) {
                    let Some(&pos) = positions.get(&r.file) else {
                        continue;
                    };
                    let facts = &file_index(db, r.file).facts;
                    if facts
                        .decls
                        .get(r.decl as usize)
                        .is_some_and(|d| lit.names(&d.name, &d.qualified))
                    {
                        m.names.push((pos, r.decl));
                    }
                }
            }
        }
        // Paths: those filed under one of the literal's keys, confirmed; a file named
        // after a type qualifier only if it declares that type.
        for chunk in &chunks {
            let index = path_literal_chunk(db, ws, *chunk);
            for key in &lookup_keys {
                for f in index.get(key).unwrap_or(&[]) {
                    let Some(&pos) = positions.get(f) else {
                        continue;
                    };
                    let path = f.path(db);
                    if lit.names_path(path)
                        || lit
                            .qualifier_naming(path)
                            .is_some_and(|q| declares(db, *f, &q))
                    {
                        m.paths.insert(pos);
                    }
                }
            }
        }
        // Texts holding the literal, confirmed verbatim, looked up by its rarest term: a
        // text holding the literal holds each of its words and, for each of its tokens of
        // several words, that token's compound key (counted for every such token of a text).
        // A literal that is one such token is looked up by its key.
        let one_token = identifier_tokens(&lit.text).count() == 1 && subword_count(&lit.text) > 1;
        let probe_key = if one_token && stats.df(&lit.key) > 0 {
            Some(lit.key.clone())
        } else {
            identifier_tokens(&lit.text)
                .filter(|t| subword_count(t) > 1)
                .map(compound_key)
                .filter(|k| stats.df(k) > 0)
                .chain(term_words(&lit.text))
                .min_by_key(|w| stats.df(w))
        };
        if let Some(rarest) = probe_key {
            let mut probes: Vec<SourceFile> = Vec::new();
            for chunk in &chunks {
                let postings = crate::db::indexed_postings(db, ws, *chunk);
                probes.extend(
                    postings
                        .get(rarest.as_str())
                        .into_iter()
                        .flatten()
                        .map(|p| p.file),
                );
            }
            if probes.len() <= MAX_TEXT_PROBES {
                for f in probes {
                    if let Some(&pos) = positions.get(&f)
                        && lit.occurs_in(f.text(db))
                    {
                        m.texts.insert(pos);
                    }
                }
            }
        }
        let matched = m.files();
        lit.df = matched.len() as u32;
        lit.idf = if lit.df == 0 {
            0.0
        } else {
            literal_idf(documents.max(lit.df), lit.df)
        };
        add(&mut evidence, lit, &m, graph);
    }
    evidence
}

/// Whether `file` declares something whose name's compound key is `key`.
fn declares(db: &dyn Db, file: SourceFile, key: &str) -> bool {
    file_index(db, file)
        .facts
        .decls
        .iter()
        .any(|d| compound_key(&d.name) == key)
}

fn add(evidence: &mut LiteralEvidence, lit: &Literal, m: &Matched, graph: Option<&Graph>) {
    if lit.df == 0 {
        return;
    }
    let mut named_files: FxHashSet<u32> = FxHashSet::default();
    for &(file, decl) in &m.names {
        named_files.insert(file);
        if let Some(graph) = graph {
            *evidence
                .decls
                .entry(graph.decl_node(file, decl))
                .or_default() += lit.idf;
        }
    }
    for file in named_files {
        evidence.files.entry(file).or_default().name += lit.idf;
    }
    for &file in &m.paths {
        evidence.files.entry(file).or_default().path += lit.idf;
    }
    for &file in &m.texts {
        evidence.files.entry(file).or_default().text += lit.idf;
    }
}
