use sightline_lang::testing::check_facts;
use sightline_lang::{DeclKind, FileFacts, HeritageKind, UsageKind};

use super::{PREDECLARED, extract_file};

fn facts(text: &str) -> FileFacts {
    let f = extract_file(text);
    check_facts(&f);
    f
}

/// (qualified name, kind, parent's qualified name, attached type) of every declaration.
fn decls(f: &FileFacts) -> Vec<(String, DeclKind, Option<String>, Option<String>)> {
    f.decls
        .iter()
        .map(|d| {
            (
                d.qualified.clone(),
                d.kind,
                d.parent.map(|p| f.decls[p as usize].qualified.clone()),
                d.attached_to.clone(),
            )
        })
        .collect()
}

/// (kind, receiver, name, enclosing qualified name) of every usage.
fn usages(f: &FileFacts) -> Vec<(UsageKind, String, String, Option<String>)> {
    f.usages
        .iter()
        .map(|u| {
            (
                u.kind,
                u.receiver.to_string(),
                u.name.to_string(),
                u.enclosing.map(|e| f.decls[e as usize].qualified.clone()),
            )
        })
        .collect()
}

fn has_usage(f: &FileFacts, kind: UsageKind, receiver: &str, name: &str, enclosing: &str) -> bool {
    usages(f).iter().any(|(k, r, n, e)| {
        *k == kind && r == receiver && n == name && e.as_deref() == Some(enclosing)
    })
}

const ENGINE: &str = r#"package engine

import (
	"fmt"
	m "example.com/x/middleware"
	. "example.com/dot"
	_ "embed"
	yaml "gopkg.in/yaml.v3"
)

import "example.com/app/v2"

// Engine is the framework's instance.
type Engine struct {
	*RouterGroup
	io.Reader
	Name, Alias string `json:"name"`
	trees       methodTrees
	opts        struct {
		Debug bool
	}
}

type Handler interface {
	http.Handler
	Stringer
	Serve(c *Context) error
	~int | ~string
}

type (
	HandlerFunc func(*Context)
	Alias = Engine
)

type List[T any] struct{ items []T }

const (
	ModeDebug = iota
	ModeRelease
)

var defaultEngine = New()

var x, y = 1, 2

func (e *Engine) Run(addr ...string) (err error) {
	fmt.Println(m.Get(e.trees))
	e.handle(&Context{Keys: nil})
	c := New()
	v := len(addr)
	return c.Do(v)
}

func (l List[T]) Len() int { return len(l.items) }

func New() *Engine {
	type local struct{ A int }
	return &Engine{Name: "x"}
}

func serve(c *Context, h HandlerFunc, w io.Writer) {
	c.Next()
	h(c)
	w.Write(nil)
	_ = yaml.Marshal
	_ = v2.Version
	f := func(r *RouterGroup) { r.Use() }
	f(nil)
}
"#;

#[test]
fn declarations_map_onto_shared_kinds() {
    let f = facts(ENGINE);
    let got = decls(&f);
    let s = |x: &str| Some(x.to_owned());
    let expected = vec![
        ("Engine".into(), DeclKind::Struct, None, None),
        ("Engine.Name".into(), DeclKind::Property, s("Engine"), None),
        ("Engine.Alias".into(), DeclKind::Property, s("Engine"), None),
        ("Engine.trees".into(), DeclKind::Property, s("Engine"), None),
        ("Engine.opts".into(), DeclKind::Property, s("Engine"), None),
        (
            "Engine.opts.Debug".into(),
            DeclKind::Property,
            s("Engine.opts"),
            None,
        ),
        ("Handler".into(), DeclKind::Interface, None, None),
        ("Handler.Serve".into(), DeclKind::Method, s("Handler"), None),
        ("HandlerFunc".into(), DeclKind::TypeAlias, None, None),
        ("Alias".into(), DeclKind::TypeAlias, None, None),
        ("List".into(), DeclKind::Struct, None, None),
        ("List.items".into(), DeclKind::Property, s("List"), None),
        ("ModeDebug".into(), DeclKind::Constant, None, None),
        ("ModeRelease".into(), DeclKind::Constant, None, None),
        ("defaultEngine".into(), DeclKind::Variable, None, None),
        ("x".into(), DeclKind::Variable, None, None),
        ("y".into(), DeclKind::Variable, None, None),
        ("Engine.Run".into(), DeclKind::Method, None, s("Engine")),
        ("List.Len".into(), DeclKind::Method, None, s("List")),
        ("New".into(), DeclKind::Function, None, None),
        ("New.local".into(), DeclKind::Struct, s("New"), None),
        (
            "New.local.A".into(),
            DeclKind::Property,
            s("New.local"),
            None,
        ),
        ("serve".into(), DeclKind::Function, None, None),
    ];
    assert_eq!(got, expected);
    let exported: Vec<&str> = f
        .decls
        .iter()
        .filter(|d| d.exported)
        .map(|d| d.qualified.as_str())
        .collect();
    assert!(exported.contains(&"Engine") && exported.contains(&"Engine.Run"));
    assert!(!exported.contains(&"serve") && !exported.contains(&"Engine.trees"));
    // Declared inside a function: a local, never exported.
    assert!(!exported.contains(&"New.local.A"));
}

