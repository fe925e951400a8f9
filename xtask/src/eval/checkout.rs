//! One working copy per repository, cloned from its snapshot bundle and switched from tag
//! to tag, so consecutive tasks exercise incremental re-indexing on a real tree.

use std::path::{Path, PathBuf};
use std::process::Command;

use anyhow::{Context, bail};

pub struct WorkingCopy {
    pub dir: PathBuf,
}

impl WorkingCopy {
    /// Clones `bundle` into `dir`, or reuses an existing clone and fetches the bundle's tags
    /// into it (a re-run then skips the clone).
    pub fn prepare(bundle: &Path, dir: &Path) -> anyhow::Result<WorkingCopy> {
        if !bundle.is_file() {
            bail!("snapshot bundle {} does not exist", bundle.display());
        }
        if dir.join(".git").is_dir() {
            git(
                dir,
                &[
                    "fetch",
                    "-q",
                    "--force",
                    &bundle.display().to_string(),
                    "refs/tags/*:refs/tags/*",
                ],
            )
            .with_context(|| {
                format!(
                    "fetching tags of {} into {}",
                    bundle.display(),
                    dir.display()
                )
            })?;
        } else {
            if dir.exists() {
                bail!(
                    "{} exists but is not a git clone; remove it or pick another --workdir",
                    dir.display()
                );
            }
            if let Some(parent) = dir.parent() {
                std::fs::create_dir_all(parent)
                    .with_context(|| format!("creating {}", parent.display()))?;
            }
            let status = Command::new("git")
                .args(["clone", "-q", "--no-checkout"])
                .arg(bundle)
                .arg(dir)
                .status()
                .context("running git clone")?;
            if !status.success() {
                bail!(
                    "git clone {} {} failed ({status})",
                    bundle.display(),
                    dir.display()
                );
            }
        }
        Ok(WorkingCopy {
            dir: dir.to_path_buf(),
        })
    }

    /// Switches the working tree to `base/<commit>` and removes untracked leftovers, so the
    /// tree is exactly the task's base.
    pub fn checkout(&self, commit: &str) -> anyhow::Result<()> {
        let tag = format!("base/{commit}");
        git(&self.dir, &["checkout", "-q", "-f", &tag])?;
        git(&self.dir, &["clean", "-fdq"])
    }

    /// The files of `base/<commit>` as (path, blob id) pairs, read without a checkout.
    pub fn tree(&self, commit: &str) -> anyhow::Result<Vec<(String, String)>> {
        let tag = format!("base/{commit}");
        let out = git_output(&self.dir, &["ls-tree", "-r", "-z", &tag])?;
        let mut files = Vec::new();
        for entry in out.split('\0').filter(|e| !e.is_empty()) {
            // `<mode> <type> <id>\t<path>`
            let Some((meta, path)) = entry.split_once('\t') else {
                continue;
            };
            if let Some(id) = meta.split(' ').nth(2) {
                files.push((path.to_owned(), id.to_owned()));
            }
        }
        files.sort();
        Ok(files)
    }
}

fn git(dir: &Path, args: &[&str]) -> anyhow::Result<()> {
    git_output(dir, args).map(drop)
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
