//! An explore session: tool calls run against the index, are recorded in order in the salsa
//! `Session` input, and come back as text with candidate IDs inline. A submitted selection
//! is validated against the session's registry and rendered. The loop (`crate::agent`) and
//! the MCP server share this; neither touches the registry any other way.

use std::sync::Arc;

use salsa::Setter as _;
use serde::Serialize;
use sightline_observe::escape::inline;
use sightline_observe::paths::{PathError, RepoRoot};
use sightline_observe::tools::ToolError;
use sightline_observe::tools::explore_code::{self, ExploreArgs};
use sightline_observe::tools::grep::{self, GrepArgs};
use sightline_observe::tools::list_files::{self, ListFilesArgs};
use sightline_observe::tools::nav::Target;
use sightline_observe::tools::nav::definition::{self, DefinitionArgs};
use sightline_observe::tools::nav::outline::{self, OutlineArgs};
use sightline_observe::tools::nav::references::{self, ReferencesArgs};
use sightline_observe::tools::near_paths::near_paths;
use sightline_observe::tools::read_file::{self, ReadFileArgs};
use sightline_observe::{Index, LineRange};
use sightline_rank::chain_flow::{traced_chain, with_chain};
use sightline_registry::annotate::{label, render_observation};
use sightline_registry::{
    CandidateId, Intent, Observation, RecordedCall, Registry, RegistryDatabase, Selection, Session,
    ToolCall, session_registry,
};
use sightline_render::{Report, render_report};
use sightline_validate::{Budget, SelectionError, Validated, parse_selection, validate_on_disk};

/// The tool names a session accepts, as a model sees them.
pub const TOOL_NAMES: [&str; 8] = [
    "explore_code",
    "grep",
    "read_file",
    "list_files",
    "definition",
    "references",
    "outline",
    "submit_report",
];

/// Why a session could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum SessionError {
    /// The index root cannot be opened for the tools.
    #[error("the index root cannot be opened for tools: {0}")]
    Root(#[from] sightline_observe::paths::PathError),
}

/// What one tool call produced.
#[derive(Clone, Debug, Serialize)]
pub struct CallOutcome {
    /// The tool's name as the model called it.
    pub tool: String,
    /// The text for the model, candidate IDs inline, cut to the per-observation cap.
    pub text: String,
    /// Characters of the full (uncut) rendering.
    pub full_chars: usize,
    /// Whether `text` was cut at the cap.
    pub cut: bool,
    /// Candidates this call created (not ones it merely saw again).
    pub new_ids: Vec<CandidateId>,
    /// The call failed (bad arguments, unknown tool, path outside the root); `text` says why.
    pub is_error: bool,
    /// The typed observation recorded in the session.
    #[serde(skip)]
    pub observation: Observation,
}

/// A validated, rendered report.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The validation outcome: what survived and every change.
    pub validated: Validated,
    /// The rendered report.
    pub report: Report,
}

/// One explore session over an index: tool calls recorded as salsa inputs, their results
/// shown with candidate IDs inline, and a submission validated and rendered against them.
pub struct ExploreSession {
    session: Session,
    root: RepoRoot,
    query: String,
    intent: Intent,
    /// Per-observation character cap for the text a model sees.
    pub observation_cap: usize,
    /// Character budget of the rendered report.
    pub report_budget: usize,
    /// The rank model's weights: they order `explore_code`'s files and the packet. The
    /// checked-in fit unless a measurement (eval's leave-one-repository-out run) sets others.
    pub weights: sightline_rank::Weights,
}

/// Default cap on one observation's text (the full observation is still recorded).
pub const DEFAULT_OBSERVATION_CAP: usize = 16_000;

impl ExploreSession {
    /// Opens a session; close it with [`ExploreSession::close`] when done, so a
    /// long-running process reuses its storage instead of growing.
    pub fn new(
        index: &mut Index<RegistryDatabase>,
        query: &str,
        intent: Intent,
    ) -> Result<ExploreSession, SessionError> {
        let root = RepoRoot::new(index.root())?
            .with_languages(sightline_observe::Db::languages(index.db()));
        let ws = index.workspace();
        let session = index.db_mut().open_session(ws, query.to_owned(), intent);
        Ok(ExploreSession {
            session,
            root,
            query: query.to_owned(),
            intent,
            observation_cap: DEFAULT_OBSERVATION_CAP,
            report_budget: sightline_render::DEFAULT_BUDGET_CHARS,
            weights: *sightline_rank::Weights::fitted(),
        })
    }

