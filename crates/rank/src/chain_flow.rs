//! A traced chain in the deterministic selection. When the deterministic explore followed
//! the calls from the function a question names to the declaration its other words
//! describe (`references` with `to`, recorded by the agent crate's `chain_probe`), the
//! chain is the flow the question asks about, and the report shows it step by step: the
//! chain's start is the primary place, each step is the place that makes the call,
//! quoting the call's line, and the chain's end quotes its signature. Every link cites a
//! candidate the chain's own observation registered, and every quote is a line that
//! observation showed whole, so validation checks them like any other.

use sightline_observe::tools::nav::chain::{Chain, ChainStep};
use sightline_observe::tools::nav::definition::DefinitionHit;
use sightline_observe::tools::nav::references::UseKind;
use sightline_registry::selection::{MAX_FLOW, MAX_NAMED_FILES};
use sightline_registry::{Action, Confidence, ReadTarget, Selection, ToolCall};
use sightline_registry::{
    Candidate, CandidateId, FlowLink, Location, Observation, RecordedCall, Registry,
};

/// A chain a session traced, with the declaration it starts from.
#[derive(Clone, Copy, Debug)]
pub struct Traced<'a> {
    /// The declaration asked about: where the chain starts.
    pub start: &'a DefinitionHit,
    /// The chain from it.
    pub chain: &'a Chain,
}

/// The chain the session traced last: the latest `references` call with `to` whose chain
/// [`fits`] the report and runs from the declaration asked about.
pub fn traced_chain(calls: &[RecordedCall]) -> Option<Traced<'_>> {
    calls
        .iter()
        .rev()
        .find_map(|c| match (&c.call, &c.observation) {
            (ToolCall::References(args), Observation::References(r)) if args.to.is_some() => {
                let chain = r.chain.as_ref().filter(|c| fits(c) && !c.reversed)?;
                Some(Traced {
                    start: r.targets.first()?,
                    chain,
                })
            }
            _ => None,
        })
}

/// Whether `chain` is one the report can show whole: at least one step, no use the graph
/// only guessed (a guessed step on a common method name can lead anywhere), every step's
/// line shown whole (a quote must be verbatim), and a link per step plus one for its end
/// within the flow's limit.
pub fn fits(chain: &Chain) -> bool {
    !chain.steps.is_empty()
        && !chain.guessed
        && chain.steps.len() < MAX_FLOW
        && chain.steps.iter().all(|s| s.text_whole)
}

/// The flow links of `chain`: one per step, at the candidate its line went to, quoting
/// the line; then the end's declaration, quoting its signature. None at all when a step
/// cannot be quoted (no candidate holds its line verbatim): a chain with a gap would read
/// as calls that are not there.
pub fn chain_links(chain: &Chain, registry: &Registry) -> Vec<FlowLink> {
    let Some(mut links) = chain
        .steps
        .iter()
        .map(|step| step_link(step, registry))
        .collect::<Option<Vec<FlowLink>>>()
    else {
        return Vec::new();
    };
    if let Some(end) = &chain.end
        && let Some(c) = registry.at(&end.path, Location::Lines(end.lines))
    {
        links.extend(signature_link(end, c));
    }
    links
}

/// A link quoting declaration `d`'s signature line, when its candidate `c` holds it
/// verbatim: the chain's end, or its start when no step quotes it.
fn signature_link(d: &DefinitionHit, c: &Candidate) -> Option<FlowLink> {
    let quote = c.observed_line(d.signature_line)?.trim();
    (!quote.is_empty()).then(|| FlowLink {
        candidate: c.id,
        role: d.kind.clone(),
        fact: d.qualified.clone(),
        quote: quote.to_owned(),
        evidence: Vec::new(),
    })
}

