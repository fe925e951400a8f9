//! The navigation tools on the fixture project: where a name is defined, who uses it, what
//! it uses, what a file or directory declares; and a miss answers the nearest names.

mod common;

use sightline_observe::tools::nav::definition::{self, DefinitionArgs};
use sightline_observe::tools::nav::outline::{self, OutlineArgs};
use sightline_observe::tools::nav::references::{self, Certainty, ReferencesArgs};
use sightline_observe::tools::nav::{Spot, Target};

fn no_tag(_: &str, _: Spot) -> Option<String> {
    None
}

#[test]
fn definitions_by_name_and_qualified_name() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let found = definition::run(db, ws, &DefinitionArgs::new("RecordStore.save")).unwrap();
    assert_eq!(found.hits.len(), 1, "{found:?}");
    assert_eq!(found.hits[0].path, "src/state/recordStore.ts");
    assert_eq!(found.hits[0].kind, "method");
    // A module path segment before the name is accepted too.
    let by_module =
        definition::run(db, ws, &DefinitionArgs::new("recordStore.RecordStore.save")).unwrap();
    assert_eq!(by_module.hits, found.hits);
    let text = found.render_tagged(&no_tag);
    insta::assert_snapshot!("definition_qualified", text);

    let mut with_body = DefinitionArgs::new("postRecord");
    with_body.body = true;
    let body = definition::run(db, ws, &with_body).unwrap();
    insta::assert_snapshot!("definition_body", body.render_tagged(&no_tag));
}

#[test]
fn an_unknown_name_answers_the_nearest_names() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let typo = definition::run(db, ws, &DefinitionArgs::new("postRecrod")).unwrap();
    assert!(typo.hits.is_empty());
    assert_eq!(typo.nearest[0].name, "postRecord", "{:?}", typo.nearest);
    insta::assert_snapshot!("definition_nearest", typo.render_tagged(&no_tag));
    // Another case is the same name.
    let case = definition::run(db, ws, &DefinitionArgs::new("recordstore")).unwrap();
    assert!(
        case.hits.iter().any(|h| h.name == "RecordStore"),
        "{case:?}"
    );
}

/// A name declared only in another case answers those declarations, says so first, and
/// names the declarations a typo away from it as spelled: an agent asking for
/// `saveRecord` may mean `saveRecords` more than `SaveRecord`.
#[test]
fn a_name_found_only_in_another_case_says_so_and_names_near_spellings() {
    let (dir, _root) = common::temp_repo(&[
        (
            "store.ts",
            "export class Store {\n  SaveRecord(code: number) {}\n}\n",
        ),
        (
            "records.ts",
            "export function saveRecords(r: string[]) {}\nexport function record() {}\n",
        ),
    ]);
    let index = common::open_uncached(dir.path());
    let (db, ws) = (index.db(), index.workspace());
    let found = definition::run(db, ws, &DefinitionArgs::new("saveRecord")).unwrap();
    assert!(found.case_folded);
    assert_eq!(found.hits.len(), 1, "{found:?}");
    assert_eq!(found.hits[0].name, "SaveRecord");
    let near: Vec<&str> = found.nearest.iter().map(|n| n.name.as_str()).collect();
    assert_eq!(near, ["saveRecords"], "a typo away only, not `record`");
    insta::assert_snapshot!("definition_case_folded", found.render_tagged(&no_tag));
    let uses = references::run(db, ws, &ReferencesArgs::new("saveRecord")).unwrap();
    assert!(uses.case_folded && uses.targets.len() == 1, "{uses:?}");
    assert!(
        uses.render_tagged(&no_tag).starts_with(
            "`saveRecord` is declared only in another case; nearest: saveRecords (records.ts:1)\n"
        ),
        "{}",
        uses.render_tagged(&no_tag)
    );
    // As spelled, nothing is folded and nothing suggested.
    let exact = definition::run(db, ws, &DefinitionArgs::new("SaveRecord")).unwrap();
    assert!(!exact.case_folded && exact.nearest.is_empty(), "{exact:?}");
    assert!(!exact.render_tagged(&no_tag).contains("another case"));
    let exact_uses = references::run(db, ws, &ReferencesArgs::new("SaveRecord")).unwrap();
    assert!(!exact_uses.case_folded, "{exact_uses:?}");
}

