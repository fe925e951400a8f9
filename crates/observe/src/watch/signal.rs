//! What the watcher's event thread has seen and not yet handed over, and the waits on it:
//! the fence a call waits for (so it sees every change written before it) and the quiet
//! period a background refresh waits for (so a burst is refreshed once, not per file).

use std::collections::BTreeSet;
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

/// Changes seen since the last [`Signal::take`].
#[derive(Debug, Default)]
pub(crate) struct Pending {
    /// Repo-relative paths that may have changed.
    pub paths: BTreeSet<String>,
    /// Something only a full walk settles (an ignore file changed).
    pub full: bool,
    /// Events were lost (the kernel's queue overflowed): only a full walk with a fresh
    /// watch of every directory settles it.
    pub lost: bool,
    /// The watcher failed (a watch limit, an error from the event stream): it cannot be
    /// trusted from now on.
    pub failure: Option<String>,
    /// When the oldest change still pending arrived.
    pub since: Option<Instant>,
    /// When the newest change arrived.
    pub last: Option<Instant>,
}

impl Pending {
    fn is_empty(&self) -> bool {
        self.paths.is_empty() && !self.full && !self.lost && self.failure.is_none()
    }
}

/// A fault [`Signal::simulate`] pretends happened.
#[doc(hidden)]
#[derive(Clone, Copy, Debug)]
pub enum SimulatedFault {
    /// The kernel's event queue overflowed.
    LostEvents,
    /// The watcher failed for good.
    Failure,
}

/// Shared by the watcher's event thread (which records) and the index's owner (which
/// takes). Survives the watcher it belongs to, so a waiting background refresh is not
/// stranded when a watcher is replaced.
#[derive(Debug, Default)]
pub struct Signal {
    state: Mutex<State>,
    changed: Condvar,
}

#[derive(Debug, Default)]
struct State {
    pending: Pending,
    /// The highest fence number the event thread has seen.
    fence_seen: u64,
    /// The last fence number handed out ([`Signal::next_fence`]).
    fence_issued: u64,
    /// No watcher will record into this signal again.
    closed: bool,
}

impl Signal {
    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic while recording leaves whole values behind: keep going.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records a change with `record`, waking whoever waits.
    pub(crate) fn record(&self, record: impl FnOnce(&mut Pending)) {
        let mut state = self.lock();
        let now = Instant::now();
        record(&mut state.pending);
        if !state.pending.is_empty() {
            state.pending.since.get_or_insert(now);
            state.pending.last = Some(now);
        }
        drop(state);
        self.changed.notify_all();
    }

    /// A fence number never handed out before, whichever watcher of this signal asks.
    pub(crate) fn next_fence(&self) -> u64 {
        let mut state = self.lock();
        state.fence_issued += 1;
        state.fence_issued
    }

    /// Records that the event thread saw fence `n`.
    pub(crate) fn fence(&self, n: u64) {
        let mut state = self.lock();
        state.fence_seen = state.fence_seen.max(n);
        drop(state);
        self.changed.notify_all();
    }

    /// Waits until fence `n` was seen (every event queued before it was recorded) or
    /// `timeout` passed; returns whether it was seen.
    pub(crate) fn wait_fence(&self, n: u64, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        let mut state = self.lock();
        while state.fence_seen < n && state.pending.failure.is_none() {
            let Some(left) = deadline.checked_duration_since(Instant::now()) else {
                return false;
            };
            state = self
                .changed
                .wait_timeout(state, left)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
        true
    }

    /// Takes everything pending.
    pub(crate) fn take(&self) -> Pending {
        std::mem::take(&mut self.lock().pending)
    }

    /// Makes the watcher behind this signal look as if it had lost events or failed,
    /// for tests of the fallbacks (a queue overflow or a watch limit cannot be caused on
    /// demand).
    #[doc(hidden)]
    pub fn simulate(&self, fault: SimulatedFault) {
        self.record(|p| match fault {
            SimulatedFault::LostEvents => p.lost = true,
            SimulatedFault::Failure => {
                p.failure
                    .get_or_insert_with(|| "a simulated failure".to_owned());
            }
        });
    }

    /// Marks the signal as no longer fed: waiters return.
    pub(crate) fn close(&self) {
        self.lock().closed = true;
        self.changed.notify_all();
    }

    /// Blocks until changes are pending and either none arrived for `quiet` or the
    /// oldest has waited `at_most`, so a burst of events (a branch switch) is handed over
    /// once it settles, and a steady trickle is still handed over. Returns `false` once
    /// the signal is closed.
    pub fn wait_for_changes(&self, quiet: Duration, at_most: Duration) -> bool {
        let mut state = self.lock();
        loop {
            if state.closed {
                return false;
            }
            let now = Instant::now();
            let ready_at = match (state.pending.since, state.pending.last) {
                _ if state.pending.failure.is_some() || state.pending.lost => Some(now),
                (Some(since), Some(last)) => Some((last + quiet).min(since + at_most)),
                _ => None,
            };
            let wait = match ready_at {
                Some(at) if at <= now => return true,
                Some(at) => at - now,
                // Nothing pending: sleep until something is recorded.
                None => Duration::from_secs(3600),
            };
            state = self
                .changed
                .wait_timeout(state, wait)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fence_seen_before_the_wait_returns_at_once_and_a_missing_one_times_out() {
        let signal = Signal::default();
        signal.fence(3);
        assert!(signal.wait_fence(2, Duration::ZERO));
        assert!(signal.wait_fence(3, Duration::ZERO));
        assert!(!signal.wait_fence(4, Duration::ZERO));
    }

    #[test]
    fn recorded_changes_are_taken_once() {
        let signal = Signal::default();
        signal.record(|p| {
            p.paths.insert("a.ts".into());
        });
        signal.record(|p| p.full = true);
        let taken = signal.take();
        assert_eq!(taken.paths.len(), 1);
        assert!(taken.full && taken.since.is_some());
        assert!(signal.take().is_empty());
    }

    #[test]
    fn a_closed_signal_stops_the_wait_for_changes() {
        let signal = std::sync::Arc::new(Signal::default());
        let waiter = {
            let signal = signal.clone();
            std::thread::spawn(move || signal.wait_for_changes(Duration::ZERO, Duration::ZERO))
        };
        signal.close();
        assert!(!waiter.join().unwrap());
    }

    #[test]
    fn pending_changes_are_handed_over_once_quiet() {
        let signal = Signal::default();
        signal.record(|p| {
            p.paths.insert("a.ts".into());
        });
        assert!(signal.wait_for_changes(Duration::ZERO, Duration::from_secs(3600)));
    }
}
