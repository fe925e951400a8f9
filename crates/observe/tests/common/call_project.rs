//! Generated projects of functions calling each other, for the navigation tools'
//! properties (call chains, call trees).

use std::collections::VecDeque;

/// A generated project's files (path, text) and, per function, its module and its lines.
pub type Project = (Vec<(String, String)>, Vec<(usize, u32, u32)>);

/// A project of `calls.len()` functions `step0`… spread over `files` modules, function `i`
/// calling each function `calls[i]` names on a line of its own (importing it when it lives
/// in another module). Returns the files and, per function, its module and its lines.
pub fn project(calls: &[Vec<usize>], files: usize) -> Project {
    let module = |f: usize| f % files;
    let mut texts: Vec<Vec<String>> = vec![Vec::new(); files];
    for (m, text) in texts.iter_mut().enumerate() {
        let imported: Vec<String> = (0..calls.len())
            .filter(|&g| module(g) != m)
            .map(|g| format!("import {{ step{g} }} from './mod{}';", module(g)))
            .collect();
        text.extend(imported);
    }
    let mut at = vec![(0, 0, 0); calls.len()];
    for (f, callees) in calls.iter().enumerate() {
        let text = &mut texts[module(f)];
        text.push(String::new());
        text.push(format!("export function step{f}() {{"));
        let start = text.len() as u32;
        for &g in callees {
            text.push(format!("  step{g}();"));
        }
        text.push("}".to_owned());
        at[f] = (module(f), start, text.len() as u32);
    }
    let files = texts
        .into_iter()
        .enumerate()
        .map(|(m, lines)| (format!("src/mod{m}.ts"), lines.join("\n") + "\n"))
        .collect();
    (files, at)
}

/// Fewest calls from `from` to `to` in the call relation, if any.
pub fn distance(calls: &[Vec<usize>], from: usize, to: usize) -> Option<usize> {
    let mut seen = vec![None; calls.len()];
    seen[from] = Some(0);
    let mut queue = VecDeque::from([from]);
    while let Some(f) = queue.pop_front() {
        for &g in &calls[f] {
            if seen[g].is_none() {
                seen[g] = Some(seen[f].unwrap() + 1);
                queue.push_back(g);
            }
        }
    }
    seen[to]
}

/// `calls` with each function's calls of itself dropped and each callee kept once.
pub fn simple(calls: &[Vec<usize>]) -> Vec<Vec<usize>> {
    calls
        .iter()
        .enumerate()
        .map(|(f, c)| {
            let mut c: Vec<usize> = c.iter().copied().filter(|&g| g != f).collect();
            c.sort_unstable();
            c.dedup();
            c
        })
        .collect()
}

/// The project of [`project`] written to a temporary directory and indexed, with each
/// function's module and lines; the directory lives as long as the first value.
pub fn indexed(
    calls: &[Vec<usize>],
    files: usize,
) -> (
    tempfile::TempDir,
    sightline_observe::Index,
    Vec<(usize, u32, u32)>,
) {
    let (sources, at) = project(calls, files);
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("src")).unwrap();
    for (path, text) in &sources {
        std::fs::write(dir.path().join(path), text).unwrap();
    }
    let index = super::open_uncached(dir.path());
    (dir, index, at)
}
