//! Where an index's memory goes: the heap bytes of each structure it keeps, and the
//! process's live heap when the binary counts it ([`Counting`]), so what no structure
//! accounts for (salsa's tables and memos of the per-file links and edges, allocator
//! rounding) is a measured remainder rather than a guess.

use std::alloc::{GlobalAlloc, Layout};
use std::cell::Cell;
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::thread::LocalKey;

/// A global allocator that counts live heap bytes around another one. Install it in a
/// binary (`#[global_allocator] static A: Counting<System> = Counting(System);`) and
/// [`live_bytes`] reports the heap in use; a library never installs it.
///
/// Counts are kept per thread and folded into one total every [`FLUSH_BYTES`], so the
/// parallel parse does not fight over one counter; the total is off by at most that
/// much per thread.
pub struct Counting<A>(pub A);

/// How far a thread's own count may drift before it is folded into the total.
const FLUSH_BYTES: i64 = 1 << 20;

static LIVE: AtomicI64 = AtomicI64::new(0);
/// The most [`LIVE`] has been, as folded.
static PEAK: AtomicI64 = AtomicI64::new(0);
static INSTALLED: AtomicBool = AtomicBool::new(false);
/// Bytes freed since [`release_freed`] last ran, as folded: what an allocator that keeps
/// freed pages may be holding resident beyond the live heap.
static FREED: AtomicI64 = AtomicI64::new(0);

thread_local! {
    static LOCAL: Cell<i64> = const { Cell::new(0) };
    static LOCAL_FREED: Cell<i64> = const { Cell::new(0) };
}

/// Adds `delta` to this thread's `local` count and folds it into `total` once it drifts
/// [`FLUSH_BYTES`] from zero, returning the new total when it folded. During a thread's
/// teardown its local may be gone: the delta goes straight into the total.
fn fold(local: &'static LocalKey<Cell<i64>>, total: &AtomicI64, delta: i64) -> Option<i64> {
    local
        .try_with(|local| {
            let now = local.get() + delta;
            if now.abs() >= FLUSH_BYTES {
                local.set(0);
                Some(total.fetch_add(now, Ordering::Relaxed) + now)
            } else {
                local.set(now);
                None
            }
        })
        .unwrap_or_else(|_| Some(total.fetch_add(delta, Ordering::Relaxed) + delta))
}

fn count(delta: i64) {
    if let Some(live) = fold(&LOCAL, &LIVE, delta) {
        PEAK.fetch_max(live, Ordering::Relaxed);
    }
}

fn count_freed(bytes: i64) {
    fold(&LOCAL_FREED, &FREED, bytes);
}

// SAFETY: every call is forwarded unchanged to the wrapped allocator; counting touches
// no allocation.
unsafe impl<A: GlobalAlloc> GlobalAlloc for Counting<A> {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        let p = unsafe { self.0.alloc(layout) };
        if !p.is_null() {
            count(layout.size() as i64);
        }
        p
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        INSTALLED.store(true, Ordering::Relaxed);
        let p = unsafe { self.0.alloc_zeroed(layout) };
        if !p.is_null() {
            count(layout.size() as i64);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { self.0.dealloc(ptr, layout) };
        count(-(layout.size() as i64));
        count_freed(layout.size() as i64);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = unsafe { self.0.realloc(ptr, layout, new_size) };
        if !p.is_null() {
            count(new_size as i64 - layout.size() as i64);
        }
        p
    }
}

/// The process's live heap bytes, when the binary installed [`Counting`].
pub fn live_bytes() -> Option<u64> {
    INSTALLED
        .load(Ordering::Relaxed)
        .then(|| u64::try_from(LIVE.load(Ordering::Relaxed)).unwrap_or(0))
}

/// The most live heap the process has held so far (as counted, so within [`FLUSH_BYTES`]
/// per thread), when the binary installed [`Counting`]: what a peak RSS is made of,
/// beside the allocator's own slack.
pub fn peak_bytes() -> Option<u64> {
    INSTALLED
        .load(Ordering::Relaxed)
        .then(|| u64::try_from(PEAK.load(Ordering::Relaxed)).unwrap_or(0))
}

/// How the binary's allocator hands freed memory back to the system, when it can
/// ([`set_release`]); the library never picks an allocator.
static RELEASE: std::sync::OnceLock<fn()> = std::sync::OnceLock::new();

/// Installs `release`, run on every thread of the rayon pool and the calling thread by
/// [`release_freed`]: an allocator that keeps a heap per thread (mimalloc) frees a block
/// another thread allocated into that thread's heap, where it stays resident until that
/// thread allocates again. The pool's threads build an index's tables and then sleep, and
/// salsa drops the memos a refresh replaced on the thread that starts the next revision,
/// so without this a server's resident memory grew with every refresh while its live heap
/// stayed flat. The first installed function stays.
pub fn set_release(release: fn()) {
    let _ = RELEASE.set(release);
}

