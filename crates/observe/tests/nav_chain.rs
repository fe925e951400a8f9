//! `references` with `to`: the chain of uses from one declaration to another is a shortest
//! chain of the calls the code makes, each step a line of the declaration it leaves that
//! calls the next; the other direction answers when only it has one; none is invented.

mod common;

use proptest::prelude::*;
use sightline_observe::tools::nav::Spot;

fn no_tag(_: &str, _: Spot) -> Option<String> {
    None
}

use common::chain;

proptest! {
    #![proptest_config(ProptestConfig { cases: 96, ..ProptestConfig::default() })]

    /// Between every two functions: a chain exactly as long as the fewest calls that lead
    /// from the one to the other (or, when none does, the other way), made of calls the
    /// code makes, each on a line of the function it leaves, each step starting where the
    /// one before ended.
    #[test]
    fn a_chain_is_a_shortest_run_of_the_calls_the_code_makes(
        calls in (3usize..7).prop_flat_map(|n| proptest::collection::vec(
            proptest::collection::vec(0..n, 0..3), n)),
        files in 1usize..4,
    ) {
        // No function calls itself, and each callee once.
        let calls = common::call_project::simple(&calls);
        let (_dir, index, at) = common::call_project::indexed(&calls, files);
        for from in 0..calls.len() {
            for to in (0..calls.len()).filter(|&t| t != from) {
                let r = chain(&index, &format!("step{from}"), &format!("step{to}"));
                let c = r.chain.as_ref().unwrap();
                let (forward, back) = (
                    common::call_project::distance(&calls, from, to),
                    common::call_project::distance(&calls, to, from),
                );
                let (expected, reversed, first, last) = match (forward, back) {
                    (Some(d), _) => (d, false, from, to),
                    (None, Some(d)) => (d, true, to, from),
                    (None, None) => (0, false, from, to),
                };
                prop_assert_eq!(c.steps.len(), expected, "step{} to step{}: {:?}", from, to, c.steps);
                if expected == 0 {
                    continue;
                }
                prop_assert_eq!(c.reversed, reversed);
                prop_assert_eq!(&c.steps[0].from, &format!("step{first}"));
                prop_assert_eq!(&c.steps[expected - 1].to.name, &format!("step{last}"));
                for (k, step) in c.steps.iter().enumerate() {
                    let user: usize = step.from.trim_start_matches("step").parse().unwrap();
                    let used: usize = step.to.name.trim_start_matches("step").parse().unwrap();
                    prop_assert!(calls[user].contains(&used), "{:?} is no call of the code", step);
                    let (module, start, end) = at[user];
                    prop_assert_eq!(&step.path, &format!("src/mod{module}.ts"));
                    prop_assert!(start <= step.line && step.line <= end, "{:?}", step);
                    prop_assert_eq!(&step.text, &format!("step{used}();"));
                    prop_assert!(step.certain, "{:?}", step);
                    if let Some(next) = c.steps.get(k + 1) {
                        prop_assert_eq!(&next.from, &step.to.qualified);
                    }
                }
            }
        }
    }
}

/// The chain through a type's method, how it renders, and the answers when there is none
/// or `to` names nothing.
#[test]
fn a_chain_through_methods_renders_one_line_per_step() {
    let (dir, _root) = common::temp_repo(&[
        (
            "src/store.ts",
            "import { Queue } from './queue';\n\nexport class Store {\n  private queue = new Queue();\n\n  save(record: string) {\n    this.queue.push(record);\n  }\n}\n",
        ),
        (
            "src/queue.ts",
            "import { send } from './send';\n\nexport class Queue {\n  items: string[] = [];\n\n  push(item: string) {\n    this.items.push(item);\n    this.flush();\n  }\n\n  flush() {\n    send(this.items);\n  }\n}\n",
        ),
        (
            "src/send.ts",
            "export function send(items: string[]) {\n  return items.length;\n}\n\nexport function unrelated() {\n  return 0;\n}\n",
        ),
    ]);
    let index = common::open_uncached(dir.path());
    let forward = chain(&index, "Store.save", "send");
    let steps = &forward.chain.as_ref().unwrap().steps;
    assert_eq!(
        steps
            .iter()
            .map(|s| s.to.qualified.as_str())
            .collect::<Vec<_>>(),
        ["Queue.push", "Queue.flush", "send"],
        "{steps:?}"
    );
    insta::assert_snapshot!("chain_forward", forward.render_tagged(&no_tag));

    let back = chain(&index, "send", "Store.save");
    assert!(back.chain.as_ref().unwrap().reversed);
    assert_eq!(back.chain.as_ref().unwrap().steps, *steps);
    insta::assert_snapshot!("chain_reversed", back.render_tagged(&no_tag));

    let none = chain(&index, "unrelated", "Store.save");
    assert!(none.chain.as_ref().unwrap().steps.is_empty());
    insta::assert_snapshot!("chain_none", none.render_tagged(&no_tag));

    let unknown = chain(&index, "Store.save", "sendd");
    assert!(unknown.chain.as_ref().unwrap().ends.is_empty());
    assert_eq!(unknown.chain.as_ref().unwrap().to_nearest[0].name, "send");
    insta::assert_snapshot!("chain_unknown_end", unknown.render_tagged(&no_tag));
}