/// `Owner.member` where the owner exists but has no such member: the owner's members that
/// share a word with the guess are among the nearest names (an agent guessed a method of a
/// type it knows), after any name elsewhere that is nearer (a typo of a real name).
#[test]
fn an_unknown_member_of_a_known_type_answers_its_nearest_members() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let guess = definition::run(db, ws, &DefinitionArgs::new("RecordStore.postRecords")).unwrap();
    assert!(guess.hits.is_empty());
    let near: Vec<(&str, &str)> = guess
        .nearest
        .iter()
        .map(|n| (n.name.as_str(), n.path.as_str()))
        .collect();
    assert_eq!(near[0], ("postRecord", "src/api/client.ts"), "a typo first");
    assert!(
        near.contains(&("records", "src/state/recordStore.ts")),
        "{near:?}"
    );
    insta::assert_snapshot!("definition_nearest_member", guess.render_tagged(&no_tag));
}

#[test]
fn callers_are_resolved_uses_with_their_enclosing_declaration() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let uses = references::run(db, ws, &ReferencesArgs::new("postRecord")).unwrap();
    assert!(
        uses.uses
            .iter()
            .any(|u| u.path == "src/state/recordStore.ts" && u.certainty == Certainty::Certain),
        "{uses:?}"
    );
    for u in &uses.uses {
        let text = std::fs::read_to_string(common::fixture_root().join(&u.path)).unwrap();
        let line = text.lines().nth(u.line as usize - 1).unwrap();
        assert_eq!(line.trim(), u.text, "{}:{}", u.path, u.line);
    }
    insta::assert_snapshot!("references_callers", uses.render_tagged(&no_tag));
}

#[test]
fn implementations_and_callees() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let shape = references::run(db, ws, &ReferencesArgs::new("Shape")).unwrap();
    let implementers: Vec<&str> = shape
        .uses
        .iter()
        .filter(|u| u.kind == references::UseKind::Implements)
        .map(|u| u.path.as_str())
        .collect();
    assert_eq!(implementers.len(), 3, "{shape:?}");
    let mut callees = ReferencesArgs::new("RecordStore.save");
    callees.callees = true;
    let calls = references::run(db, ws, &callees).unwrap();
    assert!(
        calls.calls.iter().any(|c| c.callee.name == "postRecord"),
        "{calls:?}"
    );
    insta::assert_snapshot!("references_callees", calls.render_tagged(&no_tag));
}

#[test]
fn a_position_names_its_innermost_declaration() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let found = definition::run(db, ws, &DefinitionArgs::new("RecordStore.save")).unwrap();
    let save = &found.hits[0];
    let args = DefinitionArgs {
        target: Target {
            name: String::new(),
            path: Some(save.path.clone()),
            line: Some(save.lines.start + 1),
        },
        body: false,
    };
    let at = definition::run(db, ws, &args).unwrap();
    assert_eq!(at.hits, found.hits);
}

#[test]
fn outlines_of_a_file_and_a_directory() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let file = outline::run(db, ws, &OutlineArgs::new("src/state/recordStore.ts")).unwrap();
    insta::assert_snapshot!("outline_file", file.render_tagged(&no_tag));
    let dir = outline::run(db, ws, &OutlineArgs::new("src/shapes")).unwrap();
    assert!(dir.directory);
    insta::assert_snapshot!("outline_directory", dir.render_tagged(&no_tag));
    let missing = outline::run(db, ws, &OutlineArgs::new("src/shape")).unwrap_err();
    assert!(missing.to_string().contains("src/shapes"), "{missing}");
}

