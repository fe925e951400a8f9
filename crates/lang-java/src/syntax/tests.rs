//! Java facts from small hand-written sources, one behaviour per test.

use sightline_lang::*;

fn java(src: &str) -> FileFacts {
    let facts = super::extract_file(src);
    sightline_lang::testing::check_facts(&facts);
    facts
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

fn has_usage(facts: &FileFacts, kind: UsageKind, name: &str, receiver: &str) -> bool {
    usages(facts, kind).contains(&(name.to_owned(), receiver.to_owned()))
}

#[test]
fn java_types_nest_and_their_members_are_declared() {
    let f = java(
        "package a;\n\npublic class Outer {\n    private int count;\n    public Outer(int c) { count = c; }\n    public void run() {}\n    static class Inner {\n        void go() {}\n    }\n}\n",
    );
    let outer = decl(&f, "Outer");
    assert_eq!(outer.kind, DeclKind::Class);
    assert_eq!((outer.lines.start, outer.lines.end), (3, 10));
    assert!(outer.exported && outer.parent.is_none());
    assert_eq!(decl(&f, "Outer.count").kind, DeclKind::Property);
    assert!(!decl(&f, "Outer.count").exported);
    // A constructor is a method named `constructor`: the class alone has the class's name.
    let constructor = decl(&f, "Outer.constructor");
    assert_eq!(constructor.kind, DeclKind::Method);
    assert_eq!(constructor.signature, "public Outer(int c) { count = c; }");
    assert_eq!(decl(&f, "Outer.run").signature, "public void run() {}");
    assert_eq!(decl(&f, "Outer.Inner").kind, DeclKind::Class);
    assert_eq!(decl(&f, "Outer.Inner.go").kind, DeclKind::Method);
    assert!(!decl(&f, "Outer.Inner").exported);
}

#[test]
fn java_interfaces_enums_records_and_annotation_types() {
    let f = java(
        "interface Shape { double AREA = 0; double area(); }\nenum Color implements Shape { RED, GREEN { void g() {} }; double area() { return 0; } }\nrecord Point(int x, int y) implements Shape { Point { } public double area() { return 0; } }\n@interface Marker { String value() default \"\"; }\n",
    );
    assert_eq!(decl(&f, "Shape").kind, DeclKind::Interface);
    // Interface fields are constants and interface members public.
    assert_eq!(decl(&f, "Shape.AREA").kind, DeclKind::Constant);
    assert!(decl(&f, "Shape.area").exported);
    assert_eq!(decl(&f, "Color").kind, DeclKind::Enum);
    assert_eq!(decl(&f, "Color.RED").kind, DeclKind::Constant);
    assert_eq!(decl(&f, "Color.GREEN.g").kind, DeclKind::Method);
    assert_eq!(decl(&f, "Color.area").kind, DeclKind::Method);
    assert_eq!(decl(&f, "Point").kind, DeclKind::Class);
    assert_eq!(decl(&f, "Point.x").kind, DeclKind::Property);
    assert_eq!(decl(&f, "Point.y").kind, DeclKind::Property);
    assert_eq!(decl(&f, "Point.constructor").kind, DeclKind::Method);
    assert_eq!(decl(&f, "Marker").kind, DeclKind::Interface);
    assert_eq!(decl(&f, "Marker.value").kind, DeclKind::Method);
}

#[test]
fn java_fields_constants_and_multiple_declarators() {
    let f = java(
        "class A {\n    @Inject\n    private static final int MAX = 1;\n    int a, b;\n    static String name;\n}\n",
    );
    let max = decl(&f, "A.MAX");
    assert_eq!(max.kind, DeclKind::Constant);
    // The field's annotation belongs to it; its signature is the name's line.
    assert_eq!(
        (max.lines.start, max.lines.end, max.signature_line),
        (2, 3, 3)
    );
    assert_eq!(decl(&f, "A.a").kind, DeclKind::Property);
    assert_eq!(decl(&f, "A.b").kind, DeclKind::Property);
    assert_eq!(decl(&f, "A.name").kind, DeclKind::Property);
}

#[test]
fn java_anonymous_and_local_classes() {
    let f = java(
        "class A {\n    static final Runnable R = new Runnable() {\n        public void run() { helper(); }\n    };\n    void m() {\n        class Local { void n() {} }\n        new Thread() { public void start() {} };\n    }\n}\n",
    );
    // An anonymous class's methods belong to the declaration it is written in.
    assert_eq!(decl(&f, "A.R.run").kind, DeclKind::Method);
    assert_eq!(decl(&f, "A.m.Local.n").kind, DeclKind::Method);
    assert_eq!(decl(&f, "A.m.start").kind, DeclKind::Method);
    let helper = f.usages.iter().find(|u| &*u.name == "helper").unwrap();
    assert_eq!(
        f.decls[helper.enclosing.unwrap() as usize].qualified,
        "A.R.run"
    );
}

#[test]
fn java_heritage_from_extends_and_implements() {
    let f = java(
        "class A extends Base<T> implements I, pkg.J<K>, Outer.Inner {}\ninterface I extends K, L<M> {}\nenum E implements I {}\nrecord R() implements I {}\n",
    );
    let h: Vec<(String, HeritageKind, String)> = f
        .heritage
        .iter()
        .map(|h| {
            (
                f.decls[h.decl as usize].name.clone(),
                h.kind,
                h.name.clone(),
            )
        })
        .collect();
    let e = HeritageKind::Extends;
    let i = HeritageKind::Implements;
    assert_eq!(
        h,
        [
            ("A".into(), e, "Base".into()),
            ("A".into(), i, "I".into()),
            ("A".into(), i, "J".into()),
            ("A".into(), i, "Inner".into()),
            ("I".into(), e, "K".into()),
            ("I".into(), e, "L".into()),
            ("E".into(), i, "I".into()),
            ("R".into(), i, "I".into()),
        ]
    );
}

#[test]
fn java_imports_single_type_on_demand_and_static() {
    let f = java(
        "package a.b;\nimport java.util.List;\nimport a.c.*;\nimport static a.d.Util.check;\nimport static a.d.Util.*;\nimport a.e.Outer.Inner;\nimport a.f.lower;\n",
    );
    type Row<'a> = (&'a str, bool, Vec<(&'a str, &'a str)>);
    let imports: Vec<Row<'_>> = f
        .imports
        .iter()
        .map(|i| {
            let names = i
                .names
                .iter()
                .map(|n| (n.imported.as_str(), n.local.as_str()))
                .collect();
            (i.specifier.as_str(), i.glob, names)
        })
        .collect();
    assert_eq!(
        imports,
        [
            ("java.util.List", false, vec![("List", "List")]),
            ("a.c.*", true, vec![]),
            ("a.d.Util.check", false, vec![("Util.check", "check")]),
            ("a.d.Util.*", true, vec![]),
            ("a.e.Outer.Inner", false, vec![("Outer.Inner", "Inner")]),
            ("a.f.lower", false, vec![("lower", "lower")]),
        ]
    );
    assert_eq!(f.imports[0].line, 2);
    // Package and import names are not references.
    assert!(usages(&f, UsageKind::Reference).is_empty());
}

