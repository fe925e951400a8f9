//! An explore session as salsa data: its recorded calls are an input, the registry is a
//! tracked function of them, so the same calls over an unchanged tree give the same IDs.

use std::sync::Arc;

use salsa::Setter as _;

use sightline_observe::LineRange;
use sightline_observe::db::{Workspace, file_index};

use crate::candidate::CandidateSymbol;
use crate::registry::{Outline, RecordObservation as _, Registry};
use crate::selection::Intent;
/// A database that can hold sessions: the observe stage's database plus this crate's
/// inputs and tracked functions.
#[salsa::db]
pub trait Db: sightline_observe::Db {}

pub use input::Session;

/// The session input, in a module of its own: salsa generates its constructor, builder
/// and setters without docs, and only they are exempt from `missing_docs`.
#[allow(missing_docs)]
mod input {
    use sightline_observe::db::Workspace;

    use crate::observation::RecordedCall;
    use crate::selection::Intent;

    /// One explore session: the question, the caller's intent and every tool call made so far.
    #[salsa::input(debug)]
    pub struct Session {
        /// The indexed workspace the calls explore.
        #[returns(copy)]
        pub workspace: Workspace,
        /// The caller's question, verbatim.
        #[returns(ref)]
        pub query: String,
        /// What the caller will do with the answer.
        #[returns(copy)]
        pub intent: Intent,
        /// The session's calls in order; appending one re-derives the registry.
        #[returns(ref)]
        pub calls: Vec<RecordedCall>,
    }
}

/// The registry of every candidate the session's calls observed, in arrival order.
#[salsa::tracked(returns(clone), no_eq)]
pub fn session_registry(db: &dyn Db, session: Session) -> Arc<Registry> {
    let outline = DbOutline {
        db,
        ws: session.workspace(db),
    };
    let mut registry = Registry::new();
    for (i, call) in session.calls(db).iter().enumerate() {
        registry.record(i as u32, &call.observation, &outline);
    }
    Arc::new(registry)
}

/// Declaration boundaries from the observe stage's facts.
pub struct DbOutline<'a> {
    /// The observe stage's database the outline reads facts from.
    pub db: &'a dyn sightline_observe::Db,
    /// The workspace whose files are looked up.
    pub ws: Workspace,
}

impl DbOutline<'_> {
    fn facts(&self, path: &str) -> Option<Arc<sightline_observe::db::FileIndex>> {
        let files = self.ws.files(self.db);
        let i = files
            .binary_search_by(|f| f.path(self.db).as_str().cmp(path))
            .ok()?;
        Some(file_index(self.db, files[i]))
    }
}

fn symbol(d: &sightline_observe::Declaration) -> CandidateSymbol {
    CandidateSymbol {
        name: d.name.clone(),
        qualified: d.qualified.clone(),
        kind: d.kind.as_str().to_owned(),
        line: d.signature_line,
    }
}

impl Outline for DbOutline<'_> {
    fn declaration_at(&self, path: &str, line: u32) -> Option<(LineRange, CandidateSymbol)> {
        let idx = self.facts(path)?;
        let d = &idx.facts.decls[idx.facts.innermost_decl_at(line)? as usize];
        Some((d.lines, symbol(d)))
    }

    fn declarations_in(&self, path: &str, range: LineRange) -> Vec<CandidateSymbol> {
        let Some(idx) = self.facts(path) else {
            return Vec::new();
        };
        idx.facts
            .decls
            .iter()
            .filter(|d| range.contains_line(d.signature_line))
            .take(8)
            .map(symbol)
            .collect()
    }

    fn path_traits(&self, path: &str) -> sightline_observe::path_traits::PathTraits {
        sightline_observe::path_traits::path_traits(self.db.languages(), path)
    }

    fn declarations_overlapping(
        &self,
        path: &str,
        range: LineRange,
    ) -> Vec<(LineRange, CandidateSymbol)> {
        let Some(idx) = self.facts(path) else {
            return Vec::new();
        };
        idx.facts
            .decls
            .iter()
            .filter(|d| d.lines.overlaps(&range))
            .map(|d| (d.lines, symbol(d)))
            .collect()
    }
}

/// The pipeline's concrete database: it holds the observe and registry queries, and the
/// rank stage implements its own `Db` trait for it (that crate's queries are defined there,
/// which this crate cannot name).
#[salsa::db]
#[derive(Clone, Default)]
pub struct RegistryDatabase {
    storage: salsa::Storage<Self>,
    /// Session inputs whose sessions closed, emptied, for the next session to reuse.
    /// Salsa never frees an input, so a long-running server that made a new one per
    /// session would keep every closed session's calls and registry forever.
    idle_sessions: Vec<Session>,
    /// Session inputs ever created, for tests and measurements of that bound.
    sessions_created: usize,
    /// See [`sightline_observe::db::LastAssembly`].
    last_assembly: sightline_observe::db::LastAssembly,
}

impl RegistryDatabase {
    /// A database whose storage reports every salsa event to `on_event` (tests count
    /// re-executions with it).
    pub fn with_event_hook(on_event: impl Fn(salsa::Event) + Send + Sync + 'static) -> Self {
        Self {
            storage: salsa::Storage::new(Some(Box::new(on_event))),
            ..Self::default()
        }
    }

    /// A session input with no calls: a closed one reused when there is one.
    pub fn open_session(&mut self, ws: Workspace, query: String, intent: Intent) -> Session {
        let Some(session) = self.idle_sessions.pop() else {
            self.sessions_created += 1;
            return Session::new(self, ws, query, intent, Vec::new());
        };
        session.set_workspace(self).to(ws);
        session.set_query(self).to(query);
        session.set_intent(self).to(intent);
        session
    }

    /// Releases what a finished session holds (its calls, their observations and its
    /// registry) and keeps the emptied input for [`RegistryDatabase::open_session`].
    pub fn close_session(&mut self, session: Session) {
        session.set_calls(self).to(Vec::new());
        session.set_query(self).to(String::new());
        // Derived again now, so the memo of the full registry is replaced by an empty one
        // instead of living until the input is next used.
        let _ = session_registry(self, session);
        self.idle_sessions.push(session);
    }

    /// How many session inputs this database ever created: bounded by the sessions open
    /// at once when every session is closed with [`RegistryDatabase::close_session`].
    pub fn sessions_created(&self) -> usize {
        self.sessions_created
    }
}

#[salsa::db]
impl salsa::Database for RegistryDatabase {}

#[salsa::db]
impl sightline_observe::Db for RegistryDatabase {
    fn last_assembly(&self) -> &sightline_observe::db::LastAssembly {
        &self.last_assembly
    }
}

#[salsa::db]
impl Db for RegistryDatabase {}
