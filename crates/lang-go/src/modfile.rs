//! The Go toolchain's module files, as far as resolution needs them: a `go.mod`'s
//! `module` path and `replace` directives, a `go.work`'s `use` and `replace` directives.
//! Everything else (`go`, `require`, `exclude`, `toolchain`, `retract`, …) is read past.
//!
//! The syntax is the toolchain's (`golang.org/x/mod/modfile`): one directive per line,
//! or a block `verb ( … )` holding one per line; `//` comments; tokens are separated by
//! white space and may be quoted (`"…"` with escapes, or `` `…` ``). A line that does not
//! parse becomes a problem and is skipped, never a failure.

/// What one `go.mod` or `go.work` says.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct ModFile {
    /// The `module` path (`go.mod` only).
    pub module: Option<String>,
    /// `replace` directives, in file order.
    pub replaces: Vec<Replace>,
    /// `use` directories (`go.work` only), as written.
    pub uses: Vec<String>,
    /// Lines that did not parse: (1-based line, what was wrong).
    pub problems: Vec<(u32, String)>,
}

/// One `replace old [version] => new [version]` directive.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Replace {
    /// The module path replaced (its version, if given, is dropped: a local replacement
    /// of one version stands for the module).
    pub old: String,
    /// The replacement: a module path, or a file path when [`Replace::local`].
    pub new: String,
    /// Whether `new` is a directory (written as an absolute path or starting with `./` or
    /// `../`, the toolchain's rule) rather than another module.
    pub local: bool,
}

/// Parses a `go.mod` or `go.work` text.
pub(crate) fn parse(text: &str) -> ModFile {
    let mut out = ModFile::default();
    let mut block: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let number = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let tokens = match tokens(line) {
            Ok(tokens) => tokens,
            Err(problem) => {
                out.problems.push((number, problem));
                continue;
            }
        };
        if tokens.is_empty() {
            continue;
        }
        if let Some(verb) = &block {
            if tokens == [")"] {
                block = None;
            } else {
                directive(&mut out, number, verb, &tokens);
            }
            continue;
        }
        match tokens.get(1).map(String::as_str) {
            Some("(") if tokens.len() == 2 => block = Some(tokens[0].clone()),
            // `verb ( )`: an empty block on one line.
            Some("(") if tokens.len() == 3 && tokens[2] == ")" => {}
            Some("(") => out
                .problems
                .push((number, "a block opens at the end of its line".to_owned())),
            _ => directive(&mut out, number, &tokens[0], &tokens[1..]),
        }
    }
    if block.is_some() {
        out.problems
            .push((count_lines(text), "a block is never closed".to_owned()));
    }
    out
}

fn count_lines(text: &str) -> u32 {
    u32::try_from(text.lines().count()).unwrap_or(u32::MAX)
}

/// One directive's arguments.
fn directive(out: &mut ModFile, line: u32, verb: &str, args: &[String]) {
    match verb {
        "module" => match args {
            [path] if !path.is_empty() => out.module = Some(path.clone()),
            _ => out
                .problems
                .push((line, "`module` takes one module path".to_owned())),
        },
        "use" => match args {
            [dir] if !dir.is_empty() => out.uses.push(dir.clone()),
            _ => out
                .problems
                .push((line, "`use` takes one directory".to_owned())),
        },
        "replace" => match replace(args) {
            Some(r) => out.replaces.push(r),
            None => out.problems.push((
                line,
                "`replace` takes `old [version] => new [version]`".to_owned(),
            )),
        },
        _ => {}
    }
}

fn replace(args: &[String]) -> Option<Replace> {
    let arrow = args.iter().position(|a| a == "=>")?;
    let (left, right) = (&args[..arrow], &args[arrow + 1..]);
    if !(1..=2).contains(&left.len()) || !(1..=2).contains(&right.len()) {
        return None;
    }
    let (old, new) = (left[0].clone(), right[0].clone());
    if old.is_empty() || new.is_empty() {
        return None;
    }
    let local = new.starts_with("./")
        || new.starts_with("../")
        || new == "."
        || new == ".."
        || new.starts_with('/');
    // A directory replacement takes no version; a module replacement needs one.
    if local != (right.len() == 1) {
        return None;
    }
    Some(Replace { old, new, local })
}

