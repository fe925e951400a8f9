//! The import specifiers the extractor writes and the resolver reads: one text per
//! import, so a resolution is memoized by it.
//!
//! - A `use` path, segments joined by `::` as written after normalization (`crate::a::b`,
//!   `super::x`, `other_crate::m::T`; a leading `::` names an external crate only). It
//!   resolves to the file of the deepest module the path walks through: the module an
//!   item is declared in, or the module itself.
//! - The same path followed by `::self` must name a module, and resolves to that module's
//!   file or to nothing: the namespace reading of `use a::b;` (is `b` a module?).
//! - `mod a::x` is the out-of-line module `x` declared inside the inline modules `a` of the
//!   importing file; `mod x = p` carries its `#[path = "p"]`.

/// Suffix of a path that must name a module.
const MODULE_SUFFIX: &str = "::self";
/// Prefix of an out-of-line module declaration.
const MOD_PREFIX: &str = "mod ";
/// Separates a module declaration from its `#[path]`.
const PATH_SEPARATOR: &str = " = ";

/// A parsed specifier.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Specifier<'a> {
    /// A `use` path: its segments (the first is `""` after a leading `::`), and whether it
    /// must name a module.
    Path {
        /// The path's segments, never empty.
        segments: Vec<&'a str>,
        /// The `::self` form: the whole path is a module or the import names nothing.
        module: bool,
    },
    /// `mod name;`, declared inside the inline modules `inline` of the importing file.
    Mod {
        /// Enclosing inline modules, outermost first.
        inline: Vec<&'a str>,
        /// The module's name.
        name: &'a str,
        /// Its `#[path]` attribute, relative to the declaring module's directory.
        path: Option<&'a str>,
    },
}

/// The specifier of a `use` path (`segments` joined); with `module`, its `::self` form.
pub(crate) fn use_path(segments: &[&str], module: bool) -> String {
    let mut s = segments.join("::");
    if module {
        s.push_str(MODULE_SUFFIX);
    }
    s
}

/// The specifier of `mod name;` inside the inline modules `inline`, with its `#[path]`.
pub(crate) fn mod_decl(inline: &[&str], name: &str, path: Option<&str>) -> String {
    let mut s = String::from(MOD_PREFIX);
    for m in inline {
        s.push_str(m);
        s.push_str("::");
    }
    s.push_str(name);
    if let Some(p) = path {
        s.push_str(PATH_SEPARATOR);
        s.push_str(p);
    }
    s
}

/// Reads a specifier back; `None` for text no extractor writes (empty segments, say).
pub(crate) fn parse(specifier: &str) -> Option<Specifier<'_>> {
    if let Some(rest) = specifier.strip_prefix(MOD_PREFIX) {
        let (modules, path) = match rest.split_once(PATH_SEPARATOR) {
            Some((m, p)) => (m, Some(p).filter(|p| !p.is_empty())),
            None => (rest, None),
        };
        let mut inline: Vec<&str> = modules.split("::").collect();
        let name = inline.pop()?;
        if name.is_empty() || inline.iter().any(|m| m.is_empty()) {
            return None;
        }
        return Some(Specifier::Mod { inline, name, path });
    }
    let (path, module) = match specifier.strip_suffix(MODULE_SUFFIX) {
        Some(p) => (p, true),
        None => (specifier, false),
    };
    let segments: Vec<&str> = path.split("::").collect();
    // Only the first segment may be empty (a leading `::`), and not alone.
    let empty_inside = segments.iter().skip(1).any(|s| s.is_empty());
    if empty_inside || segments.len() < 2 && segments[0].is_empty() {
        return None;
    }
    Some(Specifier::Path { segments, module })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specifiers_read_back_what_was_written() {
        let p = use_path(&["crate", "a", "B"], false);
        assert_eq!(p, "crate::a::B");
        assert_eq!(
            parse(&p),
            Some(Specifier::Path {
                segments: vec!["crate", "a", "B"],
                module: false
            })
        );
        let m = use_path(&["super", "a"], true);
        assert_eq!(
            parse(&m),
            Some(Specifier::Path {
                segments: vec!["super", "a"],
                module: true
            })
        );
        let d = mod_decl(&["inner"], "x", Some("other/x.rs"));
        assert_eq!(d, "mod inner::x = other/x.rs");
        assert_eq!(
            parse(&d),
            Some(Specifier::Mod {
                inline: vec!["inner"],
                name: "x",
                path: Some("other/x.rs")
            })
        );
        assert_eq!(
            parse("::std::fmt"),
            Some(Specifier::Path {
                segments: vec!["", "std", "fmt"],
                module: false
            })
        );
    }

    #[test]
    fn malformed_specifiers_are_refused() {
        for bad in ["", "::", "a::::b", "mod ", "mod a::", "mod ::x", "a::"] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }
}