#[test]
fn spans_and_signatures() {
    let f = facts(ENGINE);
    let by = |q: &str| f.decls.iter().find(|d| d.qualified == q).unwrap();
    let engine = by("Engine");
    // A type declared alone spans its `type` keyword; the doc comment is not part of it.
    assert_eq!(engine.signature, "type Engine struct {");
    assert_eq!((engine.lines.start, engine.lines.end), (14, 22));
    // One of a group spans its own line.
    let func = by("HandlerFunc");
    assert_eq!(func.signature, "HandlerFunc func(*Context)");
    assert_eq!(func.lines.start, func.lines.end);
    let run = by("Engine.Run");
    assert_eq!(
        run.signature,
        "func (e *Engine) Run(addr ...string) (err error) {"
    );
    assert_eq!(run.lines.len(), 7);
    assert_eq!(by("defaultEngine").signature, "var defaultEngine = New()");
    assert_eq!(by("ModeDebug").signature, "ModeDebug = iota");
}

#[test]
fn embedding_is_heritage() {
    let f = facts(ENGINE);
    let heritage: Vec<(String, HeritageKind, String)> = f
        .heritage
        .iter()
        .map(|h| {
            (
                f.decls[h.decl as usize].qualified.clone(),
                h.kind,
                h.name.clone(),
            )
        })
        .collect();
    let e = HeritageKind::Extends;
    assert_eq!(
        heritage,
        [
            ("Engine".into(), e, "RouterGroup".into()),
            ("Engine".into(), e, "io.Reader".into()),
            ("Handler".into(), e, "http.Handler".into()),
            ("Handler".into(), e, "Stringer".into()),
        ]
    );
}

#[test]
fn imports_bind_package_names() {
    let f = facts(ENGINE);
    let imports: Vec<(&str, Option<&str>, bool)> = f
        .imports
        .iter()
        .map(|i| (i.specifier.as_str(), i.namespace.as_deref(), i.glob))
        .collect();
    assert_eq!(
        imports,
        [
            ("fmt", Some("fmt"), false),
            ("example.com/x/middleware", Some("m"), false),
            ("example.com/dot", None, true),
            ("embed", None, false),
            ("gopkg.in/yaml.v3", Some("yaml"), false),
            ("example.com/app/v2", Some("app"), false),
        ]
    );
    assert_eq!(f.imports[0].line, 4);
    assert_eq!(f.imports[5].line, 11);
}

