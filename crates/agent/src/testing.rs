//! A scripted provider: canned assistant turns played in order, for tests of the loop and
//! of anything built on it. A turn may be computed from the request, so a script can cite
//! the IDs and quote the text a tool really showed.

use std::collections::VecDeque;
use std::sync::Mutex;

use crate::chat::{
    ChatProvider, ChatRequest, ChatResponse, Message, ProviderError, ToolCallRequest, Usage,
};

type Computed = Box<dyn Fn(&ChatRequest) -> Result<ChatResponse, ProviderError> + Send>;

/// One scripted assistant turn.
pub enum Turn {
    /// A response (or error) given as is.
    Fixed(Result<ChatResponse, ProviderError>),
    /// A response computed from the request.
    Computed(Computed),
}

impl Turn {
    /// A turn calling one tool with JSON arguments.
    pub fn call(name: &str, args: serde_json::Value) -> Turn {
        Turn::calls(&[(name, args)])
    }

    /// A turn calling several tools at once.
    pub fn calls(calls: &[(&str, serde_json::Value)]) -> Turn {
        let calls = calls
            .iter()
            .map(|(n, a)| ((*n).to_owned(), a.to_string()))
            .collect();
        Turn::Fixed(Ok(response_with_calls(calls)))
    }

    /// A turn calling one tool with arguments as raw text (possibly not JSON).
    pub fn raw_call(name: &str, raw_args: &str) -> Turn {
        Turn::Fixed(Ok(response_with_calls(vec![(
            name.to_owned(),
            raw_args.to_owned(),
        )])))
    }

    /// A turn that answers with text and calls no tool.
    pub fn text(text: &str) -> Turn {
        Turn::Fixed(Ok(ChatResponse {
            text: text.to_owned(),
            usage: Usage {
                input_tokens: 10,
                output_tokens: 5,
            },
            finish_reason: Some("stop".to_owned()),
            ..ChatResponse::default()
        }))
    }

    /// A turn failing with `error`.
    pub fn error(error: ProviderError) -> Turn {
        Turn::Fixed(Err(error))
    }

    /// A turn computed from the request the loop sends.
    pub fn computed(
        f: impl Fn(&ChatRequest) -> Result<ChatResponse, ProviderError> + Send + 'static,
    ) -> Turn {
        Turn::Computed(Box::new(f))
    }
}

/// A response calling the given (tool name, raw arguments) pairs, with IDs `call_1`, ….
pub fn response_with_calls(calls: Vec<(String, String)>) -> ChatResponse {
    ChatResponse {
        text: String::new(),
        tool_calls: calls
            .into_iter()
            .enumerate()
            .map(|(i, (name, arguments))| ToolCallRequest {
                id: format!("call_{}", i + 1),
                name,
                arguments,
            })
            .collect(),
        usage: Usage {
            input_tokens: 100,
            output_tokens: 20,
        },
        finish_reason: Some("tool_calls".to_owned()),
    }
}

/// Plays its turns in order; once they run out it answers with text only.
pub struct ScriptedProvider {
    turns: Mutex<VecDeque<Turn>>,
    requests: Mutex<Vec<ChatRequest>>,
}

impl ScriptedProvider {
    /// A provider playing `turns` in order.
    pub fn new(turns: impl IntoIterator<Item = Turn>) -> ScriptedProvider {
        ScriptedProvider {
            turns: Mutex::new(turns.into_iter().collect()),
            requests: Mutex::new(Vec::new()),
        }
    }

    /// Every request received so far.
    pub fn requests(&self) -> Vec<ChatRequest> {
        self.requests.lock().map(|r| r.clone()).unwrap_or_default()
    }

    /// Turns not played yet.
    pub fn remaining(&self) -> usize {
        self.turns.lock().map(|t| t.len()).unwrap_or_default()
    }
}

impl ChatProvider for ScriptedProvider {
    fn complete(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        if let Ok(mut r) = self.requests.lock() {
            r.push(request.clone());
        }
        let turn = self.turns.lock().ok().and_then(|mut t| t.pop_front());
        match turn {
            Some(Turn::Fixed(r)) => r,
            Some(Turn::Computed(f)) => f(request),
            None => Ok(ChatResponse {
                text: "(script ended)".to_owned(),
                ..ChatResponse::default()
            }),
        }
    }

    fn describe(&self) -> String {
        "scripted".to_owned()
    }
}

/// The text of every tool result in a request, oldest first.
pub fn tool_results(request: &ChatRequest) -> Vec<&str> {
    request
        .messages
        .iter()
        .filter_map(|m| match m {
            Message::ToolResult { content, .. } => Some(content.as_str()),
            _ => None,
        })
        .collect()
}
