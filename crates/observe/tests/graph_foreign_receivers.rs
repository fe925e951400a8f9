//! A method called on what the repository does not own is never guessed by its name onto
//! a declaration that happens to share the name:
//! - on a literal (`"".join(parts)`, `[1, 2].map(f)`, `"x".parse()`, `"a".equals(b)`): a
//!   string, a list, a number has no method a repository declares;
//! - on a module imported from outside the repository (`json.loads`, `errors.New`,
//!   `HashMap::new`, `React.useMemo`, `Objects.equals`);
//! - on a type the file neither declares nor imports and the repository does not declare
//!   either (`JSON.parse`, `Math.max`, `Vec::with_capacity`): the language's own.
//!
//! Had such calls been guessed, a method name declared once in the repository would
//! become a certain callee of every function joining a string. A call on a receiver the
//! graph cannot type (`parts.join()`, `_.find(xs).save()`) is still guessed.

mod common;

use proptest::prelude::*;
use sightline_observe::db::workspace_graph;
use sightline_observe::graph::Graph;

/// The declarations `path::qualified` has a call edge to, as `path:name`.
fn calls_of(graph: &Graph, path: &str, qualified: &str) -> Vec<String> {
    let mut calls: Vec<String> = common::call_edges(graph, path, qualified)
        .into_iter()
        .map(|(to, _)| to)
        .collect();
    calls.dedup();
    calls
}

/// `caller` of `files` calls exactly `expected` (the one unliteral call of each file).
fn assert_calls(files: &[(&str, &str)], caller: (&str, &str), expected: &[&str]) {
    let (dir, _root) = common::temp_repo(files);
    let index = common::open_uncached(dir.path());
    let graph = workspace_graph(index.db(), index.workspace());
    assert_eq!(calls_of(&graph, caller.0, caller.1), expected);
}

#[test]
fn python_string_list_and_number_literals_call_nothing_of_the_repository() {
    assert_calls(
        &[
            (
                "pkg/url.py",
                "class URL:\n    def join(self, other):\n        return other\n\n    def count(self):\n        return 0\n\n    def hex(self):\n        return ''\n",
            ),
            (
                "pkg/util.py",
                "def render(parts, u):\n    a = ''.join(parts)\n    b = b\", \".join(parts)\n    c = f\"{a}\".join(parts)\n    d = [1, 2].count(1)\n    e = (1.5).hex()\n    g = {'k': 1}.get('k')\n    return u.join(a)\n",
            ),
        ],
        ("pkg/util.py", "render"),
        &["pkg/url.py:join"],
    );
}

#[test]
fn typescript_string_array_template_and_regex_literals_call_nothing_of_the_repository() {
    assert_calls(
        &[
            (
                "src/store.ts",
                "export class Store {\n  split(at: string) { return [at] }\n  map(f: unknown) { return f }\n  test(s: string) { return s }\n  trim() { return '' }\n}\n",
            ),
            (
                "src/view.ts",
                "export function show(s: any) {\n  const a = 'a,b'.split(',')\n  const b = [1, 2].map(String)\n  const c = `x${a}`.trim()\n  const d = /^x$/.test('x')\n  return s.split(a)\n}\n",
            ),
        ],
        ("src/view.ts", "show"),
        &["src/store.ts:split"],
    );
}

#[test]
fn rust_string_byte_and_number_literals_call_nothing_of_the_repository() {
    assert_calls(
        &[
            (
                "src/args.rs",
                "pub struct Args;\nimpl Args {\n    pub fn parse(&self) -> u32 { 0 }\n    pub fn len(&self) -> usize { 0 }\n    pub fn max(&self, o: u32) -> u32 { o }\n}\n",
            ),
            (
                "src/main.rs",
                "fn run(a: &Thing) -> u32 {\n    let x: u32 = \"4\".parse().unwrap();\n    let y = b\"ab\".len();\n    let z = r#\"q\"#.len();\n    let w = 3u32.max(x);\n    a.parse()\n}\n",
            ),
        ],
        ("src/main.rs", "run"),
        &["src/args.rs:parse"],
    );
}

