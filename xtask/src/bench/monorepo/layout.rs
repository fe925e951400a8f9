//! Lays out the newest base of every snapshot bundle side by side, one directory per
//! repository, as one workspace: the monorepo the benchmark measures. Plain files, no
//! `.git` of their own (a monorepo has one version-control directory, not one per
//! project). A layout that already matches the bundles is reused.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context as _, bail};

/// Written at the layout's root: one `repo commit` line per laid-out snapshot. A hidden
/// file the index does not read.
const MARKER: &str = ".sightline-monorepo";

/// What was laid out where.
pub struct Layout {
    pub dir: PathBuf,
    /// (repository, snapshot commit) in name order.
    pub repos: Vec<(String, String)>,
}

/// Lays out every `*.bundle` of `snapshots` under `dir` (or reuses a matching layout;
/// `fresh` forces a new one). `dir` must be empty, missing, or an earlier layout.
pub fn prepare(snapshots: &Path, dir: &Path, fresh: bool) -> anyhow::Result<Layout> {
    let mut bundles: Vec<PathBuf> = std::fs::read_dir(snapshots)
        .with_context(|| format!("reading {}", snapshots.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "bundle"))
        .collect();
    bundles.sort();
    if bundles.is_empty() {
        bail!("no snapshot bundles in {}", snapshots.display());
    }
    let scratch = tempfile::Builder::new()
        .prefix("sightline-layout-")
        .tempdir()?;
    let mut repos = Vec::new();
    let mut clones = Vec::new();
    for bundle in &bundles {
        let name = bundle
            .file_stem()
            .and_then(|s| s.to_str())
            .context("bundle name is not UTF-8")?
            .to_owned();
        let bare = scratch.path().join(&name);
        git(None, &["init", "-q", "--bare"], Some(&bare))?;
        let source = bundle.display().to_string();
        git(
            Some(&bare),
            &["fetch", "-q", &source, "refs/tags/*:refs/tags/*"],
            None,
        )?;
        // Snapshot histories are linear (each base a child of the one before), and their
        // dates are normalised, so the newest base is the tip in topological order.
        let tip = git_output(
            &bare,
            &["rev-list", "--topo-order", "--max-count=1", "--tags=base/*"],
        )?;
        let tip = tip.trim().to_owned();
        if tip.is_empty() {
            bail!("{} holds no base/* tag", bundle.display());
        }
        repos.push((name, tip));
        clones.push(bare);
    }
    let marker_text: String = repos.iter().map(|(r, c)| format!("{r} {c}\n")).collect();
    let marker = dir.join(MARKER);
    if !fresh && std::fs::read_to_string(&marker).ok().as_deref() == Some(&marker_text) {
        eprintln!("bench: reusing the layout in {}", dir.display());
        return Ok(Layout {
            dir: std::fs::canonicalize(dir)?,
            repos,
        });
    }
    if dir.exists() {
        let empty = std::fs::read_dir(dir)?.next().is_none();
        if !empty && !marker.is_file() {
            bail!(
                "{} is neither empty nor an earlier layout; pick another directory",
                dir.display()
            );
        }
        std::fs::remove_dir_all(dir).with_context(|| format!("clearing {}", dir.display()))?;
    }
    std::fs::create_dir_all(dir)?;
    for ((name, commit), bare) in repos.iter().zip(&clones) {
        eprintln!(
            "bench: laying out {name} at {}",
            &commit[..12.min(commit.len())]
        );
        extract(bare, commit, &dir.join(name))?;
    }
    std::fs::write(&marker, marker_text)?;
    Ok(Layout {
        dir: std::fs::canonicalize(dir)?,
        repos,
    })
}

/// `git archive <commit> | tar -x -C into`.
fn extract(bare: &Path, commit: &str, into: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(into)?;
    let mut archive = Command::new("git")
        .arg("-C")
        .arg(bare)
        .args(["archive", "--format=tar", commit])
        .stdout(Stdio::piped())
        .spawn()
        .context("running git archive")?;
    let tar_input = archive.stdout.take().context("no git archive output")?;
    let tar = Command::new("tar")
        .arg("-x")
        .arg("-C")
        .arg(into)
        .stdin(tar_input)
        .status()
        .context("running tar")?;
    let archived = archive.wait()?;
    if !tar.success() || !archived.success() {
        bail!("extracting {commit} into {} failed", into.display());
    }
    Ok(())
}

fn git(dir: Option<&Path>, args: &[&str], last: Option<&Path>) -> anyhow::Result<()> {
    let mut cmd = Command::new("git");
    if let Some(d) = dir {
        cmd.arg("-C").arg(d);
    }
    cmd.args(args);
    if let Some(l) = last {
        cmd.arg(l);
    }
    let out = cmd.output().context("running git")?;
    if !out.status.success() {
        bail!(
            "git {} failed: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(())
}

fn git_output(dir: &Path, args: &[&str]) -> anyhow::Result<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(dir)
        .args(args)
        .output()
        .context("running git")?;
    if !out.status.success() {
        bail!(
            "git {} failed in {}: {}",
            args.join(" "),
            dir.display(),
            String::from_utf8_lossy(&out.stderr).trim()
        );
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
