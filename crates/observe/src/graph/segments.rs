//! The graph's edge index, in segments of consecutive files, so that assembling the graph
//! again after an edit rebuilds only the segments the edit reached and shares the others
//! with the previous graph.
//!
//! A segment holds the edges leaving its files' nodes (sorted by `(from, to, kind)`, the
//! graph's edge order) and, for each of its nodes, the distinct nodes with an edge to it.
//! A node's incoming edges are found through those sources' outgoing edges (sorted by
//! target), so an edge is stored once. Slots (a node's place in a segment's index) are
//! local to the segment: a declaration added to one file moves no other segment's slots.
//!
//! Before segments, one index over every edge was rebuilt whole after each edit (on the
//! evaluation monorepo, about two thirds of the refresh after a one-file edit, most of it
//! page faults of the fresh arrays). The index is the same whichever way it was built:
//! [`EdgeIndex::update`] gives the segments [`EdgeIndex::build`] gives (the graph's
//! equality compares them, and the assembly tests compare both ways).

use std::sync::Arc;

use super::{Edge, EdgeKind, NodeId};

/// Files per segment: smaller segments rebuild less after an edit, but their many
/// mid-sized arrays left the allocator's pages fragmented after each whole assembly (on
/// the evaluation monorepo, 64 or 256 files kept 23-40 MB more resident after ten new
/// files; 1,024 files about 9 MB).
const SEGMENT_FILES: usize = 1024;

/// The segment of the file at position `file`, and the file's place in it.
fn segment_of(file: u32) -> (usize, usize) {
    (file as usize / SEGMENT_FILES, file as usize % SEGMENT_FILES)
}

/// Every edge of the graph, indexed both ways, in segments of [`SEGMENT_FILES`] files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct EdgeIndex {
    segments: Vec<Arc<Segment>>,
}

/// The edges from and to the nodes of up to [`SEGMENT_FILES`] consecutive files.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Segment {
    /// The first file's position.
    first: u32,
    /// Where each file's nodes start among the segment's slots, and one past the last.
    slots: Vec<u32>,
    /// The edges leaving the segment's nodes, sorted by `(from, to, kind)`.
    out: Vec<Edge>,
    /// Where each slot's outgoing edges start in `out`, and one past the last.
    out_start: Vec<u32>,
    /// Each slot's sources (the distinct nodes with an edge to it), ascending.
    sources: Vec<NodeId>,
    /// Where each slot's sources start in `sources`, and one past the last.
    in_start: Vec<u32>,
    /// The outgoing edges per kind.
    by_kind: [u32; EdgeKind::ALL.len()],
}

impl Segment {
    /// A segment of the files from position `first` with `node_counts` nodes each and the
    /// outgoing edges `out` (sorted), without sources yet.
    fn with_out(first: u32, node_counts: &[u32], out: Vec<Edge>) -> Segment {
        let mut slots = Vec::with_capacity(node_counts.len() + 1);
        let mut slot = 0u32;
        for &n in node_counts {
            slots.push(slot);
            slot += n;
        }
        slots.push(slot);
        let mut seg = Segment {
            first,
            slots,
            ..Segment::default()
        };
        let mut out_start = vec![0u32; slot as usize + 1];
        for e in &out {
            if let Some(s) = seg.slot(e.from) {
                out_start[s + 1] += 1;
            }
            seg.by_kind[e.kind as usize] += 1;
        }
        for i in 0..slot as usize {
            out_start[i + 1] += out_start[i];
        }
        seg.out_start = out_start;
        seg.out = out;
        seg
    }

    /// `node`'s slot, when the segment holds it.
    fn slot(&self, node: NodeId) -> Option<usize> {
        let f = node.file.checked_sub(self.first)? as usize;
        let (&start, &end) = (self.slots.get(f)?, self.slots.get(f + 1)?);
        (node.local < end - start).then_some((start + node.local) as usize)
    }

    fn slot_count(&self) -> usize {
        self.slots.last().map_or(0, |&n| n as usize)
    }

