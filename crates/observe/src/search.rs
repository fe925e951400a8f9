//! Scoring files and declarations for a query from structure alone: identifier matches in
//! declaration names weighted by the repository's IDF, file-level BM25 over split
//! identifiers, path words, and spreading over the graph from the best name hits.

use rustc_hash::FxHashMap;
use serde::{Deserialize, Serialize};

use crate::db::{
    Db, SourceFile, Workspace, file_positions, term_chunks, term_stats, workspace_graph,
};
use crate::graph::{EdgeKind, Graph, NodeId};
use crate::path_traits::PathTraits;
use crate::postings::Key;
use crate::query::QueryTerms;
use crate::terms::NameWords;

/// How many of the best name hits seed the graph expansion.
const MAX_SEEDS: usize = 12;
/// Nodes with more edges than this are hubs; expansion passes through them no further.
const HUB_DEGREE: usize = 60;

/// How [`search`] ranks: graph depth, secondary files and the model's weights.
#[derive(Clone, Debug)]
pub struct SearchOptions {
    /// Edges followed from the best name matches (hops).
    pub max_depth: u32,
    /// Treat tests, examples and other secondary files like any other file.
    pub include_secondary: bool,
    /// The weights and extractor constants (the rank model's search part).
    pub weights: SearchWeights,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            max_depth: 2,
            include_secondary: false,
            weights: SearchWeights::UNFITTED,
        }
    }
}

/// Why a declaration scored.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum HitVia {
    /// Its name matches query terms.
    Name {
        /// The query terms the name matched (shared by every declaration of the name:
        /// a common name is declared thousands of times).
        matched: std::sync::Arc<[String]>,
    },
    /// Reached over an edge from a better hit.
    Edge {
        /// The hit it was reached from.
        from: NodeId,
        /// The edge's kind.
        kind: EdgeKind,
        /// Whether the edge was followed backwards (to a user of `from`).
        incoming: bool,
        /// Edges from the nearest name match.
        hops: u32,
    },
}

/// A declaration the search scored, by name or by proximity in the graph.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SymbolHit {
    /// The declaration's node in the assembled graph.
    pub node: NodeId,
    /// Its own name's match to the query.
    pub name_score: f64,
    /// What it gained from nearby matches.
    pub graph_score: f64,
    /// The summed IDF of the query's literals that name it exactly.
    #[serde(default)]
    pub literal: f64,
    /// Why it scored.
    pub via: HitVia,
}

impl SymbolHit {
    /// Name, literal and graph score together.
    pub fn score(&self) -> f64 {
        self.name_score + self.literal + self.graph_score
    }

    /// What the declaration's own name earned: its words' matches and the literals naming it.
    pub fn own_score(&self) -> f64 {
        self.name_score + self.literal
    }
}

pub use sightline_base::{ScoreComponents, SearchShape, SearchWeights};

/// A file the search scored: its score, the unweighted components and its path traits.
///
/// The file is named by its position alone (its path is the graph's `paths[file]`, the
/// query terms it holds [`matched_terms`]): a query scores every file holding one of its
/// terms, thousands on a large workspace, and a path or a term list copied for each would
/// cost more than the scoring itself.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FileHit {
    /// Index into the workspace's files.
    pub file: u32,
    /// The weighted score (components × weights × trait penalties).
    pub score: f64,
    /// The unweighted features the score was weighed from.
    pub components: ScoreComponents,
    /// Test, example, generated, declaration-only … flags of the path.
    pub traits: PathTraits,
    /// The file's run of lines holding the most of the query's terms (see
    /// [`ScoreComponents::proximity`]), when the file was read for it.
    #[serde(default)]
    pub focus: Option<crate::facts::LineRange>,
}

/// Everything one query found: its parsed terms, files and declarations.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct SearchResult {
    /// The query's terms with the repository's IDF.
    pub terms: QueryTerms,
    /// Best first.
    pub files: Vec<FileHit>,
    /// Best first.
    pub symbols: Vec<SymbolHit>,
    /// Non-source files (manifests, configuration) whose name the query spells out, in
    /// path order: they have no declarations to rank, but a query naming one must reach it.
    #[serde(default)]
    pub named_files: Vec<FileHit>,
}

