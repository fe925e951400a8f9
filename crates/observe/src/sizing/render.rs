//! Text of signature-only windows: one block per run, headed so a reader knows the bodies
//! are elided and how to get one.

use std::fmt::Write as _;

use crate::tools::explore_code::Window;

/// Writes a run of signature windows of `path` as one line-numbered skeleton block.
pub fn signature_block(
    out: &mut String,
    path: &str,
    run: &[&Window],
    annotate: &dyn Fn(&str, &Window) -> Option<String>,
) {
    let (Some(first), Some(last)) = (run.first(), run.last()) else {
        return;
    };
    let (start, end) = (first.lines.start, last.lines.end);
    let shown = crate::escape::inline(path);
    let _ = writeln!(
        out,
        "\n#### {shown}:{start}-{end} - skeleton: signature lines only, bodies elided \
         (read_file {shown} from a signature's line for its body)"
    );
    let _ = writeln!(out, "why: {}", first.reason);
    // Each signature is its own candidate: its ID goes on its first line, so no block
    // carries a row of IDs a model cannot tell apart.
    for w in run {
        let tag = annotate(path, w)
            .map(|t| format!("{t} "))
            .unwrap_or_default();
        for (i, line) in w.text.lines().enumerate() {
            let tag = if i == 0 { tag.as_str() } else { "" };
            let _ = writeln!(out, "{:>4} {tag}{line}", w.lines.start + i as u32);
        }
    }
}