    /// Releases everything the session recorded (calls, observations, registry).
    pub fn close(self, index: &mut Index<RegistryDatabase>) {
        index.db_mut().close_session(self.session);
    }

    /// The question the session explores.
    pub fn query(&self) -> &str {
        &self.query
    }

    /// What the caller will do with the answer.
    pub fn intent(&self) -> Intent {
        self.intent
    }

    /// Changes what the caller will do with the answer (a session started by a plain
    /// tool call is `locate` until its submission says otherwise): the deterministic
    /// selection and the validation of a submission follow it.
    pub fn set_intent(&mut self, index: &mut Index<RegistryDatabase>, intent: Intent) {
        if intent != self.intent {
            self.intent = intent;
            self.session.set_intent(index.db_mut()).to(intent);
        }
    }

    /// How many tool calls the session has recorded.
    pub fn calls(&self, index: &Index<RegistryDatabase>) -> usize {
        self.session.calls(index.db()).len()
    }

    /// Runs a tool named by a model with JSON arguments. Unknown tools and malformed
    /// arguments become error outcomes the model can correct, never panics.
    pub fn call_json(
        &self,
        index: &mut Index<RegistryDatabase>,
        tool: &str,
        args: &serde_json::Value,
    ) -> CallOutcome {
        match parse_call(tool, args) {
            Ok(call) => self.call(index, call),
            Err(message) => error_outcome(tool, message),
        }
    }

    /// Runs one typed tool call and records it. A navigation call naming a candidate ID
    /// (`"name": "c7"`) looks the declaration up at that candidate's place.
    pub fn call(&self, index: &mut Index<RegistryDatabase>, call: ToolCall) -> CallOutcome {
        let tool = call.name().as_str().to_owned();
        let call = match self.resolve_ids(index, call) {
            Ok(call) => call,
            Err(message) => return error_outcome(&tool, message),
        };
        let before = session_registry(index.db(), self.session).len();
        let observation = self.record(index, call);
        let is_error = matches!(observation, Observation::Error(_));
        let registry = session_registry(index.db(), self.session);
        let new_ids: Vec<CandidateId> = registry.iter().skip(before).map(|c| c.id).collect();
        let full = render_observation(&observation, &registry);
        let (mut text, cut) = cap_text(&full, self.observation_cap);
        if cut {
            text.push_str(&unshown_candidates(&text, &new_ids, &registry));
        }
        CallOutcome {
            tool,
            full_chars: full.len(),
            text,
            cut,
            new_ids,
            is_error,
            observation,
        }
    }

    /// Runs one typed tool call and records it, without rendering its text: what a
    /// session nobody reads the tool output of (the deterministic explore) needs.
    pub fn record(&self, index: &mut Index<RegistryDatabase>, call: ToolCall) -> Observation {
        let observation = match &call {
            ToolCall::ExploreCode(a) => {
                // The rank model orders the tool's files, as it orders the packet.
                let weights = self.weights.search();
                explore_code::run_weighted(index.db(), index.workspace(), a, &weights)
                    .map(Observation::ExploreCode)
            }
            ToolCall::Grep(a) => grep::run(&self.root, a).map(Observation::Grep),
            ToolCall::ReadFile(a) => read_file::run(&self.root, a).map(Observation::ReadFile),
            ToolCall::ListFiles(a) => list_files::run(&self.root, a).map(Observation::ListFiles),
            ToolCall::Definition(a) => {
                definition::run(index.db(), index.workspace(), a).map(Observation::Definition)
            }
            ToolCall::References(a) => {
                references::run(index.db(), index.workspace(), a).map(Observation::References)
            }
            ToolCall::Outline(a) => {
                outline::run(index.db(), index.workspace(), a).map(Observation::Outline)
            }
        }
        .unwrap_or_else(|e| Observation::Error(error_text(index, &e)));
        let mut calls = self.session.calls(index.db()).clone();
        calls.push(RecordedCall {
            call,
            observation: observation.clone(),
        });
        self.session.set_calls(index.db_mut()).to(calls);
        observation
    }

