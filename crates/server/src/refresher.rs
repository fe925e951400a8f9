//! Between calls, a watched index is brought up to date in the background once a burst of
//! changes settles, so the next call finds the work done. A call still refreshes first
//! (it must see changes made an instant before it); after a background refresh that
//! costs it a fence and nothing else.

use std::sync::{Arc, Mutex, Weak};
use std::time::Duration;

use crate::engine::Engine;

/// How long no new change must arrive before a burst (a branch switch, a formatter over
/// many files) counts as settled.
const QUIET: Duration = Duration::from_millis(50);
/// How long a steady stream of changes may go unrefreshed at most.
const AT_MOST: Duration = Duration::from_millis(500);

use sightline_observe::watch::Signal;

/// Puts `engine` in `slot` and, when it watches its tree, starts its background
/// refresh. The thread holds the slot weakly and ends when the engine's watcher stops
/// (the engine was dropped, or watching fell back to walking).
pub(crate) fn install(slot: &Arc<Mutex<Option<Engine>>>, engine: Engine) {
    let signal = engine.change_signal();
    *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(engine);
    if let Some(signal) = signal {
        start(Arc::downgrade(slot), signal);
    }
}

fn start(slot: Weak<Mutex<Option<Engine>>>, signal: Arc<Signal>) {
    let spawned = std::thread::Builder::new()
        .name("sightline-refresh".into())
        .spawn(move || {
            while signal.wait_for_changes(QUIET, AT_MOST) {
                let Some(slot) = slot.upgrade() else {
                    return;
                };
                // On the engine thread, like every call ([`crate::worker`]).
                let refreshed = crate::worker::run_blocking(move || {
                    let mut engine = slot.lock().unwrap_or_else(|e| e.into_inner());
                    match engine.as_mut() {
                        Some(engine) => {
                            engine.refresh();
                            true
                        }
                        None => false,
                    }
                });
                if refreshed != Some(true) {
                    return;
                }
            }
        });
    if let Err(e) = spawned {
        // Calls still refresh first; only the head start is lost.
        eprintln!("no background refresh: {e}");
    }
}
