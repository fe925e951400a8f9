//! `references` with `callees`: the call tree below a declaration lists its own uses, and
//! under each function it calls, that function's calls, each a call the code makes on a
//! line of its caller; within the line budget and the depth asked for, and, when it says
//! nothing was left out, every function the calls reach within that depth.

mod common;

use std::collections::BTreeSet;

use proptest::prelude::*;
use sightline_observe::tools::nav::Spot;
use sightline_observe::tools::nav::references::{self, ReferencesArgs, ReferencesResult};

fn no_tag(_: &str, _: Spot) -> Option<String> {
    None
}

fn tree(index: &sightline_observe::Index, name: &str, max: usize, depth: u32) -> ReferencesResult {
    let mut args = ReferencesArgs::new(name);
    args.callees = true;
    args.max_results = max;
    args.depth = depth;
    references::run(index.db(), index.workspace(), &args).unwrap()
}

fn number(name: &str) -> usize {
    name.trim_start_matches("step").parse().unwrap()
}

/// The functions `calls` reaches from `from` in 1 to `depth` calls.
fn reached(calls: &[Vec<usize>], from: usize, depth: u32) -> BTreeSet<usize> {
    let mut seen: BTreeSet<usize> = calls[from].iter().copied().collect();
    let mut frontier = seen.clone();
    for _ in 1..depth {
        let next: BTreeSet<usize> = frontier
            .iter()
            .filter(|&&f| f != from)
            .flat_map(|&f| calls[f].iter().copied())
            .filter(|g| !seen.contains(g))
            .collect();
        seen.extend(next.iter().copied());
        frontier = next;
    }
    seen
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_call_tree_lists_calls_the_code_makes_within_its_budget_and_depth(
        calls in (3usize..8).prop_flat_map(|n| proptest::collection::vec(
            proptest::collection::vec(0..n, 0..4), n)),
        files in 1usize..4,
        max in 1usize..24,
        depth in 1u32..6,
    ) {
        // No function calls itself, and each callee once.
        let calls = common::call_project::simple(&calls);
        let (_dir, index, at) = common::call_project::indexed(&calls, files);
        for root in 0..calls.len() {
            let r = tree(&index, &format!("step{root}"), max, depth);
            prop_assert!(r.calls.len() <= max, "{} lines for a budget of {}", r.calls.len(), max);
            // The target's own calls come first, all of them or as many as fit.
            let own: Vec<usize> = r.calls.iter().filter(|c| c.depth == 0).map(|c| number(&c.callee.name)).collect();
            prop_assert_eq!(own.len() + r.more, calls[root].len());
            prop_assert!(own.iter().all(|g| calls[root].contains(g)), "{:?}", own);
            // Each hit below the first level is a call, on one of its lines, of the
            // function listed last one level up; no function's calls are listed twice.
            // (function, the index of its line; the target has none)
            let mut caller_of_depth: Vec<(usize, Option<usize>)> = vec![(root, None)];
            let mut followed_at: std::collections::BTreeMap<usize, Option<usize>> = Default::default();
            for (i, c) in r.calls.iter().enumerate() {
                let d = c.depth as usize;
                prop_assert!(d < depth as usize, "depth {} for {} asked", d, depth);
                prop_assert!(d < caller_of_depth.len(), "{:?} has no caller above it", c);
                caller_of_depth.truncate(d + 1);
                let (caller, line_of_caller) = caller_of_depth[d];
                let callee = number(&c.callee.name);
                prop_assert!(calls[caller].contains(&callee), "step{} does not call {:?}", caller, c);
                let (_, start, end) = at[caller];
                prop_assert!(start <= c.line && c.line <= end, "{:?} outside step{}", c, caller);
                let first = *followed_at.entry(caller).or_insert(line_of_caller);
                prop_assert_eq!(first, line_of_caller, "step{} followed twice", caller);
                caller_of_depth.push((callee, Some(i)));
            }
            // Nothing said to be left out: every function reached within the depth is listed.
            if r.more == 0 && r.unfollowed == 0 {
                let listed: BTreeSet<usize> = r.calls.iter().map(|c| number(&c.callee.name)).collect();
                prop_assert_eq!(listed, reached(&calls, root, depth));
            }
            // One line per hit, indented by its depth.
            let text = r.render_tagged(&no_tag);
            let lines: Vec<&str> = text.lines().skip(1).take(r.calls.len()).collect();
            prop_assert_eq!(lines.len(), r.calls.len());
            for (line, c) in lines.iter().zip(&r.calls) {
                let indent = line.len() - line.trim_start().len();
                prop_assert_eq!(indent, 2 * c.depth as usize, "{}", line);
                prop_assert!(line.trim_start().starts_with(&c.line.to_string()), "{}", line);
            }
        }
    }
}

/// A call tree across two files: the target's file's functions followed first, a callee
/// in the caller's file printed without its path, a function called twice followed once,
/// and depth 1 the flat list of what the target uses.
#[test]
fn a_call_tree_renders_nested_calls() {
    let (dir, _root) = common::temp_repo(&[
        (
            "src/store.ts",
            "import { send } from './send';\n\nexport function save(r: string) {\n  check(r);\n  flush(r);\n}\n\nfunction check(r: string) {\n  return r.length > 0;\n}\n\nfunction flush(r: string) {\n  check(r);\n  send([r]);\n}\n",
        ),
        (
            "src/send.ts",
            "export function send(items: string[]) {\n  encode(items);\n}\n\nfunction encode(items: string[]) {\n  return items.join(',');\n}\n",
        ),
    ]);
    let index = common::open_uncached(dir.path());
    let nested = tree(&index, "save", 40, 4);
    insta::assert_snapshot!("callee_tree_nested", nested.render_tagged(&no_tag));
    let flat = tree(&index, "save", 40, 1);
    assert!(flat.calls.iter().all(|c| c.depth == 0));
    assert_eq!(flat.unfollowed, 0, "a flat list is not a tree cut short");
    let two = tree(&index, "save", 40, 2);
    assert_eq!(
        two.unfollowed, 1,
        "send calls what two levels leave out: {two:?}"
    );
    insta::assert_snapshot!("callee_tree_flat", flat.render_tagged(&no_tag));
    let tight = tree(&index, "save", 3, 4);
    assert!(tight.calls.len() <= 3);
    assert!(tight.unfollowed > 0, "{tight:?}");
}
