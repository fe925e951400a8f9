//! The MCP tools' argument types: what a client's model may pass, each turned into the
//! observe stage's typed call ([`ToolArgs::into_call`]). They are the server's own, not
//! the observe argument types flattened, so the schemas a client loads into every session
//! carry only what a model needs to pass (the library's sizing options stay in the
//! library), and each field is described at most once across the tools.
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
use sightline_observe::tools::nav::Target;
use sightline_observe::tools::nav::callee_tree;
use sightline_observe::tools::nav::definition::DefinitionArgs;
use sightline_observe::tools::nav::outline::OutlineArgs;
use sightline_observe::tools::nav::references::ReferencesArgs;
use sightline_observe::tools::read_file::ReadFileArgs;
use sightline_registry::{Intent, Selection, ToolCall};

/// `explore`: one call, a validated report.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ExploreParams {
    /// Identifiers, or a short description in the code's own words.
    pub query: String,
    /// What the report is for (default locate); edit and debug add ranges to read.
    #[serde(default)]
    pub intent: Option<Intent>,
    /// Most files the first exploration looks at; a value model sizes its own. (The name
    /// says enough to a model.)
    #[schemars(description = "")]
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

/// The arguments of a tool that runs in a session: the session they belong to (none: a
/// new one) and the typed call they make.
pub trait ToolArgs {
    /// The session named, if any.
    fn session(&self) -> Option<&str>;
    /// The typed call.
    fn into_call(self) -> ToolCall;
}

/// `explore_code`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ExploreCodeParams {
    /// Identifiers, or a few words in the code's own vocabulary.
    pub query: String,
    /// Calls of one session share candidate IDs; omit it to start a session.
    #[serde(default)]
    pub session: Option<String>,
    /// Also rank tests, examples and generated files.
    #[serde(default)]
    pub include_tests: bool,
}

impl ToolArgs for ExploreCodeParams {
    fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }
    fn into_call(self) -> ToolCall {
        ToolCall::ExploreCode(ExploreArgs {
            include_tests: self.include_tests,
            ..ExploreArgs::new(self.query)
        })
    }
}

/// `grep`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct GrepParams {
    /// Literal text; a Rust regex with `regex: true`.
    pub pattern: String,
    /// Read `pattern` as a regex (the field says so; no description).
    #[serde(default)]
    #[schemars(description = "")]
    pub regex: bool,
    /// Default: ignore case unless the pattern has a capital.
    #[serde(default)]
    pub case_sensitive: Option<bool>,
    /// A file or directory to search in.
    #[serde(default)]
    pub path: Option<String>,
    /// Only files matching it: `*.ts`, `src/**/*.py`, `*.{js,ts}`; several globs
    /// space-separated, `!` excludes: `*.ts !**/test/**`.
    #[serde(default)]
    pub glob: Option<String>,
    /// Lines shown around each match.
    #[serde(default)]
    pub context: u32,
    /// true: each matching file once with its count of matching lines, no lines.
    #[serde(default)]
    pub files_only: bool,
    /// Print folded files' lines.
    #[serde(default)]
    pub secondary: bool,
    /// Its default is in the schema.
    #[serde(default = "default_max_matches")]
    #[schemars(description = "")]
    pub max_matches: usize,
    /// The session (described once, on `explore_code`).
    #[serde(default)]
    #[schemars(description = "")]
    pub session: Option<String>,
}

fn default_max_matches() -> usize {
    GrepArgs::new("").max_matches
}

impl ToolArgs for GrepParams {
    fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }
    fn into_call(self) -> ToolCall {
        ToolCall::Grep(GrepArgs {
            pattern: self.pattern,
            regex: self.regex,
            case_sensitive: self.case_sensitive,
            path: self.path,
            glob: self.glob,
            max_matches: self.max_matches,
            context: self.context,
            files_only: self.files_only,
            secondary: self.secondary,
        })
    }
}

/// `read_file`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ReadFileParams {
    /// Repository-relative; several, each `file` or `file:12-40`, space-separated, are read in one call.
    pub path: String,
    /// Default 1.
    #[serde(default)]
    pub start_line: Option<u32>,
    /// Inclusive; default: 200 lines on.
    #[serde(default)]
    pub end_line: Option<u32>,
    /// The session (described once, on `explore_code`).
    #[serde(default)]
    #[schemars(description = "")]
    pub session: Option<String>,
}

impl ToolArgs for ReadFileParams {
    fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }
    fn into_call(self) -> ToolCall {
        ToolCall::ReadFile(ReadFileArgs {
            start_line: self.start_line,
            end_line: self.end_line,
            ..ReadFileArgs::new(self.path)
        })
    }
}

