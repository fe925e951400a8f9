//! The parts of a `package.json` that module resolution needs: the package name, the
//! entry targets tried for the package directory itself, `exports` subpaths and
//! `imports` (`#name`) mappings. Targets stay relative to the package directory.

use super::diagnostic::{DiagnosticKind, ResolveDiagnostic};
use super::jsonc::strip_jsonc;
use super::pattern::PatternMap;
use serde_json::{Map, Value};

/// Conditions tried first, in this order. The source-leaning ones come first because an
/// index holds sources, not build output; anything else follows alphabetically so the
/// order never depends on the JSON object's key order.
const PREFERRED_CONDITIONS: [&str; 7] = [
    "types", "import", "module", "default", "require", "node", "browser",
];

/// How deeply nested condition objects and arrays may be before we stop following them.
const MAX_TARGET_DEPTH: usize = 8;

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PackageJson {
    pub name: Option<String>,
    /// Targets for the package directory itself (`exports["."]`, `types`, `typings`,
    /// `module`, `main`), in the order they are tried.
    pub entries: Vec<String>,
    /// `exports` subpath keys other than `"."` (`./sub`, `./sub/*`).
    pub subpaths: PatternMap,
    /// `imports` keys (`#name`, `#name/*`).
    pub imports: PatternMap,
}

impl PackageJson {
    /// Parses `text`; a malformed file yields an empty package and a diagnostic.
    pub fn parse(file: &str, text: &str, diags: &mut Vec<ResolveDiagnostic>) -> PackageJson {
        let value: Value = match serde_json::from_str(&strip_jsonc(text)) {
            Ok(v) => v,
            Err(e) => {
                let kind = DiagnosticKind::MalformedJson {
                    message: e.to_string(),
                };
                diags.push(ResolveDiagnostic::new(file, kind));
                return PackageJson::default();
            }
        };
        let Value::Object(obj) = value else {
            let kind = DiagnosticKind::MalformedJson {
                message: "top level is not an object".into(),
            };
            diags.push(ResolveDiagnostic::new(file, kind));
            return PackageJson::default();
        };
        let mut pkg = PackageJson {
            name: obj
                .get("name")
                .and_then(Value::as_str)
                .filter(|n| !n.is_empty())
                .map(str::to_string),
            ..PackageJson::default()
        };
        if let Some(exports) = obj.get("exports") {
            pkg.read_exports(file, exports, diags);
        }
        for field in ["types", "typings", "module", "main"] {
            if let Some(target) = obj.get(field).and_then(Value::as_str) {
                pkg.entries.push(target.to_string());
            }
        }
        if let Some(Value::Object(imports)) = obj.get("imports") {
            pkg.imports = PatternMap::new(pattern_rules(imports, |k| k.starts_with('#')));
        }
        pkg
    }

    fn read_exports(&mut self, file: &str, exports: &Value, diags: &mut Vec<ResolveDiagnostic>) {
        let Value::Object(map) = exports else {
            // A string or an array is the `"."` entry alone.
            self.entries.extend(targets(exports));
            return;
        };
        let dotted = map.keys().filter(|k| k.starts_with('.')).count();
        if dotted == 0 {
            // `{ "import": …, "types": … }`: conditions for `"."`.
            self.entries.extend(targets(exports));
            return;
        }
        if dotted != map.len() {
            let reason = "mixes subpath keys and condition keys; condition keys ignored".into();
            let kind = DiagnosticKind::InvalidField {
                field: "exports".into(),
                reason,
            };
            diags.push(ResolveDiagnostic::new(file, kind));
        }
        if let Some(dot) = map.get(".") {
            self.entries.extend(targets(dot));
        }
        self.subpaths = PatternMap::new(pattern_rules(map, |k| k.starts_with("./")));
    }
}

/// `key → targets` rules for the keys accepted by `keep`, in sorted key order.
fn pattern_rules(
    map: &Map<String, Value>,
    keep: impl Fn(&str) -> bool,
) -> Vec<(String, Vec<String>)> {
    let mut rules: Vec<_> = map
        .iter()
        .filter(|(k, _)| keep(k))
        .map(|(k, v)| (k.clone(), targets(v)))
        .collect();
    rules.sort();
    rules
}

