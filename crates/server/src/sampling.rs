//! The client's own model as the value model, through MCP sampling: when a client
//! advertises `sampling`, `explore` runs the value-model loop with each turn sent as
//! `sampling/createMessage`, so judgment comes from the client's model and no API key is
//! needed. Tools are offered as a plain-text protocol (a JSON object per call), which every
//! sampling client can carry; the loop's validation treats the replies like any model's.

// MCP sampling is deprecated in favour of SEP-2577, but it is what clients ship today.
#![allow(deprecated)]

use rmcp::model::{CreateMessageRequestParams, CreateMessageResult, SamplingMessage};
use rmcp::{Peer, RoleServer};
use serde_json::Value;
use sightline_agent::chat::{ChatRequest, ChatResponse, Message, ToolCallRequest, ToolChoice};
use sightline_agent::{ChatProvider, ProviderError};

/// Sends each turn of the loop to the client's model.
pub struct SamplingProvider {
    peer: Peer<RoleServer>,
    runtime: tokio::runtime::Handle,
}

impl SamplingProvider {
    /// Whether the connected client can sample for us.
    pub fn available(peer: &Peer<RoleServer>) -> bool {
        peer.peer_info()
            .is_some_and(|info| info.capabilities.sampling.is_some())
    }

    /// `runtime` runs the requests; `complete` blocks on it, so it must be called off the
    /// runtime's own worker threads (the tool bodies run on the engine thread).
    pub fn new(peer: Peer<RoleServer>, runtime: tokio::runtime::Handle) -> SamplingProvider {
        SamplingProvider { peer, runtime }
    }
}

impl ChatProvider for SamplingProvider {
    fn complete(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        let params = to_sampling(request);
        let result = self
            .runtime
            .block_on(self.peer.create_message(params))
            .map_err(|e| ProviderError::Transport(format!("sampling/createMessage: {e}")))?;
        Ok(from_sampling(&result))
    }

    fn describe(&self) -> String {
        "the client's model (MCP sampling)".to_owned()
    }
}

/// The request as a sampling conversation: the tools and how to call them go into the
/// system prompt, calls and results become text turns.
pub fn to_sampling(request: &ChatRequest) -> CreateMessageRequestParams {
    let mut system = request.system.clone();
    system.push_str("\n\nCall tools by answering with JSON only: one object per call, ");
    system.push_str("{\"tool\": \"<name>\", \"arguments\": {…}}, or an array of such ");
    system.push_str("objects for several calls in one turn. The tools:\n");
    for tool in &request.tools {
        system.push_str(&format!(
            "- {}: {} Arguments (JSON Schema): {}\n",
            tool.name, tool.description, tool.parameters
        ));
    }
    let mut messages: Vec<SamplingMessage> = Vec::new();
    for m in &request.messages {
        match m {
            Message::User { text } => messages.push(SamplingMessage::user_text(text)),
            Message::Assistant { text, tool_calls } => {
                let mut parts: Vec<String> = Vec::new();
                if !text.trim().is_empty() {
                    parts.push(text.clone());
                }
                parts.extend(tool_calls.iter().map(call_text));
                messages.push(SamplingMessage::assistant_text(parts.join("\n")));
            }
            Message::ToolResult {
                call_id,
                name,
                content,
                is_error,
            } => {
                let status = if *is_error { "error from" } else { "result of" };
                messages.push(SamplingMessage::user_text(format!(
                    "{status} {name} (call {call_id}):\n{content}"
                )));
            }
        }
    }
    if let ToolChoice::Named(tool) = &request.tool_choice {
        messages.push(SamplingMessage::user_text(format!(
            "Now call `{tool}`, answering with its JSON object only."
        )));
    }
    let mut params = CreateMessageRequestParams::new(messages, request.max_tokens);
    params.system_prompt = Some(system);
    params
}

/// A call as the protocol writes it.
fn call_text(call: &ToolCallRequest) -> String {
    let arguments: Value =
        serde_json::from_str(&call.arguments).unwrap_or(Value::String(call.arguments.clone()));
    serde_json::json!({"tool": call.name, "arguments": arguments}).to_string()
}

/// The reply's text and the tool calls it writes. Text that holds no well-formed call is
/// returned as text only: the loop answers that like any model reply without a call.
pub fn from_sampling(result: &CreateMessageResult) -> ChatResponse {
    let text: String = result
        .message
        .content
        .iter()
        .filter_map(|c| c.as_text().map(|t| t.text.clone()))
        .collect::<Vec<_>>()
        .join("\n");
    let tool_calls = parse_calls(&text);
    ChatResponse {
        text: if tool_calls.is_empty() {
            text
        } else {
            String::new()
        },
        tool_calls,
        finish_reason: result.stop_reason.clone(),
        ..ChatResponse::default()
    }
}

