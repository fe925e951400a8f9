//! `use` declarations lowered to imports: a use tree (`a::{b::C, d as e, self, *}`)
//! becomes one leaf per name it binds, each written as the specifiers of
//! [`crate::specifier`].
//!
//! A leaf `a::b::c` bound to `local` becomes an import of the path naming `c → local`
//! (the module it walks to declares `c`), followed, when `c` may be a module (its name is
//! lowercase: Rust names modules in snake case and types in camel case), by an `optional`
//! import of `a::b::c::self` binding the namespace `local`, which only counts when `c` is
//! a module. `a::b::{self}` binds the module itself; `a::b::*` is a glob import of the
//! module's names; a `pub use` of any visibility is a re-export.

use tree_sitter::Node;

use sightline_lang::syntax::text::node_text;
use sightline_lang::{Import, ImportedName};

use super::kinds::RsGrammar;
use crate::specifier;

/// Leaves kept per use declaration: a hostile `use a::{b, c, …}` of a million names costs
/// at most this much.
const MAX_LEAVES: usize = 256;
/// Path segments kept per leaf.
const MAX_SEGMENTS: usize = 32;

/// What one leaf of a use tree binds.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Binds<'t> {
    /// The path's last segment, under this local name (`None` for `as _`: a trait brought
    /// into scope for its methods, no name bound).
    Name(Option<&'t str>),
    /// The module the path names (`{self}`), under this local name.
    Module(&'t str),
    /// Every name of the module (`*`).
    Glob,
}

struct Leaf<'t> {
    segments: Vec<&'t str>,
    binds: Binds<'t>,
}

/// The imports of one `use` declaration at `line`, written in a file whose use sits
/// inside `inline_depth` inline modules. `public`: the declaration has a visibility (a
/// re-export).
pub(crate) fn use_imports(
    g: &RsGrammar,
    text: &str,
    decl: Node<'_>,
    line: u32,
    inline_depth: usize,
    public: bool,
) -> Vec<Import> {
    let Some(argument) = child(decl, g.fields.argument) else {
        return Vec::new();
    };
    let mut leaves = Vec::new();
    flatten(g, text, argument, &mut Vec::new(), &mut leaves, 0);
    let mut out = Vec::new();
    for leaf in leaves {
        let Some(segments) = normalize(leaf.segments, inline_depth) else {
            continue;
        };
        push_leaf(&mut out, &segments, leaf.binds, line, public);
    }
    out
}

/// The import of `extern crate name as alias;` at `line`.
pub(crate) fn extern_crate(name: &str, alias: Option<&str>, line: u32) -> Import {
    let mut import = Import::new(specifier::use_path(&["", name], true), line);
    import.namespace = Some(alias.unwrap_or(name).to_owned());
    import
}

fn push_leaf(out: &mut Vec<Import>, segments: &[&str], binds: Binds<'_>, line: u32, public: bool) {
    match binds {
        Binds::Glob => {
            let mut import = Import::new(specifier::use_path(segments, false), line);
            import.glob = true;
            import.reexport = public;
            out.push(import);
        }
        Binds::Module(local) => {
            let mut import = Import::new(specifier::use_path(segments, true), line);
            import.namespace = Some(local.to_owned());
            import.reexport = public;
            out.push(import);
        }
        Binds::Name(local) => {
            let Some(&last) = segments.last() else {
                return;
            };
            let mut item = Import::new(specifier::use_path(segments, false), line);
            // `pub use x as _` re-exports nothing nameable: it stays a plain import.
            item.reexport = public && local.is_some();
            if let Some(local) = local {
                item.names.push(ImportedName {
                    imported: last.to_owned(),
                    local: local.to_owned(),
                });
            }
            out.push(item);
            if let Some(local) = local.filter(|_| may_name_module(last)) {
                let mut module = Import::new(specifier::use_path(segments, true), line);
                module.namespace = Some(local.to_owned());
                module.reexport = public;
                module.optional = true;
                out.push(module);
            }
        }
    }
}

/// Whether a path segment may name a module: modules are snake case, so a name starting
/// with an uppercase letter is a type, a trait, a variant or a constant.
fn may_name_module(segment: &str) -> bool {
    segment.starts_with(|c: char| c.is_lowercase() || c == '_')
}

/// The path as seen from the file's own module: leading `super`s that only leave the
/// file's inline modules are dropped; a path that stays inside the file (`self::…` or
/// `super::…` within an inline module) is `None`, since the file's own names bind it.
fn normalize(segments: Vec<&str>, inline_depth: usize) -> Option<Vec<&str>> {
    let first = *segments.first()?;
    if inline_depth == 0 || !matches!(first, "self" | "super") {
        return Some(segments);
    }
    if first == "self" {
        return None;
    }
    let supers = segments.iter().take_while(|s| **s == "super").count();
    if supers <= inline_depth {
        return None;
    }
    Some(segments[inline_depth..].to_vec())
}

fn child<'t>(node: Node<'t>, field: u16) -> Option<Node<'t>> {
    sightline_lang::syntax::traverse::field_child(node, field)
}