#[test]
fn java_calls_instantiations_and_self_receivers() {
    let f = java(
        "class A {\n    void m() {\n        foo();\n        this.bar();\n        store.items.save(x);\n        Util.check();\n        new Thing(1);\n        new Outer.Inner<>();\n        new java.util.ArrayList<String>();\n    }\n}\n",
    );
    let calls = usages(&f, UsageKind::Call);
    assert!(calls.contains(&("foo".into(), "".into())));
    assert!(calls.contains(&("bar".into(), "this".into())));
    assert!(calls.contains(&("save".into(), "store.items".into())));
    assert!(calls.contains(&("check".into(), "Util".into())));
    let news = usages(&f, UsageKind::Instantiate);
    assert_eq!(
        news,
        [
            ("Thing".into(), "".into()),
            ("Inner".into(), "Outer".into()),
            ("ArrayList".into(), "java.util".into()),
        ]
    );
    // An instantiated type is not also a reference.
    assert!(!has_usage(&f, UsageKind::Reference, "Thing", ""));
    assert!(!has_usage(&f, UsageKind::Reference, "Inner", ""));
    // The callee's name is not a reference either.
    assert!(!has_usage(&f, UsageKind::Reference, "foo", ""));
}

#[test]
fn java_annotations_types_and_members_are_references() {
    let f = java(
        "@Service\nclass A {\n    @Override @a.b.Nullable\n    public Map.Entry<Key, List<V>> get(Param p) throws IOException {\n        Runnable r = Util::run;\n        int n = Limits.MAX + p.size;\n        return (Cast) Other.class;\n    }\n    <T extends Bound> void g(T t) {}\n}\n",
    );
    for (name, receiver) in [
        ("Service", ""),
        ("Override", ""),
        ("Nullable", "a.b"),
        ("Entry", "Map"),
        ("Map", ""),
        ("Key", ""),
        ("List", ""),
        ("Param", ""),
        ("IOException", ""),
        ("Runnable", ""),
        ("run", "Util"),
        ("MAX", "Limits"),
        ("Limits", ""),
        // `p.size` on the parameter `Param p`: the member of its type.
        ("size", "Param"),
        ("Cast", ""),
        ("Other", ""),
        ("Bound", ""),
    ] {
        assert!(
            has_usage(&f, UsageKind::Reference, name, receiver),
            "{name} {receiver}: {:?}",
            usages(&f, UsageKind::Reference)
        );
    }
    // Declared names are not references: methods and variables (`p` and `T` are, where
    // they are used).
    for name in ["get", "r", "n", "g"] {
        assert!(
            !has_usage(&f, UsageKind::Reference, name, ""),
            "{name}: {:?}",
            usages(&f, UsageKind::Reference)
        );
    }
}

