//! Python facts from small hand-written sources, one behaviour per test.

use sightline_lang::*;

fn py(src: &str) -> FileFacts {
    super::extract_file(src)
}

fn decl<'a>(facts: &'a FileFacts, qualified: &str) -> &'a Declaration {
    facts
        .decls
        .iter()
        .find(|d| d.qualified == qualified)
        .unwrap_or_else(|| panic!("no decl {qualified} in {:#?}", facts.decls))
}

fn usages(facts: &FileFacts, kind: UsageKind) -> Vec<(String, String)> {
    facts
        .usages
        .iter()
        .filter(|u| u.kind == kind)
        .map(|u| (u.name.to_string(), u.receiver.to_string()))
        .collect()
}

#[test]
fn python_declares_classes_methods_and_async_functions() {
    let f = py(
        "class Client:\n    def send(self):\n        pass\n\n    async def aclose(self):\n        pass\n\nasync def fetch(url):\n    return url\n",
    );
    assert_eq!(decl(&f, "Client").kind, DeclKind::Class);
    assert_eq!(decl(&f, "Client.send").kind, DeclKind::Method);
    assert_eq!(decl(&f, "Client.aclose").kind, DeclKind::Method);
    assert_eq!(
        decl(&f, "Client.aclose").signature,
        "async def aclose(self):"
    );
    let fetch = decl(&f, "fetch");
    assert_eq!(fetch.kind, DeclKind::Function);
    assert_eq!((fetch.lines.start, fetch.lines.end), (8, 9));
    assert!(fetch.exported && !decl(&f, "Client.send").exported);
}

#[test]
fn python_decorators_widen_the_declaration_but_not_its_signature() {
    let f = py("class A:\n    @property\n    @cached\n    def size(self):\n        return 1\n");
    let size = decl(&f, "A.size");
    assert_eq!(size.kind, DeclKind::Method);
    assert_eq!((size.lines.start, size.lines.end), (2, 5));
    assert_eq!(size.signature_line, 4);
    assert_eq!(size.signature, "def size(self):");
}