/// A line's tokens: white-space separated, quoted strings unquoted, `(` and `)` apart,
/// nothing after `//`.
fn tokens(line: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut chars = line.char_indices().peekable();
    while let Some(&(at, c)) = chars.peek() {
        match c {
            _ if c.is_whitespace() => {
                chars.next();
            }
            '/' if line[at..].starts_with("//") => break,
            '(' | ')' => {
                out.push(c.to_string());
                chars.next();
            }
            '"' => {
                chars.next();
                let mut s = String::new();
                let mut closed = false;
                while let Some((_, c)) = chars.next() {
                    match c {
                        '"' => {
                            closed = true;
                            break;
                        }
                        '\\' => match chars.next() {
                            Some((_, e)) => s.push(e),
                            None => break,
                        },
                        c => s.push(c),
                    }
                }
                if !closed {
                    return Err("an unterminated quoted string".to_owned());
                }
                out.push(s);
            }
            '`' => {
                chars.next();
                let rest = &line[at + 1..];
                let Some(end) = rest.find('`') else {
                    return Err("an unterminated raw string".to_owned());
                };
                out.push(rest[..end].to_owned());
                // Skip the raw string and its closing quote.
                while chars.peek().is_some_and(|&(i, _)| i <= at + 1 + end) {
                    chars.next();
                }
            }
            _ => {
                let mut s = String::new();
                while let Some(&(i, c)) = chars.peek() {
                    if c.is_whitespace() || c == '(' || c == ')' || line[i..].starts_with("//") {
                        break;
                    }
                    s.push(c);
                    chars.next();
                }
                out.push(s);
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn module_path_and_replacements() {
        let m = parse(
            "// top comment\nmodule example.com/app // trailing\n\ngo 1.22\n\nrequire (\n\texample.com/lib v1.2.0\n)\n\nreplace example.com/lib => ../lib\nreplace (\n\texample.com/other v1.0.0 => ./third_party/other\n\texample.com/fork => example.com/fork2 v1.1.0\n)\n",
        );
        assert_eq!(m.module.as_deref(), Some("example.com/app"));
        assert_eq!(
            m.replaces,
            [
                Replace {
                    old: "example.com/lib".into(),
                    new: "../lib".into(),
                    local: true
                },
                Replace {
                    old: "example.com/other".into(),
                    new: "./third_party/other".into(),
                    local: true
                },
                Replace {
                    old: "example.com/fork".into(),
                    new: "example.com/fork2".into(),
                    local: false
                },
            ]
        );
        assert!(m.problems.is_empty(), "{:?}", m.problems);
    }

    #[test]
    fn workspace_uses() {
        let w = parse("go 1.22\n\nuse (\n\t./a\n\t\"./b c\"\n)\nuse ./d\n");
        assert_eq!(w.uses, ["./a", "./b c", "./d"]);
        assert_eq!(w.module, None);
    }

    #[test]
    fn quoted_module_paths() {
        assert_eq!(
            parse("module \"example.com/q\"\n").module.as_deref(),
            Some("example.com/q")
        );
        assert_eq!(
            parse("module `example.com/r`\n").module.as_deref(),
            Some("example.com/r")
        );
    }

    #[test]
    fn bad_lines_are_problems_not_failures() {
        let m = parse("module\nreplace a =>\nreplace a => ./x v1\nmodule \"open\nrequire (\n");
        assert_eq!(m.module, None);
        assert!(m.replaces.is_empty());
        let lines: Vec<u32> = m.problems.iter().map(|(l, _)| *l).collect();
        assert_eq!(lines, [1, 2, 3, 4, 5]);
    }

    #[test]
    fn tokens_never_panic_on_odd_text() {
        for text in ["`", "\"\\", "a//b", "é`é", "( ) (", "\u{0}`x` y"] {
            let _ = tokens(text);
            let _ = parse(text);
        }
    }
}
