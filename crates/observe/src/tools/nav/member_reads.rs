//! Member reads: `obj.name` where `name` is a field, a property or an accessor.
//!
//! The languages' facts record a member *call* (`obj.save()`) as a usage, but not a member
//! *read* (`self.width`, `this.seen`, `cfg.Timeout`): recording every attribute access would
//! put each `.length` and `.append` into the graph. So `references` of a field or of a
//! getter found nothing, or only locals named alike. For a target that is a member of a
//! type, the text of the files naming it is scanned for `.name` not followed by more of
//! an identifier; the graph cannot type the receiver, so each read is a use by name.

use crate::facts::FileFacts;

/// One `.name` in a file's text: its 1-based line, the innermost declaration around it,
/// whether the name is called there (`.name(`), and the receiver: the identifier just
/// before the dot (`this` in `this.save`, empty after `)` or at a line's start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct MemberRead {
    pub line: u32,
    pub enclosing: Option<u32>,
    pub called: bool,
    pub receiver: String,
}

/// Every `.name` of `names` in `text`, at most one per line (the first), in line order.
pub(crate) fn member_reads(text: &str, facts: &FileFacts, names: &[String]) -> Vec<MemberRead> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let Some((called, receiver)) = names.iter().find_map(|n| read_on_line(line, n)) else {
            continue;
        };
        let number = i as u32 + 1;
        out.push(MemberRead {
            line: number,
            enclosing: facts.innermost_decl_at(number),
            called,
            receiver: receiver.to_owned(),
        });
    }
    out
}

/// Whether `line` reads `.name` as a whole member name, and if so whether it calls it and
/// the identifier before the dot.
fn read_on_line<'a>(line: &'a str, name: &str) -> Option<(bool, &'a str)> {
    if name.is_empty() {
        return None;
    }
    let mut from = 0;
    while let Some(at) = line[from..].find(name) {
        let start = from + at;
        let end = start + name.len();
        from = end;
        let before = line[..start].trim_end();
        let rest = &line[end..];
        let whole = !rest.starts_with(|c: char| c.is_alphanumeric() || c == '_' || c == '$');
        if let Some(object) = before.strip_suffix('.')
            && whole
        {
            let object = object.trim_end();
            let receiver_start = object
                .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$'))
                .map_or(0, |at| {
                    at + object[at..].chars().next().map_or(1, char::len_utf8)
                });
            let receiver = &object[receiver_start..];
            return Some((rest.trim_start().starts_with('('), receiver));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::read_on_line;

    #[test]
    fn a_member_read_is_a_dot_then_the_whole_name() {
        assert_eq!(
            read_on_line("if self.is_open:", "is_open"),
            Some((false, "self"))
        );
        assert_eq!(
            read_on_line("x = this.seen.get(s)", "seen"),
            Some((false, "this"))
        );
        assert_eq!(
            read_on_line("cfg.Timeout ()", "Timeout"),
            Some((true, "cfg"))
        );
        assert_eq!(read_on_line("  .width", "width"), Some((false, "")));
        assert_eq!(read_on_line("f(a).width", "width"), Some((false, "")));
        assert_eq!(read_on_line("a.b.width", "width"), Some((false, "b")));
        // A longer name, a bare name, or the name as a receiver is not a read of it.
        assert_eq!(read_on_line("self.is_open_x", "is_open"), None);
        assert_eq!(read_on_line("seen = 1", "seen"), None);
        assert_eq!(read_on_line("self.xseen", "seen"), None);
        assert_eq!(read_on_line("a.unseen; b.seen", "seen"), Some((false, "b")));
    }
}