#[test]
fn python_module_and_class_assignments_are_declarations_locals_are_not() {
    let src = "\
from typing import TypeAlias
__all__ = [\"A\"]
MAX = 3
Headers: TypeAlias = dict
handler = lambda x: x
type Pair[T] = tuple[T, T]

class Config:
    debug: bool = False
    name: str

def f():
    local = 1
    return local
";
    let f = py(src);
    assert_eq!(decl(&f, "__all__").kind, DeclKind::Variable);
    assert_eq!(decl(&f, "MAX").kind, DeclKind::Variable);
    assert_eq!(decl(&f, "Headers").kind, DeclKind::TypeAlias);
    assert_eq!(decl(&f, "handler").kind, DeclKind::Function);
    assert_eq!(decl(&f, "Pair").kind, DeclKind::TypeAlias);
    assert_eq!(decl(&f, "Config.debug").kind, DeclKind::Property);
    assert_eq!(decl(&f, "Config.name").kind, DeclKind::Property);
    assert!(!f.decls.iter().any(|d| d.name == "local"));
}

#[test]
fn python_calls_self_calls_instantiations_and_references() {
    let src = "\
class Client(BaseClient, mixins.Closing, Generic[T]):
    def send(self, request):
        self._prepare(request)
        response = Response(200)
        return helpers.encode(response, TIMEOUT)
";
    let f = py(src);
    let calls = usages(&f, UsageKind::Call);
    assert!(
        calls.contains(&("_prepare".into(), "self".into())),
        "{calls:?}"
    );
    assert!(
        calls.contains(&("encode".into(), "helpers".into())),
        "{calls:?}"
    );
    assert_eq!(
        usages(&f, UsageKind::Instantiate),
        [("Response".to_string(), String::new())]
    );
    let refs = usages(&f, UsageKind::Reference);
    assert!(refs.iter().any(|(n, _)| n == "TIMEOUT"));
    assert!(refs.iter().any(|(n, _)| n == "request"), "{refs:?}");
    // Bindings and member names are not references.
    assert!(
        !refs
            .iter()
            .any(|(n, _)| n == "send" || n == "self" || n == "Client")
    );
    let send = f.decls.iter().position(|d| d.qualified == "Client.send");
    let prepare = f.usages.iter().find(|u| &*u.name == "_prepare").unwrap();
    assert_eq!(prepare.enclosing.map(|e| e as usize), send);
    let bases: Vec<&str> = f.heritage.iter().map(|h| h.name.as_str()).collect();
    assert_eq!(bases, ["BaseClient", "Closing", "Generic"]);
}

#[test]
fn python_imports_bind_modules_names_and_guessed_submodules() {
    let src = "\
import os.path
import numpy as np
from . import models
from ..utils import parse as parse_url, Flag
from .types import *
from __future__ import annotations
";
    let f = py(src);
    let got: Vec<(String, Option<String>, bool, bool)> = f
        .imports
        .iter()
        .map(|i| {
            (
                i.specifier.clone(),
                i.namespace.clone(),
                i.optional,
                i.reexport,
            )
        })
        .collect();
    let s = |x: &str| x.to_string();
    assert_eq!(
        got,
        [
            (s("os.path"), Some(s("os.path")), false, false),
            (s("numpy"), Some(s("np")), false, false),
            (s("."), None, false, false),
            (s(".models"), Some(s("models")), true, false),
            (s("..utils"), None, false, false),
            (s("..utils.parse"), Some(s("parse_url")), true, false),
            (s("..utils.Flag"), Some(s("Flag")), true, false),
            (s(".types"), None, false, true),
        ]
    );
    let utils = &f.imports[4];
    assert_eq!(utils.names[0].imported, "parse");
    assert_eq!(utils.names[0].local, "parse_url");
    assert_eq!(utils.line, 4);
}

#[test]
fn python_syntax_errors_are_counted_not_fatal() {
    let f = py("def broken(:\n    pass\nclass Ok:\n    pass\n");
    assert!(f.parse_errors > 0);
    assert!(f.decls.iter().any(|d| d.name == "Ok"));
}

#[test]
fn python_docstrings_sit_inside_their_declarations() {
    let src = "class Pool:\n    \"\"\"Keeps idle connections for reuse.\"\"\"\n\n    def acquire(self):\n        \"\"\"Hands out a connection.\"\"\"\n        return 1\n";
    let f = py(src);
    let pool = decl(&f, "Pool");
    assert!(pool.lines.contains_line(2));
    assert!(decl(&f, "Pool.acquire").lines.contains_line(5));
}

#[test]
fn python_decorators_are_usages_of_the_definition_they_decorate() {
    let src = "class Api:\n    @router.get(\"/items\")\n    def items(self):\n        return []\n\n    @setup\n    def a(self):\n        pass\n\n    @setup\n    def b(self):\n        pass\n";
    let f = py(src);
    let get = f
        .usages
        .iter()
        .find(|u| &*u.name == "get")
        .expect("decorator call");
    assert_eq!(&*get.receiver, "router");
    let items = f.decls.iter().position(|d| d.qualified == "Api.items");
    assert_eq!(get.enclosing.map(|e| e as usize), items);
    assert_eq!(decl(&f, "Api.items").lines.start, 2);
    assert_eq!(decl(&f, "Api.items").kind, DeclKind::Method);
    // A decorator above each of two methods is two uses, one by each method.
    let setups: Vec<(u32, Option<&str>)> = f
        .usages
        .iter()
        .filter(|u| &*u.name == "setup")
        .map(|u| {
            (
                u.line,
                u.enclosing.map(|e| f.decls[e as usize].qualified.as_str()),
            )
        })
        .collect();
    assert_eq!(setups, [(6, Some("Api.a")), (10, Some("Api.b"))]);
}

#[test]
fn python_script_entry_point_assignments_are_not_module_declarations() {
    let src = "LIMIT = 3\n\nif __name__ == '__main__':\n    console = make()\n    console.run()\n\nif DEBUG:\n    LEVEL = 1\n";
    let f = py(src);
    let names: Vec<&str> = f.decls.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["LIMIT", "LEVEL"]);
    // The script's calls are still usages.
    assert!(f.usages.iter().any(|u| &*u.name == "run"));
}