/// `list_files`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ListFilesParams {
    /// A directory; the repository root when absent.
    #[serde(default)]
    pub path: Option<String>,
    /// Only files whose path or name matches (space-separated globs, `!` excludes).
    #[serde(default)]
    pub glob: Option<String>,
    /// Levels below `path` (default 2).
    #[serde(default)]
    pub depth: Option<u32>,
    /// The session (described once, on `explore_code`).
    #[serde(default)]
    #[schemars(description = "")]
    pub session: Option<String>,
}

impl ToolArgs for ListFilesParams {
    fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }
    fn into_call(self) -> ToolCall {
        ToolCall::ListFiles(ListFilesArgs {
            path: self.path,
            depth: self.depth,
            glob: self.glob,
            ..ListFilesArgs::default()
        })
    }
}

/// `definition`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct DefinitionParams {
    /// A name (save), a qualified name (Store.save) or a candidate ID (c7).
    pub name: String,
    /// Only declarations under this file or directory.
    #[serde(default)]
    pub path: Option<String>,
    /// Also the body, line-numbered (first 3 hits, 120 lines each).
    #[serde(default)]
    pub body: bool,
    /// The session (described once, on `explore_code`).
    #[serde(default)]
    #[schemars(description = "")]
    pub session: Option<String>,
}

impl ToolArgs for DefinitionParams {
    fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }
    fn into_call(self) -> ToolCall {
        ToolCall::Definition(DefinitionArgs {
            target: Target {
                name: self.name,
                path: self.path,
                line: None,
            },
            body: self.body,
        })
    }
}

/// `references`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct ReferencesParams {
    /// As for definition.
    pub name: String,
    /// As for definition (described once, there).
    #[serde(default)]
    #[schemars(description = "")]
    pub path: Option<String>,
    /// true: what it calls and uses instead.
    #[serde(default)]
    pub callees: bool,
    /// A name: the shortest chain of calls and uses leading there, a line per step.
    #[serde(default)]
    pub to: Option<String>,
    /// Its default is in the schema.
    #[serde(default = "default_max_results")]
    #[schemars(description = "")]
    pub max_results: usize,
    /// The session (described once, on `explore_code`).
    #[serde(default)]
    #[schemars(description = "")]
    pub session: Option<String>,
}

fn default_max_results() -> usize {
    ReferencesArgs::new("").max_results
}

impl ToolArgs for ReferencesParams {
    fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }
    fn into_call(self) -> ToolCall {
        ToolCall::References(ReferencesArgs {
            target: Target {
                name: self.name,
                path: self.path,
                line: None,
            },
            callees: self.callees,
            max_results: self.max_results,
            depth: callee_tree::DEFAULT_CALLEE_DEPTH,
            to: self.to,
        })
    }
}

/// `outline`.
#[derive(Debug, Deserialize, JsonSchema)]
#[schemars(description = "")]
pub struct OutlineParams {
    /// A file, or a directory (each file's top-level declarations); default: the root.
    #[serde(default)]
    pub path: Option<String>,
    /// Its default is in the schema.
    #[serde(default = "default_max_entries")]
    #[schemars(description = "")]
    pub max_entries: usize,
    /// The session (described once, on `explore_code`).
    #[serde(default)]
    #[schemars(description = "")]
    pub session: Option<String>,
}

fn default_max_entries() -> usize {
    OutlineArgs::new("").max_entries
}

impl ToolArgs for OutlineParams {
    fn session(&self) -> Option<&str> {
        self.session.as_deref()
    }
    fn into_call(self) -> ToolCall {
        ToolCall::Outline(OutlineArgs {
            path: self.path,
            max_entries: self.max_entries,
        })
    }
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
    /// What the report is for, when not the session's default (locate).
    #[serde(default)]
    pub intent: Option<Intent>,
    /// The selection's fields, as submitted.
    #[serde(flatten)]
    pub selection: Map<String, Value>,
}

const PREVIEW_FIELD_DOC: &str = "true: check and render, keeping the session open to submit again.";

const INTENT_FIELD_DOC: &str = "What the report is for (default locate); edit and debug need \
    read targets.";

/// The input schema of `submit_report`: the selection's generated schema with the
/// `session`, `intent` and `preview` fields added.
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
    let intents: Vec<Value> = [Intent::Explain, Intent::Locate, Intent::Edit, Intent::Debug]
        .iter()
        .map(|i| Value::from(i.as_str()))
        .collect();
    let properties = object
        .entry("properties")
        .or_insert_with(|| Value::Object(Map::new()));
    if let Value::Object(properties) = properties {
        properties.insert("session".into(), serde_json::json!({"type": "string"}));
        properties.insert(
            "intent".into(),
            serde_json::json!({"type": "string", "enum": intents, "description": INTENT_FIELD_DOC}),
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
