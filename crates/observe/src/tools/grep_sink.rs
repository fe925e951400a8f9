//! Collects one file's `grep` output from the searcher: every reported line (matches and
//! context) is kept once, and each match's context is cut out of that list at the end, so
//! a line near two matches appears in both contexts.

use grep_matcher::Matcher as _;
use grep_regex::RegexMatcher;
use grep_searcher::{Searcher, Sink, SinkContext, SinkMatch};

use super::grep::{GrepLine, GrepMatch, MAX_LINE_CHARS};

pub(crate) struct FileSink<'a> {
    rel: &'a str,
    /// Finds the match within a long line, so the line is cut around it.
    matcher: &'a RegexMatcher,
    /// Matches this file may still contribute before the global limit is reached.
    remaining: usize,
    context: u32,
    /// Every reported line, in line order.
    lines: Vec<GrepLine>,
    /// Line numbers of the accepted matches, in line order.
    match_lines: Vec<u32>,
    invalid_utf8_lines: usize,
    first_invalid_utf8: Option<u32>,
    /// The file contains a NUL byte.
    pub(crate) binary: bool,
    /// A match beyond the limit was seen; later files are only counted.
    pub(crate) limit_hit: bool,
    /// Matching lines seen beyond the limit (counted, not reported).
    pub(crate) unreported: usize,
}

/// What one file contributes to the result.
pub(crate) struct FileOutcome {
    pub(crate) matches: Vec<GrepMatch>,
    pub(crate) diagnostic: Option<String>,
}

impl<'a> FileSink<'a> {
    pub(crate) fn new(
        rel: &'a str,
        matcher: &'a RegexMatcher,
        remaining: usize,
        context: u32,
    ) -> FileSink<'a> {
        FileSink {
            rel,
            matcher,
            remaining,
            context,
            lines: Vec::new(),
            match_lines: Vec::new(),
            invalid_utf8_lines: 0,
            first_invalid_utf8: None,
            binary: false,
            limit_hit: false,
            unreported: 0,
        }
    }

    pub(crate) fn finish(self) -> FileOutcome {
        let ctx = self.context;
        let mut matches = Vec::with_capacity(self.match_lines.len());
        for &line in &self.match_lines {
            let at = self.lines.partition_point(|l| l.line < line);
            let Some(hit) = self.lines.get(at) else {
                continue;
            };
            let before_start = self
                .lines
                .partition_point(|l| l.line < line.saturating_sub(ctx));
            let after_end = self
                .lines
                .partition_point(|l| l.line <= line.saturating_add(ctx));
            matches.push(GrepMatch {
                path: self.rel.to_string(),
                line,
                text: hit.text.clone(),
                truncated: hit.truncated,
                context_before: self.lines[before_start..at].to_vec(),
                context_after: self.lines[at + 1..after_end].to_vec(),
            });
        }
        let diagnostic = self.first_invalid_utf8.map(|first| {
            format!(
                "{}: {} reported line(s) are not valid UTF-8 (first at line {first}); \
                 shown with replacement characters",
                self.rel, self.invalid_utf8_lines
            )
        });
        FileOutcome {
            matches,
            diagnostic,
        }
    }

    /// Keeps one line; `matched` is the byte range of its match, if it is a match line.
    fn record(
        &mut self,
        line_number: Option<u64>,
        bytes: &[u8],
        matched: Option<(usize, usize)>,
    ) -> u32 {
        let line = line_number.map_or(0, |n| u32::try_from(n).unwrap_or(u32::MAX));
        let (text, truncated, valid) = decode_line(bytes, matched);
        if !valid {
            self.invalid_utf8_lines += 1;
            self.first_invalid_utf8.get_or_insert(line);
        }
        self.lines.push(GrepLine {
            line,
            text,
            truncated,
        });
        line
    }
}

impl Sink for FileSink<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, mat: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        if self.match_lines.len() >= self.remaining {
            // Beyond the limit: the result is truncated. Count the match and read on to
            // count the rest of the file, but show nothing more: a matching line shown as
            // context would pass for a non-match, so the last match's context ends here.
            self.limit_hit = true;
            self.unreported += 1;
            return Ok(true);
        }
        let bytes = mat.bytes();
        // Only a line that may need cutting is searched again for its match's position.
        let matched = match bytes.len() > MAX_LINE_CHARS {
            true => self
                .matcher
                .find(bytes)
                .ok()
                .flatten()
                .map(|m| (m.start(), m.end())),
            false => None,
        };
        let line = self.record(mat.line_number(), bytes, matched);
        self.match_lines.push(line);
        Ok(true)
    }

    fn context(&mut self, _: &Searcher, ctx: &SinkContext<'_>) -> Result<bool, Self::Error> {
        if !self.limit_hit {
            self.record(ctx.line_number(), ctx.bytes(), None);
        }
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _offset: u64) -> Result<bool, Self::Error> {
        self.binary = true;
        Ok(false)
    }
}

/// The line without its terminator, cut to [`MAX_LINE_CHARS`] characters around
/// `matched` (its match's byte range; from the start without one); also whether it was cut
/// and whether it was valid UTF-8 (invalid bytes become U+FFFD).
fn decode_line(bytes: &[u8], matched: Option<(usize, usize)>) -> (String, bool, bool) {
    let bytes = bytes.strip_suffix(b"\n").unwrap_or(bytes);
    let bytes = bytes.strip_suffix(b"\r").unwrap_or(bytes);
    let (text, valid) = match std::str::from_utf8(bytes) {
        Ok(text) => (text.to_string(), true),
        Err(_) => (String::from_utf8_lossy(bytes).into_owned(), false),
    };
    // The match in characters: what precedes each end, decoded the way the text was.
    let chars_before = |at: usize| {
        String::from_utf8_lossy(&bytes[..at.min(bytes.len())])
            .chars()
            .count()
    };
    let matched = matched.map(|(start, end)| (chars_before(start), chars_before(end)));
    match cut_around(&text, MAX_LINE_CHARS, matched) {
        Some(cut) => (cut, true, valid),
        None => (text, false, valid),
    }
}

/// `text` cut to `width` characters when it is longer, `…` on each cut side: from the
/// start when the match (`matched`, in characters) ends within `width`, otherwise a window
/// centred on the match (its start kept when the match alone is wider). `None` when the
/// text fits.
pub(crate) fn cut_around(
    text: &str,
    width: usize,
    matched: Option<(usize, usize)>,
) -> Option<String> {
    let total = text.chars().count();
    if total <= width {
        return None;
    }
    let (start, end) = matched.unwrap_or((0, 0));
    let end = end.max(start);
    let begin = match end <= width {
        true => 0,
        false => {
            let slack = width - (end - start).min(width);
            start.saturating_sub(slack / 2).min(total - width)
        }
    };
    let mut out = String::with_capacity(width + 8);
    if begin > 0 {
        out.push('…');
    }
    out.extend(text.chars().skip(begin).take(width));
    if begin + width < total {
        out.push('…');
    }
    Some(out)
}

/// Counts one file's matching lines without keeping them: what `grep` does with the files
/// after `max_matches` is reached, so it can say how much it left out.
#[derive(Default)]
pub(crate) struct CountSink {
    pub(crate) matches: usize,
    /// The file contains a NUL byte; `matches` is then meaningless.
    pub(crate) binary: bool,
}

impl Sink for CountSink {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, _: &SinkMatch<'_>) -> Result<bool, Self::Error> {
        self.matches += 1;
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _offset: u64) -> Result<bool, Self::Error> {
        self.binary = true;
        Ok(false)
    }
}
