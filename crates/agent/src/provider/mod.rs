//! Provider configuration (flags over environment) and the two wire-format clients.

pub mod anthropic;
mod http;
pub mod openai;

use std::fmt;
use std::time::Duration;

pub use http::RetryPolicy;

use crate::chat::ChatProvider;

/// Which wire format the endpoint speaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ProviderKind {
    /// `POST {base}/chat/completions` with `tools` and `tool_calls`.
    OpenAi,
    /// `POST {base}/v1/messages` with `tool_use` / `tool_result` blocks.
    Anthropic,
}

impl std::str::FromStr for ProviderKind {
    type Err = ConfigError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "openai" => Ok(ProviderKind::OpenAi),
            "anthropic" => Ok(ProviderKind::Anthropic),
            _ => Err(ConfigError::UnknownProvider(s.to_owned())),
        }
    }
}

impl ProviderKind {
    /// The provider's name as `SIGHTLINE_PROVIDER` spells it.
    pub fn as_str(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "openai",
            ProviderKind::Anthropic => "anthropic",
        }
    }

    fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com",
        }
    }

    /// The vendor-specific key variable accepted after `SIGHTLINE_API_KEY`.
    fn key_variable(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "OPENAI_API_KEY",
            ProviderKind::Anthropic => "ANTHROPIC_API_KEY",
        }
    }
}

/// A credential. Its `Debug` and `Display` never show it; only the clients read it.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a credential.
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into())
    }

    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(<redacted>)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("<redacted>")
    }
}

/// Why no provider could be configured.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ConfigError {
    #[error(
        "no model configured: set SIGHTLINE_MODEL or pass --model (and SIGHTLINE_BASE_URL or \
         --base-url for an endpoint other than the provider's default)"
    )]
    /// No model name was given.
    NoModel,
    /// The provider name is not one this crate speaks.
    #[error("unknown provider `{0}` (expected openai or anthropic)")]
    UnknownProvider(String),
}

/// Values given on the command line; each wins over its environment variable.
#[derive(Clone, Debug, Default)]
pub struct ProviderOverrides {
    /// The wire format (`--provider`).
    pub kind: Option<ProviderKind>,
    /// The endpoint (`--base-url`).
    pub base_url: Option<String>,
    /// The model name (`--model`).
    pub model: Option<String>,
}

/// Everything a provider client needs to reach one model.
#[derive(Clone, Debug)]
pub struct ProviderConfig {
    /// The wire format.
    pub kind: ProviderKind,
    /// Without a trailing slash.
    pub base_url: String,
    /// The model name sent with each request.
    pub model: String,
    /// Sent as a bearer token (OpenAI-compatible) or `x-api-key` (Anthropic); local
    /// OpenAI-compatible servers may need none.
    pub api_key: Option<ApiKey>,
    /// Per HTTP attempt.
    pub timeout: Duration,
    /// How failed attempts are retried.
    pub retry: RetryPolicy,
}

impl ProviderConfig {
    /// A configuration with no key, a 60 s timeout and the default retries; trailing slashes of
    /// `base_url` is dropped.
    pub fn new(kind: ProviderKind, base_url: &str, model: &str) -> ProviderConfig {
        ProviderConfig {
            kind,
            base_url: base_url.trim_end_matches('/').to_owned(),
            model: model.to_owned(),
            api_key: None,
            timeout: Duration::from_secs(60),
            retry: RetryPolicy::default(),
        }
    }

    /// Reads `SIGHTLINE_PROVIDER`, `SIGHTLINE_BASE_URL`, `SIGHTLINE_MODEL` and
    /// `SIGHTLINE_API_KEY` (else `OPENAI_API_KEY` / `ANTHROPIC_API_KEY`), under `overrides`.
    pub fn from_env(overrides: &ProviderOverrides) -> Result<ProviderConfig, ConfigError> {
        ProviderConfig::resolve(overrides, &|name| {
            std::env::var(name).ok().filter(|v| !v.trim().is_empty())
        })
    }

