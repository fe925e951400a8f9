//! Rust facts from small hand-written sources, one behaviour per test.

use sightline_lang::*;

fn rs(src: &str) -> FileFacts {
    super::extract_file(src)
}

fn decl<'a>(facts: &'a FileFacts, qualified: &str) -> &'a Declaration {
    facts
        .decls
        .iter()
        .find(|d| d.qualified == qualified)
        .unwrap_or_else(|| panic!("no decl {qualified} in {:#?}", facts.decls))
}

fn kinds(facts: &FileFacts) -> Vec<(&str, DeclKind)> {
    facts
        .decls
        .iter()
        .map(|d| (d.qualified.as_str(), d.kind))
        .collect()
}

fn usages(facts: &FileFacts, kind: UsageKind) -> Vec<(String, String)> {
    facts
        .usages
        .iter()
        .filter(|u| u.kind == kind)
        .map(|u| (u.name.to_string(), u.receiver.to_string()))
        .collect()
}

fn pair(name: &str, receiver: &str) -> (String, String) {
    (name.to_owned(), receiver.to_owned())
}

/// (specifier, names as `imported→local`, namespace, glob, reexport, optional).
type ImportRow = (String, Vec<String>, Option<String>, bool, bool, bool);

fn imports(facts: &FileFacts) -> Vec<ImportRow> {
    facts
        .imports
        .iter()
        .map(|i| {
            let names = i
                .names
                .iter()
                .map(|n| format!("{}→{}", n.imported, n.local))
                .collect();
            (
                i.specifier.clone(),
                names,
                i.namespace.clone(),
                i.glob,
                i.reexport,
                i.optional,
            )
        })
        .collect()
}