/// Collects the leaves of the use tree `node` under the path `prefix`.
fn flatten<'t>(
    g: &RsGrammar,
    text: &'t str,
    node: Node<'_>,
    prefix: &mut Vec<&'t str>,
    out: &mut Vec<Leaf<'t>>,
    depth: usize,
) {
    if out.len() >= MAX_LEAVES || depth > MAX_SEGMENTS {
        return;
    }
    let f = g.fields;
    match node.kind() {
        "use_as_clause" => {
            let Some(path) = child(node, f.path) else {
                return;
            };
            let alias = child(node, f.alias).map_or("", |a| node_text(text, a));
            let local = (alias != "_").then_some(alias).filter(|a| !a.is_empty());
            let base = prefix.len();
            if !push_path(text, path, prefix) {
                prefix.truncate(base);
                return;
            }
            let binds = match (prefix.last(), local) {
                (Some(&"self"), Some(local)) => {
                    prefix.pop();
                    Binds::Module(local)
                }
                (_, local) => Binds::Name(local),
            };
            push(out, prefix, binds);
            prefix.truncate(base);
        }
        "use_wildcard" => {
            let base = prefix.len();
            let mut cursor = node.walk();
            let path = node.named_children(&mut cursor).next();
            if let Some(path) = path
                && !push_path(text, path, prefix)
            {
                prefix.truncate(base);
                return;
            }
            push(out, prefix, Binds::Glob);
            prefix.truncate(base);
        }
        "scoped_use_list" => {
            let base = prefix.len();
            match child(node, f.path) {
                Some(path) if !push_path(text, path, prefix) => {
                    prefix.truncate(base);
                    return;
                }
                Some(_) => {}
                // `use ::{a, b}`: external crates.
                None if prefix.is_empty() && node_text(text, node).starts_with("::") => {
                    prefix.push("");
                }
                None => {}
            }
            if let Some(list) = child(node, f.list) {
                flatten(g, text, list, prefix, out, depth + 1);
            }
            prefix.truncate(base);
        }
        "use_list" => {
            let mut cursor = node.walk();
            for item in node.named_children(&mut cursor) {
                flatten(g, text, item, prefix, out, depth + 1);
            }
        }
        "self" if !prefix.is_empty() => {
            let Some(&local) = prefix.last() else {
                return;
            };
            push(out, prefix, Binds::Module(local));
        }
        _ => {
            let base = prefix.len();
            if push_path(text, node, prefix) {
                let local = prefix.last().copied();
                push(out, prefix, Binds::Name(local));
            }
            prefix.truncate(base);
        }
    }
}

/// Adds a leaf unless its path is empty or ends in a keyword that names no item.
fn push<'t>(out: &mut Vec<Leaf<'t>>, prefix: &[&'t str], binds: Binds<'t>) {
    let ends_in_keyword = matches!(prefix.last(), Some(&("self" | "super" | "crate" | "")));
    if prefix.is_empty() || (ends_in_keyword && binds != Binds::Glob) {
        return;
    }
    if let Binds::Name(Some(local)) | Binds::Module(local) = binds
        && matches!(local, "self" | "super" | "crate")
    {
        return;
    }
    out.push(Leaf {
        segments: prefix.to_vec(),
        binds,
    });
}

/// Appends the segments of a path node (`a::b::c`, `crate`, `::std`) to `out`; `false`
/// when the node is not a plain path (a generic or a macro variable, say).
fn push_path<'t>(text: &'t str, node: Node<'_>, out: &mut Vec<&'t str>) -> bool {
    let mut stack = Vec::new();
    let mut current = Some(node);
    while let Some(n) = current {
        if stack.len() > MAX_SEGMENTS {
            return false;
        }
        match n.kind() {
            "scoped_identifier" => {
                let name = n.child_by_field_name("name");
                let Some(name) = name else { return false };
                stack.push(segment(text, name));
                current = n.child_by_field_name("path");
                if current.is_none() {
                    // `::name`: an external crate.
                    stack.push("");
                }
            }
            "identifier" | "crate" | "self" | "super" => {
                stack.push(segment(text, n));
                current = None;
            }
            "metavariable" if node_text(text, n) == "$crate" => {
                stack.push("crate");
                current = None;
            }
            _ => return false,
        }
    }
    // Only the outermost segment may be empty (a leading `::`), and it is pushed last.
    if let Some((_, inner)) = stack.split_last()
        && inner.iter().any(|s| s.is_empty())
    {
        return false;
    }
    // A leading `::` inside a list (`a::{::b}`) is not a path.
    if stack.last() == Some(&"") && !out.is_empty() {
        return false;
    }
    out.extend(stack.into_iter().rev());
    !out.is_empty() && out.iter().skip(1).all(|s| !s.is_empty())
}

/// A path segment as the resolver compares it: raw identifiers without `r#`.
fn segment<'t>(text: &'t str, node: Node<'_>) -> &'t str {
    let s = node_text(text, node);
    s.strip_prefix("r#").unwrap_or(s)
}

#[cfg(test)]
mod tests {
    use super::normalize;

    #[test]
    fn paths_leaving_inline_modules_are_seen_from_the_file() {
        assert_eq!(normalize(vec!["super", "x"], 0), Some(vec!["super", "x"]));
        assert_eq!(normalize(vec!["super", "x"], 1), None);
        assert_eq!(normalize(vec!["self", "x"], 1), None);
        assert_eq!(
            normalize(vec!["super", "super", "x"], 1),
            Some(vec!["super", "x"])
        );
        assert_eq!(normalize(vec!["crate", "x"], 2), Some(vec!["crate", "x"]));
    }
}