/// A directory whose files' declarations do not fit shows its own files' declarations as
/// they fit and its subdirectories as a tree of file counts; every source file under it is
/// counted once, listed or in the tree.
#[test]
fn a_directory_too_large_to_outline_shows_its_tree() {
    let index = common::fixture_index();
    let (db, ws) = (index.db(), index.workspace());
    let args = OutlineArgs {
        path: None,
        max_entries: 10,
    };
    let root = outline::run(db, ws, &args).unwrap();
    let tree = root
        .tree
        .as_ref()
        .expect("the fixture's root does not fit in 10 entries");
    let sources = ws
        .files(db)
        .iter()
        .filter(|f| f.role(db) != sightline_observe::walk::FileRole::Manifest)
        .count();
    assert_eq!(root.files.len() + root.more_files + tree.files(), sources);
    assert!(tree.lines() <= 10 || tree.dirs.iter().all(|d| !d.opened));
    insta::assert_snapshot!("outline_tree", root.render_tagged(&no_tag));
    // The count of files no language reads agrees with its noun.
    let mut one = root.clone();
    one.other_files = 1;
    one.other_here = vec!["package.json".to_owned()];
    let text = one.render_tagged(&no_tag);
    assert!(text.contains(" 1 non-source file: package.json)"), "{text}");
    // The non-source files directly in the directory are named, as `ls` would; those in
    // its subdirectories only counted.
    assert!(!root.other_here.is_empty(), "{root:?}");
    assert!(root.other_here.len() <= root.other_files);
    for name in &root.other_here {
        assert!(!name.contains('/'), "{name}");
        assert!(
            ws.files(db).iter().any(|f| f.path(db) == name),
            "{name} is not a file at the root"
        );
    }

    // A directory with files of its own shows them by name, as `ls` would, and none of
    // their declarations: nothing in a tree carries an ID.
    let src = outline::run(
        db,
        ws,
        &OutlineArgs {
            path: Some("src".into()),
            max_entries: 3,
        },
    )
    .unwrap();
    let tree = src.tree.as_ref().expect("src does not fit in 3 entries");
    assert!(src.files.is_empty(), "{:?}", src.files);
    assert!(tree.own_files > 0 && tree.own_names.len() == tree.own_files);
    let text = src.render_tagged(&|_, _| Some("[c1]".to_owned()));
    assert!(!text.contains("[c"), "{text}");
    let own = format!("files: {}\n", tree.own_names.join(", "));
    assert_eq!(
        text.lines().nth(1).map(|l| format!("{l}\n")),
        Some(own),
        "{text}"
    );
    assert_eq!(tree.files(), src_sources(db, ws), "{text}");
}

/// Source files under `src/` of the fixture.
fn src_sources(db: &dyn sightline_observe::Db, ws: sightline_observe::Workspace) -> usize {
    ws.files(db)
        .iter()
        .filter(|f| f.role(db) != sightline_observe::walk::FileRole::Manifest)
        .filter(|f| f.path(db).starts_with("src/"))
        .count()
}

/// Recursion is a use of the function itself, and a test file's repeated calls are shown
/// twice and counted, so tests do not crowd out the callers that matter.
#[test]
fn recursion_counts_and_test_files_are_summarized() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("tree.ts"),
        "export function walkTree(n: number): number {\n  return n <= 0 ? 0 : walkTree(n - 1);\n}\n",
    )
    .unwrap();
    std::fs::write(
        src.join("use.ts"),
        "import { walkTree } from './tree';\nexport function depth() {\n  return walkTree(3);\n}\n",
    )
    .unwrap();
    let calls: String = (0..5).map(|i| format!("walkTree({i});\n")).collect();
    std::fs::write(
        src.join("tree.test.ts"),
        format!("import {{ walkTree }} from './tree';\n{calls}"),
    )
    .unwrap();
    let index = common::open_uncached(dir.path());
    let uses = references::run(
        index.db(),
        index.workspace(),
        &ReferencesArgs::new("walkTree"),
    )
    .unwrap();
    let certain: Vec<(&str, u32)> = uses
        .uses
        .iter()
        .filter(|u| u.certainty == Certainty::Certain)
        .map(|u| (u.path.as_str(), u.line))
        .collect();
    assert!(certain.contains(&("src/tree.ts", 2)), "{uses:?}");
    assert!(certain.contains(&("src/use.ts", 3)), "{uses:?}");
    let in_test = uses
        .uses
        .iter()
        .filter(|u| u.path == "src/tree.test.ts")
        .count();
    assert_eq!(in_test, references::SECONDARY_USES_PER_FILE);
    assert_eq!(uses.more_in_file, [("src/tree.test.ts".to_owned(), 3)]);
    let text = uses.render_tagged(&no_tag);
    assert!(text.contains("(+3 more in this file)"), "{text}");
}

/// Definitions list primary files before tests by the language's own conventions (a Go
/// `_test.go` file is a test wherever it lies, as `grep` folds it), not only by the
/// cross-ecosystem path rules.
#[test]
fn definitions_put_a_languages_test_files_last() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("go.mod"), "module example.com/m\n").unwrap();
    let helper = "package m\n\nfunc Helper() int {\n\treturn 1\n}\n";
    std::fs::write(dir.path().join("a_test.go"), helper).unwrap();
    std::fs::write(dir.path().join("b.go"), helper).unwrap();
    let index = common::open_uncached(dir.path());
    let found = definition::run(
        index.db(),
        index.workspace(),
        &DefinitionArgs::new("Helper"),
    )
    .unwrap();
    let paths: Vec<&str> = found.hits.iter().map(|h| h.path.as_str()).collect();
    assert_eq!(paths, ["b.go", "a_test.go"], "{found:?}");
}

