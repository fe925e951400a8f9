//! Facts extracted from small hand-written sources, one behaviour per test.

use sightline_lang::*;

fn ts(src: &str) -> FileFacts {
    super::extract(true, src)
}

fn tsx(src: &str) -> FileFacts {
    super::extract(false, src)
}

fn decl<'a>(facts: &'a FileFacts, qualified: &str) -> &'a Declaration {
    facts
        .decls
        .iter()
        .find(|d| d.qualified == qualified)
        .unwrap_or_else(|| panic!("no decl {qualified} in {:#?}", names(facts)))
}

fn names(facts: &FileFacts) -> Vec<(String, DeclKind)> {
    facts
        .decls
        .iter()
        .map(|d| (d.qualified.clone(), d.kind))
        .collect()
}

fn has_decl(facts: &FileFacts, qualified: &str) -> bool {
    facts.decls.iter().any(|d| d.qualified == qualified)
}

fn usages(facts: &FileFacts, kind: UsageKind) -> Vec<(String, String, u32)> {
    facts
        .usages
        .iter()
        .filter(|u| u.kind == kind)
        .map(|u| (u.name.to_string(), u.receiver.to_string(), u.line))
        .collect()
}

fn u(name: &str, receiver: &str, line: u32) -> (String, String, u32) {
    (name.to_owned(), receiver.to_owned(), line)
}

#[test]
fn syntax_declaration_kinds() {
    let facts = ts(r#"class A { m() {} f = 1; g = () => 0; }
abstract class B { abstract run(): void; over(x: number): void; over(x: any) {} }
interface I { p: string; q(): void; }
function f() {}
function* gen() {}
declare function ext(x: number): string;
const arrow = () => 1;
let fexpr = function () {};
var top = compute();
type T = { a: number; b(): void };
enum E { X, Y }
namespace N.M { export const inner = 1; }
declare module "pkg" { export function g(): void; }
const K = class {};
"#);
    let expected = [
        ("A", DeclKind::Class),
        ("A.m", DeclKind::Method),
        ("A.f", DeclKind::Property),
        ("A.g", DeclKind::Method),
        ("B", DeclKind::Class),
        ("B.run", DeclKind::Method),
        ("B.over", DeclKind::Method),
        ("I", DeclKind::Interface),
        ("I.p", DeclKind::Property),
        ("I.q", DeclKind::Method),
        ("f", DeclKind::Function),
        ("gen", DeclKind::Function),
        ("ext", DeclKind::Function),
        ("arrow", DeclKind::Function),
        ("fexpr", DeclKind::Function),
        ("top", DeclKind::Variable),
        ("T", DeclKind::TypeAlias),
        ("T.a", DeclKind::Property),
        ("T.b", DeclKind::Method),
        ("E", DeclKind::Enum),
        ("N.M", DeclKind::Namespace),
        ("N.M.inner", DeclKind::Variable),
        ("pkg", DeclKind::Namespace),
        ("pkg.g", DeclKind::Function),
        ("K", DeclKind::Class),
    ];
    for (qualified, kind) in expected {
        assert_eq!(decl(&facts, qualified).kind, kind, "{qualified}");
    }
    assert_eq!(
        facts
            .decls
            .iter()
            .filter(|d| d.qualified == "B.over")
            .count(),
        2
    );
    assert_eq!(facts.parse_errors, 0);
}

#[test]
fn syntax_locals_are_not_variables_but_local_functions_are() {
    let facts = ts(
        "function outer() {\n  const n = 1;\n  const inner = () => n;\n}\nif (x) { const y = 2; }\n",
    );
    assert!(!has_decl(&facts, "outer.n"));
    assert!(!has_decl(&facts, "y"));
    let inner = decl(&facts, "outer.inner");
    assert_eq!(inner.kind, DeclKind::Function);
    assert_eq!(inner.parent, Some(0));
    // Inline object types in signatures declare nothing.
    let facts = ts("function g(opts: { a: string }) {}\n");
    assert_eq!(names(&facts), vec![("g".to_owned(), DeclKind::Function)]);
}

#[test]
fn syntax_object_literal_members_of_named_bindings() {
    let facts = ts(
        r#"const handlers = { onSave() {}, onLoad: () => {}, label: "x", nested: { deep() {} } };
export default { methods: { save() {} } };
export const store = create({ actions: { load: function () {} } }) as Store;
function f() { const local = { notADecl() {} }; }
call({ alsoNot() {} });
"#,
    );
    assert_eq!(decl(&facts, "handlers").kind, DeclKind::Variable);
    assert_eq!(decl(&facts, "handlers.onSave").kind, DeclKind::Method);
    assert_eq!(decl(&facts, "handlers.onLoad").kind, DeclKind::Method);
    assert_eq!(decl(&facts, "handlers.nested.deep").kind, DeclKind::Method);
    assert!(!has_decl(&facts, "handlers.label"));
    let default = decl(&facts, "default");
    assert!(default.exported && default.default_export);
    assert_eq!(decl(&facts, "default.methods.save").parent, Some(4));
    assert_eq!(decl(&facts, "store.actions.load").kind, DeclKind::Method);
    // An object bound to no name declares its methods inside the declaration holding it;
    // outside every declaration it declares nothing.
    assert_eq!(decl(&facts, "f.notADecl").kind, DeclKind::Method);
    assert!(!facts.decls.iter().any(|d| d.name == "alsoNot"));
}

#[test]
fn syntax_methods_of_unbound_object_literals_nest_in_their_declaration() {
    let src = r#"export function plugin(options) {
  let cached;
  return [
    { name: "a", configResolved() { cached = 1; } },
    {
      name: "b",
      handleHotUpdate({ file }) {
        return file;
      },
      load: function (id) { return id; },
      transform: async (code) => {
        return code;
      },
      short: (x) => x,
      [computed]() {},
      "quoted"() {},
      nested: { deeper() {} },
    },
  ];
}
describe("x", () => { it("y", () => { run({ atTopLevel() {} }); }); });
"#;
    let facts = ts(src);
    let method = decl(&facts, "plugin.handleHotUpdate");
    assert_eq!(method.kind, DeclKind::Method);
    assert_eq!(method.parent, Some(0));
    assert_eq!(method.lines, LineRange::new(7, 9));
    assert_eq!(method.signature, "handleHotUpdate({ file }) {");
    for name in ["configResolved", "load", "transform", "deeper"] {
        assert_eq!(
            decl(&facts, &format!("plugin.{name}")).kind,
            DeclKind::Method
        );
    }
    for name in [
        "short",
        "name",
        "computed",
        "quoted",
        "nested",
        "atTopLevel",
    ] {
        assert!(
            !facts.decls.iter().any(|d| d.name == name),
            "{name} in {:#?}",
            names(&facts)
        );
    }
    sightline_lang::testing::check_facts(&facts);
}

