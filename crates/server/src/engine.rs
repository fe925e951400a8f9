//! The server's state and the synchronous body of every tool: the index (brought up to
//! date before each call, by a file watcher's changes or a walk of the tree, so no reply
//! cites a file state older than the call) and the open sessions. The salsa database is
//! not `Sync`, so the async handlers run these under one lock.

use std::fmt::Write as _;

use sightline_agent::{Budgets, CallOutcome, ChatProvider, ExploreSession};
use sightline_observe::Index;
use sightline_observe::paths::RepoRoot;
use sightline_observe::watch::{Freshness, Signal};
use sightline_registry::{CandidateId, Intent, Registry, RegistryDatabase, ToolCall};
use sightline_validate::Validated;

use crate::error::CallError;
use crate::output::{CallOut, CandidateOut, ReportOut};
use crate::params::{ExploreParams, SubmitParams};
use crate::sessions::Sessions;
use crate::value_model::{self, Judge, ValueModel};

/// A successful tool reply: text for a model, structured content for programs.
#[derive(Debug)]
pub struct Reply<T> {
    /// The text content, exactly what a model reads.
    pub text: String,
    /// What validation removed or lowered, as a separate block so the report text stays
    /// exactly the rendered report.
    pub validation: Option<String>,
    /// The same result, typed, for `structuredContent`.
    pub structured: T,
}

/// The server's state over one indexed repository: the index, the open raw-tool sessions
/// and the optional value model. Every tool call goes through it.
pub struct Engine {
    index: Index<RegistryDatabase>,
    sessions: Sessions,
    /// Used by `explore` only; raw-tool sessions are judged by the client's own model.
    value_model: Option<ValueModel>,
    /// How the index learns what changed on disk.
    freshness: Freshness,
    /// The index's root, resolved once: `read_file` splits a listing of several reads
    /// against it. `None` when the root was unusable, which each read then reports.
    root: Option<RepoRoot>,
}

impl Engine {
    /// An engine over `index`, selecting deterministically until given a value model,
    /// and walking the tree before each call until given a watcher.
    pub fn new(index: Index<RegistryDatabase>) -> Engine {
        let root = RepoRoot::new(index.root()).ok();
        Engine {
            root,
            index,
            sessions: Sessions::default(),
            value_model: None,
            freshness: Freshness::walk(),
        }
    }

    /// Brings the index up to date with `freshness` (a watcher of the index's root, whose
    /// directory observer the index was opened with) instead of a walk per call.
    pub fn with_freshness(mut self, freshness: Freshness) -> Engine {
        self.freshness = freshness;
        self
    }

    /// Whether a file watcher tells the index what changed (so a call with nothing
    /// changed does no walk).
    pub fn is_watching(&self) -> bool {
        self.freshness.is_watching()
    }

    /// What a background refresh waits on while a watcher runs.
    pub(crate) fn change_signal(&self) -> Option<std::sync::Arc<Signal>> {
        self.is_watching().then(|| self.freshness.signal())
    }

    /// Lets `explore` select with `model` instead of deterministically.
    pub fn with_value_model(mut self, model: ValueModel) -> Engine {
        self.value_model = Some(model);
        self
    }

    /// The index the engine answers from (its report holds the last refresh's timings).
    pub fn index(&self) -> &Index<RegistryDatabase> {
        &self.index
    }

    /// The index's root as resolved when the engine was made.
    pub(crate) fn root(&self) -> Option<&RepoRoot> {
        self.root.as_ref()
    }

    /// How many raw-tool sessions are open (bounded by [`crate::MAX_OPEN_SESSIONS`]).
    pub fn open_sessions(&self) -> usize {
        self.sessions.count()
    }

