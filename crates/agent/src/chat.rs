//! A provider-neutral chat with tool calling: the loop speaks only these types, and each
//! provider client translates them to and from its wire format.

use serde::Serialize;

/// A tool the model may call, with the JSON Schema of its argument object.
#[derive(Clone, Debug, Serialize)]
pub struct ToolSpec {
    pub name: String,
    pub description: String,
    pub parameters: serde_json::Value,
}

/// One tool call the model asked for.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ToolCallRequest {
    /// The provider's ID for the call; tool results answer it.
    pub id: String,
    pub name: String,
    /// The argument object as JSON text, exactly as the model wrote it (it may be
    /// malformed; the loop answers that with an error result).
    pub arguments: String,
}

/// One message of the conversation.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "role", rename_all = "snake_case")]
pub enum Message {
    User {
        text: String,
    },
    Assistant {
        text: String,
        tool_calls: Vec<ToolCallRequest>,
    },
    /// The answer to one tool call.
    ToolResult {
        call_id: String,
        name: String,
        content: String,
        is_error: bool,
    },
}

impl Message {
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

#[derive(Clone, Debug)]
pub struct ChatRequest {
    pub system: String,
    pub messages: Vec<Message>,
    pub tools: Vec<ToolSpec>,
    pub tool_choice: ToolChoice,
    /// Most output tokens for this turn.
    pub max_tokens: u32,
}

/// Tokens one turn used, as the provider reported them (zero when it did not).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Usage {
    pub input_tokens: u64,
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
    pub text: String,
    pub tool_calls: Vec<ToolCallRequest>,
    pub usage: Usage,
    /// The provider's own stop reason (`tool_calls`, `end_turn`, …), for traces.
    pub finish_reason: Option<String>,
}

#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum ProviderError {
    /// The endpoint rejected the credentials; retrying cannot help.
    #[error("authentication failed: check SIGHTLINE_API_KEY (HTTP {status})")]
    Auth { status: u16 },
    /// A non-success status that retries did not clear (or that is not retryable).
    #[error("HTTP {status} from the model endpoint: {detail}")]
    Http { status: u16, detail: String },
    #[error("the model endpoint did not answer within {seconds} s")]
    Timeout { seconds: u64 },
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