/// Ranks the workspace's files and declarations for `query`: BM25 over the repository's
/// own vocabulary, declaration-name and path matches, and spreading over the graph from
/// the best name matches.
pub fn search(db: &dyn Db, ws: Workspace, query: &str, opts: &SearchOptions) -> SearchResult {
    let stats = term_stats(db, ws);
    let mut terms = QueryTerms::parse(query, &stats);
    let graph = workspace_graph(db, ws);
    let literals = literal_evidence(db, ws, Some(&graph), &mut terms);
    let files = ws.files(db);
    let named_files = named_files(db, ws, query, &terms, &opts.weights);
    if terms.is_empty() {
        return SearchResult {
            terms,
            named_files,
            ..SearchResult::default()
        };
    }

    let shape = &opts.weights.shape;
    let mut symbols = name_hits(db, ws, &graph, &terms, shape);
    for (&node, &idf) in &literals.decls {
        symbols
            .entry(node)
            .or_insert_with(|| SymbolHit {
                node,
                name_score: 0.0,
                graph_score: 0.0,
                literal: 0.0,
                via: HitVia::Name {
                    matched: Default::default(),
                },
            })
            .literal += idf;
    }
    expand(&graph, &mut symbols, opts.max_depth, shape);

    // Best name, name rest, graph. The rest is a float sum, so its order is fixed (by
    // node): a map's iteration order would change its last bits from run to run (a random
    // hasher) or with how the hits were gathered, and flip ties in the ranking.
    let mut by_file: FxHashMap<u32, (f64, f64, f64)> = Default::default();
    let mut in_order: Vec<&SymbolHit> = symbols.values().collect();
    in_order.sort_unstable_by_key(|h| h.node);
    for h in in_order {
        let e = by_file.entry(graph.file_of(h.node)).or_default();
        if h.name_score > e.0 {
            e.1 += e.0;
            e.0 = h.name_score;
        } else {
            e.1 += h.name_score;
        }
        e.2 = e.2.max(h.graph_score);
    }

    let avg_len = stats.average_length().max(1.0);
    let lexical_by_file = lexical_scores(db, ws, &terms, avg_len, shape);
    let has_compound = terms.terms.iter().any(|t| t.compound);
    let mirrors = crate::mirrors::mirror_files(db, ws);
    let source_traits = crate::path_traits::source_traits(db, ws);
    let mut hits = Vec::new();
    // Only files some component can score are visited: those holding a query term, a
    // declaration the names or the graph reached, a path word or an imported identifier
    // the query spells. Every other file would score zero on every component.
    let scored = scored_files(
        db,
        ws,
        &terms,
        &lexical_by_file,
        &by_file,
        literals.files.keys().copied(),
    );
    hits.reserve_exact(scored.files.len());
    for &(fi, f) in &scored.files {
        let Some(Some(traits)) = source_traits.get(fi as usize) else {
            continue;
        };
        // The file's term count comes with its postings; only a file no term reached
        // asks its memo.
        let (lexical, terms_total) = match lexical_by_file.get(&f) {
            Some(&(score, total)) => (score, total),
            None => (0.0, crate::db::file_terms(db, f).total),
        };
        // A path holding none of the query's words scores nothing, nor does a file
        // importing none of its identifiers: their tables are not read.
        let (path_stem, path_dir) = match scored.by_path.contains(&fi) {
            true => path_score(&crate::db::file_path_words(db, f), &terms, shape),
            false => (0.0, 0.0),
        };
        // Only a query spelling a multi-word identifier can match an import's compound key.
        let import_score = if has_compound && scored.by_import.contains(&fi) {
            import_score(&crate::db::file_import_keys(db, f), &terms, shape)
        } else {
            0.0
        };
        let (best_name, rest_name, graph_score) = by_file.get(&fi).copied().unwrap_or_default();
        let best_name = best_name.max(import_score);
        let path_score = path_stem + path_dir;
        let lit = literals.files.get(&fi).copied().unwrap_or_default();
        let literal = lit.name + lit.path + lit.text;
        if lexical == 0.0
            && path_score == 0.0
            && best_name == 0.0
            && graph_score == 0.0
            && literal == 0.0
        {
            continue;
        }
        let mut traits = *traits;
        traits.generated |= !mirrors.is_empty() && mirrors.contains(&fi);
        let asked_for = opts.include_secondary;
        let trait_factor = if traits.is_secondary() && !asked_for {
            opts.weights.secondary_factor
        } else if traits.declaration_only && !asked_for {
            opts.weights.declaration_only_factor
        } else {
            1.0
        };
        let components = ScoreComponents {
            name: best_name,
            name_rest: rest_name,
            lexical,
            path: path_stem,
            path_dir,
            graph: graph_score,
            literal_name: lit.name,
            literal_path: lit.path,
            literal_text: lit.text,
            proximity: 0.0,
            size: (f64::from(terms_total).max(1.0) / avg_len).ln(),
            trait_factor,
        };
        hits.push(FileHit {
            file: fi,
            score: components.total(&opts.weights),
            components,
            traits,
            focus: None,
        });
    }
    // Best first, ties by path: a total order (paths are unique), so an unstable sort
    // gives the one order a stable sort would.
    let paths = &graph.paths;
    let path = |hit: &FileHit| paths.get(hit.file as usize).map(String::as_str);
    let order = |a: &FileHit, b: &FileHit| {
        b.score
            .total_cmp(&a.score)
            .then_with(|| path(a).cmp(&path(b)))
    };
    // Proximity reads text: only the files that can still reach the top are read, the
    // best [`PROXIMITY_FILES`] by the scores so far, set apart without sorting the rest;
    // everything is sorted once, after.
    if hits.len() > PROXIMITY_FILES {
        hits.select_nth_unstable_by(PROXIMITY_FILES, order);
    }
    if let Some(proximity) = Proximity::new(&terms) {
        for hit in hits.iter_mut().take(PROXIMITY_FILES) {
            if let Some((weight, run)) = proximity.score(files[hit.file as usize].text(db)) {
                hit.components.proximity = weight;
                hit.focus = Some(run);
                hit.score = hit.components.total(&opts.weights);
            }
        }
    }
    hits.sort_unstable_by(order);
    let mut kept: Vec<SymbolHit> = Vec::with_capacity(symbols.len());
    kept.extend(
        symbols
            .into_values()
            .filter(|h| graph.decl_of(h.node).is_some()),
    );
    let mut symbols = kept;
    symbols.sort_by(|a, b| b.score().total_cmp(&a.score()).then(a.node.cmp(&b.node)));
    SearchResult {
        terms,
        files: hits,
        symbols,
        named_files,
    }
}

