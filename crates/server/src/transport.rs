//! The stdio transport: one JSON-RPC message per line, with the error replies JSON-RPC 2.0
//! prescribes for lines that are not a message.
//!
//! rmcp's own line transport stays silent on a line that is not JSON and on an oversized
//! line, answers a batch or a malformed message with `-32600` but no `id` member, and hands
//! a request whose params do not fit its method on as an unknown method (`-32601`). This
//! transport reads the lines itself, answers those cases here (`-32700` parse error,
//! `-32600` with `"id": null`, `-32602` with the request's id) and passes only well-formed
//! messages on to rmcp.

use std::sync::Arc;

use rmcp::RoleServer;
use rmcp::model::{
    CallToolRequest, ClientJsonRpcMessage, ClientRequest, ErrorCode, GetPromptRequest,
    InitializeRequest, JsonRpcMessage, ListPromptsRequest, ListToolsRequest, PingRequest,
};
use rmcp::transport::Transport;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt as _, AsyncRead, AsyncWrite, AsyncWriteExt as _, BufReader};
use tokio::sync::{Mutex, mpsc};

/// The longest request line accepted, in bytes. Tool arguments are a few kilobytes; the
/// cap keeps a peer that never sends a newline from growing the buffer without bound.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// A stdio-style transport over any reader and writer (stdin/stdout in production, an
/// in-memory pipe in tests).
pub struct LineTransport<W> {
    incoming: mpsc::Receiver<ClientJsonRpcMessage>,
    out: Arc<Mutex<W>>,
}

impl<W: AsyncWrite + Unpin + Send + 'static> LineTransport<W> {
    /// Starts reading `read` on a task of the current runtime. The reader answers malformed
    /// lines itself, so a reply is never lost to rmcp cancelling a pending `receive`.
    pub fn new<R: AsyncRead + Unpin + Send + 'static>(read: R, write: W) -> LineTransport<W> {
        let out = Arc::new(Mutex::new(write));
        // guard: allow(literal) reason: the name of tokio's queue constructor, an API name
        let (messages, incoming) = mpsc::channel(16);
        tokio::spawn(read_lines(BufReader::new(read), messages, Arc::clone(&out)));
        LineTransport { incoming, out }
    }
}

impl<W: AsyncWrite + Unpin + Send + 'static> Transport<RoleServer> for LineTransport<W> {
    type Error = std::io::Error;

    fn send(
        &mut self,
        item: rmcp::service::TxJsonRpcMessage<RoleServer>,
    ) -> impl Future<Output = Result<(), Self::Error>> + Send + 'static {
        let out = Arc::clone(&self.out);
        async move {
            let line = serde_json::to_vec(&item)?;
            write_line(&out, &line).await
        }
    }

    async fn receive(&mut self) -> Option<ClientJsonRpcMessage> {
        // `recv` is cancel-safe: rmcp polls this inside a `select!`.
        self.incoming.recv().await
    }

    async fn close(&mut self) -> Result<(), Self::Error> {
        self.incoming.close();
        self.out.lock().await.flush().await
    }
}

async fn write_line<W: AsyncWrite + Unpin>(out: &Mutex<W>, line: &[u8]) -> std::io::Result<()> {
    // One lock for the whole line, so replies from the reader and from rmcp never
    // interleave.
    let mut out = out.lock().await;
    out.write_all(line).await?;
    out.write_all(b"\n").await?;
    out.flush().await
}

/// What one line of input calls for.
#[derive(Debug)]
enum Verdict {
    /// A message for rmcp.
    Message(Box<ClientJsonRpcMessage>),
    /// An error reply, written here.
    Reply(Value),
    /// Nothing: blank lines, and malformed notifications or responses (JSON-RPC never
    /// answers those).
    Ignore,
}

async fn read_lines<R, W>(
    mut read: BufReader<R>,
    messages: mpsc::Sender<ClientJsonRpcMessage>,
    out: Arc<Mutex<W>>,
) where
    R: AsyncRead + Unpin,
    W: AsyncWrite + Unpin,
{
    let mut line = Vec::new();
    loop {
        let verdict = match read_line(&mut read, &mut line).await {
            Ok(Line::Complete) => classify(&line),
            Ok(Line::TooLong) => Verdict::Reply(error_reply(
                Value::Null,
                ErrorCode::INVALID_REQUEST,
                format!("Invalid Request: the line is longer than {MAX_LINE_BYTES} bytes"),
            )),
            Ok(Line::End) => return,
            Err(e) => {
                eprintln!("reading the client's messages failed: {e}");
                return;
            }
        };
        match verdict {
            Verdict::Message(message) => {
                if messages.send(*message).await.is_err() {
                    return;
                }
            }
            Verdict::Reply(reply) => {
                let Ok(bytes) = serde_json::to_vec(&reply) else {
                    continue;
                };
                if write_line(&out, &bytes).await.is_err() {
                    return;
                }
            }
            Verdict::Ignore => {}
        }
    }
}

