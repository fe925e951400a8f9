//! The Anthropic Messages wire format (`POST {base}/v1/messages`): `tool_use` blocks from
//! the assistant, `tool_result` blocks in the next user turn.

use serde_json::{Value, json};

use super::ProviderConfig;
use super::http::Transport;
use crate::chat::{
    ChatProvider, ChatRequest, ChatResponse, Message, ProviderError, ToolCallRequest, ToolChoice,
    Usage,
};

const API_VERSION: &str = "2023-06-01";

/// A client of the Anthropic Messages API.
pub struct AnthropicProvider {
    config: ProviderConfig,
    transport: Transport,
}

impl std::fmt::Debug for AnthropicProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AnthropicProvider")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl AnthropicProvider {
    /// A client for `config` (its base URL, model, key, timeout and retries).
    pub fn new(config: ProviderConfig) -> AnthropicProvider {
        let transport = Transport::new(config.timeout, config.retry.clone());
        AnthropicProvider { config, transport }
    }
}

impl ChatProvider for AnthropicProvider {
    fn complete(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        let url = format!("{}/v1/messages", self.config.base_url);
        let mut headers = vec![("anthropic-version", API_VERSION)];
        if let Some(key) = &self.config.api_key {
            headers.push(("x-api-key", key.expose()));
        }
        let body = request_body(&self.config.model, request);
        let value = self.transport.post_json(&url, &headers, &body)?;
        parse_response(&value)
    }

    fn describe(&self) -> String {
        self.config.describe()
    }
}

/// The request body for `model`.
pub fn request_body(model: &str, request: &ChatRequest) -> Value {
    let tools: Vec<Value> = request
        .tools
        .iter()
        .map(|t| {
            json!({
                "name": t.name,
                "description": t.description,
                "input_schema": t.parameters,
            })
        })
        .collect();
    let tool_choice = match &request.tool_choice {
        ToolChoice::Auto => json!({"type": "auto"}),
        ToolChoice::Named(name) => json!({"type": "tool", "name": name}),
    };
    json!({
        "model": model,
        "max_tokens": request.max_tokens,
        "system": request.system,
        "messages": messages_json(&request.messages),
        "tools": tools,
        "tool_choice": tool_choice,
    })
}

/// Messages as content blocks, consecutive turns of one role merged: tool results and a
/// following user message form one user turn, as the format requires.
fn messages_json(messages: &[Message]) -> Vec<Value> {
    let mut out: Vec<(&str, Vec<Value>)> = Vec::new();
    for message in messages {
        let (role, blocks) = blocks_of(message);
        if blocks.is_empty() {
            continue;
        }
        match out.last_mut() {
            Some((last, existing)) if *last == role => existing.extend(blocks),
            _ => out.push((role, blocks)),
        }
    }
    out.into_iter()
        .map(|(role, content)| json!({"role": role, "content": content}))
        .collect()
}

fn blocks_of(message: &Message) -> (&'static str, Vec<Value>) {
    match message {
        Message::User { text } => ("user", vec![json!({"type": "text", "text": text})]),
        Message::Assistant { text, tool_calls } => {
            let mut blocks = Vec::new();
            if !text.trim().is_empty() {
                blocks.push(json!({"type": "text", "text": text}));
            }
            for call in tool_calls {
                // The model wrote an object; if it somehow is not one, send an empty one
                // (the loop already answered the call with an error).
                let input = serde_json::from_str::<Value>(&call.arguments)
                    .ok()
                    .filter(Value::is_object)
                    .unwrap_or_else(|| json!({}));
                blocks.push(json!({
                    "type": "tool_use",
                    "id": call.id,
                    "name": call.name,
                    "input": input,
                }));
            }
            ("assistant", blocks)
        }
        Message::ToolResult {
            call_id,
            content,
            is_error,
            ..
        } => (
            "user",
            vec![json!({
                "type": "tool_result",
                "tool_use_id": call_id,
                "content": content,
                "is_error": is_error,
            })],
        ),
    }
}

/// Reads the `content` blocks and `usage`.
pub fn parse_response(value: &Value) -> Result<ChatResponse, ProviderError> {
    let blocks = value
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| ProviderError::Malformed("no content list".to_owned()))?;
    let mut text = String::new();
    let mut tool_calls = Vec::new();
    for (i, block) in blocks.iter().enumerate() {
        match block.get("type").and_then(Value::as_str) {
            Some("text") => {
                text.push_str(
                    block
                        .get("text")
                        .and_then(Value::as_str)
                        .unwrap_or_default(),
                );
            }
            Some("tool_use") => {
                let id = block.get("id").and_then(Value::as_str);
                let name = block.get("name").and_then(Value::as_str);
                let (Some(id), Some(name)) = (id, name) else {
                    return Err(ProviderError::Malformed(format!(
                        "content[{i}] tool_use has no id or name"
                    )));
                };
                tool_calls.push(ToolCallRequest {
                    id: id.to_owned(),
                    name: name.to_owned(),
                    arguments: block
                        .get("input")
                        .map_or_else(String::new, Value::to_string),
                });
            }
            // Thinking and other block kinds carry nothing the loop uses.
            _ => {}
        }
    }
    let tokens = |p: &str| value.pointer(p).and_then(Value::as_u64).unwrap_or(0);
    Ok(ChatResponse {
        text,
        tool_calls,
        usage: Usage {
            input_tokens: tokens("/usage/input_tokens")
                + tokens("/usage/cache_read_input_tokens")
                + tokens("/usage/cache_creation_input_tokens"),
            output_tokens: tokens("/usage/output_tokens"),
        },
        finish_reason: value
            .get("stop_reason")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}