/// The non-source files whose name the query spells out, in path order.
fn named_files(
    db: &dyn Db,
    ws: Workspace,
    query: &str,
    terms: &QueryTerms,
    weights: &SearchWeights,
) -> Vec<FileHit> {
    let query_words: rustc_hash::FxHashSet<String> =
        crate::terms::term_words(query).into_iter().collect();
    let mut out = Vec::new();
    let positions = file_positions(db, ws);
    // Every file that is not source is a manifest, and this list holds them in path order.
    for f in crate::db::manifest_files(db, ws).iter() {
        let Some(&fi) = positions.get(f) else {
            continue;
        };
        let path = f.path(db);
        let words = crate::db::file_path_words(db, *f);
        if !query_names_file(&words, &query_words) {
            continue;
        }
        let (stem_score, dir_score) = path_score(&words, terms, &weights.shape);
        let components = ScoreComponents {
            path: stem_score,
            path_dir: dir_score,
            trait_factor: 1.0,
            ..ScoreComponents::default()
        };
        out.push(FileHit {
            file: fi,
            score: components.total(weights),
            components,
            traits: crate::path_traits::path_traits(db.languages(), path),
            focus: None,
        });
    }
    out
}

/// Whether every word of the file name's stem (`tsconfig` of `tsconfig.base.json`) is a
/// word of the query.
fn query_names_file(
    (stem, _): &(Vec<String>, Vec<String>),
    query_words: &rustc_hash::FxHashSet<String>,
) -> bool {
    !stem.is_empty() && stem.iter().all(|w| query_words.contains(w))
}