/// A function is used by calling it: its name mentioned otherwise where nothing ties the
/// mention to it (a parameter of the same name) is counted, not listed, while a caller and
/// a user passing it on are listed; a constant's mentions are all uses.
#[test]
fn mentions_of_a_functions_name_that_are_not_calls_are_counted() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("p.ts"),
        "export function parseRow(): number {\n  return 1;\n}\nexport const ROW_LIMIT = 3;\n",
    )
    .unwrap();
    std::fs::write(
        src.join("use.ts"),
        "import { parseRow } from './p';\nexport function calls() {\n  return parseRow();\n}\nexport function passes() {\n  return [1].map(parseRow);\n}\n",
    )
    .unwrap();
    std::fs::write(
        src.join("other.ts"),
        "export function shadows(parseRow: string) {\n  return parseRow.length;\n}\nexport function limit(ROW_LIMIT: number) {\n  return ROW_LIMIT;\n}\n",
    )
    .unwrap();
    let index = common::open_uncached(dir.path());
    let (db, ws) = (index.db(), index.workspace());
    let uses = references::run(db, ws, &ReferencesArgs::new("parseRow")).unwrap();
    let listed: Vec<(&str, u32)> = uses
        .uses
        .iter()
        .map(|u| (u.path.as_str(), u.line))
        .collect();
    assert!(listed.contains(&("src/use.ts", 3)), "{uses:?}");
    assert!(listed.contains(&("src/use.ts", 6)), "{uses:?}");
    assert!(
        !listed.iter().any(|(p, _)| *p == "src/other.ts"),
        "{uses:?}"
    );
    assert!(uses.not_called > 0, "{uses:?}");
    let text = uses.render_tagged(&no_tag);
    assert!(text.contains("that are not calls left out"), "{text}");
    // A constant is used by mentioning it: nothing is set aside.
    let limit = references::run(db, ws, &ReferencesArgs::new("ROW_LIMIT")).unwrap();
    assert_eq!(limit.not_called, 0, "{limit:?}");
    assert!(
        limit.uses.iter().any(|u| u.path == "src/other.ts"),
        "{limit:?}"
    );
}

/// The facts record member calls but not member reads, so `references` reads the text for
/// `.name` when the target is a member: a field's reads and a getter's (a method nothing
/// calls) are its uses; an ordinary method's name read without a call is not listed.
#[test]
fn members_read_as_obj_dot_name_are_uses() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("console.py"),
        "class Console:\n    width_limit = 3\n\n    @property\n    def is_tty(self):\n        return True\n\n    def flush(self):\n        return 1\n\n    def show(self):\n        if self.is_tty:\n            return self.width_limit\n        handler = self.flush\n        return self.flush()\n\n    def keys(self, opts):\n        return opts.flush\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("use.py"),
        "from console import Console\n\ndef run(c: Console):\n    is_tty = 1\n    return c.is_tty and c.width_limit > is_tty\n",
    )
    .unwrap();
    let index = common::open_uncached(dir.path());
    let (db, ws) = (index.db(), index.workspace());
    let lines = |name: &str| -> Vec<(String, u32)> {
        let r = references::run(db, ws, &ReferencesArgs::new(name)).unwrap();
        let lines: Vec<(String, u32)> = r.uses.iter().map(|u| (u.path.clone(), u.line)).collect();
        // A line is listed once, however many ways it was found.
        let unique: std::collections::BTreeSet<_> = lines.iter().collect();
        assert_eq!(unique.len(), lines.len(), "{lines:?}");
        lines
    };
    let getter = lines("Console.is_tty");
    assert!(
        getter.contains(&("console.py".to_owned(), 12)),
        "{getter:?}"
    );
    assert!(getter.contains(&("use.py".to_owned(), 5)), "{getter:?}");
    // The local named alike is not a read of the member.
    assert!(!getter.contains(&("use.py".to_owned(), 4)), "{getter:?}");
    let field = lines("Console.width_limit");
    assert!(field.contains(&("console.py".to_owned(), 13)), "{field:?}");
    assert!(field.contains(&("use.py".to_owned(), 5)), "{field:?}");
    // A method that is called: its calls are its uses, and so is a read that hands the
    // bound method on.
    let method = lines("Console.flush");
    assert!(
        method.contains(&("console.py".to_owned(), 15)),
        "{method:?}"
    );
    assert!(
        method.contains(&("console.py".to_owned(), 14)),
        "{method:?}"
    );
    // Another object's `.flush` without a call is a field or key named alike.
    assert!(
        !method.contains(&("console.py".to_owned(), 18)),
        "{method:?}"
    );

    // Once another type declares the name, a read in a file that never names the
    // target's type is counted, not listed; one in a file that does is still listed.
    std::fs::write(
        dir.path().join("gauge.py"),
        "class Gauge:\n    width_limit = 1\n\ndef level(g):\n    return g.width_limit\n",
    )
    .unwrap();
    let index = common::open_uncached(dir.path());
    let (db, ws) = (index.db(), index.workspace());
    let r = references::run(db, ws, &ReferencesArgs::new("Console.width_limit")).unwrap();
    let listed: Vec<(&str, u32)> = r.uses.iter().map(|u| (u.path.as_str(), u.line)).collect();
    assert!(listed.contains(&("use.py", 5)), "{r:?}");
    assert!(!listed.iter().any(|(p, _)| *p == "gauge.py"), "{r:?}");
    assert_eq!(r.unrelated_reads, 1, "{r:?}");
    assert!(
        r.render_tagged(&no_tag)
            .contains("1 reads of the name as a member")
    );
}

