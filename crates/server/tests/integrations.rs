//! The shipped client integrations name only tools the server offers with the tool set
//! they say to serve with, so a renamed, removed or turned-off tool cannot leave them
//! calling nothing.

use std::path::Path;

#[test]
fn the_claude_code_sub_agent_uses_the_tools_it_asks_for_and_submits() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../integrations/claude-code/agents/sightline-explorer.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let front = text
        .strip_prefix("---\n")
        .and_then(|t| t.split_once("\n---\n"))
        .map(|(front, _)| front)
        .expect("a frontmatter block");
    let tools = front
        .lines()
        .find_map(|l| l.strip_prefix("tools: "))
        .expect("a tools line");
    let named: Vec<&str> = tools
        .split(',')
        .map(|t| t.trim().strip_prefix("mcp__sightline__").expect(t))
        .collect();
    // The file says which tool set to serve it with; the session loop is opt-in.
    let served = "default,report";
    assert!(
        text.contains(&format!("--tools {served}")),
        "the file does not say to serve with --tools {served}"
    );
    let offered: sightline_server::ToolSet = served.parse().unwrap();
    for tool in &named {
        assert!(
            offered.contains(tool),
            "{tool} is not offered by --tools {served}"
        );
        assert!(
            text.contains(&format!("`{tool}`")),
            "{tool} is never explained"
        );
    }
    assert!(named.contains(&"submit_report") && named.contains(&"explore_code"));
    assert!(
        front
            .lines()
            .any(|l| l.starts_with("name: sightline-explorer"))
    );
    assert!(front.lines().any(|l| l.starts_with("description: ")));
}