    /// Sets the sources from `(to, from)` pairs sorted by `to`'s slot and then `from`
    /// (repeats allowed); a pair whose target the segment does not hold is dropped. The
    /// sources are allocated at their final size.
    fn set_sources(&mut self, pairs: &[(NodeId, NodeId)]) {
        let n = self.slot_count();
        let this: &Segment = self;
        let kept = || {
            let mut last = None;
            pairs.iter().filter_map(move |&(to, from)| {
                let s = this.slot(to)?;
                let pair = Some((s, from));
                (std::mem::replace(&mut last, pair) != pair).then_some((s, from))
            })
        };
        let mut in_start = vec![0u32; n + 1];
        for (s, _) in kept() {
            in_start[s + 1] += 1;
        }
        for i in 0..n {
            in_start[i + 1] += in_start[i];
        }
        let mut sources = Vec::with_capacity(in_start[n] as usize);
        sources.extend(kept().map(|(_, from)| from));
        self.sources = sources;
        self.in_start = in_start;
    }

    /// The `(to, from)` pairs of the sources, in slot order.
    fn source_pairs(&self) -> impl Iterator<Item = (NodeId, NodeId)> + '_ {
        (0..self.slots.len().saturating_sub(1)).flat_map(move |f| {
            let file = self.first + f as u32;
            (0..self.slots[f + 1] - self.slots[f]).flat_map(move |local| {
                let s = (self.slots[f] + local) as usize;
                let to = NodeId { file, local };
                self.sources[self.in_start[s] as usize..self.in_start[s + 1] as usize]
                    .iter()
                    .map(move |&from| (to, from))
            })
        })
    }

    /// The outgoing edges of the segment's file at position `file`.
    fn file_out(&self, file: u32) -> &[Edge] {
        let f = (file - self.first) as usize;
        let (first, end) = (self.slots[f] as usize, self.slots[f + 1] as usize);
        &self.out[self.out_start[first] as usize..self.out_start[end] as usize]
    }

    fn heap_bytes(&self) -> usize {
        let u32s = |v: &Vec<u32>| v.capacity() * 4;
        self.out.capacity() * std::mem::size_of::<Edge>()
            + self.sources.capacity() * std::mem::size_of::<NodeId>()
            + u32s(&self.slots)
            + u32s(&self.out_start)
            + u32s(&self.in_start)
            + std::mem::size_of::<Segment>()
    }
}

impl EdgeIndex {
    /// The index of files with `node_counts` nodes each (by position) and the outgoing
    /// edges of each segment's files, `out[s]` in the graph's edge order. Every array is
    /// allocated at its final size (no growth): grown and shrunk lists left the
    /// allocator's pages fragmented, a whole assembly's worth after each new file.
    pub(crate) fn build(node_counts: &[u32], out: Vec<Vec<Edge>>) -> EdgeIndex {
        let mut segments: Vec<Segment> = out
            .into_iter()
            .enumerate()
            .map(|(s, edges)| {
                let first = s * SEGMENT_FILES;
                let counts = &node_counts[first..node_counts.len().min(first + SEGMENT_FILES)];
                Segment::with_out(first as u32, counts, edges)
            })
            .collect();
        let all: Vec<&[Edge]> = segments.iter().map(|s| &s.out[..]).collect();
        let (in_starts, sources) = count_sources(&segments, &all);
        drop(all);
        for ((seg, in_start), sources) in segments.iter_mut().zip(in_starts).zip(sources) {
            seg.in_start = in_start;
            seg.sources = sources;
        }
        EdgeIndex {
            segments: segments.into_iter().map(Arc::new).collect(),
        }
    }

