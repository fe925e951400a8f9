//! A `read_file` path that lists several reads: `src/a.ts:10-40 src/b.ts`, as an agent
//! with a shell chains `sed -n 10,40p src/a.ts; cat src/b.ts` into one command. Each entry
//! is read on its own by [`super::read_file::run`]; this module only splits the list.

use super::error::ToolError;
use super::read_file::ReadFileArgs;
use crate::paths::RepoRoot;

/// Most reads one listing may ask for: a listing longer than this is refused, not cut,
/// so no entry is dropped unseen.
pub const MAX_READS: usize = 8;

/// The reads `args.path` lists, in the order given, when it names no existing path but
/// is several entries separated by whitespace, or one entry with a line range. An entry
/// is a repository-relative path, `path:START-END` or `path:START` (from `START` on,
/// as `start_line`); `args`'s own window applies to entries without a range, and its
/// `max_lines` to all. `None` when `args.path` is an existing path (a single read, even
/// if it holds a space or a colon) or a single entry exactly as given, without a range
/// (whose read reports the path's own error). An entry naming no existing path is kept as given: its read
/// fails with the path's error, and the others are still read.
pub fn several_reads(
    root: &RepoRoot,
    args: &ReadFileArgs,
) -> Option<Result<Vec<ReadFileArgs>, ToolError>> {
    if root.resolve(&args.path).is_ok() {
        return None;
    }
    let entries: Vec<&str> = args.path.split_whitespace().collect();
    let reads: Vec<ReadFileArgs> = entries.iter().map(|e| entry(root, e, args)).collect();
    // One entry is worth splitting out only when it differs from the path as given: a
    // range, or whitespace around an existing path (` src/a.ts`).
    let changed = reads.iter().any(|r| r.path != args.path);
    if reads.len() < 2 && !changed {
        return None;
    }
    if reads.len() > MAX_READS {
        return Some(Err(ToolError::invalid_argument(
            "path",
            format!("{} entries", reads.len()),
            format!("at most {MAX_READS} reads per call"),
        )));
    }
    Some(Ok(reads))
}

/// One entry as a read: the path with its own range when it names an existing file
/// only without the `:START-END` suffix, else the path as given with `args`'s window.
fn entry(root: &RepoRoot, text: &str, args: &ReadFileArgs) -> ReadFileArgs {
    let as_given = ReadFileArgs {
        path: text.to_owned(),
        ..args.clone()
    };
    if root.resolve(text).is_ok() {
        return as_given;
    }
    match split_range(text) {
        Some((path, start, end)) if root.resolve(path).is_ok() => ReadFileArgs {
            path: path.to_owned(),
            start_line: Some(start),
            end_line: end,
            max_lines: args.max_lines,
        },
        _ => as_given,
    }
}

/// `path:12-40` as (`path`, 12, Some(40)); `path:12` as (`path`, 12, None).
fn split_range(text: &str) -> Option<(&str, u32, Option<u32>)> {
    let (path, range) = text.rsplit_once(':')?;
    if path.is_empty() {
        return None;
    }
    match range.split_once('-') {
        Some((start, end)) => Some((path, start.parse().ok()?, Some(end.parse().ok()?))),
        None => Some((path, range.parse().ok()?, None)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn root() -> (tempfile::TempDir, RepoRoot) {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/a.ts"), "a\n").unwrap();
        std::fs::write(dir.path().join("src/b.ts"), "b\n").unwrap();
        std::fs::write(dir.path().join("odd name:3.ts"), "odd\n").unwrap();
        let root = RepoRoot::new(dir.path()).unwrap();
        (dir, root)
    }

    fn windows(reads: &[ReadFileArgs]) -> Vec<(&str, Option<u32>, Option<u32>)> {
        reads
            .iter()
            .map(|r| (r.path.as_str(), r.start_line, r.end_line))
            .collect()
    }

    #[test]
    fn an_existing_path_is_one_read_whatever_it_holds() {
        let (_dir, root) = root();
        for path in ["src/a.ts", "odd name:3.ts", "missing.ts"] {
            assert!(
                several_reads(&root, &ReadFileArgs::new(path)).is_none(),
                "{path}"
            );
        }
    }

    #[test]
    fn entries_keep_their_order_and_ranges_and_the_call_window_fills_the_rest() {
        let (_dir, root) = root();
        let args = ReadFileArgs {
            start_line: Some(5),
            end_line: Some(9),
            ..ReadFileArgs::new("src/b.ts:10-40 src/a.ts src/b.ts:7")
        };
        let reads = several_reads(&root, &args).unwrap().unwrap();
        assert_eq!(
            windows(&reads),
            [
                ("src/b.ts", Some(10), Some(40)),
                ("src/a.ts", Some(5), Some(9)),
                ("src/b.ts", Some(7), None)
            ]
        );
    }

    #[test]
    fn whitespace_around_one_path_is_not_part_of_it() {
        let (_dir, root) = root();
        let reads = several_reads(&root, &ReadFileArgs::new(" src/a.ts \n"))
            .unwrap()
            .unwrap();
        assert_eq!(windows(&reads), [("src/a.ts", None, None)]);
    }

    #[test]
    fn one_ranged_entry_is_a_read_of_its_range() {
        let (_dir, root) = root();
        let reads = several_reads(&root, &ReadFileArgs::new("src/a.ts:2-3"))
            .unwrap()
            .unwrap();
        assert_eq!(windows(&reads), [("src/a.ts", Some(2), Some(3))]);
    }

    #[test]
    fn a_missing_entry_is_kept_for_its_read_to_report() {
        let (_dir, root) = root();
        let reads = several_reads(&root, &ReadFileArgs::new("src/a.ts nope.ts:1-2"))
            .unwrap()
            .unwrap();
        assert_eq!(
            windows(&reads),
            [("src/a.ts", None, None), ("nope.ts:1-2", None, None)]
        );
    }

    #[test]
    fn too_many_entries_are_refused_not_cut() {
        let (_dir, root) = root();
        let path = ["src/a.ts"; MAX_READS + 1].join(" ");
        let refused = several_reads(&root, &ReadFileArgs::new(path)).unwrap();
        let message = refused.unwrap_err().to_string();
        assert!(message.contains("at most 8 reads"), "{message}");
    }
}