    /// `call` with a candidate ID in a navigation target replaced by the place it stands
    /// for: its path and its first symbol's line and qualified name (or, for a line hit
    /// outside any short declaration, its first line, naming the innermost declaration).
    fn resolve_ids(
        &self,
        index: &Index<RegistryDatabase>,
        call: ToolCall,
    ) -> Result<ToolCall, String> {
        let resolve = |target: Target| -> Result<Target, String> {
            let Ok(id) = target.name.trim().parse::<CandidateId>() else {
                return Ok(target);
            };
            let registry = self.registry(index);
            let c = registry.get(id).ok_or_else(|| {
                format!("{id} was not shown in this session; give a name or an ID a tool showed")
            })?;
            let Some(range) = c.range else {
                return Err(format!("{id} is a whole file; outline its path instead"));
            };
            Ok(match c.symbols.first() {
                Some(s) => Target {
                    name: s.qualified.clone(),
                    path: Some(c.path.clone()),
                    line: Some(s.line),
                },
                None => Target {
                    name: String::new(),
                    path: Some(c.path.clone()),
                    line: Some(range.start),
                },
            })
        };
        Ok(match call {
            ToolCall::Definition(mut a) => {
                a.target = resolve(a.target)?;
                ToolCall::Definition(a)
            }
            ToolCall::References(mut a) => {
                a.target = resolve(a.target)?;
                ToolCall::References(a)
            }
            other => other,
        })
    }

    /// The registry of every candidate the session's calls showed (derived by salsa).
    pub fn registry(&self, index: &Index<RegistryDatabase>) -> Arc<Registry> {
        session_registry(index.db(), self.session)
    }

    /// The deterministic selection over everything observed so far.
    pub fn fallback_selection(&self, index: &Index<RegistryDatabase>) -> Selection {
        self.ranked(index).selection.clone()
    }

    /// The session's registry ranked by the session's weights: the packet and the
    /// deterministic selection.
    /// Derived by salsa: asked again over unchanged calls and tree, it is a lookup.
    pub fn ranked(&self, index: &Index<RegistryDatabase>) -> Arc<sightline_rank::ExploreRun> {
        sightline_rank::ranked(index.db(), self.session, &self.weights)
    }

    /// Validates and renders a selection (falling back to the deterministic selection when
    /// nothing survives).
    pub fn submit(&self, index: &Index<RegistryDatabase>, selection: &Selection) -> Finished {
        self.submit_ranked(selection, &self.ranked(index))
    }

    /// [`ExploreSession::submit`] against an already ranked session.
    fn submit_ranked(&self, selection: &Selection, run: &sightline_rank::ExploreRun) -> Finished {
        self.submit_against(selection, &run.selection, &run.registry)
    }

    /// Validates and renders `selection` with `fallback` as the deterministic selection
    /// (what replaces it when nothing survives, and whose level caps any other).
    fn submit_against(
        &self,
        selection: &Selection,
        fallback: &Selection,
        registry: &Registry,
    ) -> Finished {
        // Cited files are read again: one deleted or changed since a tool showed it must
        // not be cited on the strength of the old observation.
        let read_now = |path: &str| {
            let file = self.root.resolve(path).ok()?;
            std::fs::read_to_string(file.abs()).ok()
        };
        let validated = validate_on_disk(
            selection,
            registry,
            self.intent,
            fallback,
            &Budget::default(),
            &read_now,
        );
        let report = render_report(&validated, registry, self.report_budget);
        Finished { validated, report }
    }

    /// Parses a `submit_report` argument (the error names the field) and submits it.
    pub fn submit_json(
        &self,
        index: &Index<RegistryDatabase>,
        json: &str,
    ) -> Result<Finished, SelectionError> {
        let selection = parse_selection(json)?;
        Ok(self.submit(index, &selection))
    }

    /// The deterministic selection with the chain the session traced last as its answer
    /// ([`sightline_rank::chain_flow::with_chain`], which only lowers the ranking's level),
    /// validated and rendered as the deterministic selection it is: what the
    /// deterministic explore reports once it has traced a chain. Without such a chain, as
    /// [`ExploreSession::finish_deterministic`].
    pub fn finish_traced(&self, index: &Index<RegistryDatabase>) -> Finished {
        let run = self.ranked(index);
        let calls = self.session.calls(index.db());
        let Some(traced) = traced_chain(calls) else {
            return self.submit_ranked(&run.selection, &run);
        };
        let selection = with_chain(run.selection.clone(), traced, &run.registry);
        self.submit_against(&selection, &selection, &run.registry)
    }