    /// The index [`EdgeIndex::build`] gives for `node_counts` when the outgoing edges of
    /// the segments in `rebuilt` are new (each sorted) and every other segment's are
    /// `prev`'s; `recomputed` marks (by position) the files whose edges may differ from
    /// `prev`'s, all of them in `rebuilt`'s segments, and `recounted` the segments whose
    /// files' node counts may differ. The file list must be `prev`'s, and every edge must
    /// reach a node of the graph it is in (an edge of a file not recomputed, one of both).
    pub(crate) fn update(
        prev: &EdgeIndex,
        node_counts: &[u32],
        rebuilt: Vec<(usize, Vec<Edge>)>,
        recomputed: &[bool],
        recounted: &[bool],
    ) -> EdgeIndex {
        let mut segments: Vec<Arc<Segment>> = prev.segments.clone();
        // Target segments whose sources change: those an old or a new edge of a
        // recomputed file reaches, and those whose slots moved.
        let mut touched: Vec<bool> = recounted.to_vec();
        touched.resize(segments.len(), false);
        let mut new_pairs: Vec<Vec<(NodeId, NodeId)>> = vec![Vec::new(); segments.len()];
        for (s, out) in rebuilt {
            let first = s * SEGMENT_FILES;
            let counts = &node_counts[first..node_counts.len().min(first + SEGMENT_FILES)];
            let old = &prev.segments[s];
            for f in first..first + counts.len() {
                if recomputed.get(f).copied().unwrap_or(false) {
                    for e in old.file_out(f as u32) {
                        if let Some(t) = touched.get_mut(segment_of(e.to.file).0) {
                            *t = true;
                        }
                    }
                }
            }
            let mut seg = Segment::with_out(first as u32, counts, out);
            for e in &seg.out {
                if recomputed
                    .get(e.from.file as usize)
                    .copied()
                    .unwrap_or(false)
                {
                    let t = segment_of(e.to.file).0;
                    if let Some(p) = new_pairs.get_mut(t) {
                        touched[t] = true;
                        p.push((e.to, e.from));
                    }
                }
            }
            // The old sources stay valid over the new slots unless the slots moved (the
            // segment is then `recounted`, and its sources are set again below).
            seg.sources = old.sources.clone();
            seg.in_start = old.in_start.clone();
            segments[s] = Arc::new(seg);
        }
        for (t, pairs) in new_pairs.iter_mut().enumerate() {
            if !touched[t] {
                continue;
            }
            let old = &prev.segments[t];
            let kept = old
                .source_pairs()
                .filter(|(_, from)| !recomputed.get(from.file as usize).copied().unwrap_or(false));
            pairs.extend(kept);
            pairs.sort_unstable();
            let seg = Arc::make_mut(&mut segments[t]);
            seg.set_sources(pairs);
        }
        EdgeIndex { segments }
    }

    /// The edges leaving `node`, sorted by (to, kind); none for a node the index lacks.
    pub(crate) fn outgoing(&self, node: NodeId) -> &[Edge] {
        let Some(seg) = self.segments.get(segment_of(node.file).0) else {
            return &[];
        };
        match seg.slot(node) {
            Some(s) => &seg.out[seg.out_start[s] as usize..seg.out_start[s + 1] as usize],
            None => &[],
        }
    }

    /// The edges reaching `node`, in edge order; none for a node the index lacks.
    pub(crate) fn incoming(&self, node: NodeId) -> impl Iterator<Item = &Edge> {
        let sources = self
            .segments
            .get(segment_of(node.file).0)
            .and_then(|seg| {
                let s = seg.slot(node)?;
                Some(&seg.sources[seg.in_start[s] as usize..seg.in_start[s + 1] as usize])
            })
            .unwrap_or(&[]);
        sources.iter().flat_map(move |&from| {
            let out = self.outgoing(from);
            let at = out.partition_point(|e| e.to < node);
            out[at..].iter().take_while(move |e| e.to == node)
        })
    }

    /// Whether the index holds `node`.
    pub(crate) fn contains(&self, node: NodeId) -> bool {
        self.segments
            .get(segment_of(node.file).0)
            .is_some_and(|seg| seg.slot(node).is_some())
    }

    /// The outgoing edges of the file at position `file`.
    pub(crate) fn file_out(&self, file: u32) -> &[Edge] {
        self.segments
            .get(segment_of(file).0)
            .map_or(&[], |seg| seg.file_out(file))
    }

    /// Every edge, in edge order.
    pub(crate) fn edges(&self) -> impl Iterator<Item = &Edge> {
        self.segments.iter().flat_map(|s| s.out.iter())
    }

