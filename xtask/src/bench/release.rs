//! Timings of a debug build say nothing about the product, so `cargo xtask bench` (which
//! cargo builds in dev) re-runs itself through `cargo run --release`.

use std::process::Command;

/// Re-runs the current command line as a release build of xtask and exits with its
/// status. Relative `--repo` paths keep working: the working directory is unchanged and
/// the workspace is named by its manifest.
pub fn reexec() -> anyhow::Result<std::convert::Infallible> {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let manifest = concat!(env!("CARGO_MANIFEST_DIR"), "/../Cargo.toml");
    eprintln!("bench: debug build; re-running as `cargo run --release -p xtask -- …`");
    let status = Command::new(cargo)
        .args(["run", "--release", "--quiet", "--manifest-path", manifest])
        .args(["--package", "xtask", "--"])
        .args(std::env::args_os().skip(1))
        .status()?;
    std::process::exit(status.code().unwrap_or(1));
}