    /// [`ProviderConfig::from_env`] over any variable lookup (tests pass a map).
    pub fn resolve(
        overrides: &ProviderOverrides,
        var: &dyn Fn(&str) -> Option<String>,
    ) -> Result<ProviderConfig, ConfigError> {
        let kind = match overrides.kind {
            Some(k) => k,
            None => var("SIGHTLINE_PROVIDER")
                .map(|s| s.parse())
                .transpose()?
                .unwrap_or(ProviderKind::OpenAi),
        };
        let model = overrides
            .model
            .clone()
            .or_else(|| var("SIGHTLINE_MODEL"))
            .ok_or(ConfigError::NoModel)?;
        let base_url = overrides
            .base_url
            .clone()
            .or_else(|| var("SIGHTLINE_BASE_URL"))
            .unwrap_or_else(|| kind.default_base_url().to_owned());
        let mut config = ProviderConfig::new(kind, &base_url, &model);
        config.api_key = var("SIGHTLINE_API_KEY")
            .or_else(|| var(kind.key_variable()))
            .map(ApiKey::new);
        Ok(config)
    }

    /// `kind model at base_url`, for traces and summaries.
    pub fn describe(&self) -> String {
        format!("{} {} at {}", self.kind.as_str(), self.model, self.base_url)
    }
}

/// The client for `config`'s wire format.
pub fn connect(config: ProviderConfig) -> Box<dyn ChatProvider + Send + Sync> {
    match config.kind {
        ProviderKind::OpenAi => Box::new(openai::OpenAiProvider::new(config)),
        ProviderKind::Anthropic => Box::new(anthropic::AnthropicProvider::new(config)),
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;

    fn resolve(
        vars: &[(&str, &str)],
        o: &ProviderOverrides,
    ) -> Result<ProviderConfig, ConfigError> {
        let map: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        ProviderConfig::resolve(o, &|k| map.get(k).cloned())
    }

    #[test]
    fn model_is_required() {
        let e = resolve(&[("SIGHTLINE_API_KEY", "k")], &ProviderOverrides::default());
        assert_eq!(e.unwrap_err(), ConfigError::NoModel);
    }

    #[test]
    fn flags_win_and_keys_fall_back_to_the_vendor_variable() {
        let vars = [
            ("SIGHTLINE_PROVIDER", "openai"),
            ("SIGHTLINE_MODEL", "m-env"),
            ("ANTHROPIC_API_KEY", "secret-a"),
            ("OPENAI_API_KEY", "secret-o"),
        ];
        let o = ProviderOverrides {
            kind: Some(ProviderKind::Anthropic),
            base_url: Some("http://127.0.0.1:9/".to_owned()),
            model: None,
        };
        let c = resolve(&vars, &o).unwrap();
        assert_eq!(c.kind, ProviderKind::Anthropic);
        assert_eq!(c.base_url, "http://127.0.0.1:9");
        assert_eq!(c.model, "m-env");
        assert_eq!(c.api_key.as_ref().map(ApiKey::expose), Some("secret-a"));
        let debug = format!("{c:?}");
        assert!(!debug.contains("secret"), "{debug}");
        assert!(!c.describe().contains("secret"));
    }

    #[test]
    fn sightline_key_comes_first_and_unknown_providers_are_errors() {
        let vars = [
            ("SIGHTLINE_MODEL", "m"),
            ("SIGHTLINE_API_KEY", "s1"),
            ("OPENAI_API_KEY", "s2"),
        ];
        let c = resolve(&vars, &ProviderOverrides::default()).unwrap();
        assert_eq!(c.kind, ProviderKind::OpenAi);
        assert_eq!(c.base_url, "https://api.openai.com/v1");
        assert_eq!(c.api_key.as_ref().map(ApiKey::expose), Some("s1"));
        let bad = resolve(
            &[("SIGHTLINE_PROVIDER", "other"), ("SIGHTLINE_MODEL", "m")],
            &ProviderOverrides::default(),
        );
        assert!(matches!(bad, Err(ConfigError::UnknownProvider(_))));
    }
}