    /// How many edges there are.
    pub(crate) fn edge_count(&self) -> usize {
        self.segments.iter().map(|s| s.out.len()).sum()
    }

    /// How many nodes there are.
    pub(crate) fn node_count(&self) -> usize {
        self.segments.iter().map(|s| s.slot_count()).sum()
    }

    /// The edges per kind.
    pub(crate) fn by_kind(&self) -> [u32; EdgeKind::ALL.len()] {
        let mut all = [0u32; EdgeKind::ALL.len()];
        for s in &self.segments {
            for (a, n) in all.iter_mut().zip(s.by_kind) {
                *a += n;
            }
        }
        all
    }

    /// Heap bytes of the segments (shared ones counted once per graph).
    pub(crate) fn heap_bytes(&self) -> usize {
        self.segments.capacity() * std::mem::size_of::<Arc<Segment>>()
            + self.segments.iter().map(|s| s.heap_bytes()).sum::<usize>()
    }

    /// How many segments `files` files take.
    pub(crate) fn segment_count(files: usize) -> usize {
        files.div_ceil(SEGMENT_FILES)
    }

    /// The positions of the files of segment `s` among `files` files.
    pub(crate) fn segment_files(s: usize, files: usize) -> std::ops::Range<usize> {
        s * SEGMENT_FILES..files.min((s + 1) * SEGMENT_FILES)
    }
}

