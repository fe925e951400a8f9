//! Where a cold index's parse phase spends its time, on one thread, file by file, in
//! that thread's CPU time (so other processes on the machine do not inflate it): reading
//! is excluded (the walk's files are in memory), then for each source file it
//! times tree-sitter's parse alone, the tree's release, a bare cursor
//! walk over the tree, the language's whole `extract` (parse, its walk, release), and
//! `FileIndex::build` (extract, the term counts) and the shape. Prints one line per
//! language with the sums, the bytes and the parse-only floor per 1,000 files on two
//! cores (the parse and release alone, divided by two).
//! `cargo run --release -p sightline-observe --example parse_split -- REPO [RUNS]`

use std::time::Duration;

use sightline_observe::LANGUAGES;
use sightline_observe::db::{FileIndex, FileShape};
use sightline_observe::walk::{FileRole, walk};

/// A point in this thread's CPU time.
#[derive(Clone, Copy)]
struct Instant(Duration);

impl Instant {
    fn now() -> Instant {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: `ts` is a valid, writable timespec.
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        Instant(Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32))
    }

    fn elapsed(self) -> Duration {
        Instant::now().0.saturating_sub(self.0)
    }
}

#[derive(Default)]
struct Sums {
    files: usize,
    bytes: usize,
    parse: Duration,
    release: Duration,
    cursor: Duration,
    extract: Duration,
    build: Duration,
    shape: Duration,
    nodes: u64,
    /// The language names its grammar: parse, release and cursor were timed alone.
    alone: bool,
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (root, runs) = match args.as_slice() {
        [_, root] => (root, 1),
        [_, root, runs] => (root, runs.parse().unwrap_or(1)),
        _ => {
            eprintln!("usage: parse_split REPO [RUNS] (each file's minimum over RUNS)");
            std::process::exit(2);
        }
    };
    let walked = walk(std::path::Path::new(root), LANGUAGES);
    let mut sums: std::collections::BTreeMap<&str, Sums> = Default::default();
    let mut parser = tree_sitter::Parser::new();
    for file in &walked.files {
        let FileRole::Source(id) = file.role else {
            continue;
        };
        let Some(language) = LANGUAGES.of(id) else {
            continue;
        };
        let s = sums.entry(language.name()).or_default();
        s.files += 1;
        s.bytes += file.text.len();
        let min = |f: &mut dyn FnMut() -> Duration| (0..runs).map(|_| f()).min().unwrap();
        if let Some(g) = language.grammar(id.dialect) {
            parser.set_language(&g).expect("grammar");
            s.alone = true;
            let mut nodes = 0u64;
            s.parse += min(&mut || {
                let t = Instant::now();
                let tree = parser.parse(&file.text, None).expect("tree");
                let d = t.elapsed();
                std::mem::forget(tree);
                d
            });
            s.release += min(&mut || {
                let tree = parser.parse(&file.text, None).expect("tree");
                let t = Instant::now();
                drop(tree);
                t.elapsed()
            });
            s.cursor += min(&mut || {
                let tree = parser.parse(&file.text, None).expect("tree");
                let t = Instant::now();
                nodes = count_nodes(tree.root_node());
                let d = t.elapsed();
                drop(tree);
                d
            });
            s.nodes += nodes;
        }
        s.extract += min(&mut || {
            let t = Instant::now();
            let facts = language.extract(id.dialect, &file.text);
            let d = t.elapsed();
            drop(facts);
            d
        });
        s.build += min(&mut || {
            let t = Instant::now();
            let idx = FileIndex::build(LANGUAGES, file.role, &file.text);
            let d = t.elapsed();
            drop(idx);
            d
        });
        let idx = FileIndex::build(LANGUAGES, file.role, &file.text);
        s.shape += min(&mut || {
            let t = Instant::now();
            let shape = FileShape::of(&idx.facts);
            let d = t.elapsed();
            drop(shape);
            d
        });
    }
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    println!(
        "language files MB | parse ms | release ms | cursor walk ms (nodes) | extract ms | build (extract, terms) ms | shape ms | parse+release floor per 1,000 files on 2 cores, s"
    );
    for (name, s) in &sums {
        // Languages that do not name a grammar show only extraction and build.
        let alone = |d: Duration| match s.alone {
            true => format!("{:.0}", ms(d)),
            false => "-".to_owned(),
        };
        let floor = match s.alone {
            true => format!(
                "{:.2}",
                (s.parse + s.release).as_secs_f64() / 2.0 * 1000.0 / s.files.max(1) as f64
            ),
            false => "-".to_owned(),
        };
        println!(
            "{name} {} {:.1} | {} | {} | {} ({}) | {:.0} | {:.0} | {:.0} | {floor}",
            s.files,
            s.bytes as f64 / 1e6,
            alone(s.parse),
            alone(s.release),
            alone(s.cursor),
            s.nodes,
            ms(s.extract),
            ms(s.build),
            ms(s.shape),
        );
    }
}

/// Every node under `root` by one cursor, the cheapest walk tree-sitter offers.
fn count_nodes(root: tree_sitter::Node<'_>) -> u64 {
    let mut cursor = root.walk();
    let mut n = 0;
    loop {
        n += 1;
        if cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return n;
            }
        }
    }
}
