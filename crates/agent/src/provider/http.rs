//! JSON over HTTPS for the provider clients: one blocking `ureq` agent (rustls), a global
//! timeout per attempt, and bounded retries with backoff on 429/5xx and transport failures,
//! honoring `Retry-After` (seconds).

use std::time::Duration;

use crate::chat::ProviderError;

/// Largest response body read; a chat turn is far smaller.
const MAX_BODY_BYTES: u64 = 16 << 20;
/// Longest error detail kept from a failed response's body.
const MAX_DETAIL_CHARS: usize = 300;

/// How failed HTTP attempts are retried.
#[derive(Clone, Debug)]
pub struct RetryPolicy {
    /// Attempts per request, the first included (at least 1).
    pub max_attempts: u32,
    /// Pause before the second attempt; doubled for each later one.
    pub base_delay: Duration,
    /// No pause is longer, whatever `Retry-After` asks for.
    pub max_delay: Duration,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy {
            max_attempts: 4,
            base_delay: Duration::from_secs(1),
            max_delay: Duration::from_secs(30),
        }
    }
}

impl RetryPolicy {
    fn delay(&self, attempt: u32, retry_after: Option<Duration>) -> Duration {
        let backoff = self
            .base_delay
            .saturating_mul(2u32.saturating_pow(attempt.saturating_sub(1)));
        retry_after.unwrap_or(backoff).min(self.max_delay)
    }
}

pub(crate) struct Transport {
    agent: ureq::Agent,
    timeout: Duration,
    retry: RetryPolicy,
}

impl Transport {
    pub(crate) fn new(timeout: Duration, retry: RetryPolicy) -> Transport {
        let config = ureq::Agent::config_builder()
            .timeout_global(Some(timeout))
            // Statuses are inspected here (401 vs 429 vs 5xx), not turned into errors.
            .http_status_as_error(false)
            .build();
        Transport {
            agent: ureq::Agent::new_with_config(config),
            timeout,
            retry,
        }
    }

    /// POSTs `body` and parses the JSON answer, retrying what is worth retrying.
    pub(crate) fn post_json(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        body: &serde_json::Value,
    ) -> Result<serde_json::Value, ProviderError> {
        let body = body.to_string();
        let mut attempt = 1;
        loop {
            match self.attempt(url, headers, &body) {
                Ok(value) => return Ok(value),
                Err((e, retry_after)) if e.is_retryable() && attempt < self.retry.max_attempts => {
                    std::thread::sleep(self.retry.delay(attempt, retry_after));
                    attempt += 1;
                }
                Err((e, _)) => return Err(e),
            }
        }
    }

    fn attempt(
        &self,
        url: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> Result<serde_json::Value, (ProviderError, Option<Duration>)> {
        let mut request = self
            .agent
            .post(url)
            .header("content-type", "application/json");
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        let mut response = request.send(body).map_err(|e| (self.map_error(e), None))?;
        let status = response.status().as_u16();
        let retry_after = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|s| s.trim().parse::<u64>().ok())
            .map(Duration::from_secs);
        let text = response
            .body_mut()
            .with_config()
            .limit(MAX_BODY_BYTES)
            .read_to_string()
            .map_err(|e| (self.map_error(e), retry_after))?;
        if status == 401 || status == 403 {
            return Err((ProviderError::Auth { status }, None));
        }
        if !(200..300).contains(&status) {
            let detail = error_detail(&text);
            return Err((ProviderError::Http { status, detail }, retry_after));
        }
        serde_json::from_str(&text).map_err(|e| {
            (
                ProviderError::Malformed(format!("response is not JSON: {e}")),
                None,
            )
        })
    }

    fn map_error(&self, e: ureq::Error) -> ProviderError {
        let timed_out = match &e {
            ureq::Error::Timeout(_) => true,
            ureq::Error::Io(io) => io.kind() == std::io::ErrorKind::TimedOut,
            _ => false,
        };
        if timed_out {
            ProviderError::Timeout {
                seconds: self.timeout.as_secs(),
            }
        } else {
            ProviderError::Transport(e.to_string())
        }
    }
}

/// The provider's own error message when the body has one, else the start of the body.
fn error_detail(body: &str) -> String {
    let parsed: Option<serde_json::Value> = serde_json::from_str(body).ok();
    let message = parsed.as_ref().and_then(|v| {
        v.pointer("/error/message")
            .or_else(|| v.pointer("/message"))
            .or_else(|| v.get("error"))
            .and_then(|m| m.as_str())
            .map(str::to_owned)
    });
    let detail = message.unwrap_or_else(|| body.trim().to_owned());
    detail.chars().take(MAX_DETAIL_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retry_after_wins_over_backoff_within_the_cap() {
        let p = RetryPolicy {
            max_attempts: 3,
            base_delay: Duration::from_millis(100),
            max_delay: Duration::from_secs(2),
        };
        assert_eq!(p.delay(1, None), Duration::from_millis(100));
        assert_eq!(p.delay(3, None), Duration::from_millis(400));
        assert_eq!(p.delay(1, Some(Duration::ZERO)), Duration::ZERO);
        assert_eq!(
            p.delay(1, Some(Duration::from_secs(60))),
            Duration::from_secs(2)
        );
    }

    #[test]
    fn error_detail_prefers_the_message_field() {
        assert_eq!(
            error_detail(r#"{"error":{"message":"slow down","type":"rate"}}"#),
            "slow down"
        );
        assert_eq!(error_detail("plain text"), "plain text");
    }
}
