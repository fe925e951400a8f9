//! An explore session as salsa data: its recorded calls are an input, the registry is a
//! tracked function of them, so the same calls over an unchanged tree give the same IDs.

use std::sync::Arc;

use sightline_observe::LineRange;
use sightline_observe::db::{Workspace, file_index};

use crate::candidate::CandidateSymbol;
use crate::observation::RecordedCall;
use crate::registry::{Outline, Registry};
use crate::selection::Intent;

#[salsa::db]
pub trait Db: sightline_observe::Db {}

#[salsa::input(debug)]
pub struct Session {
    #[returns(copy)]
    pub workspace: Workspace,
    #[returns(ref)]
    pub query: String,
    #[returns(copy)]
    pub intent: Intent,
    /// The session's calls in order; appending one re-derives the registry.
    #[returns(ref)]
    pub calls: Vec<RecordedCall>,
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
    pub db: &'a dyn sightline_observe::Db,
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
}

/// A database holding the observe and registry queries, for programs that stop at this
/// stage (later stages add no queries of their own).
#[salsa::db]
#[derive(Clone, Default)]
pub struct RegistryDatabase {
    storage: salsa::Storage<Self>,
}

#[salsa::db]
impl salsa::Database for RegistryDatabase {}

#[salsa::db]
impl sightline_observe::Db for RegistryDatabase {}

#[salsa::db]
impl Db for RegistryDatabase {}
