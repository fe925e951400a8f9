//! A provider-neutral chat with tool calling: the loop speaks only these types, and each
//! provider client translates them to and from its wire format.

use serde::Serialize;

/// A tool the model may call, with the JSON Schema of its argument object.
#[derive(Clone, Debug, Serialize)]
pub struct ToolSpec {
    /// The name the model calls it by.
    pub name: String,
    /// What it does, for the model.
    pub description: String,
    /// The JSON Schema of its argument object.
    pub parameters: serde_json::Value,
}

/// One tool call the model asked for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolCallRequest {
    /// The provider's ID for the call; tool results answer it.
    pub id: String,
    /// The tool called.
    pub name: String,
    /// The argument object as JSON text, exactly as the model wrote it (it may be
    /// malformed; the loop answers that with an error result).
    pub arguments: String,
}

/// One message of the conversation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    /// A user turn.
    User {
        /// Its text.
        text: String,
    },
    /// An assistant turn: text, tool calls, or both.
    Assistant {
        /// Its text (may be empty).
        text: String,
        /// The tools it called, in order.
        tool_calls: Vec<ToolCallRequest>,
    },
    /// The answer to one tool call.
    ToolResult {
        /// The ID of the call answered.
        call_id: String,
        /// The tool that was called.
        name: String,
        /// The result text the model reads.
        content: String,
        /// Whether the call failed (`content` says why).
        is_error: bool,
    },
}

impl Message {
    /// A user message with `text`.
    pub fn user(text: impl Into<String>) -> Message {
        Message::User { text: text.into() }
    }
}

/// Which tool the model must call next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub enum ToolChoice {
    /// The model decides (it may also answer with text only).
    Auto,
    /// The model must call this tool.
    Named(String),
}

/// One request for an assistant turn, provider-neutral.
#[derive(Clone, Debug)]
pub struct ChatRequest {
    /// The system prompt.
    pub system: String,
    /// The conversation so far.
    pub messages: Vec<Message>,
    /// The tools the model may call.
    pub tools: Vec<ToolSpec>,
    /// Whether the model must call a particular tool.
    pub tool_choice: ToolChoice,
    /// Most output tokens for this turn.
    pub max_tokens: u32,
}

/// Tokens one turn used, as the provider reported them (zero when it did not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    /// Tokens read.
    pub input_tokens: u64,
    /// Tokens written.
    pub output_tokens: u64,
}

impl std::ops::AddAssign for Usage {
    fn add_assign(&mut self, other: Usage) {
        self.input_tokens += other.input_tokens;
        self.output_tokens += other.output_tokens;
    }
}

/// One assistant turn.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct ChatResponse {
    /// Its text (may be empty).
    pub text: String,
    /// The tools it called, in order.
    pub tool_calls: Vec<ToolCallRequest>,
    /// Tokens the turn used.
    pub usage: Usage,
    /// The provider's own stop reason (`tool_calls`, `end_turn`, …), for traces.
    pub finish_reason: Option<String>,
}

/// Why a provider could not produce a turn.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum ProviderError {
    /// The endpoint rejected the credentials; retrying cannot help.
    #[error("authentication failed: check SIGHTLINE_API_KEY (HTTP {status})")]
    Auth {
        /// The HTTP status (401 or 403).
        status: u16,
    },
    /// A non-success status that retries did not clear (or that is not retryable).
    #[error("HTTP {status} from the model endpoint: {detail}")]
    Http {
        /// The last HTTP status.
        status: u16,
        /// The start of the response body.
        detail: String,
    },
    /// No answer within the per-attempt timeout.
    #[error("the model endpoint did not answer within {seconds} s")]
    Timeout {
        /// The timeout.
        seconds: u64,
    },
    /// Connection refused, DNS failure, TLS failure, a broken body, …
    #[error("could not reach the model endpoint: {0}")]
    Transport(String),
    /// A response that is not the JSON the wire format promises.
    #[error("malformed response from the model endpoint: {0}")]
    Malformed(String),
}

impl ProviderError {
    /// Worth another attempt of the same request after a pause.
    pub fn is_retryable(&self) -> bool {
        match self {
            ProviderError::Http { status, .. } => *status == 429 || (500..600).contains(status),
            ProviderError::Timeout { .. } | ProviderError::Transport(_) => true,
            ProviderError::Auth { .. } | ProviderError::Malformed(_) => false,
        }
    }
}

/// A chat-completions endpoint with tool calling. Implementations own retries and
/// timeouts; an `Err` means the request is lost.
pub trait ChatProvider {
    /// Sends one request and returns the assistant's turn.
    fn complete(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError>;

    /// A short description for traces and summaries (`kind model`); never a credential.
    fn describe(&self) -> String {
        "unnamed provider".to_owned()
    }
}

impl<P: ChatProvider + ?Sized> ChatProvider for &P {
    fn complete(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        (**self).complete(request)
    }
    fn describe(&self) -> String {
        (**self).describe()
    }
}

impl<P: ChatProvider + ?Sized> ChatProvider for Box<P> {
    fn complete(&self, request: &ChatRequest) -> Result<ChatResponse, ProviderError> {
        (**self).complete(request)
    }
    fn describe(&self) -> String {
        (**self).describe()
    }
}