/// Hands the memory freed so far back to the system ([`set_release`]), on every thread of
/// the rayon pool and this one; nothing when no function was installed.
pub fn release_freed() {
    if let Some(release) = RELEASE.get().copied() {
        FREED.store(0, Ordering::Relaxed);
        rayon::broadcast(|_| release());
        release();
    }
}

/// The share of the live heap that may have been freed since the last release before
/// [`release_freed_if_worth`] pays for one: a release visits every thread's heap (tens
/// of milliseconds on a large index), which a one-file edit's few freed megabytes do not
/// repay, while a branch switch's rebuilt tables do.
const FREED_SHARE_WORTH_RELEASING: i64 = 8;

/// [`release_freed`] when the memory freed since the last release reaches an eighth of
/// the live heap, so resident memory stays within that of what the index holds; always
/// when the binary counts nothing (no [`Counting`] allocator to tell).
pub fn release_freed_if_worth() {
    if !INSTALLED.load(Ordering::Relaxed) {
        release_freed();
        return;
    }
    let live = LIVE.load(Ordering::Relaxed).max(0);
    if FREED
        .load(Ordering::Relaxed)
        .saturating_mul(FREED_SHARE_WORTH_RELEASING)
        >= live
    {
        release_freed();
    }
}

/// Heap bytes owned by a value (not counting the value itself).
pub trait HeapSize {
    /// Bytes this value owns on the heap, transitively.
    fn heap_bytes(&self) -> usize;
}

impl HeapSize for String {
    fn heap_bytes(&self) -> usize {
        self.capacity()
    }
}

impl HeapSize for Box<str> {
    fn heap_bytes(&self) -> usize {
        self.len()
    }
}

impl HeapSize for str {
    fn heap_bytes(&self) -> usize {
        0
    }
}

macro_rules! plain {
    ($($t:ty),*) => {$(
        impl HeapSize for $t {
            fn heap_bytes(&self) -> usize {
                0
            }
        }
    )*};
}
plain!(
    u8,
    u32,
    u64,
    i64,
    f64,
    bool,
    crate::facts::DeclKind,
    crate::facts::UsageKind
);
plain!(
    crate::facts::HeritageKind,
    crate::db::SourceFile,
    crate::db::Posting,
    crate::db::DeclRef
);

impl<T: HeapSize> HeapSize for Vec<T> {
    fn heap_bytes(&self) -> usize {
        self.capacity() * std::mem::size_of::<T>()
            + self.iter().map(HeapSize::heap_bytes).sum::<usize>()
    }
}

impl<T: HeapSize> HeapSize for Option<T> {
    fn heap_bytes(&self) -> usize {
        self.as_ref().map_or(0, HeapSize::heap_bytes)
    }
}

impl<A: HeapSize, B: HeapSize> HeapSize for (A, B) {
    fn heap_bytes(&self) -> usize {
        self.0.heap_bytes() + self.1.heap_bytes()
    }
}

/// An `Arc`'s allocation: its two counts and the value. Counted wherever it is reached,
/// so call it once per shared value.
impl<T: HeapSize + ?Sized> HeapSize for std::sync::Arc<T> {
    fn heap_bytes(&self) -> usize {
        2 * std::mem::size_of::<usize>() + std::mem::size_of_val(&**self) + (**self).heap_bytes()
    }
}

impl<T: HeapSize> HeapSize for [T] {
    fn heap_bytes(&self) -> usize {
        self.iter().map(HeapSize::heap_bytes).sum()
    }
}

impl<K: HeapSize, V: HeapSize, S> HeapSize for std::collections::HashMap<K, V, S> {
    fn heap_bytes(&self) -> usize {
        // hashbrown: a slot per bucket plus a control byte.
        let buckets = if self.capacity() == 0 {
            0
        } else {
            (self.capacity() * 8 / 7).next_power_of_two()
        };
        buckets * (std::mem::size_of::<(K, V)>() + 1)
            + self
                .iter()
                .map(|(k, v)| k.heap_bytes() + v.heap_bytes())
                .sum::<usize>()
    }
}

impl HeapSize for crate::facts::Declaration {
    fn heap_bytes(&self) -> usize {
        self.name.heap_bytes() + self.qualified.heap_bytes() + self.signature.heap_bytes()
    }
}

impl HeapSize for crate::facts::ImportedName {
    fn heap_bytes(&self) -> usize {
        self.imported.heap_bytes() + self.local.heap_bytes()
    }
}

