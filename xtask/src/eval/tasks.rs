//! Reading localization tasks (`tasks/<repo>.jsonl`, format in `shared/eval/README.md`).
//! The harness only reads them: nothing here feeds back into production code.

use std::path::{Path, PathBuf};

use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};

/// One mined change: search `commit`'s tree for `query`, the answer is `gold_files`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Task {
    pub repo: String,
    pub commit: String,
    #[serde(default)]
    pub fix_commit: String,
    pub query: String,
    #[serde(default)]
    pub kind: String,
    pub gold_files: Vec<String>,
}

/// A task plus where it came from, so every later message can point at its line.
#[derive(Clone, Debug)]
pub struct LocatedTask {
    pub task: Task,
    pub file: PathBuf,
    pub line: usize,
}

/// The `.jsonl` files to read: the file itself, or every `*.jsonl` in a directory (sorted).
pub fn task_files(path: &Path) -> anyhow::Result<Vec<PathBuf>> {
    if path.is_file() {
        return Ok(vec![path.to_path_buf()]);
    }
    let entries = std::fs::read_dir(path)
        .with_context(|| format!("reading the task directory {}", path.display()))?;
    let mut files = Vec::new();
    for entry in entries {
        let p = entry
            .with_context(|| format!("listing {}", path.display()))?
            .path();
        if p.extension().is_some_and(|e| e == "jsonl") {
            files.push(p);
        }
    }
    files.sort();
    if files.is_empty() {
        bail!("no *.jsonl task files in {}", path.display());
    }
    Ok(files)
}

pub fn load_file(path: &Path) -> anyhow::Result<Vec<LocatedTask>> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("reading task file {}", path.display()))?;
    parse_tasks(&text, path)
}

/// Parses JSON lines; blank lines are allowed, anything else malformed is an error naming
/// the file and the 1-based line, because a silently dropped task would skew every metric.
pub fn parse_tasks(text: &str, file: &Path) -> anyhow::Result<Vec<LocatedTask>> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        if raw.trim().is_empty() {
            continue;
        }
        let at = || format!("{}:{line}", file.display());
        let task: Task =
            serde_json::from_str(raw).with_context(|| format!("{}: malformed task", at()))?;
        validate(&task).with_context(|| format!("{}: invalid task", at()))?;
        out.push(LocatedTask {
            task,
            file: file.to_path_buf(),
            line,
        });
    }
    Ok(out)
}

fn validate(task: &Task) -> anyhow::Result<()> {
    if task.repo.is_empty() || task.repo.contains(['/', '\\']) || task.repo.starts_with('.') {
        bail!("`repo` must be a plain name, got {:?}", task.repo);
    }
    if task.commit.is_empty() || !task.commit.bytes().all(|b| b.is_ascii_hexdigit()) {
        bail!("`commit` must be a hex sha, got {:?}", task.commit);
    }
    if task.query.trim().is_empty() {
        bail!("`query` is empty");
    }
    if task.gold_files.is_empty() {
        bail!("`gold_files` is empty");
    }
    if let Some(g) = task
        .gold_files
        .iter()
        .find(|g| g.is_empty() || g.starts_with('/'))
    {
        bail!("gold file {g:?} is not a repo-relative path");
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOOD: &str = r#"{"repo": "r", "commit": "ab12", "fix_commit": "cd34", "query": "fix the thing", "kind": "fix", "gold_files": ["src/a.ts"]}"#;

    fn parse(text: &str) -> anyhow::Result<Vec<LocatedTask>> {
        parse_tasks(text, Path::new("tasks/r.jsonl"))
    }

    fn error_of(text: &str) -> String {
        format!("{:#}", parse(text).unwrap_err())
    }

    #[test]
    fn parses_lines_and_skips_blank_ones() {
        let tasks = parse(&format!("{GOOD}\n\n{GOOD}\n")).unwrap();
        assert_eq!(tasks.len(), 2);
        assert_eq!(tasks[0].line, 1);
        assert_eq!(tasks[1].line, 3);
        assert_eq!(tasks[0].task.gold_files, ["src/a.ts"]);
        assert_eq!(tasks[0].task.query, "fix the thing");
    }

    #[test]
    fn malformed_json_names_file_and_line() {
        let err = error_of(&format!("{GOOD}\n{{\"repo\": \"r\",\n"));
        assert!(err.contains("tasks/r.jsonl:2"), "{err}");
        assert!(err.contains("malformed"), "{err}");
    }

    #[test]
    fn missing_field_names_file_and_line() {
        let err = error_of(r#"{"repo": "r", "commit": "ab", "query": "q"}"#);
        assert!(err.contains("tasks/r.jsonl:1"), "{err}");
        assert!(err.contains("gold_files"), "{err}");
    }

    #[test]
    fn semantically_invalid_tasks_are_rejected() {
        let empty_gold = GOOD.replace(r#"["src/a.ts"]"#, "[]");
        assert!(error_of(&empty_gold).contains("gold_files"));
        let bad_commit = GOOD.replace("ab12", "not-a-sha");
        assert!(error_of(&bad_commit).contains("commit"));
        let bad_repo = GOOD.replace(r#""repo": "r""#, r#""repo": "../x""#);
        assert!(error_of(&bad_repo).contains("repo"));
        let absolute = GOOD.replace("src/a.ts", "/etc/a.ts");
        assert!(error_of(&absolute).contains("repo-relative"));
        let blank_query = GOOD.replace("fix the thing", "  ");
        assert!(error_of(&blank_query).contains("query"));
    }
}