#[test]
fn calls_instantiations_and_references() {
    let f = facts(ENGINE);
    use UsageKind::*;
    // Calls through a namespace keep it as the receiver.
    assert!(has_usage(&f, Call, "fmt", "Println", "Engine.Run"));
    assert!(has_usage(&f, Call, "m", "Get", "Engine.Run"));
    // The method's receiver carries its type.
    assert!(has_usage(&f, Call, "Engine", "handle", "Engine.Run"));
    assert!(has_usage(&f, Reference, "Engine", "trees", "Engine.Run"));
    assert!(has_usage(&f, Instantiate, "", "Context", "Engine.Run"));
    assert!(has_usage(&f, Call, "", "New", "Engine.Run"));
    // A local of unknown type keeps its name.
    assert!(has_usage(&f, Call, "c", "Do", "Engine.Run"));
    // Parameters of the package's named types carry the type; another package's do not.
    assert!(has_usage(&f, Call, "Context", "Next", "serve"));
    assert!(has_usage(&f, Call, "w", "Write", "serve"));
    assert!(has_usage(&f, Call, "", "h", "serve"));
    assert!(has_usage(&f, Call, "RouterGroup", "Use", "serve"));
    assert!(has_usage(&f, Reference, "yaml", "Marshal", "serve"));
    assert!(has_usage(&f, Reference, "v2", "Version", "serve"));
    // Types in signatures are references of the declaration.
    assert!(has_usage(&f, Reference, "", "Context", "serve"));
    assert!(has_usage(&f, Reference, "io", "Writer", "serve"));
    assert!(has_usage(&f, Reference, "", "methodTrees", "Engine.trees"));
    assert!(has_usage(&f, Call, "", "New", "defaultEngine"));
    // Predeclared identifiers are never usages, keyed fields never references.
    let names: Vec<String> = f.usages.iter().map(|u| u.name.to_string()).collect();
    for absent in ["len", "string", "error", "int", "nil", "Keys", "any"] {
        assert!(!names.contains(&absent.to_owned()), "{absent}: {names:?}");
    }
    // Bound names are not references: parameters, `:=` targets, the receiver.
    let references: Vec<(&str, &str)> = f
        .usages
        .iter()
        .filter(|u| u.kind == Reference && u.receiver.is_empty())
        .map(|u| {
            (
                &*u.name,
                f.decls[u.enclosing.unwrap_or(0) as usize].name.as_str(),
            )
        })
        .collect();
    assert!(references.contains(&("v", "Run")), "{references:?}");
    assert!(!references.contains(&("e", "Run")));
    assert!(!references.contains(&("c", "serve")));
}

#[test]
fn references_are_counted_once_per_declaration() {
    let f =
        facts("package p\n\nfunc a() {\n\tb := f()\n\t_ = b\n\t_ = b\n\t_ = q.X\n\t_ = q.X\n}\n");
    let b: Vec<_> = f.usages.iter().filter(|u| &*u.name == "b").collect();
    assert_eq!(b.len(), 1);
    let x: Vec<_> = f.usages.iter().filter(|u| &*u.name == "X").collect();
    assert_eq!(x.len(), 1);
}

#[test]
fn generic_calls_and_conversions() {
    let f = facts(
        "package p\n\nfunc a(xs []int) {\n\t_ = Map[int](xs)\n\t_ = pkg.Map[int](xs)\n\t_ = []byte(\"s\")\n\t_ = pkg.T[int]{}\n}\n",
    );
    use UsageKind::*;
    assert!(has_usage(&f, Call, "", "Map", "a"));
    assert!(has_usage(&f, Call, "pkg", "Map", "a"));
    assert!(has_usage(&f, Instantiate, "pkg", "T", "a"));
    assert!(!f.usages.iter().any(|u| &*u.name == "byte"));
}

#[test]
fn locals_are_not_declarations() {
    let f = facts("package p\n\nfunc a() {\n\tconst c = 1\n\tvar v = 2\n\t_ = c + v\n}\n");
    assert_eq!(decls(&f).len(), 1);
}

#[test]
fn broken_code_keeps_what_parses() {
    let f = facts("package p\n\nfunc ok() {}\n\nfunc broken( {\n\nfunc (e *E) M() {}\n");
    assert!(f.parse_errors > 0);
    assert!(f.decls.iter().any(|d| d.name == "ok"));
    assert!(facts("").decls.is_empty());
}

#[test]
fn predeclared_identifiers_are_sorted() {
    assert!(PREDECLARED.windows(2).all(|w| w[0] < w[1]));
}

#[test]
fn a_local_declared_or_initialised_with_a_package_type_carries_it_as_receiver() {
    let src = "package p

func run() {
	a := &Engine{}
	a.Start()
	b, n := Engine{}, 3
	b.Start()
	var c Engine
	c.Start()
	d := NewEngine()
	d.Start()
	var s string
	_ = s
	_ = n
}
";
    let f = facts(src);
    let receivers: Vec<String> = f
        .usages
        .iter()
        .filter(|u| &*u.name == "Start")
        .map(|u| u.receiver.to_string())
        .collect();
    // A call's result states no type here.
    assert_eq!(receivers, ["Engine", "Engine", "Engine", "d"]);
}