    /// Brings the index up to date with the files on disk: every change completed before
    /// this call is in the index when it returns. Only changed files are re-read; with a
    /// watcher and nothing changed, nothing is stat'ed. Every call does this first; a
    /// background refresh may do it between calls.
    pub fn refresh(&mut self) {
        let report = self.freshness.refresh(&mut self.index);
        if let Some(notice) = self.freshness.take_notice() {
            eprintln!("{notice}");
        }
        if !report.is_empty() {
            eprintln!(
                "refreshed the index: {} changed, {} added, {} removed",
                report.changed.len(),
                report.added.len(),
                report.removed.len()
            );
        }
    }

    fn start(&mut self, query: &str, intent: Intent) -> Result<ExploreSession, CallError> {
        ExploreSession::new(&mut self.index, query, intent)
            .map_err(|e| CallError::Root(e.to_string()))
    }

    /// Keeps a session open under a new id; the oldest ones it evicts are closed.
    fn keep(&mut self, session: ExploreSession) -> String {
        let (id, evicted) = self.sessions.insert(session);
        for old in evicted {
            old.close(&mut self.index);
        }
        id
    }

    /// Session inputs the index ever allocated: stays at most the open-session limit plus
    /// one however many calls the server answers.
    pub fn sessions_allocated(&self) -> usize {
        self.index.db().sessions_created()
    }

    /// `explore`: a fresh session explored and finished by [`value_model::explore`]. The
    /// session is not kept.
    pub fn explore(&mut self, params: &ExploreParams) -> Result<Reply<ReportOut>, CallError> {
        self.explore_judged_by(params, None)
    }

    /// [`Engine::explore`], judged by `client_model` (the client's own model, through
    /// sampling) when the server has no value model of its own.
    pub fn explore_judged_by(
        &mut self,
        params: &ExploreParams,
        client_model: Option<&dyn ChatProvider>,
    ) -> Result<Reply<ReportOut>, CallError> {
        self.refresh();
        let mut session = self.start(&params.query, params.intent.unwrap_or(Intent::Locate))?;
        let budgets = Budgets::default();
        let judge = self
            .value_model
            .as_ref()
            .map(ValueModel::judge)
            .or(client_model.map(|provider| Judge {
                provider,
                budgets: &budgets,
            }));
        let finished = value_model::explore(&mut self.index, &mut session, params.max_files, judge);
        session.close(&mut self.index);
        let finished = finished?;
        // The typed fields carry the machine block: the text need not repeat it.
        let text = finished.report.prose().to_owned();
        Ok(Reply {
            structured: ReportOut::new(finished.report.json, text.clone(), None),
            text,
            validation: None,
        })
    }

    /// Any session tool (`explore_code`, `grep`, `read_file`, `list_files`, `definition`,
    /// `references`, `outline`): in the named session, or, when none is named, in a new
    /// one (intent `locate` until `submit_report` says otherwise) whose query is what the
    /// call asked. A new session whose first call failed is not kept.
    pub fn call(
        &mut self,
        session: Option<&str>,
        call: ToolCall,
    ) -> Result<Reply<CallOut>, CallError> {
        if let ToolCall::ReadFile(args) = &call
            && let Some(reads) = self.several_reads(args)
        {
            return self.call_reads(session, reads?);
        }
        // An ID means something only in the session that showed it: a call naming one
        // without a session continues the latest session, and its reply names it, rather
        // than starting one in which no ID was shown yet (agents that never pass `session`
        // cited IDs anyway and got "c3 was not shown in this session").
        let routed = match session {
            None if names_an_id(&call) => self.sessions.latest(),
            _ => None,
        };
        if let Some(id) = routed {
            let mut reply = self.call(Some(&id), call)?;
            reply.text.insert_str(0, &format!("session {id}\n"));
            return Ok(reply);
        }
        let Some(id) = session else {
            self.refresh();
            let session = self.start(&query_of(&call), Intent::Locate)?;
            let outcome = match ok_outcome(session.call(&mut self.index, call)) {
                Ok(outcome) => outcome,
                Err(e) => {
                    session.close(&mut self.index);
                    return Err(e);
                }
            };
            let registry = session.registry(&self.index);
            let id = self.keep(session);
            // Only the id: the server's instructions already say what a session is and
            // that a new one is named on its reply's first line.
            let header = format!("session {id}\n");
            return Ok(reply(&id, header, outcome, &registry));
        };
        // Checked before the refresh so a bad id costs nothing.
        self.sessions.get(id)?;
        self.refresh();
        let session = self.sessions.get(id)?;
        let outcome = ok_outcome(session.call(&mut self.index, call))?;
        let registry = session.registry(&self.index);
        // The caller named the session: repeating it would cost every call a line.
        Ok(reply(id, String::new(), outcome, &registry))
    }

