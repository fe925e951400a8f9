//! Every text the loop writes to the model. The contract is explained once, in the system
//! prompt; the per-turn messages only state facts (the query, a gap, a budget).

use sightline_registry::Intent;

use crate::budget::Budgets;

/// The system prompt: tools, inline IDs and the submit contract, stated once.
pub fn system_prompt(budgets: &Budgets) -> String {
    format!(
        "You explore a code repository for another agent and select the few places that \
matter for its query.

Tools: explore_code (search the code graph), grep (line search), read_file (a line range), \
list_files (a directory tree), definition (where a name is declared), references (its uses, or \
its callees), outline (a file's or directory's declarations). You have {steps} turns of tool calls, at most {parallel} calls \
per turn.

Every place a tool shows carries a candidate ID in brackets, with the lines it stands for \
when the text around it does not show them, for example:
#### src/a.ts:10-42 [c7] - name (function:12)
12: [c7 10-42] a grep hit inside that declaration
One place has one ID for the whole conversation, whichever tool shows it again. You refer to places only by these IDs; you \
cannot name paths or line ranges yourself.

Finish by calling submit_report:
- primary: 1-5 IDs that matter most.
- flow: the ordered links of the answer, each {{candidate, role, fact, quote}}. role is a \
short free label (entry, handler, state, data, output, type, ...). quote is at most 2 lines \
copied verbatim from that candidate's text as a tool showed it, without the line numbers.
- read_targets: IDs the caller should read next, each with a purpose and whether it is \
required.
- missing: at most 3 specific things you could not find.
- action: answer_from_report (only when the intent is explain or locate), read_targets, \
targeted_gap_search (with search_targets), or skip_explore_result.
- confidence: high, medium or low.
Quotes are checked against what the tools showed; links whose quote is not found are \
dropped. Few precise places beat many.",
        steps = budgets.max_steps,
        parallel = budgets.max_parallel_calls,
    )
}

/// The first user message: the query and the intent, nothing else.
pub fn task_message(query: &str, intent: Intent) -> String {
    format!("Query: {query}\nIntent: {}", intent.as_str())
}

/// Sent once when the model stops without submitting.
pub const NUDGE: &str = "You have not called submit_report. Call it now with the IDs you \
have seen.";

/// Sent after a submission the validator found a critical gap in.
pub fn continuation(gap: &str, steps_left: usize) -> String {
    format!(
        "Your report has a gap: {gap}. You have {steps_left} tool turns left. Find observed \
evidence for it, then call submit_report again."
    )
}

/// Sent when a budget runs out before a submission.
pub fn submit_now(which: &str) -> String {
    format!("The {which} budget is used up. Call submit_report now; other tools are closed.")
}

/// The tool result for a call beyond the per-turn limit.
pub fn too_many_calls(limit: usize) -> String {
    format!(
        "error: at most {limit} tool calls per turn; this one was not run. Repeat it next turn if still needed.\n"
    )
}

/// The tool result for an exploration call made after the budgets closed the tools.
pub fn tools_closed(which: &str) -> String {
    format!("error: the {which} budget is used up; call submit_report now.\n")
}

/// The tool result for an accepted submission.
pub fn submit_accepted(surviving_links: usize, drops: usize) -> String {
    format!("submit_report accepted: {surviving_links} flow links kept, {drops} items dropped.\n")
}

/// The tool result for a submission that does not parse.
pub fn submit_rejected(error: &str) -> String {
    format!(
        "error: submit_report arguments do not fit the schema: {error}. Fix them and call \
submit_report again.\n"
    )
}

/// The tool result for a second submission in the same turn.
pub const ALREADY_SUBMITTED: &str = "error: submit_report was already accepted this turn.\n";
