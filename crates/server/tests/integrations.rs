//! The shipped client integrations name only tools the server offers by default, so a
//! renamed or removed tool cannot leave them calling nothing.

use std::path::Path;

#[test]
fn the_claude_code_sub_agent_uses_default_tools_and_submits() {
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
    for tool in &named {
        assert!(
            sightline_server::DEFAULT_TOOLS.contains(tool),
            "{tool} is not offered by default"
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
