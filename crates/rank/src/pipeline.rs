//! The deterministic explore: one `explore_code` call recorded in a session, the registry
//! derived from it, the packet and the fallback selection.

use std::sync::Arc;

use salsa::Setter as _;
use sightline_observe::db::{Workspace, term_stats};
use sightline_observe::query::QueryTerms;
use sightline_observe::tools::ToolError;
use sightline_observe::tools::explore_code::{self, ExploreArgs};
use sightline_registry::{
    Intent, Observation, RecordedCall, Registry, RegistryDatabase, Selection, Session, ToolCall,
    session_registry,
};

use crate::fallback::fallback_selection;
use crate::model::Weights;
use crate::packet::{Packet, PacketOptions, build_packet};

/// Everything one deterministic exploration produced.
pub struct ExploreRun {
    /// The session holding the recorded tool call.
    pub session: Session,
    /// The candidates the call's observation registered.
    pub registry: Arc<Registry>,
    /// The query's terms, parsed against the repository's statistics.
    pub terms: QueryTerms,
    /// The ranked packet.
    pub packet: Packet,
    /// The deterministic selection derived from the packet.
    pub selection: Selection,
}

/// The arguments the deterministic explore uses: the most files the tool allows.
pub fn default_explore_args(query: &str) -> ExploreArgs {
    let mut args = ExploreArgs::new(query);
    args.max_files = explore_code::MAX_FILES_CAP;
    args.max_listed = Some(explore_code::MORE_FILES_SHOWN as u32);
    // The deterministic report quotes each place's evidence lines; the call offers them.
    args.evidence_lines = sightline_registry::selection::MAX_EVIDENCE_LINES as u32;
    args
}

/// One `explore_code` call for `query` (the rank model's weights ordering it), recorded in
/// a session from `db`'s pool, ranked, and the fallback selection derived. Hand
/// `run.session` back with [`RegistryDatabase::close_session`] when done with it: salsa
/// never frees an input, so a program that explores many queries reuses the same few.
pub fn explore_deterministic(
    db: &mut RegistryDatabase,
    ws: Workspace,
    query: &str,
    intent: Intent,
) -> Result<ExploreRun, ToolError> {
    explore_deterministic_with(db, ws, query, intent, Weights::fitted())
}

/// [`explore_deterministic`] with other weights than the checked-in fit: what measures a
/// fit on repositories it has not seen.
pub fn explore_deterministic_with(
    db: &mut RegistryDatabase,
    ws: Workspace,
    query: &str,
    intent: Intent,
    weights: &Weights,
) -> Result<ExploreRun, ToolError> {
    let args = default_explore_args(query);
    let result = explore_code::run_weighted(&*db, ws, &args, &weights.search())?;
    let calls = vec![RecordedCall {
        call: ToolCall::ExploreCode(args),
        observation: Observation::ExploreCode(result),
    }];
    let session = db.open_session(ws, query.to_owned(), intent);
    session.set_calls(db).to(calls);
    Ok(finish_with(&*db, session, weights))
}

/// Ranks a session's registry and derives the deterministic selection.
pub fn finish(db: &dyn sightline_registry::Db, session: Session) -> ExploreRun {
    finish_with(db, session, Weights::fitted())
}

/// [`finish`] ranking with `weights`.
pub fn finish_with(
    db: &dyn sightline_registry::Db,
    session: Session,
    weights: &Weights,
) -> ExploreRun {
    let registry = session_registry(db, session);
    let terms = query_terms(db, session);
    let options = PacketOptions {
        include_secondary: asks_for_secondary(session.calls(db)),
        weights: *weights,
        ..PacketOptions::default()
    };
    let packet = build_packet(&registry, &terms, &options);
    let not_indexed = session.workspace(db).not_indexed(db).note();
    let selection = fallback_selection(
        &packet,
        &registry,
        session.intent(db),
        &terms,
        not_indexed.as_deref(),
        &weights.confidence,
    );
    ExploreRun {
        session,
        registry,
        terms,
        packet,
        selection,
    }
}

/// The session query's terms, with its literals resolved: those its exploration of the same
/// query already parsed, or parsed and resolved here.
fn query_terms(db: &dyn sightline_registry::Db, session: Session) -> QueryTerms {
    let query = session.query(db);
    let explored = session.calls(db).iter().find_map(|c| match &c.observation {
        Observation::ExploreCode(r) if r.query == *query => Some(r.terms.clone()),
        _ => None,
    });
    explored.unwrap_or_else(|| {
        let ws = session.workspace(db);
        let mut terms = QueryTerms::parse(query, &term_stats(db, ws));
        sightline_observe::search::resolve_literals(db, ws, &mut terms);
        terms
    })
}

/// Whether the session's caller asked for tests and other secondary files (`include_tests`
/// on an exploration): the packet then ranks them like any other file.
fn asks_for_secondary(calls: &[RecordedCall]) -> bool {
    calls
        .iter()
        .any(|c| matches!(&c.call, ToolCall::ExploreCode(args) if args.include_tests))
}