#[test]
fn java_string_literals_call_nothing_of_the_repository() {
    assert_calls(
        &[
            (
                "src/main/java/app/Thing.java",
                "package app;\npublic interface Thing {}\n",
            ),
            (
                "src/main/java/app/Key.java",
                "package app;\npublic class Key {\n    public boolean equalsIgnoring(String o) { return true; }\n    public String strip() { return \"\"; }\n}\n",
            ),
            (
                "src/main/java/app/Use.java",
                "package app;\npublic class Use {\n    boolean run(Thing k) {\n        String s = \"  a \".strip();\n        boolean b = \"a\".equalsIgnoring(s);\n        return k.equalsIgnoring(s);\n    }\n}\n",
            ),
        ],
        ("src/main/java/app/Use.java", "Use.run"),
        &["src/main/java/app/Key.java:equalsIgnoring"],
    );
}

#[test]
fn python_members_of_modules_from_outside_are_no_guesses() {
    assert_calls(
        &[
            (
                "pkg/codec.py",
                "class Codec:\n    def loads(self, text):\n        return text\n\n    def join(self, *parts):\n        return parts\n\n    def find(self, x):\n        return x\n",
            ),
            (
                "pkg/use.py",
                "import json\nimport os.path\nfrom collections import OrderedDict as OD\n\n\ndef load(c, items):\n    a = json.loads('1')\n    b = os.path.join('a', 'b')\n    d = OD.fromkeys(items)\n    return c.find(a)\n",
            ),
        ],
        ("pkg/use.py", "load"),
        &["pkg/codec.py:find"],
    );
}

#[test]
fn go_members_of_packages_from_outside_are_no_guesses() {
    assert_calls(
        &[
            ("go.mod", "module example.com/app\n\ngo 1.21\n"),
            (
                "store/store.go",
                "package store\n\nfunc New() *Store { return &Store{} }\n\ntype Store struct{}\n\nfunc (s *Store) Contains(x string) bool { return false }\n",
            ),
            (
                "cmd/run.go",
                "package cmd\n\nimport (\n\t\"errors\"\n\t\"strings\"\n)\n\nfunc Run(s interface{ Contains(string) bool }) error {\n\t_ = strings.Contains(\"ab\", \"a\")\n\ts.Contains(\"x\")\n\treturn errors.New(\"no\")\n}\n",
            ),
        ],
        ("cmd/run.go", "Run"),
        &["store/store.go:Contains"],
    );
}

#[test]
fn typescript_members_of_packages_from_outside_are_no_guesses_but_results_of_calls_are() {
    assert_calls(
        &[
            (
                "src/memo.ts",
                "export class Memo {\n  useMemo() { return 1 }\n  save() { return 2 }\n  parse() { return 3 }\n}\n",
            ),
            (
                "src/app.ts",
                "import React from 'react'\nimport * as _ from 'lodash'\nimport { parse } from './parse'\n\nexport function app(items: any[]) {\n  React.useMemo(() => 1, [])\n  _.find(items, Boolean).save()\n  return parse()\n}\n",
            ),
            ("src/parse.ts", "export function parse() { return 0 }\n"),
        ],
        ("src/app.ts", "app"),
        &["src/memo.ts:save", "src/parse.ts:parse"],
    );
}

#[test]
fn rust_and_java_members_of_types_from_outside_are_no_guesses() {
    assert_calls(
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"app\"\nversion = \"0.1.0\"\n",
            ),
            (
                "src/table.rs",
                "pub struct Table;\nimpl Table {\n    pub fn with_capacity(n: usize) -> Table { Table }\n    pub fn insert(&mut self, k: u32) {}\n}\n",
            ),
            (
                "src/main.rs",
                "use std::collections::HashMap;\n\nfn fill(t: &mut Thing) {\n    let m: HashMap<u32, u32> = HashMap::with_capacity(4);\n    t.insert(1);\n}\n",
            ),
        ],
        ("src/main.rs", "fill"),
        &["src/table.rs:insert"],
    );
    assert_calls(
        &[
            (
                "src/main/java/app/Thing.java",
                "package app;\npublic interface Thing {}\n",
            ),
            (
                "src/main/java/app/Pair.java",
                "package app;\npublic class Pair {\n    public static boolean equals(Object a, Object b) { return a == b; }\n    public int hash() { return 0; }\n}\n",
            ),
            (
                "src/main/java/app/Use.java",
                "package app;\nimport java.util.Objects;\npublic class Use {\n    int run(Thing p) {\n        boolean same = Objects.equals(p, p);\n        return p.hash();\n    }\n}\n",
            ),
        ],
        ("src/main/java/app/Use.java", "Use.run"),
        &["src/main/java/app/Pair.java:hash"],
    );
}