#[test]
fn rust_items_map_onto_the_shared_kinds() {
    let f = rs("\
pub struct Store { pub path: String, size: u64 }
struct Pair(u8, u8);
pub union Bits { a: u32 }
pub enum Mode { Fast, Slow(u8), Custom { level: u8 } }
pub trait Backend { fn open(&self); type Error; const LIMIT: usize; }
pub type Result<T> = std::result::Result<T, Error>;
pub const MAX: usize = 3;
static COUNT: u32 = 0;
pub fn open() {}
mod inner { fn helper() {} }
macro_rules! ensure { () => {} }
");
    assert_eq!(
        kinds(&f),
        [
            ("Store", DeclKind::Struct),
            ("Store.path", DeclKind::Property),
            ("Store.size", DeclKind::Property),
            ("Pair", DeclKind::Struct),
            ("Bits", DeclKind::Struct),
            ("Bits.a", DeclKind::Property),
            ("Mode", DeclKind::Enum),
            ("Mode.Fast", DeclKind::Constant),
            ("Mode.Slow", DeclKind::Constant),
            ("Mode.Custom", DeclKind::Constant),
            ("Mode.Custom.level", DeclKind::Property),
            ("Backend", DeclKind::Trait),
            ("Backend.open", DeclKind::Method),
            ("Backend.Error", DeclKind::TypeAlias),
            ("Backend.LIMIT", DeclKind::Constant),
            ("Result", DeclKind::TypeAlias),
            ("MAX", DeclKind::Constant),
            ("COUNT", DeclKind::Constant),
            ("open", DeclKind::Function),
            ("inner", DeclKind::Module),
            ("inner.helper", DeclKind::Function),
            ("ensure", DeclKind::Macro),
        ]
    );
}

#[test]
fn top_level_items_with_a_visibility_are_exported() {
    let f = rs("\
pub fn a() {}
pub(crate) fn b() {}
fn c() {}
#[macro_export]
macro_rules! d { () => {} }
macro_rules! e { () => {} }
pub mod m { pub fn inner() {} }
");
    let exported: Vec<(&str, bool)> = f
        .decls
        .iter()
        .map(|d| (d.qualified.as_str(), d.exported))
        .collect();
    assert_eq!(
        exported,
        [
            ("a", true),
            ("b", true),
            ("c", false),
            ("d", true),
            ("e", false),
            ("m", true),
            ("m.inner", false),
        ]
    );
}

#[test]
fn impl_blocks_attach_their_methods_to_the_type() {
    let f = rs("\
struct Store;
impl<T: Clone> Store<T> {
    pub fn new() -> Self { Self::empty() }
    fn empty() -> Self { Store }
}
impl fmt::Display for &Store {
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result { self.write(f) }
}
impl<T: Send> Marker for T {}
");
    let new = decl(&f, "Store.new");
    assert_eq!(new.kind, DeclKind::Method);
    let block = &f.decls[new.parent.unwrap() as usize];
    assert_eq!(
        (block.kind, block.attached_to.as_deref()),
        (DeclKind::Impl, Some("Store"))
    );
    assert_eq!(block.signature, "impl<T: Clone> Store<T> {");
    assert!(!block.exported);
    let fmt = decl(&f, "Store.fmt");
    let display = &f.decls[fmt.parent.unwrap() as usize];
    assert_eq!(display.attached_to.as_deref(), Some("Store"));
    // A blanket impl attaches to no type and is named after its trait.
    let blanket = f.decls.last().unwrap();
    assert_eq!(
        (blanket.name.as_str(), blanket.attached_to.as_deref()),
        ("Marker", None)
    );
    let heritage: Vec<(&str, HeritageKind)> = f
        .heritage
        .iter()
        .map(|h| (h.name.as_str(), h.kind))
        .collect();
    assert_eq!(
        heritage,
        [
            ("Display", HeritageKind::Implements),
            ("Marker", HeritageKind::Implements)
        ]
    );
    let calls = usages(&f, UsageKind::Call);
    assert!(calls.contains(&pair("empty", "Self")), "{calls:?}");
    assert!(calls.contains(&pair("write", "self")), "{calls:?}");
}

#[test]
fn supertraits_are_extends_heritage() {
    let f = rs("pub trait Sink: io::Write + Send + 'static + ?Sized {}\n");
    let names: Vec<(&str, HeritageKind)> = f
        .heritage
        .iter()
        .map(|h| (h.name.as_str(), h.kind))
        .collect();
    assert_eq!(
        names,
        [
            ("Write", HeritageKind::Extends),
            ("Send", HeritageKind::Extends)
        ]
    );
}

#[test]
fn declarations_span_their_attributes_not_their_doc_comments() {
    let f = rs("\
/// Opens it.
#[inline]
#[must_use]
pub fn open() -> u8 {
    1
}
");
    let open = decl(&f, "open");
    assert_eq!((open.lines.start, open.lines.end), (2, 6));
    assert_eq!(open.signature_line, 4);
    assert_eq!(open.signature, "pub fn open() -> u8 {");
}

#[test]
fn attributes_belong_to_the_item_right_after_them() {
    let f = rs("\
#![allow(dead_code)]
#[derive(Debug)]
// a comment ends the run
struct A;
#[cfg(test)]
#[path = \"t.rs\"]
mod t;
#[inline]
fn b() { #[allow(x)] let _ = 1; }
");
    let a = decl(&f, "A");
    assert_eq!(
        a.lines.start, 4,
        "neither the inner attribute nor a run a comment ends"
    );
    let b = decl(&f, "b");
    assert_eq!((b.lines.start, b.lines.end), (8, 9));
    assert_eq!(f.imports[0].specifier, "mod t = t.rs");
}

#[test]
fn use_trees_become_one_import_per_name() {
    let f = rs("\
use crate::store::{disk::Disk, cache as c, self, *};
pub use super::error::Error;
use ::serde::Serialize as _;
use std::io::{self as stdio};
");
    let v = |s: &[&str]| s.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let ns = |s: &str| Some(s.to_owned());
    assert_eq!(
        imports(&f),
        [
            (
                "crate::store::disk::Disk".into(),
                v(&["Disk→Disk"]),
                None,
                false,
                false,
                false
            ),
            (
                "crate::store::cache".into(),
                v(&["cache→c"]),
                None,
                false,
                false,
                false
            ),
            (
                "crate::store::cache::self".into(),
                v(&[]),
                ns("c"),
                false,
                false,
                true
            ),
            (
                "crate::store::self".into(),
                v(&[]),
                ns("store"),
                false,
                false,
                false
            ),
            ("crate::store".into(), v(&[]), None, true, false, false),
            (
                "super::error::Error".into(),
                v(&["Error→Error"]),
                None,
                false,
                true,
                false
            ),
            (
                "::serde::Serialize".into(),
                v(&[]),
                None,
                false,
                false,
                false
            ),
            (
                "std::io::self".into(),
                v(&[]),
                ns("stdio"),
                false,
                false,
                false
            ),
        ]
    );
    assert!(f.imports.iter().all(|i| i.line >= 1 && i.line <= 4));
}

#[test]
fn paths_inside_inline_modules_are_seen_from_the_file() {
    let f = rs("\
mod tests {
    use super::*;
    use super::super::sibling::Thing;
    mod deeper { use crate::x::Y; }
}
");
    let specs: Vec<&str> = f.imports.iter().map(|i| i.specifier.as_str()).collect();
    assert_eq!(specs, ["super::sibling::Thing", "crate::x::Y"]);
}

#[test]
fn mod_declarations_import_the_module_file() {
    let f = rs("\
pub mod store;
#[cfg(unix)]
#[path = \"sys/unix.rs\"]
mod sys;
mod outer { mod nested; }
extern crate alloc as heap;
");
    let got: Vec<(&str, Option<&str>)> = f
        .imports
        .iter()
        .map(|i| (i.specifier.as_str(), i.namespace.as_deref()))
        .collect();
    assert_eq!(
        got,
        [
            ("mod store", Some("store")),
            ("mod sys = sys/unix.rs", Some("sys")),
            ("mod outer::nested", Some("nested")),
            ("::alloc::self", Some("heap")),
        ]
    );
    // An out-of-line module is an import, not a declaration.
    assert_eq!(kinds(&f), [("outer", DeclKind::Module)]);
}

#[test]
fn calls_paths_and_macros_are_usages() {
    let f = rs("\
fn run() {
    let store = Store::open(path::join(a, b));
    store.save().unwrap();
    helper::<u8>();
    Point(1, 2);
    Config { verbose: true };
    Mode::Custom { level: 1 };
    crate::util::log!(\"x\");
    ensure!(valid(x), Error::Bad);
    let m = Mode::Fast;
}
");
    let calls = usages(&f, UsageKind::Call);
    for expected in [
        pair("open", "Store"),
        pair("join", "path"),
        pair("save", "store"),
        pair("unwrap", "store.save()"),
        pair("helper", ""),
        pair("log", "util"),
        pair("ensure", ""),
        pair("valid", ""),
    ] {
        assert!(calls.contains(&expected), "{expected:?} not in {calls:?}");
    }
    let made = usages(&f, UsageKind::Instantiate);
    assert_eq!(
        made,
        [
            pair("Point", ""),
            pair("Config", ""),
            pair("Custom", "Mode")
        ]
    );
    let refs = usages(&f, UsageKind::Reference);
    for expected in [
        pair("Store", ""),
        pair("Fast", "Mode"),
        pair("Bad", "Error"),
    ] {
        assert!(refs.contains(&expected), "{expected:?} not in {refs:?}");
    }
}

#[test]
fn bound_names_are_not_references() {
    let f = rs("\
fn run<T: Bound>(input: Input, count: usize) {
    let (left, right) = split(input);
    if let Some(found) = lookup(&left) { use_it(found); }
    match right { Kind::A(inner) => {}, None => {} }
    let f = |x: Arg| x;
    'outer: loop { break 'outer; }
}
");
    let refs: Vec<String> = usages(&f, UsageKind::Reference)
        .into_iter()
        .map(|(n, _)| n)
        .collect();
    for bound in [
        "T",
        "count",
        "right_binding",
        "found_binding",
        "x_binding",
        "outer",
    ] {
        assert!(!refs.contains(&bound.to_owned()), "{bound} in {refs:?}");
    }
    for used in [
        "Bound", "Input", "input", "left", "found", "right", "Some", "None", "Arg",
    ] {
        assert!(refs.contains(&used.to_owned()), "{used} not in {refs:?}");
    }
    assert!(!refs.contains(&"count".to_owned()));
    assert!(!refs.contains(&"inner".to_owned()));
}

#[test]
fn names_in_macro_bodies_are_calls_or_references() {
    let f = rs("\
macro_rules! make {
    ($x:expr) => { $crate::build::assemble($x, Part::new()) };
}
");
    let calls = usages(&f, UsageKind::Call);
    assert!(calls.contains(&pair("assemble", "build")), "{calls:?}");
    assert!(calls.contains(&pair("new", "Part")), "{calls:?}");
    assert!(
        f.usages.iter().all(|u| u.enclosing == Some(0)),
        "inside the macro"
    );
}

#[test]
fn broken_rust_is_counted_and_still_yields_facts() {
    let f = rs("fn ok() {}\nfn broken( {\nstruct Later;\n");
    assert!(f.parse_errors > 0);
    assert!(f.decls.iter().any(|d| d.name == "ok"));
    assert_eq!(f.line_count, 3);
}