    /// The deterministic selection, validated and rendered: what a session without a model
    /// (or whose model never submitted) reports.
    pub fn finish_deterministic(&self, index: &Index<RegistryDatabase>) -> Finished {
        // Ranked once: the fallback selection is judged against the same packet.
        let run = self.ranked(index);
        self.submit_ranked(&run.selection, &run)
    }
}

/// Maps a model's tool name and JSON arguments to a typed call.
pub fn parse_call(tool: &str, args: &serde_json::Value) -> Result<ToolCall, String> {
    fn parse<T: serde::de::DeserializeOwned>(
        tool: &str,
        args: &serde_json::Value,
    ) -> Result<T, String> {
        serde_json::from_value(args.clone())
            .map_err(|e| format!("invalid arguments for {tool}: {e}"))
    }
    match tool {
        "explore_code" => parse::<ExploreArgs>(tool, args).map(ToolCall::ExploreCode),
        "grep" => parse::<GrepArgs>(tool, args).map(ToolCall::Grep),
        "read_file" => parse::<ReadFileArgs>(tool, args).map(ToolCall::ReadFile),
        "list_files" => parse::<ListFilesArgs>(tool, args).map(ToolCall::ListFiles),
        "definition" => parse::<DefinitionArgs>(tool, args).map(ToolCall::Definition),
        "references" => parse::<ReferencesArgs>(tool, args).map(ToolCall::References),
        "outline" => parse::<OutlineArgs>(tool, args).map(ToolCall::Outline),
        other => Err(format!(
            "unknown tool `{other}`; the tools are {}",
            TOOL_NAMES.join(", ")
        )),
    }
}

fn error_outcome(tool: &str, message: String) -> CallOutcome {
    CallOutcome {
        tool: tool.to_owned(),
        full_chars: message.len(),
        text: format!("error: {message}\n"),
        cut: false,
        new_ids: Vec::new(),
        is_error: true,
        observation: Observation::Error(message),
    }
}

/// The candidates a cut text no longer shows, listed so every allocated ID stays visible
/// and selectable (`cut, not shown: src/a.ts [c40 10-50], …`).
fn unshown_candidates(text: &str, ids: &[CandidateId], registry: &Registry) -> String {
    let unshown: Vec<String> = ids
        .iter()
        .filter_map(|id| registry.get(*id))
        .filter(|c| !text.contains(&label(c)))
        .map(|c| format!("{} {}", inline(&c.path), label(c)))
        .collect();
    if unshown.is_empty() {
        return String::new();
    }
    format!("cut, not shown: {}\n", unshown.join(", "))
}

/// Cuts text at a line boundary within `cap` characters, saying so.
fn cap_text(text: &str, cap: usize) -> (String, bool) {
    if text.len() <= cap {
        return (text.to_owned(), false);
    }
    let mut end = 0;
    for (i, _) in text.match_indices('\n') {
        if i + 1 > cap {
            break;
        }
        end = i + 1;
    }
    let mut out = text[..end].to_owned();
    out.push_str("… (cut at the observation cap; narrow the call to see the rest)\n");
    (out, true)
}

/// A range as `start-end`, for messages.
pub fn range_text(r: Option<LineRange>) -> String {
    r.map_or_else(String::new, |r| format!("{}-{}", r.start, r.end))
}

/// A tool's error as the model reads it; a path that does not exist also names the
/// indexed paths nearest it.
fn error_text(index: &Index<RegistryDatabase>, e: &ToolError) -> String {
    let ToolError::Path(PathError::NotFound { input }) = e else {
        return e.to_string();
    };
    let near = near_paths(index.db(), index.workspace(), input, NEAR_PATHS);
    if near.is_empty() {
        return e.to_string();
    }
    let near: Vec<String> = near.iter().map(|p| format!("`{p}`")).collect();
    format!("{e}; nearest: {}", near.join(", "))
}

/// Most paths a missing path's error names.
const NEAR_PATHS: usize = 3;
