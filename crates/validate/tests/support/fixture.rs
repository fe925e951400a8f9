//! A registry built from synthetic observations of a small, made-up repository, recorded
//! with `NoOutline` so every range is exactly the observed one.
//!
//! IDs, in arrival order:
//! - c1 `src/routes/index.ts:1-12`  explore window, text observed
//! - c2 `src/routes/index.ts:30-44` explore window, text observed
//! - c3 `src/ui/panel.tsx:10-24`    explore window, text observed
//! - c4 `src/services/queue.ts:5-30` ranked past the cap, no text
//! - c5 `src/store/state.ts:7-9`    grep match at 8 with its context, lines 7-9 observed
//! - c6 `src/store/state.ts:40`     grep match cut short, no text
//! - c7 `src/services/queue.ts:40-47` read, text observed
//! - c8 `src/big/table.ts:1-200`    read, wider than the read budget
//! - c9 `README.md`, c10 `package.json` listed, no range

use sightline_observe::LineRange;
use sightline_observe::query::QueryTerms;
use sightline_observe::search::ScoreComponents;
use sightline_observe::tools::SkipCounts;
use sightline_observe::tools::explore_code::{
    ExploreResult, ExploredFile, FileMatch, Truncation, Window, WindowSymbol,
};
use sightline_observe::tools::grep::{GrepLine, GrepMatch, GrepResult};
use sightline_observe::tools::list_files::{EntryKind, ListEntry, ListFilesResult};
use sightline_observe::tools::read_file::ReadFileResult;
use sightline_registry::RecordObservation as _;
use sightline_registry::{
    Action, CandidateId, Confidence, FlowLink, NoOutline, Observation, ReadTarget, Registry,
    SearchTarget, Selection,
};

pub const ROUTES_HEAD: &str = r#"import { Router } from "./router";
import { Panel } from "../ui/panel";

export function buildRoutes(router: Router) {
  router.add("/", Panel);
  router.add("/queue/:id", openQueue);
  return router;
}

function openQueue(id: string) {
  return loadQueue(id);
}
"#;

pub const ROUTES_DISPATCH: &str = r#"export class Dispatcher {
  private handlers = new Map<string, Handler>();

  register(name: string, handler: Handler) {
    this.handlers.set(name, handler);
  }

  dispatch(name: string, payload: unknown) {
    const handler = this.handlers.get(name);
    if (!handler) {
      throw new Error(`no handler for ${name}`);
    }
    return handler(payload);
  }
}
"#;

pub const PANEL: &str = r#"export function Panel({ id }: PanelProps) {
  const state = useStore((s) => s.current);
  const onSelect = (next: string) => {
    selectItem(next);
  };
  return (
    <section className="panel">
      <List items={state.items} onSelect={onSelect} />
    </section>
  );
}

export function PanelHeader() {
  return <h2>Panel</h2>;
}
"#;

pub const QUEUE_LOAD: &str = r#"export async function loadQueue(id: string) {
  const response = await fetch(`/api/queue/${id}`);
  if (!response.ok) {
    throw new Error("queue load failed");
  }
  const body = await response.json();
  return parseQueue(body);
}
"#;

fn lines_of(text: &str) -> u32 {
    text.lines().count() as u32
}

fn symbol(name: &str, kind: &str, line: u32) -> WindowSymbol {
    WindowSymbol {
        name: name.to_owned(),
        qualified: name.to_owned(),
        kind: kind.to_owned(),
        line,
    }
}

fn window(start: u32, text: &str, symbols: Vec<WindowSymbol>) -> Window {
    Window {
        lines: LineRange::new(start, start + lines_of(text) - 1),
        symbols,
        score: 1.0,
        reason: "name matches".to_owned(),
        text: text.to_owned(),
        truncated: false,
        view: Default::default(),
        place: None,
        alike: None,
        evidence: Vec::new(),
    }
}

fn explored(path: &str, windows: Vec<Window>) -> ExploredFile {
    ExploredFile {
        path: path.to_owned(),
        score: 1.0,
        components: ScoreComponents::default(),
        matched_terms: Vec::new(),
        windows,
    }
}

