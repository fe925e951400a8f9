//! Indexing in the background: the server answers `initialize` at once, whatever the
//! repository's size, and each tool call waits until the index is ready, reporting how far
//! indexing got to a caller that asked for progress.

use std::sync::{Arc, Mutex};

use tokio::sync::watch;
// guard: allow(literal) reason: the name of tokio's watch constructor, an API name
use tokio::sync::watch::channel as watch_pair;

use crate::engine::Engine;

/// Where the server's index stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Startup {
    /// Files parsed so far, of the files the walk found (0 while walking).
    Indexing {
        /// Files parsed so far.
        done: usize,
        /// Files the walk found.
        total: usize,
    },
    /// The index is built; tool calls are answered.
    Ready,
    /// The index could not be built; every tool call says why.
    Failed(String),
}

/// The engine slot the tool calls lock, and the state they wait on.
#[derive(Clone)]
pub(crate) struct Shared {
    pub engine: Arc<Mutex<Option<Engine>>>,
    pub state: watch::Receiver<Startup>,
}

/// The indexing side: reports progress, then hands over the engine.
pub struct Starter {
    engine: Arc<Mutex<Option<Engine>>>,
    state: watch::Sender<Startup>,
}

impl Shared {
    /// A server whose engine is ready from the start.
    pub fn ready(engine: Engine) -> Shared {
        let (_, state) = watch_pair(Startup::Ready);
        let slot = Arc::new(Mutex::new(None));
        crate::refresher::install(&slot, engine);
        Shared {
            engine: slot,
            state,
        }
    }

    /// A server whose engine the returned [`Starter`] will provide.
    pub fn pending() -> (Shared, Starter) {
        let (tx, state) = watch_pair(Startup::Indexing { done: 0, total: 0 });
        let engine = Arc::new(Mutex::new(None));
        let starter = Starter {
            engine: Arc::clone(&engine),
            state: tx,
        };
        (Shared { engine, state }, starter)
    }

    /// Waits until the engine is ready, calling `on_progress(done, total)` for each
    /// indexing state seen while waiting. `Err` says why there will be no engine.
    pub async fn wait_ready<Fut>(
        &self,
        mut on_progress: impl FnMut(usize, usize) -> Fut,
    ) -> Result<(), String>
    where
        Fut: std::future::Future<Output = ()>,
    {
        let mut state = self.state.clone();
        loop {
            let now = state.borrow_and_update().clone();
            match now {
                Startup::Ready => return Ok(()),
                Startup::Failed(why) => return Err(why),
                Startup::Indexing { done, total } => on_progress(done, total).await,
            }
            if state.changed().await.is_err() {
                // The indexer is gone: its last word stands.
                return match state.borrow().clone() {
                    Startup::Ready => Ok(()),
                    Startup::Failed(why) => Err(why),
                    Startup::Indexing { .. } => Err("indexing stopped before it finished".into()),
                };
            }
        }
    }
}

/// How many progress steps indexing reports at most (one per percent).
const PROGRESS_STEPS: usize = 100;

impl Starter {
    /// Records that `done` of `total` files are parsed; only whole-percent steps are
    /// published, so a large repository does not flood waiting callers.
    pub fn progress(&self, done: usize, total: usize) {
        let step = |d: usize| d * PROGRESS_STEPS / total.max(1);
        self.state.send_if_modified(|s| match s {
            Startup::Indexing {
                done: was,
                total: t,
            } if *t == total && step(*was) == step(done) && done != total => false,
            _ => {
                *s = Startup::Indexing { done, total };
                true
            }
        });
    }

    /// Hands the built engine (or the reason there is none) to the waiting calls.
    pub fn finish(self, engine: Result<Engine, String>) {
        match engine {
            Ok(engine) => {
                crate::refresher::install(&self.engine, engine);
                self.state.send_replace(Startup::Ready);
            }
            Err(why) => {
                self.state.send_replace(Startup::Failed(why));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_waiting_call_sees_progress_then_the_ready_engine() {
        let (shared, starter) = Shared::pending();
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let waiter = tokio::spawn(async move {
            shared
                .wait_ready(|done, total| {
                    log.lock().unwrap().push((done, total));
                    std::future::ready(())
                })
                .await
        });
        tokio::task::yield_now().await;
        for done in 0..=1_000 {
            starter.progress(done, 1_000);
            tokio::task::yield_now().await;
        }
        starter.finish(Err("disk gone".into()));
        assert_eq!(waiter.await.unwrap(), Err("disk gone".to_owned()));
        let seen = seen.lock().unwrap();
        assert!(!seen.is_empty());
        // Whole-percent steps only, never going backwards.
        assert!(seen.len() <= PROGRESS_STEPS + 2, "{} updates", seen.len());
        assert!(seen.windows(2).all(|w| w[0].0 <= w[1].0));
    }

    #[tokio::test]
    async fn an_indexer_that_vanishes_is_an_error_not_a_hang() {
        let (shared, starter) = Shared::pending();
        drop(starter);
        let outcome = shared.wait_ready(|_, _| std::future::ready(())).await;
        assert!(outcome.is_err());
    }
}