/// A line found both as a use the graph resolved and as a member read by name is listed
/// once, as the surer of the two.
#[test]
fn a_line_found_two_ways_is_listed_once() {
    let dir = tempfile::tempdir().unwrap();
    let src = dir.path().join("src");
    std::fs::create_dir_all(&src).unwrap();
    std::fs::write(
        src.join("Mapper.java"),
        "package p;\n\npublic class Mapper {\n  final Filter filter;\n\n  Mapper(Filter filter) {\n    this.filter = filter;\n  }\n\n  public Filter filter() {\n    return filter;\n  }\n}\n",
    )
    .unwrap();
    std::fs::write(
        src.join("Other.java"),
        "package p;\n\nclass Other {\n  Filter filter;\n}\n",
    )
    .unwrap();
    let index = common::open_uncached(dir.path());
    let (db, ws) = (index.db(), index.workspace());
    let r = references::run(db, ws, &ReferencesArgs::new("Mapper.filter")).unwrap();
    let lines: Vec<u32> = r.uses.iter().map(|u| u.line).collect();
    assert!(lines.contains(&7), "{r:?}");
    let unique: std::collections::BTreeSet<u32> = lines.iter().copied().collect();
    assert_eq!(unique.len(), lines.len(), "{r:?}");
}

/// A directory's outline says what its own manifests name it, one language's manifest
/// each, and nothing for a manifest that names no project (a workspace-only
/// `Cargo.toml`) or one in a subdirectory.
#[test]
fn an_outline_names_the_project_its_own_manifests_give() {
    let dir = tempfile::tempdir().unwrap();
    let files = [
        (
            "package.json",
            "{\"name\": \"demo-app\", \"private\": true}",
        ),
        ("go.mod", "module example.com/demo\n\ngo 1.22\n"),
        (
            "pom.xml",
            "<project><parent><artifactId>base</artifactId></parent><artifactId>demo-core</artifactId></project>",
        ),
        ("Cargo.toml", "[workspace]\nmembers = [\"crates/*\"]\n"),
        ("src/app.ts", "export function start() {}\n"),
        ("tools/pyproject.toml", "[project]\nname = \"demo-tools\"\n"),
        ("tools/run.py", "def main():\n    pass\n"),
    ];
    for (path, text) in files {
        let path = dir.path().join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }
    let index = common::open_uncached(dir.path());
    let (db, ws) = (index.db(), index.workspace());
    let root = outline::run(db, ws, &OutlineArgs::new("")).unwrap();
    let named: Vec<(&str, &str)> = root
        .projects
        .iter()
        .map(|p| (p.name.as_str(), p.manifest.as_str()))
        .collect();
    assert_eq!(
        named,
        [
            ("example.com/demo", "go.mod"),
            ("demo-app", "package.json"),
            ("demo-core", "pom.xml"),
        ]
    );
    let text = root.render_tagged(&no_tag);
    assert!(
        text.contains(
            "project: example.com/demo (go.mod), demo-app (package.json), demo-core (pom.xml)\n"
        ),
        "{text}"
    );
    let tools = outline::run(db, ws, &OutlineArgs::new("tools")).unwrap();
    assert_eq!(tools.projects.len(), 1, "{tools:?}");
    assert_eq!(tools.projects[0].name, "demo-tools");
}
