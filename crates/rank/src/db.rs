//! The rank stage's queries: a session's ranking (its registry ranked into the packet, and
//! the deterministic selection derived from it) is a tracked function of the session and
//! the model's weights. Asking again while the session's calls and the tree are unchanged
//! is a lookup; a new call re-derives it once.
//!
//! Validation and rendering stay outside salsa on purpose: the validator re-reads every
//! cited file from disk at submit time, so that a file changed since a tool showed it is
//! caught even before the index is refreshed. A memo would hide exactly that change.

use std::sync::Arc;

use sightline_registry::{RegistryDatabase, Session};

use crate::model::Weights;
use crate::pipeline::{ExploreRun, finish_with};

/// A database that can rank sessions: the registry's database plus this crate's queries.
#[salsa::db]
pub trait Db: sightline_registry::Db {}

// The pipeline's concrete database gains the rank queries here, where they are defined:
// the registry crate cannot name this trait without depending on a later stage.
#[salsa::db]
impl Db for RegistryDatabase {}

/// A model's weights compared by their bit patterns, so they can key a salsa query (a
/// float is not `Eq`; two runs with bit-identical weights share one ranking).
#[derive(Clone, Copy, Debug)]
pub struct ModelBits(pub Weights);

impl ModelBits {
    fn bits(&self) -> impl Iterator<Item = u64> {
        self.0.to_vec().into_iter().map(f64::to_bits)
    }
}

impl PartialEq for ModelBits {
    fn eq(&self, other: &ModelBits) -> bool {
        self.bits().eq(other.bits())
    }
}

impl Eq for ModelBits {}

impl std::hash::Hash for ModelBits {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        for b in self.bits() {
            b.hash(state);
        }
    }
}

/// The interned model a ranking is keyed by. Salsa generates its constructor and getter,
/// which `missing_docs` cannot see documented.
#[allow(missing_docs)]
mod key {
    use super::ModelBits;

    /// The weights one ranking used.
    #[salsa::interned(debug)]
    pub struct ModelKey<'db> {
        #[returns(ref)]
        pub model: ModelBits,
    }
}

pub use key::ModelKey;

/// The session's registry ranked by `model`: the packet and the deterministic selection.
/// Depends on the session's calls and query, and on the repository's term statistics.
#[salsa::tracked(returns(clone), no_eq)]
pub fn session_ranking<'db>(
    db: &'db dyn Db,
    session: Session,
    model: ModelKey<'db>,
) -> Arc<ExploreRun> {
    Arc::new(finish_with(db, session, &model.model(db).0))
}

/// [`session_ranking`] for `weights`.
pub fn ranked(db: &dyn Db, session: Session, weights: &Weights) -> Arc<ExploreRun> {
    session_ranking(db, session, ModelKey::new(db, ModelBits(*weights)))
}
