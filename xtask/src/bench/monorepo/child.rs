//! Runs `sightline index` as a child process and reads what the kernel knows of it: wall
//! time and its own peak RSS (`wait4`'s `ru_maxrss`, which counts that child alone,
//! unlike `RUSAGE_CHILDREN`, the maximum over every child waited for so far).

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Instant;

use anyhow::{Context as _, bail};

/// One finished `sightline index --json` run.
pub struct IndexRun {
    pub wall_ms: f64,
    pub peak_rss_bytes: Option<u64>,
    /// User plus system CPU time of the child: on a shared machine, what other load
    /// does not inflate.
    pub cpu_ms: Option<f64>,
    /// The index report it printed.
    pub report: serde_json::Value,
}

/// `bin index --json --cache-dir cache dir`.
pub fn index(bin: &Path, dir: &Path, cache: &Path) -> anyhow::Result<IndexRun> {
    let started = Instant::now();
    let child = Command::new(bin)
        .args(["index", "--json", "--cache-dir"])
        .arg(cache)
        .arg(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .with_context(|| format!("starting {}", bin.display()))?;
    let pid = child.id();
    let mut stdout = child.stdout.context("no stdout")?;
    let mut text = String::new();
    std::io::Read::read_to_string(&mut stdout, &mut text)?;
    let (status, peak_rss_bytes, cpu_ms) = wait_with_usage(pid)?;
    let wall_ms = started.elapsed().as_secs_f64() * 1000.0;
    if !status {
        bail!("{} index {} failed", bin.display(), dir.display());
    }
    let report = serde_json::from_str(&text).context("parsing the index report")?;
    Ok(IndexRun {
        wall_ms,
        peak_rss_bytes,
        cpu_ms,
        report,
    })
}

/// Waits for child `pid`; returns whether it exited successfully, its peak RSS and its
/// CPU time.
#[cfg(unix)]
fn wait_with_usage(pid: u32) -> anyhow::Result<(bool, Option<u64>, Option<f64>)> {
    let mut status = 0;
    // SAFETY: `rusage` is plain data, filled in by the kernel; `pid` is our own child,
    // spawned above and not waited for elsewhere.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let waited = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut usage) };
    if waited < 0 {
        bail!("wait4: {}", std::io::Error::last_os_error());
    }
    let ok = libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0;
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1000.0 + t.tv_usec as f64 / 1000.0;
    let cpu_ms = ms(usage.ru_utime) + ms(usage.ru_stime);
    // Linux reports `ru_maxrss` in KiB.
    let peak = u64::try_from(usage.ru_maxrss).ok().map(|kb| kb * 1024);
    Ok((ok, peak, Some(cpu_ms)))
}

#[cfg(not(unix))]
fn wait_with_usage(_pid: u32) -> anyhow::Result<(bool, Option<u64>, Option<f64>)> {
    bail!("bench --monorepo measures child processes on unix only")
}