impl HeapSize for crate::facts::Import {
    fn heap_bytes(&self) -> usize {
        self.specifier.heap_bytes() + self.names.heap_bytes() + self.namespace.heap_bytes()
    }
}

impl HeapSize for crate::facts::Usage {
    fn heap_bytes(&self) -> usize {
        self.name.heap_bytes() + self.receiver.heap_bytes()
    }
}

impl HeapSize for crate::facts::Heritage {
    fn heap_bytes(&self) -> usize {
        self.name.heap_bytes()
    }
}

impl HeapSize for crate::facts::FileFacts {
    fn heap_bytes(&self) -> usize {
        self.decls.heap_bytes()
            + self.imports.heap_bytes()
            + self.usages.heap_bytes()
            + self.heritage.heap_bytes()
            + self.error_lines.heap_bytes()
    }
}

impl HeapSize for crate::terms::TermCounts {
    fn heap_bytes(&self) -> usize {
        crate::terms::TermCounts::heap_bytes(self)
    }
}

impl<A: HeapSize, B: HeapSize, C: HeapSize> HeapSize for (A, B, C) {
    fn heap_bytes(&self) -> usize {
        self.0.heap_bytes() + self.1.heap_bytes() + self.2.heap_bytes()
    }
}

/// A shape is a view of the facts (counted with them): only what it adds.
impl HeapSize for crate::db::FileShape {
    fn heap_bytes(&self) -> usize {
        self.own_heap_bytes()
    }
}

/// Heap bytes per structure, in the order they are listed, plus the live heap when it is
/// counted and what no structure accounts for.
#[derive(Clone, Debug, Default)]
pub struct MemoryReport {
    /// Bytes per structure.
    pub structures: Vec<(&'static str, u64)>,
    /// The process's live heap ([`live_bytes`]), when counted.
    pub live: Option<u64>,
    /// The most heap the process held so far ([`peak_bytes`]), when counted.
    pub peak: Option<u64>,
}

impl MemoryReport {
    /// Adds a structure's bytes.
    pub fn add(&mut self, name: &'static str, bytes: usize) {
        self.structures.push((name, bytes as u64));
    }

    /// The breakdown in MB, with `live heap` and `other (salsa, links and edges,
    /// allocator)` when the heap is counted.
    pub fn megabytes(&self) -> BTreeMap<String, f64> {
        const MB: f64 = 1024.0 * 1024.0;
        let mut out: BTreeMap<String, f64> = self
            .structures
            .iter()
            .map(|(name, bytes)| ((*name).to_owned(), *bytes as f64 / MB))
            .collect();
        if let Some(live) = self.live {
            let known: u64 = self.structures.iter().map(|(_, b)| b).sum();
            out.insert("live heap (all)".into(), live as f64 / MB);
            if let Some(peak) = self.peak {
                out.insert("live heap (peak so far)".into(), peak as f64 / MB);
            }
            out.insert(
                "other: salsa tables, per-file links and edges, …".into(),
                live.saturating_sub(known) as f64 / MB,
            );
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn owned_bytes_are_counted_transitively() {
        let mut words: Vec<String> = Vec::with_capacity(4);
        words.push(String::with_capacity(10));
        words.push("abc".to_owned());
        let expected = 4 * std::mem::size_of::<String>() + 10 + words[1].capacity();
        assert_eq!(words.heap_bytes(), expected);
        assert_eq!(Some(String::with_capacity(7)).heap_bytes(), 7);
    }

    #[test]
    fn what_no_structure_accounts_for_is_the_remainder_of_the_live_heap() {
        let mut report = MemoryReport {
            live: Some(3 << 20),
            ..MemoryReport::default()
        };
        report.add("a", 1 << 20);
        let mb = report.megabytes();
        assert_eq!(mb["a"], 1.0);
        assert_eq!(mb["live heap (all)"], 3.0);
        assert_eq!(mb["other: salsa tables, per-file links and edges, …"], 2.0);
        // Uncounted: no invented remainder.
        report.live = None;
        assert_eq!(report.megabytes().len(), 1);
    }

    #[test]
    fn an_index_accounts_for_its_texts() {
        let dir = tempfile::tempdir().unwrap();
        let text = "export function saveDraft(d: string) { return d; }\n";
        std::fs::write(dir.path().join("a.ts"), text).unwrap();
        let options = crate::IndexOptions {
            cache: crate::CacheMode::Disabled,
            progress: None,
        };
        let index = crate::Index::open(dir.path(), &options).unwrap();
        let report = index.memory();
        let texts = report
            .structures
            .iter()
            .find(|(name, _)| *name == "file texts and paths")
            .unwrap()
            .1;
        assert!(texts >= text.len() as u64);
        assert!(report.structures.iter().all(|(_, bytes)| *bytes < 1 << 30));
    }
}