fn explore() -> Observation {
    Observation::ExploreCode(ExploreResult {
        query: "how does a route open a queue".to_owned(),
        terms: QueryTerms::default(),
        matched_files: 3,
        matched_symbols: 4,
        files: vec![
            explored(
                "src/routes/index.ts",
                vec![
                    window(
                        1,
                        ROUTES_HEAD,
                        vec![
                            symbol("buildRoutes", "function", 4),
                            symbol("openQueue", "function", 10),
                        ],
                    ),
                    window(30, ROUTES_DISPATCH, vec![symbol("Dispatcher", "class", 30)]),
                ],
            ),
            explored(
                "src/ui/panel.tsx",
                vec![window(10, PANEL, vec![symbol("Panel", "function", 10)])],
            ),
        ],
        more_files: vec![FileMatch {
            path: "src/services/queue.ts".to_owned(),
            score: 0.5,
            components: ScoreComponents::default(),
            best_symbol: Some(symbol("QueueService", "class", 5)),
            best_range: Some(LineRange::new(5, 30)),
        }],
        truncation: Truncation::default(),
        not_indexed: None,
    })
}

fn grep_line(line: u32, text: &str) -> GrepLine {
    GrepLine {
        line,
        text: text.to_owned(),
        truncated: false,
    }
}

fn grep() -> Observation {
    Observation::Grep(GrepResult {
        matches: vec![
            GrepMatch {
                path: "src/store/state.ts".to_owned(),
                line: 8,
                text: "export const selectItem = (id: string) => store.set({ current: id });"
                    .to_owned(),
                truncated: false,
                context_before: vec![grep_line(7, "// selecting updates the current entry")],
                context_after: vec![grep_line(
                    9,
                    "export const clearItem = () => store.set({ current: null });",
                )],
            },
            GrepMatch {
                path: "src/store/state.ts".to_owned(),
                line: 40,
                text: "export const bigSelector = createSelector([a, b, c], (a, b".to_owned(),
                truncated: true,
                context_before: Vec::new(),
                context_after: Vec::new(),
            },
        ],
        files_searched: 12,
        files_with_matches: 1,
        files_skipped_binary: 0,
        files_skipped_large: 0,
        ..GrepResult::default()
    })
}

fn read(path: &str, start: u32, text: &str) -> Observation {
    Observation::ReadFile(ReadFileResult {
        path: path.to_owned(),
        start_line: start,
        end_line: start + lines_of(text) - 1,
        total_lines: 400,
        text: text.to_owned(),
        ..ReadFileResult::default()
    })
}

fn listing() -> Observation {
    let entry = |path: &str, kind| ListEntry {
        path: path.to_owned(),
        kind,
        size: Some(10),
    };
    Observation::ListFiles(ListFilesResult {
        root: ".".to_owned(),
        entries: vec![
            entry("README.md", EntryKind::File),
            entry("package.json", EntryKind::File),
            entry("src", EntryKind::Dir),
        ],
        truncated: false,
        skipped: SkipCounts::default(),
        diagnostics: Vec::new(),
        empty_scope: None,
    })
}

pub fn table_text() -> String {
    (1..=200)
        .map(|i| format!("export const row{i} = {i};\n"))
        .collect()
}

/// The fixture registry (see the module docs for its IDs).
pub fn registry() -> Registry {
    let mut r = Registry::new();
    r.record(0, &explore(), &NoOutline);
    r.record(1, &grep(), &NoOutline);
    r.record(
        2,
        &read("src/services/queue.ts", 40, QUEUE_LOAD),
        &NoOutline,
    );
    r.record(3, &read("src/big/table.ts", 1, &table_text()), &NoOutline);
    r.record(4, &listing(), &NoOutline);
    r
}

/// Number of candidates in the fixture registry.
pub const KNOWN: u32 = 10;

pub fn id(n: u32) -> CandidateId {
    CandidateId(n)
}

pub fn link(n: u32, role: &str, fact: &str, quote: &str) -> FlowLink {
    FlowLink {
        candidate: id(n),
        role: role.to_owned(),
        fact: fact.to_owned(),
        quote: quote.to_owned(),
        evidence: Vec::new(),
    }
}

