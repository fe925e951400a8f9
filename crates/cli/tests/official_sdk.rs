//! The server as the official MCP Python SDK sees it: its client validates every result's
//! `structuredContent` against the tool's output schema, which a hand-written client does
//! not. Runs when the SDK is importable (`pip install mcp`); CI installs it and sets
//! `SIGHTLINE_REQUIRE_MCP_SDK=1`, so there the test cannot skip.

mod support;

use std::path::Path;
use std::process::Command;

fn python() -> String {
    std::env::var("SIGHTLINE_PYTHON").unwrap_or_else(|_| "python3".to_owned())
}

fn sdk_available() -> bool {
    Command::new(python())
        .args(["-c", "import mcp.client.stdio"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
fn the_official_python_sdk_validates_every_result() {
    if !sdk_available() {
        assert!(
            std::env::var_os("SIGHTLINE_REQUIRE_MCP_SDK").is_none(),
            "SIGHTLINE_REQUIRE_MCP_SDK is set but `{} -c 'import mcp'` fails: pip install mcp",
            python()
        );
        eprintln!("skipped: the MCP Python SDK is not installed (pip install mcp)");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app");
    support::mcp::copy_dir(&fixture, dir.path());
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/sdk/python_client.py");
    let out = Command::new(python())
        .arg(&script)
        .arg(env!("CARGO_BIN_EXE_sightline"))
        .arg(dir.path())
        .output()
        .expect("run the SDK client");
    assert!(
        out.status.success(),
        "stdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}