/// How well a declaration's name matches the query, in IDF units, with the name's
/// subwords that matched (as written, lowercased, not as stems: they are shown). `words`
/// is scratch reused from one name to the next: the name is split, lowercased and
/// normalised once ([`NameWords`]).
fn name_score(
    name: &str,
    terms: &QueryTerms,
    shape: &SearchShape,
    words: &mut NameWords,
) -> (f64, Vec<String>) {
    words.read(name);
    let count = words.term_count();
    if count == 0 {
        return (0.0, Vec::new());
    }
    // The name's terms in order: the distinct ones, and those the query has (each once,
    // its IDF summed in the order the name spells them) with the subwords they came from.
    let mut distinct_words = 0;
    let mut matched = 0;
    let mut score = 0.0;
    let mut hit_subwords: u64 = 0;
    let mut hit_beyond: Vec<usize> = Vec::new();
    for i in 0..count {
        let (term, subword) = words.term(i);
        let repeated = (0..i).any(|j| words.term(j).0 == term);
        let Some(t) = terms.get(term).filter(|t| !t.compound) else {
            distinct_words += usize::from(!repeated);
            continue;
        };
        match subword {
            0..64 => hit_subwords |= 1 << subword,
            _ => hit_beyond.push(subword),
        }
        if !repeated {
            distinct_words += 1;
            matched += 1;
            score += t.idf;
        }
    }
    if matched == 0 {
        return (0.0, Vec::new());
    }
    let coverage = matched as f64 / distinct_words as f64;
    score *= shape.coverage(coverage);
    // The query wrote this exact multi-word identifier.
    if words.subword_count() > 1 && terms.get(words.compound_key()).is_some_and(|t| t.compound) {
        score *= shape.compound_name;
    }
    let mut shown: Vec<String> = Vec::new();
    for i in 0..words.subword_count() {
        let hit = match i {
            0..64 => hit_subwords & (1 << i) != 0,
            _ => hit_beyond.contains(&i),
        };
        let lower = words.subword(i);
        if hit && !shown.iter().any(|s| s == lower) {
            shown.push(lower.to_owned());
        }
    }
    (score, shown)
}

fn name_hits(
    db: &dyn Db,
    ws: Workspace,
    graph: &Graph,
    terms: &QueryTerms,
    shape: &SearchShape,
) -> FxHashMap<NodeId, SymbolHit> {
    let mut hits = FxHashMap::default();
    let chunks: Vec<_> = term_chunks(db, ws)
        .into_iter()
        .map(|chunk| crate::db::indexed_decl_words(db, ws, chunk))
        .collect();
    let positions = file_positions(db, ws);
    // Every declaration some query term names, once (a name holding two terms is listed
    // under both), with its chunk and its name there.
    let mut found: Vec<(NodeId, u32, u32)> = Vec::new();
    for t in &terms.terms {
        let key = Key::new(&t.term);
        for (c, chunk) in chunks.iter().enumerate() {
            for r in chunk.get_key(key) {
                if let Some(&pos) = positions.get(&r.file) {
                    found.push((graph.decl_node(pos, r.decl), c as u32, r.name));
                }
            }
        }
    }
    found.sort_unstable_by_key(|&(node, _, _)| node);
    found.dedup_by_key(|&mut (node, _, _)| node);
    // Many declarations share a name (members, overloads, re-declarations): each name is
    // split, stemmed and scored once per query (`scores`), and looked up by its text once
    // per chunk naming it.
    let mut scores: Vec<(f64, std::sync::Arc<[String]>)> = Vec::new();
    let mut by_name: FxHashMap<&str, u32> = Default::default();
    let mut by_ref: FxHashMap<(u32, u32), u32> = Default::default();
    let mut words = NameWords::default();
    hits.reserve(found.len());
    for (node, c, name) in found {
        if graph.decl_of(node).is_none() {
            continue;
        }
        let Some((text, member)) = chunks[c as usize].names.get(name as usize) else {
            continue;
        };
        let at = *by_ref.entry((c, name)).or_insert_with(|| {
            *by_name.entry(text).or_insert_with(|| {
                let (score, matched) = name_score(text, terms, shape, &mut words);
                scores.push((score, matched.into()));
                (scores.len() - 1) as u32
            })
        });
        let (score, matched) = &scores[at as usize];
        if *score <= 0.0 {
            continue;
        }
        let kind_weight = if *member { shape.member_kind } else { 1.0 };
        hits.insert(
            node,
            SymbolHit {
                node,
                name_score: *score * kind_weight,
                graph_score: 0.0,
                literal: 0.0,
                via: HitVia::Name {
                    matched: matched.clone(),
                },
            },
        );
    }
    hits
}

