//! Which tools a server offers. A client loads every offered tool's description and schema
//! into each session of its model, so the default set is what agents used in the agent A/B
//! (36 tasks, 157 calls: `grep`, `read_file`, `outline`, `explore` and `definition`; none
//! called `explore_code` or `submit_report`) plus `references`, the graph's answer to
//! "who calls X": the one-call `explore` to start, and the navigation tools to check what
//! it leaves open. The session loop a sub-agent runs (`explore_code`, verifying calls,
//! `submit_report`: `report` names the two) and `list_files` (which `outline` of a
//! directory mostly replaces) are turned on by name (`sightline serve --tools
//! default,report` or `SIGHTLINE_TOOLS=all`).

use std::fmt;
use std::str::FromStr;

/// Every tool the server has, in the order its instructions list them.
pub const ALL_TOOLS: [&str; 9] = [
    "explore_code",
    "grep",
    "read_file",
    "definition",
    "references",
    "outline",
    "list_files",
    "explore",
    "submit_report",
];

/// The tools offered when none are named.
pub const DEFAULT_TOOLS: [&str; 6] = [
    "grep",
    "read_file",
    "definition",
    "references",
    "outline",
    "explore",
];

/// The session loop's own tools, named together by `report`: `explore_code` opens a
/// session with the query's windows and `submit_report` closes it with a judged report.
pub const REPORT_TOOLS: [&str; 2] = ["explore_code", "submit_report"];

/// A set of the server's tools, in [`ALL_TOOLS`] order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolSet(Vec<&'static str>);

impl ToolSet {
    /// The default set ([`DEFAULT_TOOLS`]).
    pub fn default_set() -> ToolSet {
        ToolSet(DEFAULT_TOOLS.to_vec())
    }

    /// Every tool.
    pub fn all() -> ToolSet {
        ToolSet(ALL_TOOLS.to_vec())
    }

    /// Whether `tool` is offered.
    pub fn contains(&self, tool: &str) -> bool {
        self.0.contains(&tool)
    }

    /// The tools offered, in [`ALL_TOOLS`] order.
    pub fn names(&self) -> &[&'static str] {
        &self.0
    }
}

impl Default for ToolSet {
    fn default() -> ToolSet {
        ToolSet::default_set()
    }
}

/// Why a tool list did not parse.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("unknown tool `{0}`; the tools are {known}, or `default`, `report` and `all`", known = ALL_TOOLS.join(", "))]
pub struct UnknownTool(pub String);

impl FromStr for ToolSet {
    type Err = UnknownTool;

    /// A comma-separated list of tool names, `default` (the default set), `report` (the
    /// session loop's `explore_code` and `submit_report`) and `all`; `submit_report` joins
    /// any set with `explore_code`, since only it closes the session that one opens.
    fn from_str(s: &str) -> Result<ToolSet, UnknownTool> {
        let mut wanted: Vec<&'static str> = Vec::new();
        for item in s.split(',').map(str::trim).filter(|t| !t.is_empty()) {
            let names: &[&'static str] = match item {
                "default" => &DEFAULT_TOOLS,
                "all" => &ALL_TOOLS,
                "report" => &REPORT_TOOLS,
                name => match ALL_TOOLS.iter().find(|t| **t == name) {
                    Some(known) => std::slice::from_ref(known),
                    None => return Err(UnknownTool(name.to_owned())),
                },
            };
            wanted.extend(names);
        }
        if wanted.contains(&"explore_code") {
            wanted.push("submit_report");
        }
        Ok(ToolSet(
            ALL_TOOLS
                .iter()
                .copied()
                .filter(|t| wanted.contains(t))
                .collect(),
        ))
    }
}

impl fmt::Display for ToolSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_keywords_and_errors() {
        assert_eq!(
            "default".parse::<ToolSet>().unwrap(),
            ToolSet::default_set()
        );
        assert_eq!("all".parse::<ToolSet>().unwrap(), ToolSet::all());
        let some: ToolSet = "grep, definition".parse().unwrap();
        assert_eq!(some.names(), ["grep", "definition"]);
        let explore: ToolSet = "explore".parse().unwrap();
        assert_eq!(explore.names(), ["explore"]);
        let windows: ToolSet = "explore_code".parse().unwrap();
        assert_eq!(windows.names(), ["explore_code", "submit_report"]);
        let loop_tools: ToolSet = "default,report".parse().unwrap();
        assert!(loop_tools.contains("submit_report") && loop_tools.contains("grep"));
        assert!(!loop_tools.contains("list_files"));
        let more: ToolSet = "default,report,list_files".parse().unwrap();
        assert_eq!(more, ToolSet::all());
        // The default leaves the loop out: nothing in it needs a session closed.
        let default = ToolSet::default_set();
        assert!(REPORT_TOOLS.iter().all(|t| !default.contains(t)));
        let err = "grep,nope".parse::<ToolSet>().unwrap_err();
        assert!(err.to_string().contains("`nope`") && err.to_string().contains("outline"));
    }
}
