//! `read_file` with several reads in one call (`src/a.ts:10-40 src/b.ts`): each is an
//! ordinary read, recorded in the same session, and the replies are joined in the order
//! asked. An agent with a shell chains `sed -n` over several files in one command (about
//! a tenth of the shell arm's calls in the agent A/B read several places at once); here
//! that took one call per place.

use sightline_observe::tools::read_file::ReadFileArgs;
use sightline_observe::tools::read_list;
use sightline_registry::ToolCall;

use crate::engine::{Engine, Reply};
use crate::error::CallError;
use crate::output::CallOut;

impl Engine {
    /// The reads `args.path` lists, or `None` for a single read (see
    /// [`read_list::several_reads`]); a listing that is refused is the call's error.
    pub(crate) fn several_reads(
        &self,
        args: &ReadFileArgs,
    ) -> Option<Result<Vec<ReadFileArgs>, CallError>> {
        // An unusable root fails the read itself with its own error.
        read_list::several_reads(self.root()?, args)
            .map(|listed| listed.map_err(|e| CallError::Tool(format!("error: {e}"))))
    }

    /// Runs `reads` one after another in `session` (the first opens one when none is
    /// named, and its reply names it). A read that fails leaves its error in its place
    /// and the others are still read; the call fails only when every read did.
    pub(crate) fn call_reads(
        &mut self,
        session: Option<&str>,
        reads: Vec<ReadFileArgs>,
    ) -> Result<Reply<CallOut>, CallError> {
        let mut session = session.map(str::to_owned);
        let mut joined: Option<Reply<CallOut>> = None;
        let mut text = String::new();
        let mut errors = Vec::new();
        for read in reads {
            match self.call(session.as_deref(), ToolCall::ReadFile(read)) {
                Ok(reply) => {
                    // The read that opened the session names it; that line leads the reply
                    // even when reads before it failed.
                    match session {
                        None => {
                            let id = reply.structured.session.clone();
                            let header = format!("session {id}\n");
                            let body = reply.text.strip_prefix(&header).unwrap_or(&reply.text);
                            text = format!("{header}{text}{body}");
                            session = Some(id);
                        }
                        Some(_) => text.push_str(&reply.text),
                    }
                    joined = Some(match joined {
                        None => reply,
                        Some(mut first) => {
                            let more = reply.structured;
                            first.structured.new_candidates.extend(more.new_candidates);
                            first.structured.cut |= more.cut;
                            first
                        }
                    });
                }
                Err(CallError::Tool(why)) => {
                    // A tool's failure already reads `error: …`, as a single read's would.
                    text.push_str(&why);
                    text.push('\n');
                    errors.push(why);
                }
                Err(other) => return Err(other),
            }
        }
        let Some(mut reply) = joined else {
            return Err(CallError::Tool(errors.join("\n")));
        };
        reply.structured.text = text.clone();
        reply.text = text;
        Ok(reply)
    }
}