/// Each segment's `in_start` and sources for `edges` (every segment's outgoing edges, in
/// edge order): a counting sort of the distinct (to, from) pairs by target slot, in edge
/// order (by source) within a slot, into arrays of their final size. A pair repeats only
/// in consecutive edges (edge order is by (from, to, kind)).
fn count_sources(segments: &[Segment], edges: &[&[Edge]]) -> (Vec<Vec<u32>>, Vec<Vec<NodeId>>) {
    let distinct = || {
        let mut last = None;
        edges.iter().flat_map(|s| s.iter()).filter(move |e| {
            let pair = Some((e.from, e.to));
            std::mem::replace(&mut last, pair) != pair
        })
    };
    let target = |e: &Edge| {
        let t = segment_of(e.to.file).0;
        Some((t, segments.get(t)?.slot(e.to)?))
    };
    let mut in_starts: Vec<Vec<u32>> = segments
        .iter()
        .map(|seg| vec![0u32; seg.slot_count() + 1])
        .collect();
    for e in distinct() {
        if let Some((t, s)) = target(e) {
            in_starts[t][s + 1] += 1;
        }
    }
    let mut sources = Vec::with_capacity(segments.len());
    let mut next = Vec::with_capacity(segments.len());
    for in_start in &mut in_starts {
        for i in 0..in_start.len() - 1 {
            in_start[i + 1] += in_start[i];
        }
        sources.push(vec![
            NodeId::default();
            *in_start.last().unwrap_or(&0) as usize
        ]);
        next.push(in_start.clone());
    }
    for e in distinct() {
        if let Some((t, s)) = target(e) {
            let at = &mut next[t][s];
            sources[t][*at as usize] = e.from;
            *at += 1;
        }
    }
    (in_starts, sources)
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;

    /// A file: its node count and its outgoing edges as (from local, to file, to local,
    /// kind), kept only where the target exists (see [`EdgeIndex::update`]).
    type FileSpec = (u32, Vec<(u32, u32, u32, usize)>);

    fn file(files: u32) -> impl Strategy<Value = FileSpec> {
        (1u32..5).prop_flat_map(move |count| {
            let edge = (0..count, 0..files, 0u32..6, 0..EdgeKind::ALL.len());
            (Just(count), proptest::collection::vec(edge, 0..6))
        })
    }

    fn edges_of(fi: usize, spec: &FileSpec, exists: &dyn Fn(NodeId) -> bool) -> Vec<Edge> {
        let mut edges: Vec<Edge> = spec
            .1
            .iter()
            .map(|&(from, to_file, to_local, kind)| Edge {
                from: NodeId {
                    file: fi as u32,
                    local: from,
                },
                to: NodeId {
                    file: to_file,
                    local: to_local,
                },
                kind: EdgeKind::ALL[kind],
                certain: true,
                guessed: false,
            })
            .filter(|e| exists(e.to))
            .collect();
        edges.sort_unstable();
        edges.dedup();
        edges
    }

    fn segment_edges(files: &[FileSpec], exists: &dyn Fn(usize, NodeId) -> bool) -> Vec<Vec<Edge>> {
        (0..EdgeIndex::segment_count(files.len()))
            .map(|s| {
                EdgeIndex::segment_files(s, files.len())
                    .flat_map(|fi| edges_of(fi, &files[fi], &|to| exists(fi, to)))
                    .collect()
            })
            .collect()
    }

    fn holds(files: &[FileSpec], node: NodeId) -> bool {
        files
            .get(node.file as usize)
            .is_some_and(|f| node.local < f.0)
    }

    fn counts(files: &[FileSpec]) -> Vec<u32> {
        files.iter().map(|f| f.0).collect()
    }

    fn workspace() -> impl Strategy<Value = (Vec<FileSpec>, Vec<Option<FileSpec>>)> {
        (1u32..2200).prop_flat_map(|n| {
            let before = proptest::collection::vec(file(n), n as usize);
            let after =
                proptest::collection::vec(proptest::option::weighted(0.1, file(n)), n as usize);
            (before, after)
        })
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(24))]

        /// Updating the index for the files an edit recomputed gives the index built
        /// from scratch, and both answer `outgoing` and `incoming` like a scan of every
        /// edge.
        #[test]
        fn an_update_gives_the_index_a_build_gives((before, after) in workspace()) {
            let recomputed: Vec<bool> = after.iter().map(Option::is_some).collect();
            let files: Vec<FileSpec> = before
                .iter()
                .zip(&after)
                .map(|(b, a)| a.clone().unwrap_or_else(|| b.clone()))
                .collect();
            // A file's edges reach existing nodes; those of a file not recomputed are the
            // same before and after, so they reach nodes existing in both.
            let prev = EdgeIndex::build(
                &counts(&before),
                segment_edges(&before, &|fi, to| {
                    holds(&before, to) && (recomputed[fi] || holds(&files, to))
                }),
            );
            let all = segment_edges(&files, &|fi, to| {
                holds(&files, to) && (recomputed[fi] || holds(&before, to))
            });
            let segments = EdgeIndex::segment_count(files.len());
            let touches = |s: usize, changed: &dyn Fn(usize) -> bool| {
                EdgeIndex::segment_files(s, files.len()).any(changed)
            };
            let rebuilt: Vec<(usize, Vec<Edge>)> = (0..segments)
                .filter(|&s| touches(s, &|fi| recomputed[fi]))
                .map(|s| (s, all[s].clone()))
                .collect();
            let recounted: Vec<bool> = (0..segments)
                .map(|s| touches(s, &|fi| before[fi].0 != files[fi].0))
                .collect();
            let updated =
                EdgeIndex::update(&prev, &counts(&files), rebuilt, &recomputed, &recounted);
            let built = EdgeIndex::build(&counts(&files), all);
            prop_assert_eq!(&updated, &built);
            let every: Vec<Edge> = built.edges().copied().collect();
            prop_assert!(every.is_sorted());
            for (fi, spec) in files.iter().enumerate() {
                for local in 0..spec.0 + 1 {
                    let node = NodeId { file: fi as u32, local };
                    let held = local < spec.0;
                    prop_assert_eq!(built.contains(node), held);
                    let out: Vec<Edge> = every.iter().filter(|e| held && e.from == node).copied().collect();
                    prop_assert_eq!(built.outgoing(node), &out[..]);
                    let inc: Vec<Edge> = every.iter().filter(|e| held && e.to == node).copied().collect();
                    let got: Vec<Edge> = built.incoming(node).copied().collect();
                    prop_assert_eq!(got, inc);
                }
            }
        }
    }
}
