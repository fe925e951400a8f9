//! Adaptive sizing on a Python project shaped like the `sizing_chain` fixture: one
//! mechanism (`Chain.proceed`) dispatching to five interchangeable `Step` subclasses. The
//! subclasses off the traced flow render as signature skeletons, as they do in TypeScript.

use sightline_observe::tools::explore_code::{self, ExploreArgs, ExploreResult, WindowView};
use sightline_observe::{CacheMode, Index, IndexOptions};

fn write(root: &std::path::Path, rel: &str, text: &str) {
    let path = root.join(rel);
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

const STEP: &str = "\
class Step:
    \"\"\"One stage a message passes through; it hands on to the rest of the chain.\"\"\"

    def run(self, message, chain):
        raise NotImplementedError
";

const CHAIN: &str = "\
from .step import Step


class Chain:
    \"\"\"Runs a message through its steps in order.\"\"\"

    def __init__(self, steps, index, message):
        self.steps = steps
        self.index = index
        self.message = message

    def proceed(self, message):
        if self.index >= len(self.steps):
            raise RuntimeError(\"no step produced a reply\")
        following = Chain(self.steps, self.index + 1, message)
        return self.steps[self.index].run(message, following)
";

fn step_class(name: &str, extra: &str) -> String {
    format!(
        "from ..step import Step


class {name}(Step):
    def run(self, message, chain):
        reply = chain.proceed(message)
        {extra}
        return reply

    def describe(self):
        first = 1
        second = 2
        third = 3
        return first + second + third
"
    )
}

const CALL: &str = "\
from ..chain.chain import Chain
from ..chain.steps.auth import AuthStep
from ..chain.steps.cache import CacheStep
from ..chain.steps.log import LogStep
from ..chain.steps.retry import RetryStep
from ..chain.steps.send import SendStep


class Call:
    \"\"\"One message on its way out, run through the configured steps.\"\"\"

    def __init__(self, message):
        self.message = message

    def response_with_chain(self):
        steps = [LogStep(), RetryStep(), CacheStep(), AuthStep(), SendStep()]
        chain = Chain(steps, 0, self.message)
        return chain.proceed(self.message)
";

fn project() -> (tempfile::TempDir, Index) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path();
    write(root, "pkg/__init__.py", "");
    write(root, "pkg/chain/__init__.py", "");
    write(root, "pkg/chain/step.py", STEP);
    write(root, "pkg/chain/chain.py", CHAIN);
    write(root, "pkg/chain/steps/__init__.py", "");
    for (file, class) in [
        ("auth", "AuthStep"),
        ("cache", "CacheStep"),
        ("log", "LogStep"),
        ("retry", "RetryStep"),
        ("send", "SendStep"),
    ] {
        let extra = format!("reply.headers[\"{file}\"] = True");
        write(
            root,
            &format!("pkg/chain/steps/{file}.py"),
            &step_class(class, &extra),
        );
    }
    write(root, "pkg/client/__init__.py", "");
    write(root, "pkg/client/call.py", CALL);
    let options = IndexOptions {
        cache: CacheMode::Disabled,
        progress: None,
    };
    let index = Index::open(root, &options).unwrap();
    (dir, index)
}

fn explore(index: &Index, adaptive: bool) -> ExploreResult {
    let mut args =
        ExploreArgs::new("how does response_with_chain run each Step through Chain proceed");
    args.max_files = 8;
    args.adaptive = adaptive;
    explore_code::run(index.db(), index.workspace(), &args).unwrap()
}

fn views(result: &ExploreResult, path: &str) -> Option<Vec<WindowView>> {
    result
        .files
        .iter()
        .find(|f| f.path == path)
        .map(|f| f.windows.iter().map(|w| w.view).collect())
}

#[test]
fn python_step_subclasses_off_the_flow_render_as_skeletons() {
    let (_dir, index) = project();
    assert_eq!(index.report().imports_unresolved, 0);
    let result = explore(&index, true);
    let shown: Vec<&str> = result.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(
        views(&result, "pkg/chain/chain.py"),
        Some(vec![WindowView::Full]),
        "{shown:?}"
    );
    let skeletons = shown
        .iter()
        .filter(|p| p.starts_with("pkg/chain/steps/"))
        .filter(|p| {
            views(&result, p).is_some_and(|v| v.iter().all(|v| *v == WindowView::Signatures))
        })
        .count();
    assert!(skeletons >= 1, "{}", result.render_text(&|_, _| None));
    // Without sizing every shown window is full.
    let off = explore(&index, false);
    assert!(
        off.files
            .iter()
            .all(|f| f.windows.iter().all(|w| w.view == WindowView::Full))
    );
}