#[test]
fn java_references_are_kept_once_per_declaration() {
    let f = java("class A {\n    void m() { x(); Foo a; Foo b; }\n    void n() { Foo c; }\n}\n");
    let foos = f.usages.iter().filter(|u| &*u.name == "Foo").count();
    assert_eq!(foos, 2);
}

#[test]
fn java_broken_sources_keep_what_parses() {
    let f = java("class A {\n    void ok() {}\n    void broken( {\n}\n");
    assert!(f.parse_errors > 0);
    assert!(f.decls.iter().any(|d| d.qualified == "A.ok"));
    let empty = java("");
    assert_eq!(empty.line_count, 0);
    assert!(empty.decls.is_empty());
}

#[test]
fn imported_names_start_at_the_type() {
    use super::imported_name;
    assert_eq!(imported_name("a.b.C", false), "C");
    assert_eq!(imported_name("a.b.C.D", false), "C.D");
    assert_eq!(imported_name("a.b.c", false), "c");
    assert_eq!(imported_name("a.b.c", true), "b.c");
    assert_eq!(imported_name("c", true), "c");
}

#[test]
fn java_receivers_that_name_variables_are_their_declared_types() {
    let f = java(
        "class A {
    Store store;
    List<Item> items;
    void m(Client client, int n) {
        store.save();
        this.store.flush();
        client.send(items);
        items.add(null);
        var made = new Maker();
        made.make();
        for (Item it : items) { it.go(); }
        try (Res r = open()) { r.close(); } catch (Fault e) { e.report(); }
        if (o instanceof Shape s) { s.area(); }
        Runnable run = (Arg a) -> a.apply();
        Store store = other();
        store.local();
        Util.help();
        unknown.call();
        Fn f = client::send;
    }
    void n() {
        it.go();
        store.later();
    }
}
",
    );
    let calls = usages(&f, UsageKind::Call);
    for (name, receiver) in [
        ("save", "Store"),
        ("flush", "Store"),
        ("send", "Client"),
        ("add", "List"),
        ("make", "Maker"),
        ("go", "Item"),
        ("close", "Res"),
        ("report", "Fault"),
        ("area", "Shape"),
        ("apply", "Arg"),
        ("local", "Store"),
        // A type's own name, and a name no declaration explains, stay as written.
        ("help", "Util"),
        ("call", "unknown"),
        // Out of the `for`'s scope, `it` is no variable; fields stay in scope.
        ("go", "it"),
        ("later", "Store"),
    ] {
        assert!(
            calls.contains(&(name.to_owned(), receiver.to_owned())),
            "{name} on {receiver}: {calls:?}"
        );
    }
    assert!(has_usage(&f, UsageKind::Reference, "send", "Client"));
}