/// The calls a reply writes: a JSON object or array, bare or in a fenced block.
pub fn parse_calls(text: &str) -> Vec<ToolCallRequest> {
    let body = json_body(text);
    let value: Value = match serde_json::from_str(body) {
        Ok(v) => v,
        Err(_) => return Vec::new(),
    };
    let items = match value {
        Value::Array(items) => items,
        one => vec![one],
    };
    items
        .iter()
        .enumerate()
        .filter_map(|(i, item)| {
            let name = item.get("tool")?.as_str()?;
            let arguments = item.get("arguments").cloned().unwrap_or(Value::Null);
            let arguments = match arguments {
                Value::Null => "{}".to_owned(),
                other => other.to_string(),
            };
            Some(ToolCallRequest {
                id: format!("sampled-{i}"),
                name: name.to_owned(),
                arguments,
            })
        })
        .collect()
}

/// The JSON part of a reply: inside its first fenced block when it has one, else from
/// the first `{` or `[` to the last matching closer.
fn json_body(text: &str) -> &str {
    if let Some(start) = text.find("```") {
        let after = &text[start + 3..];
        let after = after.split_once('\n').map_or(after, |(_, rest)| rest);
        if let Some(end) = after.find("```") {
            return after[..end].trim();
        }
    }
    let start = text.find(['{', '[']).unwrap_or(0);
    let end = text.rfind(['}', ']']).map_or(text.len(), |e| e + 1);
    if start < end {
        text[start..end].trim()
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sightline_agent::chat::ToolSpec;

    #[test]
    fn a_reply_with_one_call_a_fenced_array_or_prose_parses_as_expected() {
        let one = parse_calls(r#"{"tool": "grep", "arguments": {"pattern": "save"}}"#);
        assert_eq!(one.len(), 1);
        assert_eq!(one[0].name, "grep");
        assert_eq!(one[0].arguments, r#"{"pattern":"save"}"#);
        let fenced = "Let me look.\n```json\n[{\"tool\": \"read_file\", \"arguments\": {\"path\": \"a.ts\"}}, {\"tool\": \"grep\", \"arguments\": {\"pattern\": \"x\"}}]\n```";
        let calls = parse_calls(fenced);
        assert_eq!(
            calls.iter().map(|c| c.name.as_str()).collect::<Vec<_>>(),
            ["read_file", "grep"]
        );
        assert_ne!(calls[0].id, calls[1].id);
        assert!(parse_calls("I think the answer is in a.ts").is_empty());
        assert!(parse_calls("{\"tool\": 3}").is_empty());
        assert!(parse_calls("{not json").is_empty());
    }

    #[test]
    fn the_conversation_keeps_calls_results_and_the_forced_tool() {
        let request = ChatRequest {
            system: "explore".into(),
            messages: vec![
                Message::user("find save"),
                Message::Assistant {
                    text: String::new(),
                    tool_calls: vec![ToolCallRequest {
                        id: "1".into(),
                        name: "grep".into(),
                        arguments: r#"{"pattern":"save"}"#.into(),
                    }],
                },
                Message::ToolResult {
                    call_id: "1".into(),
                    name: "grep".into(),
                    content: "a.ts:3 [c1] save()".into(),
                    is_error: false,
                },
            ],
            tools: vec![ToolSpec {
                name: "submit_report".into(),
                description: "finish".into(),
                parameters: serde_json::json!({"type": "object"}),
            }],
            tool_choice: ToolChoice::Named("submit_report".into()),
            max_tokens: 500,
        };
        let params = to_sampling(&request);
        assert!(params.validate().is_ok());
        let system = params.system_prompt.unwrap();
        assert!(system.starts_with("explore") && system.contains("- submit_report: finish"));
        let texts: Vec<String> = params
            .messages
            .iter()
            .flat_map(|m| {
                m.content
                    .iter()
                    .filter_map(|c| c.as_text().map(|t| t.text.clone()))
            })
            .collect();
        assert_eq!(texts.len(), 4);
        assert_eq!(parse_calls(&texts[1])[0].name, "grep");
        assert!(texts[2].contains("[c1] save()"));
        assert!(texts[3].contains("submit_report"));
    }
}
