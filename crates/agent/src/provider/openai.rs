//! The OpenAI-compatible chat-completions wire format (`POST {base}/chat/completions`).

use serde_json::{Value, json};

use super::ProviderConfig;
use super::http::Transport;
use crate::chat::{
    ChatProvider, ChatRequest, ChatResponse, Message, ProviderError, ToolCallRequest, ToolChoice,
    Usage,
};

/// A client of OpenAI-compatible chat-completions endpoints.
pub struct OpenAiProvider {
    config: ProviderConfig,
    transport: Transport,
}

impl std::fmt::Debug for OpenAiProvider {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiProvider")
            .field("config", &self.config)
            .finish_non_exhaustive()
    }
}

impl OpenAiProvider {
    /// A client for `config` (its base URL, model, key, timeout and retries).
    pub fn new(config: ProviderConfig) -> OpenAiProvider {
        let transport = Transport::new(config.timeout, config.retry.clone());
        OpenAiProvider { config, transport }
    }

    fn post(&self, body: &Value) -> Result<Value, ProviderError> {
        let url = format!("{}/chat/completions", self.config.base_url);
        let auth = self
            .config
            .api_key
            .as_ref()
            .map(|k| format!("Bearer {}", k.expose()));
        let headers: Vec<(&str, &str)> = auth
            .as_deref()
            .map(|a| ("authorization", a))
            .into_iter()
            .collect();
        self.transport.post_json(&url, &headers, body)
    }
}

impl ChatProvider for OpenAiProvider {
    fn complete(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        let mut body = request_body(&self.config.model, request);
        let value = match self.post(&body) {
            // Some models accept only the newer name of the output limit; the error says
            // so, and the same request is sent once more with it.
            Err(ProviderError::Http {
                status: 400,
                detail,
            }) if detail.contains("max_completion_tokens") => {
                if let Some(object) = body.as_object_mut() {
                    let limit = object.remove("max_tokens").unwrap_or(Value::Null);
                    object.insert("max_completion_tokens".to_owned(), limit);
                }
                self.post(&body)?
            }
            other => other?,
        };
        parse_response(&value)
    }

    fn describe(&self) -> String {
        self.config.describe()
    }
}

/// The request body for `model`.
pub fn request_body(model: &str, request: &ChatRequest) -> Value {
    let mut messages = vec![json!({"role": "system", "content": request.system})];
    messages.extend(request.messages.iter().map(message_json));
    let tools: Vec<Value> = request
        .tools
        .iter()
        .map(|t| {
            json!({
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.parameters,
                }
            })
        })
        .collect();
    let tool_choice = match &request.tool_choice {
        ToolChoice::Auto => json!("auto"),
        ToolChoice::Named(name) => json!({"type": "function", "function": {"name": name}}),
    };
    json!({
        "model": model,
        "messages": messages,
        "tools": tools,
        "tool_choice": tool_choice,
        "max_tokens": request.max_tokens,
    })
}

fn message_json(message: &Message) -> Value {
    match message {
        Message::User { text } => json!({"role": "user", "content": text}),
        Message::Assistant { text, tool_calls } => {
            let mut m = json!({
                "role": "assistant",
                "content": if text.is_empty() { Value::Null } else { json!(text) },
            });
            if !tool_calls.is_empty() {
                m["tool_calls"] = tool_calls
                    .iter()
                    .map(|c| {
                        json!({
                            "id": c.id,
                            "type": "function",
                            "function": {"name": c.name, "arguments": c.arguments},
                        })
                    })
                    .collect();
            }
            m
        }
        Message::ToolResult {
            call_id, content, ..
        } => json!({"role": "tool", "tool_call_id": call_id, "content": content}),
    }
}

/// Reads `choices[0].message` and `usage`; anything else missing is malformed.
pub fn parse_response(value: &Value) -> Result<ChatResponse, ProviderError> {
    let choice = value
        .pointer("/choices/0")
        .ok_or_else(|| ProviderError::Malformed("no choices[0]".to_owned()))?;
    let message = choice
        .get("message")
        .ok_or_else(|| ProviderError::Malformed("no choices[0].message".to_owned()))?;
    let text = match message.get("content") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        // Some servers send content parts; keep their text.
        Some(Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(Value::as_str))
            .collect::<Vec<_>>()
            .join(""),
        Some(other) => {
            return Err(ProviderError::Malformed(format!(
                "message.content is {other}"
            )));
        }
    };
    let mut tool_calls = Vec::new();
    if let Some(calls) = message.get("tool_calls").filter(|c| !c.is_null()) {
        let calls = calls
            .as_array()
            .ok_or_else(|| ProviderError::Malformed("tool_calls is not a list".to_owned()))?;
        for (i, call) in calls.iter().enumerate() {
            tool_calls.push(parse_tool_call(i, call)?);
        }
    }
    let usage = Usage {
        input_tokens: u64_at(value, "/usage/prompt_tokens"),
        output_tokens: u64_at(value, "/usage/completion_tokens"),
    };
    Ok(ChatResponse {
        text,
        tool_calls,
        usage,
        finish_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .map(str::to_owned),
    })
}

fn parse_tool_call(i: usize, call: &Value) -> Result<ToolCallRequest, ProviderError> {
    let function = call
        .get("function")
        .ok_or_else(|| ProviderError::Malformed(format!("tool_calls[{i}] has no function")))?;
    let name = function
        .get("name")
        .and_then(Value::as_str)
        .ok_or_else(|| ProviderError::Malformed(format!("tool_calls[{i}] has no name")))?;
    // The format says a JSON string; some servers send the object itself.
    let arguments = match function.get("arguments") {
        None | Some(Value::Null) => String::new(),
        Some(Value::String(s)) => s.clone(),
        Some(other) => other.to_string(),
    };
    let id = call
        .get("id")
        .and_then(Value::as_str)
        .filter(|s| !s.is_empty())
        .map_or_else(|| format!("call_{}", i + 1), str::to_owned);
    Ok(ToolCallRequest {
        id,
        name: name.to_owned(),
        arguments,
    })
}

fn u64_at(value: &Value, pointer: &str) -> u64 {
    value.pointer(pointer).and_then(Value::as_u64).unwrap_or(0)
}