/// The receivers of the calls named `name`, in source order.
fn receivers_of(facts: &FileFacts, name: &str) -> Vec<String> {
    facts
        .usages
        .iter()
        .filter(|u| &*u.name == name && u.kind != UsageKind::Reference)
        .map(|u| u.receiver.to_string())
        .collect()
}

#[test]
fn python_receivers_take_the_type_the_code_states() {
    let src = "\
import httpx

def annotated(client: Client, other: \"Pool\", maybe: Client | None = None):
    client.send()
    other.send()
    maybe.send()

def instantiated():
    client = Client(timeout=1)
    client.send()
    with Pool() as pool:
        pool.send()
    made = httpx.Client()
    made.send()

def forgotten(client: Client):
    client = client.copy()
    client.send()
    for client in clients:
        client.send()

def closure():
    client = Client()
    def inner():
        client.send()
    return inner

shared = Pool()

def module_variable():
    shared.send()
";
    let f = py(src);
    assert_eq!(
        receivers_of(&f, "send"),
        [
            "Client", "Pool", "Client", // annotations, a quoted one, `| None`
            "Client", "Pool", "made", // instantiations; a qualified class is left as written
            "client", "client", // a later untyped binding forgets the type
            "Client", // a nested function sees its enclosing function's locals
            "Pool",   // and the module's
        ]
    );
    // The old binding of `client` types the call on the right of its reassignment.
    assert_eq!(receivers_of(&f, "copy"), ["Client"]);
}

#[test]
fn python_self_attributes_take_the_type_their_class_states() {
    let src = "\
class Service:
    cache: Cache

    def run(self):
        self.client.send()
        self.cache.get()
        self.mixed.go()
        self.unknown.go()

    def __init__(self, pool: Pool):
        self.client = Client()
        self.mixed = Left()
        if pool:
            self.unknown = Right()

    def reset(self):
        self.mixed = Other()

def outside(self):
    self.client.send()
";
    let f = py(src);
    // A method may use an attribute that a later method sets.
    assert_eq!(receivers_of(&f, "send"), ["Client", "self.client"]);
    assert_eq!(receivers_of(&f, "get"), ["Cache"]);
    // Two different types give none; an assignment nested in a branch is not read.
    assert_eq!(receivers_of(&f, "go"), ["self.mixed", "self.unknown"]);
}

#[test]
fn python_a_call_of_a_function_of_this_file_takes_its_return_annotation() {
    let src = "\
def run():
    pool = make_pool()
    pool.send()
    other = make_other()
    other.send()

def make_pool() -> Pool:
    return Pool()

def make_other():
    return Other()

class Client:
    def send(self):
        transport = self._transport_for(1)
        transport.send()
        self.cached.send()

    def __init__(self):
        self.cached = self._transport_for(2)

    def _transport_for(self, url) -> \"Transport\":
        pass
";
    let f = py(src);
    // A function declared below its caller counts; one without an annotation gives none.
    assert_eq!(
        receivers_of(&f, "send"),
        ["Pool", "other", "Transport", "Transport"]
    );
}

#[test]
fn python_a_with_statement_calls_its_manager_where_its_type_is_known() {
    let src = "\
class Console:
    def print(self):
        with self:
            pass
        with Lock() as lock, open(path) as f:
            pass
        with self._lock:
            pass
";
    let f = py(src);
    let calls: Vec<(String, String, u32)> = f
        .usages
        .iter()
        .filter(|u| u.name.starts_with("__"))
        .map(|u| (u.name.to_string(), u.receiver.to_string(), u.line))
        .collect();
    let expected = [
        ("__enter__", "self", 3),
        ("__exit__", "self", 3),
        ("__enter__", "Lock", 5),
        ("__exit__", "Lock", 5),
    ];
    let expected: Vec<(String, String, u32)> = expected
        .iter()
        .map(|(n, r, l)| (n.to_string(), r.to_string(), *l))
        .collect();
    // `open(path)` and an attribute of no stated type record none.
    assert_eq!(calls, expected);
}

#[test]
fn python_a_deeply_nested_annotation_types_its_variable_without_recursion() {
    let src = format!(
        "def f():\n    x: Client{} = make()\n    x.send()\n",
        " | None".repeat(20_000)
    );
    let f = py(&src);
    assert_eq!(receivers_of(&f, "send"), ["Client"]);
}