/// Every observed line of the fixture's candidates, as `(line number, text)`: evidence
/// lines that check out against the candidate that shows them.
pub fn observed_lines() -> Vec<(u32, String)> {
    let registry = registry();
    let mut out = Vec::new();
    for c in registry.iter() {
        for o in &c.observed {
            for (n, text) in (o.lines.start..).zip(o.text.lines()) {
                out.push((n, text.to_owned()));
            }
        }
    }
    out
}

pub fn read_target(n: u32, purpose: &str, required: bool) -> ReadTarget {
    ReadTarget {
        candidate: id(n),
        purpose: purpose.to_owned(),
        required,
    }
}

pub fn search(term: &str, scope: Option<&str>) -> SearchTarget {
    SearchTarget {
        term: term.to_owned(),
        scope: scope.map(str::to_owned),
    }
}

/// An empty selection to build on.
pub fn selection(action: Action, confidence: Confidence) -> Selection {
    Selection {
        primary: Vec::new(),
        flow: Vec::new(),
        read_targets: Vec::new(),
        missing: Vec::new(),
        action,
        search_targets: Vec::new(),
        confidence,
        runners_up: Vec::new(),
    }
}

/// What a deterministic ranker might fall back to: two ranged places and one read, at a
/// calibrated level (`high`) that caps no submission.
pub fn fallback() -> Selection {
    Selection {
        primary: vec![id(1), id(3)],
        read_targets: vec![read_target(1, "entry point", true)],
        ..selection(Action::ReadTargets, Confidence::High)
    }
}

/// A well-formed selection for the fixture whose quotes all verify.
pub fn good_selection() -> Selection {
    Selection {
        primary: vec![id(1), id(3), id(7)],
        flow: vec![
            link(
                1,
                "entry",
                "The route table sends queue paths to openQueue.",
                r#"router.add("/queue/:id", openQueue);"#,
            ),
            link(
                3,
                "ui",
                "Selecting an entry calls selectItem.",
                "selectItem(next);",
            ),
            link(
                5,
                "state",
                "selectItem stores the current entry.",
                "export const selectItem = (id: string) => store.set({ current: id });",
            ),
            link(
                1,
                "handler",
                "openQueue loads the queue by id.",
                "function openQueue(id: string) {\n  return loadQueue(id);",
            ),
            link(
                7,
                "data",
                "loadQueue fetches and parses the queue.",
                "  41 const response = await fetch(`/api/queue/${id}`);",
            ),
        ],
        read_targets: vec![
            read_target(7, "the fetch and its error path", true),
            read_target(5, "the state update", false),
        ],
        missing: Vec::new(),
        action: Action::AnswerFromReport,
        search_targets: Vec::new(),
        confidence: Confidence::High,
        runners_up: Vec::new(),
    }
}

/// Quotes that verify against a candidate, and quotes that do not.
pub fn verified_quotes() -> Vec<(u32, String)> {
    vec![
        (1, r#"router.add("/", Panel);"#.to_owned()),
        (
            1,
            "export function buildRoutes(router: Router) {\n  router.add(\"/\", Panel);".to_owned(),
        ),
        (
            2,
            "   38   dispatch(name: string, payload: unknown) {".to_owned(),
        ),
        (2, "const handler = this.handlers.get(name);".to_owned()),
        (
            3,
            "<List items={state.items} onSelect={onSelect} />".to_owned(),
        ),
        (5, "// selecting updates the current entry".to_owned()),
        (
            7,
            "42| if (!response.ok) {\n43|   throw new Error(\"queue load failed\");".to_owned(),
        ),
        (8, "export const row17 = 17;".to_owned()),
    ]
}

pub fn unverified_quotes() -> Vec<(u32, String)> {
    vec![
        (1, "router.add(\"/settings\", Settings);".to_owned()),
        (
            3,
            "selectItem(next)\nreturn null;\nconsole.log(1);".to_owned(),
        ),
        (4, "class QueueService {".to_owned()),
        (6, "export const bigSelector".to_owned()),
        (9, "# Readme".to_owned()),
        (2, "   ".to_owned()),
        (
            7,
            "return parseQueue(body);\nthrow new Error(\"queue load failed\");".to_owned(),
        ),
    ]
}