    /// `submit_report`: validates and renders like the value-model loop's submission. A
    /// selection that does not parse leaves the session open; an accepted one closes it,
    /// unless it is a `preview`.
    pub fn submit(&mut self, params: SubmitParams) -> Result<Reply<ReportOut>, CallError> {
        if let Some(intent) = params.intent {
            let session = self.sessions.get_mut(&params.session)?;
            session.set_intent(&mut self.index, intent);
        }
        let session = self.sessions.get(&params.session)?;
        let json = serde_json::Value::Object(params.selection).to_string();
        let finished = session.submit_json(&self.index, &json)?;
        let mut validation = validation_note(&finished.validated);
        if params.preview {
            let kept = format!(
                "preview: the session {} stays open; submit again without preview to close it\n",
                params.session
            );
            validation = Some(
                kept + validation
                    .as_deref()
                    .unwrap_or("validation: nothing dropped or lowered\n"),
            );
        } else {
            self.sessions
                .remove(&params.session)?
                .close(&mut self.index);
        }
        let text = finished.report.prose().to_owned();
        Ok(Reply {
            structured: ReportOut::new(finished.report.json, text.clone(), validation.clone()),
            text,
            validation,
        })
    }
}

/// What a session started by `call` is about: the words the call searched or looked up.
fn query_of(call: &ToolCall) -> String {
    match call {
        ToolCall::ExploreCode(a) => a.query.clone(),
        ToolCall::Grep(a) => a.pattern.clone(),
        ToolCall::ReadFile(a) => a.path.clone(),
        ToolCall::ListFiles(a) => a.path.clone().unwrap_or_default(),
        ToolCall::Definition(a) => a.target.name.clone(),
        ToolCall::References(a) => a.target.name.clone(),
        ToolCall::Outline(a) => a.path.clone().unwrap_or_default(),
    }
}

fn reply(id: &str, header: String, outcome: CallOutcome, registry: &Registry) -> Reply<CallOut> {
    let text = header + &outcome.text;
    Reply {
        validation: None,
        structured: CallOut {
            text: text.clone(),
            session: id.to_owned(),
            tool: outcome.tool,
            new_candidates: CandidateOut::lookup(registry, &outcome.new_ids),
            cut: outcome.cut,
        },
        text,
    }
}

fn ok_outcome(outcome: CallOutcome) -> Result<CallOutcome, CallError> {
    if outcome.is_error {
        Err(CallError::Tool(outcome.text.trim_end().to_owned()))
    } else {
        Ok(outcome)
    }
}

/// Tells the submitting model what validation did to its selection, one line per change
/// (a fallback to the deterministic selection is one of them).
fn validation_note(validated: &Validated) -> Option<String> {
    if validated.drops.is_empty() {
        return None;
    }
    let mut note = String::from("validation:\n");
    for drop in &validated.drops {
        let _ = writeln!(note, "- {}: {}", drop.what, drop.reason);
    }
    Some(note)
}

/// Whether `call`'s navigation target is a candidate ID (`c7`) rather than a name.
fn names_an_id(call: &ToolCall) -> bool {
    let target = match call {
        ToolCall::Definition(a) => &a.target,
        ToolCall::References(a) => &a.target,
        _ => return false,
    };
    target.name.trim().parse::<CandidateId>().is_ok()
}
