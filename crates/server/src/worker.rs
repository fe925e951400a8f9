//! One thread runs every piece of engine work (tool calls and background refreshes), so
//! the memory a refresh frees is the memory the next one allocates from. The allocator
//! keeps a heap per thread: tables built on one thread and freed on another stay resident
//! in the first thread's heap until that thread runs again, and with calls on tokio's
//! rotating blocking threads and refreshes on a thread of their own, each burst of
//! changes left the previous tables' pages resident beside the new ones.

use std::panic::AssertUnwindSafe;
use std::sync::OnceLock;
use std::sync::mpsc::Sender;
// guard: allow(literal) reason: the name of std's queue constructor, an API name
use std::sync::mpsc::channel as queue_pair;
// guard: allow(literal) reason: the name of tokio's one-reply constructor, an API name
use tokio::sync::oneshot::channel as reply_pair;

type Job = Box<dyn FnOnce() + Send>;

/// The engine thread's queue, started on first use; it lives as long as the process.
fn queue() -> Option<&'static Sender<Job>> {
    static QUEUE: OnceLock<Option<Sender<Job>>> = OnceLock::new();
    QUEUE
        .get_or_init(|| {
            let (tx, rx) = queue_pair::<Job>();
            let spawned = std::thread::Builder::new()
                .name("sightline-engine".into())
                .spawn(move || {
                    for job in rx {
                        // A panicking job drops its reply sender: its caller sees the
                        // failure; the thread serves the next job.
                        let _ = std::panic::catch_unwind(AssertUnwindSafe(job));
                    }
                });
            spawned.ok().map(|_| tx)
        })
        .as_ref()
}

/// Runs `work` on the engine thread and waits for it without blocking the runtime.
/// `None` when `work` panicked. Where no thread could be started, `work` runs on tokio's
/// blocking pool instead.
pub(crate) async fn run<T, F>(work: F) -> Option<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let Some(queue) = queue() else {
        return tokio::task::spawn_blocking(work).await.ok();
    };
    let (tx, rx) = reply_pair();
    let job: Job = Box::new(move || {
        let _ = tx.send(work());
    });
    if queue.send(job).is_err() {
        return None;
    }
    rx.await.ok()
}

/// Runs `work` on the engine thread and blocks the calling (non-async) thread until it
/// is done; runs it right here where no engine thread could be started.
pub(crate) fn run_blocking<T, F>(work: F) -> Option<T>
where
    T: Send + 'static,
    F: FnOnce() -> T + Send + 'static,
{
    let Some(queue) = queue() else {
        return Some(work());
    };
    let (tx, rx) = queue_pair();
    let job: Job = Box::new(move || {
        let _ = tx.send(work());
    });
    queue.send(job).ok()?;
    rx.recv().ok()
}

#[cfg(test)]
mod tests {
    #[tokio::test]
    async fn work_runs_on_one_thread_and_a_panic_is_reported_not_fatal() {
        let first = super::run(|| std::thread::current().id()).await;
        let second = super::run_blocking(|| std::thread::current().id());
        assert!(first.is_some());
        assert_eq!(first, second);
        assert_ne!(first, Some(std::thread::current().id()));
        let panicked: Option<()> = super::run(|| panic!("a failing call")).await;
        assert_eq!(panicked, None);
        assert_eq!(super::run(|| 7).await, Some(7));
    }
}