/// Flattens an exports/imports value (string, array, nested condition objects) into the
/// target strings to try, in preference order. `null` excludes and yields nothing.
pub fn targets(value: &Value) -> Vec<String> {
    let mut out = Vec::new();
    collect_targets(value, 0, &mut out);
    let mut seen = std::collections::HashSet::new();
    out.retain(|t| seen.insert(t.clone()));
    out
}

fn collect_targets(value: &Value, depth: usize, out: &mut Vec<String>) {
    if depth > MAX_TARGET_DEPTH {
        return;
    }
    match value {
        Value::String(s) => out.push(s.clone()),
        Value::Array(items) => items
            .iter()
            .for_each(|v| collect_targets(v, depth + 1, out)),
        Value::Object(conditions) => {
            for name in PREFERRED_CONDITIONS {
                if let Some(v) = conditions.get(name) {
                    collect_targets(v, depth + 1, out);
                }
            }
            let mut rest: Vec<_> = conditions
                .iter()
                .filter(|(k, _)| !PREFERRED_CONDITIONS.contains(&k.as_str()))
                .collect();
            rest.sort_by(|a, b| a.0.cmp(b.0));
            rest.into_iter()
                .for_each(|(_, v)| collect_targets(v, depth + 1, out));
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> (PackageJson, Vec<ResolveDiagnostic>) {
        let mut diags = Vec::new();
        (
            PackageJson::parse("p/package.json", text, &mut diags),
            diags,
        )
    }

    #[test]
    fn entry_fields_follow_exports_dot() {
        let (p, d) = parse(
            r#"{ "name": "@s/x", "main": "./dist/i.js", "types": "./src/i.ts", "module": "./m.js",
                 "exports": { ".": { "default": "./d.js", "import": "./i.js", "types": "./t.ts" } } }"#,
        );
        assert!(d.is_empty());
        assert_eq!(p.name.as_deref(), Some("@s/x"));
        assert_eq!(
            p.entries,
            [
                "./t.ts",
                "./i.js",
                "./d.js",
                "./src/i.ts",
                "./m.js",
                "./dist/i.js"
            ]
        );
    }

    #[test]
    fn exports_string_and_bare_conditions_are_the_dot_entry() {
        assert_eq!(parse(r#"{ "exports": "./a.js" }"#).0.entries, ["./a.js"]);
        let (p, _) =
            parse(r#"{ "exports": { "import": { "types": "./t.ts" }, "require": "./r.js" } }"#);
        assert_eq!(p.entries, ["./t.ts", "./r.js"]);
    }

    #[test]
    fn subpaths_and_imports_are_pattern_maps() {
        let (p, _) = parse(
            r##"{ "exports": { "./format": "./src/format.ts", "./util/*": { "import": "./src/util/*.ts" } },
                  "imports": { "#lib/*": "./src/lib/*.ts" } }"##,
        );
        assert_eq!(
            p.subpaths.lookup("./format"),
            Some(vec!["./src/format.ts".into()])
        );
        assert_eq!(
            p.subpaths.lookup("./util/a"),
            Some(vec!["./src/util/a.ts".into()])
        );
        assert_eq!(
            p.imports.lookup("#lib/b"),
            Some(vec!["./src/lib/b.ts".into()])
        );
    }

    #[test]
    fn null_targets_exclude() {
        let (p, _) = parse(r#"{ "exports": { ".": null, "./x": null } }"#);
        assert!(p.entries.is_empty());
        assert_eq!(p.subpaths.lookup("./x"), Some(vec![]));
    }

    #[test]
    fn malformed_and_odd_inputs_give_diagnostics_not_panics() {
        assert_eq!(parse("{ nope").1.len(), 1);
        assert_eq!(parse("[1]").1.len(), 1);
        let (p, d) = parse(r#"{ "exports": { ".": "./a.js", "import": "./b.js" }, "name": 3 }"#);
        assert_eq!(d.len(), 1);
        assert_eq!(p.entries, ["./a.js"]);
        assert_eq!(p.name, None);
    }

    #[test]
    fn deep_nesting_is_bounded() {
        let mut v = String::from("\"./a.js\"");
        for _ in 0..50 {
            v = format!("{{ \"import\": {v} }}");
        }
        let (p, _) = parse(&format!("{{ \"exports\": {v} }}"));
        assert!(p.entries.is_empty());
    }
}