enum Line {
    Complete,
    TooLong,
    End,
}

/// Reads one line into `line` (without its newline), never holding more than
/// [`MAX_LINE_BYTES`]: the rest of a longer line is skipped up to its newline.
async fn read_line<R: AsyncRead + Unpin>(
    read: &mut BufReader<R>,
    line: &mut Vec<u8>,
) -> std::io::Result<Line> {
    line.clear();
    let mut too_long = false;
    loop {
        let available = read.fill_buf().await?;
        if available.is_empty() {
            // A last line without a newline is still a line.
            return Ok(match (too_long, line.is_empty()) {
                (true, _) => Line::TooLong,
                (false, true) => Line::End,
                (false, false) => Line::Complete,
            });
        }
        let newline = available.iter().position(|b| *b == b'\n');
        let take = newline.map_or(available.len(), |i| i + 1);
        let content = &available[..newline.unwrap_or(take)];
        if !too_long {
            if line.len() + content.len() > MAX_LINE_BYTES {
                too_long = true;
                line.clear();
            } else {
                line.extend_from_slice(content);
            }
        }
        read.consume(take);
        if newline.is_some() {
            return Ok(if too_long {
                Line::TooLong
            } else {
                Line::Complete
            });
        }
    }
}

const BOM: &[u8] = b"\xEF\xBB\xBF";

fn classify(line: &[u8]) -> Verdict {
    let line = line.strip_prefix(BOM).unwrap_or(line);
    if line.iter().all(u8::is_ascii_whitespace) {
        return Verdict::Ignore;
    }
    let value: Value = match serde_json::from_slice(line) {
        Ok(value) => value,
        Err(e) => {
            return Verdict::Reply(error_reply(
                Value::Null,
                ErrorCode::PARSE_ERROR,
                format!("Parse error: {e}"),
            ));
        }
    };
    let object = match value {
        Value::Object(object) => object,
        Value::Array(_) => {
            return Verdict::Reply(error_reply(
                Value::Null,
                ErrorCode::INVALID_REQUEST,
                "Invalid Request: batches are not supported; send one message per line".into(),
            ));
        }
        _ => {
            return Verdict::Reply(error_reply(
                Value::Null,
                ErrorCode::INVALID_REQUEST,
                "Invalid Request: a message must be a JSON object".into(),
            ));
        }
    };
    let id = object
        .get("id")
        .filter(|id| id.is_string() || id.is_i64() || id.is_u64())
        .cloned();
    let method = object
        .get("method")
        .and_then(Value::as_str)
        .map(str::to_owned);
    let value = Value::Object(object);
    let parsed = serde_json::from_value::<ClientJsonRpcMessage>(value.clone());
    match (parsed, method, id) {
        (Ok(JsonRpcMessage::Request(request)), Some(method), Some(id))
            if matches!(request.request, ClientRequest::CustomRequest(_)) =>
        {
            // rmcp falls back to a custom request when the params do not fit a method it
            // knows, and would answer "method not found".
            match params_error(&method, &value) {
                Some(detail) => Verdict::Reply(invalid_params(id, &method, &detail)),
                None => Verdict::Message(Box::new(JsonRpcMessage::Request(request))),
            }
        }
        (Ok(message), _, _) => Verdict::Message(Box::new(message)),
        (Err(e), Some(method), Some(id)) if value.get("jsonrpc") == Some(&json!("2.0")) => {
            let detail = params_error(&method, &value).unwrap_or_else(|| e.to_string());
            Verdict::Reply(invalid_params(id, &method, &detail))
        }
        (Err(e), _, Some(id)) => Verdict::Reply(error_reply(
            id,
            ErrorCode::INVALID_REQUEST,
            format!("Invalid Request: {e}"),
        )),
        // A notification or a response that does not parse gets no reply.
        (Err(_), Some(_), None) => Verdict::Ignore,
        (Err(_), None, None) if value.get("result").is_some() || value.get("error").is_some() => {
            Verdict::Ignore
        }
        (Err(e), None, None) => Verdict::Reply(error_reply(
            Value::Null,
            ErrorCode::INVALID_REQUEST,
            format!("Invalid Request: {e}"),
        )),
    }
}

/// Why `message`'s params do not fit `method`, for the methods this server answers; `None`
/// for any other method (rmcp answers those).
fn params_error(method: &str, message: &Value) -> Option<String> {
    fn check<T: DeserializeOwned>(message: &Value) -> Option<String> {
        serde_json::from_value::<T>(message.clone())
            .err()
            .map(|e| e.to_string())
    }
    match method {
        "initialize" => check::<InitializeRequest>(message),
        "ping" => check::<PingRequest>(message),
        "tools/list" => check::<ListToolsRequest>(message),
        "tools/call" => check::<CallToolRequest>(message),
        "prompts/list" => check::<ListPromptsRequest>(message),
        "prompts/get" => check::<GetPromptRequest>(message),
        _ => None,
    }
}

