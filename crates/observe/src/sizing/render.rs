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
    let mut tags: Vec<String> = Vec::new();
    for w in run {
        if let Some(t) = annotate(path, w)
            && !tags.contains(&t)
        {
            tags.push(t);
        }
    }
    let tag = if tags.is_empty() {
        String::new()
    } else {
        format!(" {}", tags.join(" "))
    };
    let (start, end) = (first.lines.start, last.lines.end);
    let path = crate::escape::inline(path);
    let _ = writeln!(
        out,
        "\n#### {path}:{start}-{end}{tag} - skeleton: signature lines only, bodies elided \
         (read_file {path} from a signature's line for its body)"
    );
    let _ = writeln!(out, "why: {}", first.reason);
    for w in run {
        for (i, line) in w.text.lines().enumerate() {
            let _ = writeln!(out, "{:>4} {}", w.lines.start + i as u32, line);
        }
    }
}