#[test]
fn members_of_types_nobody_in_the_repository_declares_are_no_guesses() {
    assert_calls(
        &[
            (
                "src/codec.ts",
                "export function parse(s: string) { return s }\nexport function max(a: number) { return a }\nexport class Config {\n  static load() { return 1 }\n}\n",
            ),
            (
                "src/use.ts",
                "export function run(s: string) {\n  const a = JSON.parse(s)\n  const b = Math.max(1, 2)\n  return Config.load()\n}\n",
            ),
        ],
        ("src/use.ts", "run"),
        &["src/codec.ts:load"],
    );
    assert_calls(
        &[
            (
                "Cargo.toml",
                "[package]\nname = \"app\"\nversion = \"0.1.0\"\n",
            ),
            (
                "src/buf.rs",
                "pub struct Buf;\nimpl Buf {\n    pub fn with_capacity(n: usize) -> Buf { Buf }\n    pub fn push_line(&mut self) {}\n}\n",
            ),
            (
                "src/main.rs",
                "fn fill(b: &mut Thing) {\n    let v: Vec<u8> = Vec::with_capacity(4);\n    b.push_line();\n}\n",
            ),
        ],
        ("src/main.rs", "fill"),
        &["src/buf.rs:push_line"],
    );
    assert_calls(
        &[
            (
                "src/main/java/app/Thing.java",
                "package app;\npublic interface Thing {}\n",
            ),
            (
                "src/main/java/app/Num.java",
                "package app;\npublic class Num {\n    public static int max(int a, int b) { return a; }\n    public int twice() { return 2; }\n}\n",
            ),
            (
                "src/main/java/app/other/Use.java",
                "package app.other;\npublic class Use {\n    int run(Thing n) {\n        int m = Math.max(1, 2);\n        return n.twice();\n    }\n}\n",
            ),
        ],
        ("src/main/java/app/other/Use.java", "Use.run"),
        &["src/main/java/app/Num.java:twice"],
    );
}

/// A Python literal as a receiver: a string (with a prefix), a list, a dict, a number.
fn python_literal() -> impl Strategy<Value = String> {
    prop_oneof![
        ("(|b|r|f|rb|u)", "[a-z ,]{0,4}", "['\"]")
            .prop_map(|(prefix, body, quote)| format!("{prefix}{quote}{body}{quote}")),
        "[0-9]{1,3}".prop_map(|n| format!("[{n}, 2]")),
        "[a-z]{1,4}".prop_map(|k| format!("{{'{k}': 1}}")),
        "[0-9]{1,3}".prop_map(|n| format!("({n})")),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Whatever literal a method is called on, and whatever its name, the call links to
    /// no declaration of the repository, while the same method on a parameter is guessed.
    #[test]
    fn a_method_of_a_python_literal_is_never_a_guessed_callee(
        literal in python_literal(),
        method in "[a-z][a-z_]{2,8}",
    ) {
        let declared = format!("class Thing:\n    def {method}(self, *a):\n        return a\n");
        let caller = format!("def lit():\n    return {literal}.{method}(1)\n\n\ndef par(p):\n    return p.{method}(1)\n");
        let (dir, _root) = common::temp_repo(&[("pkg/thing.py", &declared), ("pkg/go.py", &caller)]);
        let index = common::open_uncached(dir.path());
        let graph = workspace_graph(index.db(), index.workspace());
        prop_assert_eq!(calls_of(&graph, "pkg/go.py", "lit"), Vec::<String>::new(), "{}.{}() was linked", literal, method);
        prop_assert_eq!(calls_of(&graph, "pkg/go.py", "par"), vec![format!("pkg/thing.py:{method}")]);
    }
}
