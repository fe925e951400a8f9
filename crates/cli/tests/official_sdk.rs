//! The server as the official MCP SDKs see it: their clients validate every result's
//! `structuredContent` against the tool's output schema, which a hand-written client does
//! not. The Python test runs when the SDK is importable (`pip install mcp`); the TypeScript
//! one when `SIGHTLINE_MCP_NODE_SDK` names a directory `npm install --prefix` put
//! `@modelcontextprotocol/sdk` under. CI installs both and sets `SIGHTLINE_REQUIRE_MCP_SDK=1`
//! and `SIGHTLINE_REQUIRE_MCP_NODE_SDK=1`, so there neither test can skip.

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
    drive(Command::new(python()).arg(sdk_script("python_client.py")));
}

/// The SDK client script `name` under `tests/sdk`.
fn sdk_script(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/sdk")
        .join(name)
}

/// Runs `client` (an SDK script with its leading arguments) on the server binary and a
/// copy of the fixture project, and fails with its output unless it succeeds.
fn drive(client: &mut Command) {
    let dir = tempfile::tempdir().unwrap();
    let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("../observe/tests/fixtures/app");
    support::mcp::copy_dir(&fixture, dir.path());
    let out = client
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

/// The directory holding `node_modules/@modelcontextprotocol/sdk`, when given and there.
fn node_sdk() -> Option<std::path::PathBuf> {
    let prefix = std::path::PathBuf::from(std::env::var_os("SIGHTLINE_MCP_NODE_SDK")?);
    let node_runs = Command::new("node")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    (node_runs
        && prefix
            .join("node_modules/@modelcontextprotocol/sdk")
            .is_dir())
    .then_some(prefix)
}

#[test]
fn the_official_typescript_sdk_validates_every_result() {
    let Some(prefix) = node_sdk() else {
        assert!(
            std::env::var_os("SIGHTLINE_REQUIRE_MCP_NODE_SDK").is_none(),
            "SIGHTLINE_REQUIRE_MCP_NODE_SDK is set but node or \
             $SIGHTLINE_MCP_NODE_SDK/node_modules/@modelcontextprotocol/sdk is missing: \
             npm install --prefix DIR @modelcontextprotocol/sdk"
        );
        eprintln!(
            "skipped: SIGHTLINE_MCP_NODE_SDK does not name an install of the MCP TypeScript SDK"
        );
        return;
    };
    drive(
        Command::new("node")
            .arg(sdk_script("node_client.mjs"))
            .arg(&prefix),
    );
}