#[test]
fn syntax_ranges_include_decorators_and_export() {
    let src = "@Component({\n  selector: 'x',\n})\nexport class Widget {\n  @Input()\n  @Other()\n  value = 1;\n\n  @HostListener('click')\n  onClick() {\n    return 1;\n  }\n}\n";
    let facts = ts(src);
    let class = decl(&facts, "Widget");
    assert_eq!(class.lines, LineRange::new(1, 13));
    assert_eq!(class.signature_line, 4);
    assert_eq!(class.signature, "export class Widget {");
    assert!(class.exported);
    let method = decl(&facts, "Widget.onClick");
    assert_eq!(method.lines, LineRange::new(9, 12));
    assert_eq!(method.signature_line, 10);
    assert_eq!(method.signature, "onClick() {");
    assert_eq!(
        method.bytes.start as usize,
        src.find("@HostListener").unwrap()
    );
    assert_eq!(method.bytes.end as usize, src.rfind("  }").unwrap() + 3);
    let field = decl(&facts, "Widget.value");
    assert_eq!(
        (field.lines, field.signature_line),
        (LineRange::new(5, 7), 7)
    );
}

#[test]
fn syntax_const_binding_range_and_signature() {
    let facts = ts(
        "export const load =\n  async (id: string) => {\n    return id;\n  };\nconst a = 1, b = () => 2;\n",
    );
    let load = decl(&facts, "load");
    assert_eq!(load.lines, LineRange::new(1, 4));
    assert_eq!(load.signature, "export const load =");
    let b = decl(&facts, "b");
    assert_eq!(b.lines, LineRange::new(5, 5));
    assert_eq!(b.bytes.end - b.bytes.start, "b = () => 2".len() as u32);
    let long = format!("function f() {{ return \"{}\"; }}\n", "x".repeat(500));
    let sig = &ts(&long).decls[0].signature;
    assert_eq!(sig.chars().count(), 200);
    assert!(sig.starts_with("function f() {"));
}