/// How much score crosses an edge of `kind` (followed backwards when `incoming`).
fn edge_weight(kind: EdgeKind, incoming: bool, certain: bool, shape: &SearchShape) -> f64 {
    let w = &shape.edges;
    let weight = match (kind, incoming) {
        (EdgeKind::Contains, false) => w.contains_down,
        (EdgeKind::Contains, true) => w.contains_up,
        (EdgeKind::Calls | EdgeKind::Renders, _) => w.calls,
        (EdgeKind::Instantiates | EdgeKind::Extends | EdgeKind::Implements, _) => w.structural,
        (EdgeKind::References, _) => w.references,
        (EdgeKind::Imports, _) => w.imports,
    };
    w.certainty(weight, certain)
}

/// Spreads score from the best name hits over the graph, breadth first, decaying per hop.
fn expand(
    graph: &Graph,
    hits: &mut FxHashMap<NodeId, SymbolHit>,
    max_depth: u32,
    shape: &SearchShape,
) {
    let mut seeds: Vec<(NodeId, f64)> = hits.values().map(|h| (h.node, h.own_score())).collect();
    seeds.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    seeds.truncate(MAX_SEEDS);
    let mut frontier = seeds;
    for hop in 1..=max_depth {
        let mut next: Vec<(NodeId, f64)> = Vec::new();
        for &(node, score) in &frontier {
            let out = graph.outgoing(node);
            let degree = out.len();
            if degree > HUB_DEGREE && hop > 1 {
                continue;
            }
            let neighbours = out
                .iter()
                .map(|e| (e, e.to, false))
                .chain(graph.incoming(node).map(|e| (e, e.from, true)));
            for (e, other, incoming) in neighbours {
                let gained =
                    score * edge_weight(e.kind, incoming, e.certain, shape) * shape.hop_decay;
                if gained <= 0.0 {
                    continue;
                }
                // Module nodes are kept while spreading (a re-exporting module scores
                // through them) and dropped from the returned symbols.
                let entry = hits.entry(other).or_insert_with(|| SymbolHit {
                    node: other,
                    name_score: 0.0,
                    graph_score: 0.0,
                    literal: 0.0,
                    via: HitVia::Edge {
                        from: node,
                        kind: e.kind,
                        incoming,
                        hops: hop,
                    },
                });
                if gained > entry.graph_score {
                    entry.graph_score = gained;
                    if entry.own_score() == 0.0 {
                        entry.via = HitVia::Edge {
                            from: node,
                            kind: e.kind,
                            incoming,
                            hops: hop,
                        };
                    }
                    next.push((other, gained));
                }
            }
        }
        next.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        next.truncate(MAX_SEEDS * 4);
        frontier = next;
    }
}

/// A module that imports or re-exports an identifier the query names exactly: the place
/// that exposes a name matters as much as the place that declares it.
fn import_score(keys: &[(String, bool)], terms: &QueryTerms, shape: &SearchShape) -> f64 {
    let mut best: f64 = 0.0;
    for (key, reexport) in keys {
        let weight = shape.import(*reexport);
        if let Some(t) = terms.get(key).filter(|t| t.compound) {
            best = best.max(t.idf * shape.compound_name * weight);
        }
    }
    best
}

/// BM25 of every source file holding a query term, with the file's number of terms (what
/// its postings carry for BM25's length), from the per-chunk postings: files holding none
/// are never visited. (Which terms a file holds is asked of the few files shown,
/// [`matched_terms`].)
fn lexical_scores(
    db: &dyn Db,
    ws: Workspace,
    terms: &QueryTerms,
    avg_len: f64,
    shape: &SearchShape,
) -> rustc_hash::FxHashMap<SourceFile, (f64, u32)> {
    let mut out: rustc_hash::FxHashMap<SourceFile, (f64, u32)> = Default::default();
    let keys: Vec<Key> = terms.terms.iter().map(|t| Key::new(&t.term)).collect();
    for chunk in term_chunks(db, ws) {
        let postings = crate::db::indexed_postings(db, ws, chunk);
        for (t, &key) in terms.terms.iter().zip(&keys) {
            for p in postings.get_key(key).unwrap_or(&[]) {
                let tf = f64::from(p.tf);
                if tf == 0.0 {
                    continue;
                }
                let entry = out.entry(p.file).or_insert((0.0, p.total));
                entry.0 += shape.bm25(t.idf, tf, f64::from(p.total), avg_len);
            }
        }
    }
    out
}