/// The link of one step: `from` uses `to` at the step's line.
fn step_link(step: &ChainStep, registry: &Registry) -> Option<FlowLink> {
    let c = registry.at(&step.path, Location::Hit(step.line))?;
    let quote = c.observed_line(step.line)?.trim();
    if quote.is_empty() {
        return None;
    }
    let verb = match step.kind {
        UseKind::Call => "calls",
        UseKind::Render => "renders",
        UseKind::Instantiate => "instantiates",
        UseKind::Extends => "extends to",
        UseKind::Implements => "implements to",
        UseKind::Reference => "passes on",
    };
    Some(FlowLink {
        candidate: c.id,
        role: c
            .symbols
            .first()
            .map(|s| s.kind.clone())
            .unwrap_or_default(),
        fact: format!("{} {verb} {}", step.from, step.to.qualified),
        quote: quote.to_owned(),
        evidence: Vec::new(),
    })
}

/// `selection` with the traced chain as its answer: the chain's start is the one primary
/// place (its own link first, or its signature, when the chain's first step is another
/// candidate inside it), the chain's links are the flow, and the places the
/// selection had chosen besides join the runners-up (files the report does not otherwise
/// cite, at most [`MAX_NAMED_FILES`] named with the primary place's). The confidence drops
/// to `low` when the start is not in the file the ranking put first (the level speaks of
/// that file), and a `low` selection reads the start. Unchanged when the chain cannot be
/// quoted whole or its start was not registered.
pub fn with_chain(mut selection: Selection, traced: Traced<'_>, registry: &Registry) -> Selection {
    let links = chain_links(traced.chain, registry);
    let start = registry.at(&traced.start.path, Location::Lines(traced.start.lines));
    let (Some(first), Some(start)) = (links.first(), start) else {
        return selection;
    };
    // The start's own link (why the ranking chose it, else its signature) heads the flow,
    // unless the chain's first step is that very candidate or the chain fills the flow.
    let own: Option<FlowLink> = (first.candidate != start.id && links.len() < MAX_FLOW)
        .then(|| {
            selection
                .flow
                .iter()
                .find(|l| l.candidate == start.id)
                .cloned()
                .or_else(|| signature_link(traced.start, start))
        })
        .flatten();
    let others: Vec<CandidateId> = selection
        .primary
        .iter()
        .copied()
        .filter(|id| *id != start.id)
        .chain(selection.runners_up.iter().copied())
        .collect();
    let cited: Vec<&str> = std::iter::once(start.id)
        .chain(links.iter().map(|l| l.candidate))
        .filter_map(|id| registry.get(id))
        .map(|c| c.path.as_str())
        .collect();
    let mut runners_up: Vec<CandidateId> = Vec::new();
    let mut named: Vec<&str> = Vec::new();
    for id in others {
        let Some(c) = registry.get(id) else {
            continue;
        };
        let path = c.path.as_str();
        if cited.contains(&path) || named.contains(&path) {
            continue;
        }
        if 1 + named.len() >= MAX_NAMED_FILES {
            break;
        }
        named.push(path);
        runners_up.push(id);
    }
    // The level was calibrated on whether the ranking's first file is right: it says
    // nothing of a start in another file.
    let first_file = selection.primary.first().and_then(|id| registry.get(*id));
    if first_file.is_none_or(|c| c.path != start.path) {
        selection.confidence = Confidence::Low;
    }
    selection.primary = vec![start.id];
    selection.runners_up = runners_up;
    selection.flow = own.into_iter().chain(links).collect();
    let kept = |id: CandidateId| {
        selection.primary.contains(&id) || selection.flow.iter().any(|l| l.candidate == id)
    };
    let read_targets = std::mem::take(&mut selection.read_targets);
    selection.read_targets = read_targets
        .into_iter()
        .filter(|r| kept(r.candidate))
        .collect();
    if selection.read_targets.is_empty()
        && (selection.action == Action::ReadTargets || selection.confidence == Confidence::Low)
    {
        // Low confidence still needs something to read: the start.
        selection.action = Action::ReadTargets;
        selection.read_targets.push(ReadTarget {
            candidate: start.id,
            purpose: String::new(),
            required: false,
        });
    }
    selection
}