#[test]
fn syntax_export_flags() {
    let facts = ts(r#"export function a() {}
function b() {}
const c = 1;
class D {}
function e() {}
export { b, c as renamed };
export default D;
export function* g() {}
class Inner { export() {} }
"#);
    assert!(decl(&facts, "a").exported);
    assert!(decl(&facts, "b").exported);
    assert!(decl(&facts, "c").exported);
    let d = decl(&facts, "D");
    assert!(d.exported && d.default_export);
    assert!(!decl(&facts, "e").exported);
    assert!(!decl(&facts, "a").default_export);
    assert!(decl(&facts, "g").exported);
    assert!(!decl(&facts, "Inner.export").exported);

    let facts = ts("export default function () {}\n");
    let anon = decl(&facts, "default");
    assert_eq!(
        (anon.kind, anon.exported, anon.default_export),
        (DeclKind::Function, true, true)
    );
    let facts = ts("export default class extends Base {}\n");
    let anon = decl(&facts, "default");
    assert_eq!((anon.kind, anon.default_export), (DeclKind::Class, true));
    assert_eq!(facts.heritage[0].name, "Base");
    let facts = tsx("export default () => <App />;\n");
    let anon = decl(&facts, "default");
    assert_eq!((anon.kind, anon.default_export), (DeclKind::Function, true));
    assert_eq!(facts.usages[0].enclosing, Some(0));
    let facts = ts("export default class Named {}\nexport { x as default } from './x';\n");
    assert!(decl(&facts, "Named").default_export);
    let facts = ts("const h = 1;\nexport { h as default };\n");
    assert!(decl(&facts, "h").default_export);
}

#[test]
fn syntax_imports() {
    let facts = ts(r#"import D, { b as c, e } from "./y";
import * as ns from 'z';
import type { T } from "./types";
import "./side-effect";
import fs = require("fs");
export { a as bb, cc } from "./v";
export * from "./all";
export * as q from "./w";
export type { U } from "./u";
async function load() { await import("./lazy"); const m = require('cjs'); require(name); }
"#);
    let by_spec = |s: &str| facts.imports.iter().find(|i| i.specifier == s).unwrap();
    let y = by_spec("./y");
    let pairs: Vec<_> = y
        .names
        .iter()
        .map(|n| (n.imported.as_str(), n.local.as_str()))
        .collect();
    assert_eq!(pairs, vec![("default", "D"), ("b", "c"), ("e", "e")]);
    assert_eq!(
        (y.line, y.reexport, y.dynamic, y.type_only),
        (1, false, false, false)
    );
    assert_eq!(by_spec("z").namespace.as_deref(), Some("ns"));
    assert!(by_spec("./types").type_only);
    assert!(by_spec("./side-effect").names.is_empty());
    assert_eq!(by_spec("fs").namespace.as_deref(), Some("fs"));
    let v = by_spec("./v");
    assert!(v.reexport);
    let pairs: Vec<_> = v
        .names
        .iter()
        .map(|n| (n.imported.as_str(), n.local.as_str()))
        .collect();
    assert_eq!(pairs, vec![("a", "bb"), ("cc", "cc")]);
    assert!(by_spec("./all").reexport && by_spec("./all").namespace.is_none());
    assert_eq!(by_spec("./w").namespace.as_deref(), Some("q"));
    assert!(by_spec("./u").type_only && by_spec("./u").reexport);
    assert!(by_spec("./lazy").dynamic && by_spec("cjs").dynamic);
    assert_eq!(by_spec("cjs").line, 10);
    assert_eq!(facts.imports.len(), 11);
    // Imported names are not references; `require(name)` stays a call.
    assert!(
        !facts
            .usages
            .iter()
            .any(|u| &*u.name == "D" || &*u.name == "ns")
    );
    assert!(usages(&facts, UsageKind::Call).contains(&u("require", "", 10)));
}

#[test]
fn syntax_calls_and_instantiations() {
    let facts = ts(
        "class S {\n  run() {\n    this.store.save(1);\n    helper();\n    const x = new Repo();\n    new api.Client();\n    a?.b();\n  }\n}\nlongReceiverNameNumberOne.longReceiverNameNumberTwo.longReceiverNameNumberThree.more.go();\nfoo\n  .bar()\n  .baz();\n",
    );
    let calls = usages(&facts, UsageKind::Call);
    assert!(calls.contains(&u("save", "this.store", 3)));
    assert!(calls.contains(&u("helper", "", 4)));
    assert!(calls.contains(&u("b", "a", 7)));
    assert!(calls.contains(&u("baz", "foo.bar()", 11)));
    let long = calls.iter().find(|c| c.0 == "go").unwrap();
    assert_eq!(long.1.chars().count(), 80);
    let news = usages(&facts, UsageKind::Instantiate);
    assert_eq!(news, vec![u("Repo", "", 5), u("Client", "api", 6)]);
    let save = facts.usages.iter().find(|u| &*u.name == "save").unwrap();
    assert_eq!(save.enclosing, Some(1));
    let go = facts.usages.iter().find(|u| &*u.name == "go").unwrap();
    assert_eq!(go.enclosing, None);
}

#[test]
fn syntax_jsx_renders() {
    let facts = tsx(
        "export function App() {\n  return <Layout title=\"x\">\n    <div><Icons.Star /></div>\n    <Button onClick={() => go()} />\n  </Layout>;\n}\n",
    );
    let renders = usages(&facts, UsageKind::Render);
    assert_eq!(
        renders,
        vec![
            u("Layout", "", 2),
            u("Star", "Icons", 3),
            u("Button", "", 4)
        ]
    );
    assert!(facts.usages.iter().all(|u| &*u.name != "div"));
    assert!(facts.usages.iter().all(|u| u.enclosing == Some(0)));
    // Closing tags are not a second use.
    assert_eq!(
        facts.usages.iter().filter(|u| &*u.name == "Layout").count(),
        1
    );
}

#[test]
fn syntax_references_deduplicated_per_declaration() {
    let facts = ts(
        "const LIMIT = 3;\nfunction a(x: Config) { return LIMIT + LIMIT + x.size; }\nfunction b() { return LIMIT; }\nLIMIT;\n",
    );
    let refs: Vec<_> = facts
        .usages
        .iter()
        .filter(|u| u.kind == UsageKind::Reference && &*u.name == "LIMIT")
        .map(|u| (u.enclosing, u.line))
        .collect();
    assert_eq!(refs, vec![(Some(1), 2), (Some(2), 3), (None, 4)]);
    let all: Vec<_> = usages(&facts, UsageKind::Reference)
        .into_iter()
        .map(|r| r.0)
        .collect();
    assert!(all.contains(&"Config".to_owned()));
    // Declared names and parameters are bindings, not references.
    assert!(!all.contains(&"a".to_owned()) && !all.contains(&"b".to_owned()));
    assert_eq!(all.iter().filter(|n| *n == "x").count(), 1);
}

#[test]
fn syntax_heritage() {
    let facts = ts(
        "class A extends ns.Base<T> implements C, D<U>, e.F {}\ninterface I extends J, K.L<T> {}\nconst M = class extends Mixin(Base) {};\n",
    );
    let h: Vec<_> = facts
        .heritage
        .iter()
        .map(|h| (h.decl, h.kind, h.name.as_str(), h.line))
        .collect();
    assert_eq!(
        h,
        vec![
            (0, HeritageKind::Extends, "Base", 1),
            (0, HeritageKind::Implements, "C", 1),
            (0, HeritageKind::Implements, "D", 1),
            (0, HeritageKind::Implements, "F", 1),
            (1, HeritageKind::Extends, "J", 2),
            (1, HeritageKind::Extends, "L", 2),
        ]
    );
}

#[test]
fn syntax_newer_syntax_counts_errors_and_keeps_going() {
    let facts = ts("class A<in out T> {}\nfunction ok() {}\nexport class B { m() {} }\n");
    assert!(facts.parse_errors > 0);
    assert_eq!(facts.error_lines.first(), Some(&1));
    assert!(has_decl(&facts, "ok") && has_decl(&facts, "B.m") && has_decl(&facts, "A"));
}

#[test]
fn syntax_error_lines_are_capped() {
    let src = "function (\n".repeat(30);
    let facts = ts(&src);
    assert!(facts.parse_errors > 0);
    assert!(facts.error_lines.len() <= 8);
}

#[test]
fn syntax_line_count_and_empty_input() {
    assert_eq!(ts(""), FileFacts::default());
    assert_eq!(ts("const a = 1;").line_count, 1);
    assert_eq!(ts("const a = 1;\n").line_count, 1);
    assert_eq!(ts("\n\nconst a = 1;\n\n").line_count, 4);
}

#[test]
fn syntax_pathological_inputs_do_not_panic() {
    let deep = format!("const x = {}1{};\n", "[".repeat(20_000), "]".repeat(20_000));
    assert!(has_decl(&ts(&deep), "x"));
    let deep_fns = format!("{}{}", "function f() {".repeat(2_000), "}".repeat(2_000));
    let facts = ts(&deep_fns);
    assert_eq!(facts.decls.len(), 2_000);
    // The innermost name keeps a short dotted tail after an elided prefix.
    let innermost = &facts.decls[1_999].qualified;
    assert!(
        innermost.starts_with('…') && innermost.ends_with(".f"),
        "{innermost}"
    );
    assert!(innermost.len() <= sightline_lang::syntax::MAX_QUALIFIED_PREFIX + 3);
    let huge_line = format!("{}\n", "a.b(c);".repeat(100_000));
    assert_eq!(tsx(&huge_line).line_count, 1);
    let junk = "\u{0}\u{feff}<<<>>>}}}{{{'\"`${\r\r\n\u{2028}é";
    let _ = ts(junk);
    let _ = tsx(junk);
}

/// Total bytes of every qualified name: what deep nesting used to blow up quadratically.
fn qualified_bytes(facts: &FileFacts) -> usize {
    facts.decls.iter().map(|d| d.qualified.len()).sum()
}

#[test]
fn deeply_nested_literals_and_functions_keep_qualified_names_linear_in_file_size() {
    let depth = 40_000;
    let objects = format!(
        "export const o = {}1{};\n",
        "{a:\n".repeat(depth),
        "}\n".repeat(depth)
    );
    let functions = format!(
        "{}return 1;\n{}",
        "function f() {\n".repeat(depth / 4),
        "}\n".repeat(depth / 4)
    );
    for src in [objects, functions] {
        let facts = ts(&src);
        assert!(
            qualified_bytes(&facts) <= 64 * src.len(),
            "{} bytes of qualified names for a {}-byte file",
            qualified_bytes(&facts),
            src.len()
        );
        assert!(facts.elided_qualified_names > 0);
        assert!(facts.decls.iter().all(|d| d.qualified.len()
            <= sightline_lang::syntax::MAX_QUALIFIED_PREFIX + 1 + d.name.len()));
    }
}

/// A decorator is a use by the declaration it decorates, not by the one around it: a bare
/// `@observable` above each of two fields is two uses, one by each field.
#[test]
fn decorators_are_usages_of_the_declaration_they_decorate() {
    let src = "@Injectable()\nexport class Store {\n  @observable\n  a = 1;\n\n  @observable\n  b = 2;\n\n  @Input() c = observable;\n}\n\n@Injectable()\nclass Other {}\n";
    let facts = ts(src);
    let by = |name: &str| -> Vec<(u32, Option<String>)> {
        facts
            .usages
            .iter()
            .filter(|u| &*u.name == name)
            .map(|u| {
                let enclosing = u
                    .enclosing
                    .map(|e| facts.decls[e as usize].qualified.clone());
                (u.line, enclosing)
            })
            .collect()
    };
    assert_eq!(
        by("observable"),
        [
            (3, Some("Store.a".to_owned())),
            (6, Some("Store.b".to_owned())),
            (9, Some("Store.c".to_owned())),
        ]
    );
    assert_eq!(by("Input"), [(9, Some("Store.c".to_owned()))]);
    assert_eq!(
        by("Injectable"),
        [
            (1, Some("Store".to_owned())),
            (12, Some("Other".to_owned()))
        ]
    );
    // Still one reference per name and enclosing declaration.
    let mut keys: Vec<_> = facts
        .usages
        .iter()
        .filter(|u| u.kind == UsageKind::Reference)
        .map(|u| (u.name.clone(), u.enclosing))
        .collect();
    let all = keys.len();
    keys.sort();
    keys.dedup();
    assert_eq!(keys.len(), all);
}

/// The receivers of the member calls named `name`, in source order.
fn receivers_of(facts: &FileFacts, name: &str) -> Vec<String> {
    facts
        .usages
        .iter()
        .filter(|u| &*u.name == name && u.kind == UsageKind::Call)
        .map(|u| u.receiver.to_string())
        .collect()
}

#[test]
fn receivers_take_the_type_the_code_states() {
    let src = "\
const shared = new Pool();
export function annotated(store: Store, maybe?: Store | undefined, list: Array<Pool>) {
  store.save();
  maybe.save();
  list.save();
  shared.save();
}
export function instantiated() {
  const store = new Store(1);
  store.save();
  const cast = new Store() as Base;
  cast.save();
  const made = ns.make();
  made.save();
  const inner = () => {
    store.save();
  };
}
";
    let f = ts(src);
    assert_eq!(
        receivers_of(&f, "save"),
        [
            "Store", "Store", "Array", // annotations, a union with undefined, a generic
            "Pool",  // a module variable, seen inside a function
            "Store", "Store", // instantiations, through `as`
            "made",  // a call's result states no type
            "Store", // a nested function sees its enclosing function's variables
        ]
    );
}

#[test]
fn this_attributes_take_the_type_their_class_states() {
    let src = "\
export class Service {
  run() {
    this.store.save();
    this.pool.save();
    this.cache.save();
    this.mixed.save();
    this.untyped.save();
  }
  private cache: Cache;
  constructor(private readonly store: Store, plain: Plain) {
    this.pool = new Pool();
    this.mixed = new Left();
    this.untyped = make();
  }
  reset() {
    this.mixed = new Right();
  }
}
";
    let f = ts(src);
    // A method may use a field declared, or set, below it.
    assert_eq!(
        receivers_of(&f, "save"),
        ["Store", "Pool", "Cache", "this.mixed", "this.untyped"]
    );
}

#[test]
fn a_call_of_a_function_of_this_file_takes_its_return_annotation() {
    let src = "\
export function run() {
  const pool = makePool();
  pool.send();
  const other = makeOther();
  other.send();
}
export function makePool(): Pool {
  return new Pool();
}
function makeOther() {
  return new Other();
}
class Client {
  send() {
    const transport = this.transportFor(1);
    transport.send();
    this.cached.send();
  }
  constructor() {
    this.cached = this.transportFor(2);
  }
  private transportFor(url: number): Transport {
    return new Transport();
  }
}
";
    let f = ts(src);
    // A function declared below its caller counts; one without an annotation gives none.
    assert_eq!(
        receivers_of(&f, "send"),
        ["Pool", "other", "Transport", "Transport"]
    );
}

#[test]
fn a_deeply_nested_value_or_annotation_types_its_variable_without_recursion() {
    let depth = 20_000;
    let src = format!(
        "function f() {{\n  const a = {}new Store(){};\n  a.save();\n  const b: Store{} = make();\n  b.save();\n}}\n",
        "(".repeat(depth),
        ")".repeat(depth),
        " | null".repeat(depth)
    );
    let f = ts(&src);
    assert_eq!(receivers_of(&f, "save"), ["Store", "Store"]);
}