/// The query terms `file` holds in its identifiers, comments or strings, in query order:
/// those that gave it a lexical score (the terms of its postings).
pub fn matched_terms(db: &dyn Db, file: SourceFile, terms: &QueryTerms) -> Vec<String> {
    let counts = crate::db::file_terms(db, file);
    terms
        .terms
        .iter()
        .filter(|t| counts.get(&t.term) > 0)
        .map(|t| t.term.clone())
        .collect()
}

/// The files some component of the search can score, and among them those whose path
/// holds a query word and those importing an identifier the query spells.
struct ScoredFiles {
    /// With their positions, in file order.
    files: Vec<(u32, SourceFile)>,
    /// Positions of the files a query word is a path word of.
    by_path: rustc_hash::FxHashSet<u32>,
    /// Positions of the files importing or re-exporting a compound term of the query.
    by_import: rustc_hash::FxHashSet<u32>,
}

/// The files some component of the search can score: those holding a query term
/// (`lexical`), those whose declarations the names or the graph reached (`by_file`, by
/// position), those whose path holds a query word, and, for a query spelling a multi-word
/// identifier, those importing it.
fn scored_files<T, U>(
    db: &dyn Db,
    ws: Workspace,
    terms: &QueryTerms,
    lexical: &rustc_hash::FxHashMap<SourceFile, T>,
    by_file: &rustc_hash::FxHashMap<u32, U>,
    literal_files: impl Iterator<Item = u32>,
) -> ScoredFiles {
    let files = ws.files(db);
    let positions = file_positions(db, ws);
    let mut found: rustc_hash::FxHashSet<u32> = by_file.keys().copied().collect();
    // A file only a literal of the query names (its file name, a string in it).
    found.extend(literal_files);
    found.extend(lexical.keys().filter_map(|f| positions.get(f).copied()));
    let mut by_path: rustc_hash::FxHashSet<u32> = Default::default();
    let mut by_import: rustc_hash::FxHashSet<u32> = Default::default();
    let keys: Vec<Key> = terms.terms.iter().map(|t| Key::new(&t.term)).collect();
    for chunk in term_chunks(db, ws) {
        let path_words = crate::db::path_word_chunk(db, ws, chunk);
        let import_keys = terms
            .terms
            .iter()
            .any(|t| t.compound)
            .then(|| crate::db::indexed_import_keys(db, ws, chunk));
        for (t, &key) in terms.terms.iter().zip(&keys) {
            let (table, seen) = if t.compound {
                (import_keys.as_deref(), &mut by_import)
            } else {
                (Some(&*path_words), &mut by_path)
            };
            let holding = table.and_then(|table| table.get_key(key));
            seen.extend(
                holding
                    .into_iter()
                    .flatten()
                    .filter_map(|f| positions.get(f).copied()),
            );
        }
    }
    found.extend(&by_path);
    found.extend(&by_import);
    let mut found: Vec<u32> = found.into_iter().collect();
    found.sort_unstable();
    let files = found
        .into_iter()
        .filter_map(|fi| Some((fi, *files.get(fi as usize)?)))
        .collect();
    ScoredFiles {
        files,
        by_path,
        by_import,
    }
}

/// Query terms found among a path's words, IDF-weighted: those of the file's stem and
/// those of its directories, apart (the model weighs them), a word in both counting once
/// as the stem's.
fn path_score(
    (stem, dirs): &(Vec<String>, Vec<String>),
    terms: &QueryTerms,
    shape: &SearchShape,
) -> (f64, f64) {
    let mut parts = [0.0, 0.0];
    let mut seen: Vec<&str> = Vec::new();
    for (part, words) in parts.iter_mut().zip([stem, dirs]) {
        for w in words {
            if seen.contains(&w.as_str()) {
                continue;
            }
            if let Some(t) = terms.get(w).filter(|t| !t.compound) {
                *part += t.idf;
                seen.push(w);
            }
        }
    }
    // Only a query holding a whole identifier can match the stem as one.
    if stem.len() > 1 && terms.terms.iter().any(|t| t.compound) {
        let key: String = stem.concat();
        if terms.get(&key).is_some_and(|t| t.compound) {
            parts = parts.map(|p| p * shape.compound_path);
        }
    }
    (parts[0], parts[1])
}

#[path = "search_literals.rs"]
mod literals;
#[path = "search_proximity.rs"]
mod proximity;

use literals::literal_evidence;
pub use literals::resolve_literals;
use proximity::{PROXIMITY_FILES, Proximity};

#[cfg(test)]
#[path = "search_tests.rs"]
mod tests;
