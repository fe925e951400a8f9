//! The open explore sessions of one server, by id. A client's raw tool calls accumulate in
//! one session, so candidate IDs stay stable across its calls until `submit_report` closes
//! it. Memory stays bounded: only the most recently started sessions are kept.

use std::collections::BTreeMap;

use sightline_agent::ExploreSession;

use crate::error::CallError;

/// How many open sessions the server keeps; starting one more evicts the oldest.
pub const MAX_OPEN_SESSIONS: usize = 16;

#[derive(Default)]
pub struct Sessions {
    /// Keyed by sequence number, so the first entry is the oldest.
    open: BTreeMap<u64, ExploreSession>,
    next: u64,
}

impl Sessions {
    /// Adds a session and returns its id (`s1`, `s2`, … in start order) with the oldest
    /// sessions it evicted, for the caller to close.
    pub fn insert(&mut self, session: ExploreSession) -> (String, Vec<ExploreSession>) {
        self.next += 1;
        self.open.insert(self.next, session);
        let mut evicted = Vec::new();
        while self.open.len() > MAX_OPEN_SESSIONS {
            evicted.extend(self.open.pop_first().map(|(_, s)| s));
        }
        (id_text(self.next), evicted)
    }

    pub fn get(&self, id: &str) -> Result<&ExploreSession, CallError> {
        parse_id(id)
            .and_then(|n| self.open.get(&n))
            .ok_or_else(|| unknown(id))
    }

    pub fn get_mut(&mut self, id: &str) -> Result<&mut ExploreSession, CallError> {
        parse_id(id)
            .and_then(|n| self.open.get_mut(&n))
            .ok_or_else(|| unknown(id))
    }

    pub fn remove(&mut self, id: &str) -> Result<ExploreSession, CallError> {
        parse_id(id)
            .and_then(|n| self.open.remove(&n))
            .ok_or_else(|| unknown(id))
    }

    /// The id of the most recently started session still open.
    pub fn latest(&self) -> Option<String> {
        self.open.last_key_value().map(|(&n, _)| id_text(n))
    }

    pub fn count(&self) -> usize {
        self.open.len()
    }
}

fn id_text(n: u64) -> String {
    format!("s{n}")
}

fn parse_id(id: &str) -> Option<u64> {
    id.trim().strip_prefix('s')?.parse().ok()
}

fn unknown(id: &str) -> CallError {
    CallError::UnknownSession {
        id: id.to_owned(),
        keep: MAX_OPEN_SESSIONS,
    }
}