fn invalid_params(id: Value, method: &str, detail: &str) -> Value {
    error_reply(
        id,
        ErrorCode::INVALID_PARAMS,
        format!("Invalid params for `{method}`: {detail}"),
    )
}

fn error_reply(id: Value, code: ErrorCode, message: String) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code.0, "message": message}})
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt as _, duplex};

    use super::*;

    fn reply_of(line: &str) -> Value {
        match classify(line.as_bytes()) {
            Verdict::Reply(reply) => reply,
            other => panic!("{line}: expected a reply, got {other:?}"),
        }
    }

    #[test]
    fn a_line_that_is_not_json_is_a_parse_error_with_a_null_id() {
        let reply = reply_of("{\"jsonrpc\": \"2.0\", \"id\": 1, ");
        assert_eq!(reply["error"]["code"], -32700);
        assert_eq!(reply["id"], Value::Null);
        assert!(reply.as_object().unwrap().contains_key("id"));
    }

    #[test]
    fn batches_and_non_objects_are_invalid_requests_with_a_null_id() {
        for line in [
            "[]",
            "[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]",
            "7",
            "\"x\"",
        ] {
            let reply = reply_of(line);
            assert_eq!(reply["error"]["code"], -32600, "{line}");
            assert!(reply.as_object().unwrap().contains_key("id"), "{line}");
            assert_eq!(reply["id"], Value::Null, "{line}");
        }
    }

    #[test]
    fn params_that_do_not_fit_a_known_method_are_invalid_params_with_the_id() {
        for line in [
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"grep","arguments":"x"}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"prompts/get","params":{}}"#,
            r#"{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"capabilities":7}}"#,
        ] {
            let reply = reply_of(line);
            assert_eq!(reply["error"]["code"], -32602, "{line}: {reply}");
            assert_eq!(reply["id"], 3, "{line}");
        }
    }

    #[test]
    fn well_formed_messages_and_unknown_methods_pass_through() {
        for line in [
            r#"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#,
            r#"{"jsonrpc":"2.0","id":"a","method":"tools/call","params":{"name":"grep","arguments":{}}}"#,
            r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
            r#"{"jsonrpc":"2.0","id":2,"method":"no/such/method"}"#,
            r#"{"jsonrpc":"2.0","method":"$/unknownNotification","params":{}}"#,
        ] {
            assert!(
                matches!(classify(line.as_bytes()), Verdict::Message(_)),
                "{line}"
            );
        }
    }

    #[test]
    fn blank_lines_get_no_reply() {
        for line in ["", "  \r", "\u{feff}"] {
            assert!(
                matches!(classify(line.as_bytes()), Verdict::Ignore),
                "{line}"
            );
        }
    }

    #[test]
    fn the_specs_invalid_request_example_gets_its_reply() {
        // JSON-RPC 2.0, section 7: `{"jsonrpc": "2.0", "method": 1, "params": "bar"}`.
        let reply = reply_of(r#"{"jsonrpc": "2.0", "method": 1, "params": "bar"}"#);
        assert_eq!(reply["error"]["code"], -32600);
        assert_eq!(reply["id"], Value::Null);
    }

    #[test]
    fn a_request_without_the_jsonrpc_version_is_an_invalid_request_with_its_id() {
        let reply = reply_of(r#"{"id":9,"method":"tools/list"}"#);
        assert_eq!(reply["error"]["code"], -32600);
        assert_eq!(reply["id"], 9);
    }

    #[tokio::test]
    async fn an_oversized_line_is_answered_and_the_next_line_still_served() {
        let (mut client, server_end) = duplex(64 * 1024);
        let (read, write) = tokio::io::split(server_end);
        let mut transport = LineTransport::new(read, write);
        let writer = tokio::spawn(async move {
            let long = vec![b'x'; MAX_LINE_BYTES + 10];
            client.write_all(&long).await.unwrap();
            client
                .write_all(b"\n{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}\n")
                .await
                .unwrap();
            let mut reply = vec![0u8; 4096];
            let n = client.read(&mut reply).await.unwrap();
            String::from_utf8_lossy(&reply[..n]).into_owned()
        });
        let message = transport.receive().await.expect("the next line is served");
        assert!(matches!(message, JsonRpcMessage::Request(_)));
        let reply: Value = serde_json::from_str(writer.await.unwrap().trim()).unwrap();
        assert_eq!(reply["error"]["code"], -32600);
        assert_eq!(reply["id"], Value::Null);
    }
}