/// An instantiation runs the constructor its language names (`constructor`, `__init__`),
/// so a chain goes on through it; a type only named (a parameter's annotation) does not.
#[test]
fn an_instantiation_goes_on_through_the_constructor() {
    let (dir, _root) = common::temp_repo(&[
        (
            "src/queue.ts",
            "export class Queue {\n  constructor(size: number) {\n    this.reset();\n  }\n  reset() {}\n}\n",
        ),
        (
            "src/make.ts",
            "import { Queue } from './queue';\n\nexport function make() {\n  return new Queue(1);\n}\n\nexport function typed(q: Queue) {\n  return q;\n}\n",
        ),
        (
            "pool.py",
            "class Pool:\n    def __init__(self):\n        self.setup()\n\n    def setup(self):\n        pass\n\n\ndef build():\n    return Pool()\n",
        ),
    ]);
    let index = common::open_uncached(dir.path());
    for (from, to, expected, constructor) in [
        (
            "make",
            "Queue.reset",
            ["Queue", "Queue.reset"],
            "Queue.constructor",
        ),
        (
            "build",
            "Pool.setup",
            ["Pool", "Pool.setup"],
            "Pool.__init__",
        ),
    ] {
        let r = chain(&index, from, to);
        let steps = &r.chain.as_ref().unwrap().steps;
        let used: Vec<&str> = steps.iter().map(|s| s.to.qualified.as_str()).collect();
        assert_eq!(used, expected, "{}", r.render_tagged(&no_tag));
        assert_eq!(steps[1].from, constructor);
    }
    let named_only = chain(&index, "typed", "Queue.reset");
    assert!(
        named_only.chain.as_ref().unwrap().steps.is_empty(),
        "{}",
        named_only.render_tagged(&no_tag)
    );
}

/// A call of a method may run an override of it: the chain steps from the method to the
/// override in a class that extends its class (printed at that class's heritage clause),
/// through a variable whose type the code states; a `with` block runs its manager's
/// `__exit__`. A direct call wins over a path through an override.
#[test]
fn a_call_goes_on_into_overrides_and_a_with_block_into_its_manager() {
    let (dir, _root) = common::temp_repo(&[
        (
            "transports.py",
            "class Base:\n    def handle(self):\n        raise NotImplementedError\n\n\nclass Middle(Base):\n    pass\n\n\nclass Http(Middle):\n    def handle(self):\n        return self.flush()\n\n    def flush(self):\n        pass\n",
        ),
        (
            "client.py",
            "from transports import Base, Http\n\n\nclass Client:\n    def send(self, transport: Base):\n        return transport.handle()\n\n    def direct(self):\n        Http().flush()\n        return self.send(None)\n\n    def close(self):\n        with self:\n            pass\n\n    def __exit__(self, *args):\n        self.release()\n\n    def release(self):\n        pass\n",
        ),
    ]);
    let index = common::open_uncached(dir.path());
    let r = chain(&index, "Client.send", "Http.flush");
    let steps = &r.chain.as_ref().unwrap().steps;
    let used: Vec<&str> = steps.iter().map(|s| s.to.qualified.as_str()).collect();
    assert_eq!(
        used,
        ["Base.handle", "Http.handle", "Http.flush"],
        "{}",
        r.render_tagged(&no_tag)
    );
    // The override step is the subclass's heritage line, through a class that declares none.
    assert_eq!(
        (steps[1].path.as_str(), steps[1].line),
        ("transports.py", 10)
    );
    insta::assert_snapshot!("chain_override", r.render_tagged(&no_tag));

    let direct = chain(&index, "Client.direct", "Http.flush");
    let steps = &direct.chain.as_ref().unwrap().steps;
    assert_eq!(steps.len(), 1, "{}", direct.render_tagged(&no_tag));

    let with = chain(&index, "Client.close", "Client.release");
    let used: Vec<String> = with
        .chain
        .as_ref()
        .unwrap()
        .steps
        .iter()
        .map(|s| s.to.qualified.clone())
        .collect();
    assert_eq!(
        used,
        ["Client.__exit__", "Client.release"],
        "{}",
        with.render_tagged(&no_tag)
    );
}
