//! The MCP tools' argument types. The raw tools reuse the observe stage's argument types
//! unchanged (flattened), adding only the session they belong to, so a client's model sees
//! the same fields the value-model loop sees.
//!
//! Doc comments on these types become descriptions in the tools' input schemas, which the
//! client's model reads. Docs for Rust readers only carry `#[schemars(description = "")]`.

use schemars::JsonSchema;
use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer};
use serde_json::{Map, Value};
use sightline_observe::tools::explore_code::{ExploreArgs, MAX_FILES_CAP};
use sightline_observe::tools::grep::GrepArgs;
use sightline_observe::tools::list_files::ListFilesArgs;
use sightline_observe::tools::read_file::ReadFileArgs;
use sightline_registry::{Intent, Selection};

/// `explore`: one call, a validated report.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ExploreParams {
    /// What to find: identifiers, or a short description in the code's own vocabulary.
    pub query: String,
    /// What the report is for; edit and debug get exact ranges to read first.
    pub intent: Intent,
    /// Most files the first exploration looks at (default 8, 1..=8); a value model, when
    /// the server has one, sizes its own explorations.
    #[serde(default = "default_explore_files")]
    #[schemars(range(min = 1, max = MAX_FILES_CAP))]
    pub max_files: u32,
}

fn default_explore_files() -> u32 {
    MAX_FILES_CAP
}

/// A tool's arguments with unknown fields rejected, so a misspelt option fails loudly
/// instead of being ignored. serde cannot deny unknown fields on a struct that flattens
/// another, so the names are checked against the fields of `T`'s own schema (the schema
/// the client was shown).
#[derive(Debug)]
pub struct Strict<T>(pub T);

impl<'de, T: DeserializeOwned + JsonSchema> Deserialize<'de> for Strict<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Strict<T>, D::Error> {
        let fields = Map::<String, Value>::deserialize(deserializer)?;
        let schema = schemars::schema_for!(T);
        let known: Vec<&str> = schema
            .get("properties")
            .and_then(Value::as_object)
            .map(|properties| properties.keys().map(String::as_str).collect())
            .unwrap_or_default();
        if let Some(unknown) = fields.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(D::Error::custom(format!(
                "unknown field `{unknown}`, expected one of: {}",
                known.join(", ")
            )));
        }
        T::deserialize(Value::Object(fields))
            .map(Strict)
            .map_err(D::Error::custom)
    }
}

/// `explore_code` within a session (or starting one).
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ExploreCodeParams {
    /// The session this call belongs to; omit it to start a new one (then give `intent`).
    #[serde(default)]
    pub session: Option<String>,
    /// Only when starting a session: what its report is for.
    #[serde(default)]
    pub intent: Option<Intent>,
    /// The observe stage's own arguments, flattened.
    #[serde(flatten)]
    #[schemars(description = "")]
    pub args: ExploreArgs,
}

/// `grep` within a session.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct GrepParams {
    /// The session this call belongs to (from `explore_code`'s reply).
    pub session: String,
    /// The observe stage's own arguments, flattened.
    #[serde(flatten)]
    #[schemars(description = "")]
    pub args: GrepArgs,
}

/// `read_file` within a session.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ReadFileParams {
    /// The session this call belongs to (from `explore_code`'s reply).
    pub session: String,
    /// The observe stage's own arguments, flattened.
    #[serde(flatten)]
    #[schemars(description = "")]
    pub args: ReadFileArgs,
}

/// `list_files` within a session.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ListFilesParams {
    /// The session this call belongs to (from `explore_code`'s reply).
    pub session: String,
    /// The observe stage's own arguments, flattened.
    #[serde(flatten)]
    #[schemars(description = "")]
    pub args: ListFilesArgs,
}

/// `submit_report`: the session plus the selection's own fields at the top level, exactly
/// as the value-model loop's `submit_report` takes them. The selection is kept as JSON so
/// it is parsed by the same function as the loop's (errors name the offending field).
#[derive(Debug, Deserialize)]
pub struct SubmitParams {
    /// The session whose candidates the selection names.
    pub session: String,
    /// Validate and render only; the session stays open.
    #[serde(default)]
    pub preview: bool,
    /// The selection's fields, as submitted.
    #[serde(flatten)]
    pub selection: Map<String, Value>,
}

const PREVIEW_FIELD_DOC: &str = "true: validate and render without closing the session, to \
    see what would be dropped or lowered before the final submission (default false).";

const SESSION_FIELD_DOC: &str = "The session to close (from `explore_code`'s reply). It \
    stays open when the selection is rejected, so it can be fixed and submitted again.";

/// The input schema of `submit_report`: the selection's generated schema with the
/// `session` field added.
pub fn submit_schema() -> Map<String, Value> {
    let schema = schemars::schema_for!(Selection);
    let mut object = match serde_json::to_value(schema) {
        Ok(Value::Object(object)) => object,
        // The selection is a struct, so its schema is always an object; keep the server up
        // with a permissive schema if that ever changes.
        _ => Map::new(),
    };
    // Like rmcp's generated input schemas: the tool's description says what it is.
    object.remove("title");
    object.remove("description");
    object.insert("type".into(), Value::from("object"));
    let properties = object
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(properties) = properties {
        properties.insert(
            "session".into(),
            serde_json::json!({"type": "string", "description": SESSION_FIELD_DOC}),
        );
        properties.insert(
            "preview".into(),
            serde_json::json!({"type": "boolean", "description": PREVIEW_FIELD_DOC}),
        );
    }
    let required = object
        .entry("required")
        .or_insert_with(|| Value::Array(Vec::new()));
    if let Value::Array(required) = required {
        required.insert(0, Value::from("session"));
    }
    object
}
