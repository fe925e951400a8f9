//! The parent side: runs each phase as a child process of this same binary, collects the
//! results, and always restores any file a child left edited.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use anyhow::{Context, bail};
use serde::de::DeserializeOwned;

use super::model::{ColdRun, RESULT_MARKER, RepoResult, Session, WarmRun};
use super::phase::Phase;
use super::procfs::load_average;
use super::summary::summarize;
use super::touch::restore_leftovers;

pub fn measure(repo: &Path, runs: usize) -> anyhow::Result<RepoResult> {
    let repo = std::fs::canonicalize(repo).with_context(|| format!("repo {}", repo.display()))?;
    let scratch = tempfile::Builder::new()
        .prefix("sightline-bench-")
        .tempdir()?;
    let backups = scratch.path().join("backups");
    let runner = Runner {
        repo: &repo,
        backups: &backups,
    };
    let result = runner.all_phases(scratch.path(), runs);
    // Restore before reporting anything, whether or not the phases succeeded.
    for file in restore_leftovers(&backups)? {
        eprintln!(
            "bench: restored {} left edited by a failed phase",
            file.display()
        );
    }
    result
}

struct Runner<'a> {
    repo: &'a Path,
    backups: &'a Path,
}

impl Runner<'_> {
    fn all_phases(&self, scratch: &Path, runs: usize) -> anyhow::Result<RepoResult> {
        let load_average = load_average();
        let mut cold = Vec::new();
        let mut cache = PathBuf::new();
        for i in 0..runs {
            // Each cold run gets an empty cache directory of its own.
            cache = scratch.join(format!("cache-{i}"));
            std::fs::create_dir_all(&cache)?;
            cold.push(self.child::<ColdRun>(Phase::Cold, &cache)?);
        }
        let warm = (0..runs)
            .map(|_| self.child::<WarmRun>(Phase::Warm, &cache))
            .collect::<anyhow::Result<Vec<_>>>()?;
        let session = self.child::<Session>(Phase::Session, &cache)?;
        let mut result = RepoResult {
            repo: self.repo.display().to_string(),
            load_average,
            cold,
            warm,
            session,
            ..RepoResult::default()
        };
        result.summary = summarize(&result);
        Ok(result)
    }

    fn child<T: DeserializeOwned>(&self, phase: Phase, cache: &Path) -> anyhow::Result<T> {
        let name = format!("{phase:?}").to_lowercase();
        eprintln!("bench: {} — {name}", self.repo.display());
        let exe = std::env::current_exe()?;
        let output = Command::new(exe)
            .args(["bench", "--allow-debug", "--phase", &name])
            .arg("--repo")
            .arg(self.repo)
            .arg("--cache-dir")
            .arg(cache)
            .arg("--backup-dir")
            .arg(self.backups)
            .stderr(Stdio::inherit())
            .output()?;
        if !output.status.success() {
            bail!(
                "{name} phase on {} failed: {}",
                self.repo.display(),
                output.status
            );
        }
        let stdout = String::from_utf8_lossy(&output.stdout);
        let line = stdout
            .lines()
            .find_map(|l| l.strip_prefix(RESULT_MARKER))
            .with_context(|| format!("{name} phase printed no result"))?;
        Ok(serde_json::from_str(line)?)
    }
}
