//! Temporary timing probe (ignored test); removed before handing back.
#[cfg(test)]
mod tests {
    use std::time::Instant;

    use crate::db::*;
    use crate::{CacheMode, Index, IndexOptions};

    fn best(n: usize, mut f: impl FnMut()) -> f64 {
        let mut b = f64::MAX;
        for _ in 0..n {
            let t = Instant::now();
            f();
            b = b.min(t.elapsed().as_secs_f64() * 1000.0);
        }
        b
    }

    #[test]
    #[ignore]
    fn probe() {
        let root = std::env::var("PROBE_ROOT").unwrap();
        let options = IndexOptions {
            cache: CacheMode::Dir("/tmp/slp/probe-cache".into()),
            progress: None,
        };
        let index = Index::open(std::path::Path::new(&root), &options).unwrap();
        let db = index.db();
        let ws = index.workspace();
        let files = ws.files(db).clone();
        let texts: Vec<std::sync::Arc<str>> = files.iter().map(|f| f.text(db).clone()).collect();
        println!("files {}", files.len());
        println!(
            "from_text all: {:.1} ms",
            best(5, || {
                for t in &texts {
                    std::hint::black_box(crate::terms::TermCounts::from_text(t));
                }
            })
        );
        let stats = term_stats(db, ws);
        let parts: Vec<_> = (0..files.len().div_ceil(TERM_CHUNK_FILES) as u32)
            .map(|c| term_chunk_stats(db, ws, TermChunk::new(db, c)))
            .collect();
        let sum: usize = parts.iter().map(|p| p.df.len()).sum();
        println!(
            "unique terms {}, sum of chunk uniques {}",
            stats.df.len(),
            sum
        );
        println!(
            "from_partials: {:.1} ms",
            best(5, || {
                std::hint::black_box(crate::idf::TermStats::from_partials(
                    parts.iter().map(|p| p.as_ref()),
                ));
            })
        );
        println!(
            "one chunk: {:.1} ms",
            best(5, || {
                let mut s = crate::idf::PartialStats::default();
                for f in &files[..TERM_CHUNK_FILES.min(files.len())] {
                    s.add_document(&file_terms(db, *f));
                }
                std::hint::black_box(s);
            })
        );
        println!(
            "old add_document all: {:.1} ms",
            best(5, || {
                let mut s = crate::idf::TermStats::default();
                for f in &files {
                    s.add_document(&file_terms(db, *f));
                }
                std::hint::black_box(s);
            })
        );
        let shapes: Vec<_> = files.iter().map(|f| file_index(db, *f)).collect();
        println!(
            "FileShape::of all: {:.1} ms",
            best(5, || {
                for s in &shapes {
                    std::hint::black_box(FileShape::of(&s.facts));
                }
            })
        );
        let resolver = module_resolver(db, ws);
        let inputs: Vec<crate::graph::GraphFile> = files
            .iter()
            .map(|f| crate::graph::GraphFile {
                path: f.path(db).clone(),
                shape: crate::db::lang_of(db, *f).map(|_| file_shape(db, *f)),
            })
            .collect();
        println!(
            "Graph::build: {:.1} ms",
            best(5, || {
                std::hint::black_box(crate::graph::Graph::build(&inputs, &resolver));
            })
        );
        println!(
            "resolve all imports: {:.1} ms",
            best(5, || {
                for g in &inputs {
                    if let Some(s) = &g.shape {
                        for i in &s.imports {
                            std::hint::black_box(resolver.resolve(&g.path, &i.specifier));
                        }
                    }
                }
            })
        );
        println!(
            "walk_changed unchanged: {:.1} ms",
            best(5, || {
                std::hint::black_box(crate::walk::walk_changed(index.root(), &|_, _| true));
            })
        );
        println!(
            "cache load: {:.1} ms",
            best(3, || {
                std::hint::black_box(
                    crate::cache::FactsCache::load(&crate::cache::cache_file(
                        std::path::Path::new("/tmp/slp/probe-cache"),
                        index.root(),
                    ))
                    .unwrap(),
                );
            })
        );
    }
}
