//! Tool schemas in the portable subset of JSON Schema that every MCP client and model
//! provider converts without loss: definitions inlined (no `$ref`/`$defs`), enums as a
//! plain `enum` of strings, optional fields instead of nullable type unions, standard
//! `format`s only, no `additionalProperties: false`, and the numeric limits the tools
//! enforce at run time as `minimum`/`maximum`.
//!
//! schemars writes what is exact for a validator (`oneOf` of `const`, `type: [X, "null"]`,
//! `format: "uint32"`); TypeScript clients warn on the formats, OpenAI strict mode and
//! Gemini's converter reject or lose the unions and references, and google-genai crashes
//! on `additionalProperties: false`. Unknown fields are still rejected at run time (see
//! `params::Strict`), so dropping that keyword loses no checking.

use std::any::Any;
use std::sync::Arc;

use rmcp::handler::server::common::schema_for_type;
use schemars::JsonSchema;
use serde_json::{Map, Value};
use sightline_observe::tools::grep;
use sightline_observe::tools::list_files;
use sightline_observe::tools::nav::{outline, references};
use sightline_registry::selection::{
    MAX_FLOW, MAX_MISSING, MAX_PRIMARY, MAX_READ_TARGETS, MAX_SEARCH_TARGETS,
};
use sightline_validate::Budget;

type JsonObject = Map<String, Value>;

/// `format` values defined by JSON Schema 2020-12; any other is dropped.
// guard: allow(lexicon) reason: the format names of the JSON Schema specification, not English words
const STANDARD_FORMATS: &[&str] = &[
    "date-time",
    "date",
    "time",
    "duration",
    "email",
    "idn-email",
    "hostname",
    "idn-hostname",
    "ipv4",
    "ipv6",
    "uri",
    "uri-reference",
    "iri",
    "iri-reference",
    "uuid",
    "uri-template",
    "json-pointer",
    "relative-json-pointer",
    "regex",
];

/// Keywords whose values are data, not schemas: never rewritten.
const DATA_KEYWORDS: &[&str] = &["default", "const", "enum", "examples", "required"];

/// Keywords whose values map names to schemas.
const SCHEMA_MAPS: &[&str] = &["properties", "patternProperties", "dependentSchemas"];

/// How deep `$ref`s are followed; deeper (recursive) references become `{}` (any value).
const MAX_REF_DEPTH: usize = 16;

/// Carries an enum's per-value descriptions until the final pass folds them into the
/// description of the schema that ends up holding the enum.
const VALUE_DOCS: &str = "x-sightline-value-docs";

/// The smallest value of a count the tools reject when zero ("must be at least 1").
const AT_LEAST_ONE: u64 = 1;

/// A numeric limit the observe tools enforce at run time on a field of their own argument
/// structs (which this crate cannot annotate), mirrored into the tool's input schema.
struct Limit {
    tool: &'static str,
    field: &'static str,
    minimum: Option<u64>,
    maximum: Option<u64>,
}

const fn limit(tool: &'static str, field: &'static str, min: u64, max: Option<u64>) -> Limit {
    Limit {
        tool,
        field,
        minimum: Some(min),
        maximum: max,
    }
}

/// Each entry cites the check it mirrors: the argument checks and clamps at the top of
/// `grep::run`, `read_file`'s `Window::validate`, `list_files::run`, `references::run`
/// and `outline::run`. A value above a clamped maximum is accepted and clamped at run
/// time; the schema states the effective maximum.
const LIMITS: &[Limit] = &[
    limit(
        "grep",
        "max_matches",
        AT_LEAST_ONE,
        Some(grep::MAX_MATCHES_CAP as u64),
    ),
    limit("grep", "context", 0, Some(grep::MAX_CONTEXT as u64)),
    limit("read_file", "start_line", AT_LEAST_ONE, None),
    limit("read_file", "end_line", AT_LEAST_ONE, None),
    limit(
        "list_files",
        "depth",
        AT_LEAST_ONE,
        Some(list_files::MAX_DEPTH as u64),
    ),
    limit(
        "references",
        "max_results",
        AT_LEAST_ONE,
        Some(references::MAX_RESULTS_CAP as u64),
    ),
    limit(
        "outline",
        "max_entries",
        AT_LEAST_ONE,
        Some(outline::MAX_ENTRIES_CAP as u64),
    ),
];

/// The portable input schema of `tool`, whose arguments are `T`.
pub fn input<T: JsonSchema + Any>(tool: &str) -> Arc<JsonObject> {
    let mut raw = schema_for_type::<T>().as_ref().clone();
    // Like rmcp's own input schemas: the tool's description says what it is.
    raw.remove("title");
    raw.remove("description");
    finish(tool, &raw)
}

/// The portable input schema of `submit_report`, with every limit validation enforces on
/// a selection as `maxItems` and `maxLength` (the same constants, so a client that checks
/// the schema and the validator agree), and without the noise a model need not read
/// (empty defaults, the candidate ID's description repeated on every ID).
pub fn submit() -> Arc<JsonObject> {
    let mut object = portable(&crate::params::submit_schema());
    let budget = Budget::default();
    let counts = [
        ("primary", MAX_PRIMARY),
        ("flow", MAX_FLOW),
        ("read_targets", MAX_READ_TARGETS),
        ("missing", MAX_MISSING),
        ("search_targets", MAX_SEARCH_TARGETS),
    ];
    // guard: allow(lexicon) reason: the submit_report schema's own field names, not English words
    let lengths: [(&str, &str, usize); 7] = [
        ("flow", "quote", budget.max_quote_chars),
        ("flow", "role", budget.max_term_chars),
        ("flow", "fact", budget.max_text_chars),
        ("read_targets", "purpose", budget.max_text_chars),
        ("search_targets", "term", budget.max_term_chars),
        ("search_targets", "scope", budget.max_text_chars),
        ("missing", "", budget.max_text_chars),
    ];
    if let Some(Value::Object(properties)) = object.get_mut("properties") {
        for (field, max) in counts {
            if let Some(Value::Object(array)) = properties.get_mut(field) {
                array.remove("default");
                array.insert("maxItems".into(), Value::from(max));
            }
        }
        for (field, inner, max) in lengths {
            let Some(items) = properties.get_mut(field).and_then(|a| a.get_mut("items")) else {
                continue;
            };
            let target = match inner {
                "" => Some(items),
                inner => items.get_mut("properties").and_then(|p| p.get_mut(inner)),
            };
            if let Some(Value::Object(string)) = target {
                string.insert("maxLength".into(), Value::from(max));
            }
        }
    }
    strip_id_docs(&mut object);
    Arc::new(object)
}

/// Removes the description of every candidate ID schema (`pattern` `^c[0-9]+$`): the
/// pattern says what it is, and the description would repeat on every ID field.
fn strip_id_docs(object: &mut JsonObject) {
    if object.get("pattern").and_then(Value::as_str) == Some("^c[0-9]+$") {
        object.remove("description");
    }
    for value in object.values_mut() {
        match value {
            Value::Object(child) => strip_id_docs(child),
            Value::Array(items) => items.iter_mut().for_each(|item| {
                if let Value::Object(child) = item {
                    strip_id_docs(child);
                }
            }),
            _ => {}
        }
    }
}

/// `schema` (a tool's raw input schema) made portable, with `tool`'s run-time limits.
pub fn finish(tool: &str, schema: &JsonObject) -> Arc<JsonObject> {
    let mut object = portable(schema);
    apply_limits(tool, &mut object);
    Arc::new(object)
}

/// Rewrites a generated schema into the portable subset (see the module doc).
pub fn portable(schema: &JsonObject) -> JsonObject {
    let mut defs = JsonObject::new();
    for key in ["definitions", "$defs"] {
        if let Some(Value::Object(map)) = schema.get(key) {
            for (name, def) in map {
                defs.insert(format!("#/{key}/{name}"), def.clone());
            }
        }
    }
    let mut object = rewrite_object(schema.clone(), &defs, 0);
    object.remove("$schema");
    fold_value_docs(&mut object);
    object
}

fn rewrite(value: Value, defs: &JsonObject, depth: usize) -> Value {
    match value {
        Value::Object(object) => Value::Object(rewrite_object(object, defs, depth)),
        Value::Array(items) => Value::Array(
            items
                .into_iter()
                .map(|item| rewrite(item, defs, depth))
                .collect(),
        ),
        other => other,
    }
}

fn rewrite_object(object: JsonObject, defs: &JsonObject, depth: usize) -> JsonObject {
    let mut out = expand(object, defs, depth);
    collapse(&mut out);
    out
}

/// Rewrites the children of a schema and inlines its `$ref`, leaving the schema's own
/// unions for [`collapse`], so a referenced enum is collapsed after it is merged with the
/// referencing site's keywords.
fn expand(mut object: JsonObject, defs: &JsonObject, depth: usize) -> JsonObject {
    let reference = object.remove("$ref");
    let mut out = JsonObject::new();
    for (key, value) in object {
        match key.as_str() {
            "$defs" | "definitions" => {}
            k if DATA_KEYWORDS.contains(&k) => {
                out.insert(key, value);
            }
            k if SCHEMA_MAPS.contains(&k) => {
                out.insert(key, rewrite_schema_map(value, defs, depth));
            }
            _ => {
                out.insert(key, rewrite(value, defs, depth));
            }
        }
    }
    if let Some(required) = out.get("required").cloned() {
        out.insert("required".into(), without_optional(required, &out));
    }
    if matches!(out.get("required"), Some(Value::Array(r)) if r.is_empty()) {
        out.remove("required");
    }
    let Some(Value::String(reference)) = reference else {
        return out;
    };
    let mut inlined = match defs.get(&reference) {
        Some(Value::Object(def)) if depth < MAX_REF_DEPTH => expand(def.clone(), defs, depth + 1),
        // Unresolvable or recursive beyond the cap: any value.
        _ => JsonObject::new(),
    };
    // The referencing site's own keywords (its description, default) win.
    inlined.extend(out);
    inlined
}

fn rewrite_schema_map(value: Value, defs: &JsonObject, depth: usize) -> Value {
    match value {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .map(|(name, schema)| (name, rewrite(schema, defs, depth)))
                .collect(),
        ),
        other => other,
    }
}

/// `required` without the properties that were nullable: a nullable field becomes an
/// optional one, so a client may leave it out instead of sending null.
fn without_optional(required: Value, object: &JsonObject) -> Value {
    let Value::Array(names) = required else {
        return required;
    };
    let nullable = |name: &Value| {
        name.as_str()
            .and_then(|name| object.get("properties")?.get(name))
            .is_some_and(|schema| schema.get(NULLABLE_MARK).is_some())
    };
    Value::Array(names.into_iter().filter(|n| !nullable(n)).collect())
}

/// Set by [`collapse`] on a schema that admitted null, for the parent's `required`; removed
/// by the final pass.
const NULLABLE_MARK: &str = "x-sightline-was-nullable";

/// The schema's own unions, nullable types, formats and closed objects made portable.
fn collapse(out: &mut JsonObject) {
    drop_null_alternatives(out);
    enum_from_consts(out);
    if let Some(Value::String(format)) = out.get("format")
        && !STANDARD_FORMATS.contains(&format.as_str())
    {
        let unsigned = format.starts_with("uint");
        out.remove("format");
        let below_zero = out
            .get("minimum")
            .and_then(Value::as_f64)
            .is_none_or(|m| m < 0.0);
        if unsigned && below_zero {
            out.insert("minimum".into(), Value::from(0));
        }
    }
    if out.get("additionalProperties") == Some(&Value::Bool(false)) {
        out.remove("additionalProperties");
    }
    // `null` says nothing; `false` is what an absent flag means anyway.
    if matches!(out.get("default"), Some(Value::Null | Value::Bool(false))) {
        out.remove("default");
    }
}

fn is_null_schema(value: &Value) -> bool {
    value.get("type") == Some(&Value::from("null"))
        && value.as_object().is_some_and(|o| o.len() == 1)
}

/// `type: [X, "null"]`, `anyOf [X, {"type": "null"}]` and `enum [.., null]` lose the null.
fn drop_null_alternatives(out: &mut JsonObject) {
    let mut nullable = false;
    if let Some(Value::Array(types)) = out.get_mut("type") {
        let before = types.len();
        types.retain(|t| t != "null");
        nullable |= types.len() < before;
        if types.len() == 1 {
            let single = types.remove(0);
            out.insert("type".into(), single);
        }
    }
    if let Some(Value::Array(values)) = out.get_mut("enum") {
        let before = values.len();
        values.retain(|v| !v.is_null());
        nullable |= values.len() < before;
    }
    for key in ["anyOf", "oneOf"] {
        let Some(Value::Array(mut alternatives)) = out.remove(key) else {
            continue;
        };
        let before = alternatives.len();
        alternatives.retain(|a| !is_null_schema(a));
        nullable |= alternatives.len() < before;
        match (alternatives.len() < before, alternatives.pop()) {
            (true, Some(Value::Object(single))) if alternatives.is_empty() => {
                // The site's own keywords (description, default) win over the alternative's.
                let site = std::mem::replace(out, single);
                out.extend(site);
                collapse(out);
            }
            (_, last) => {
                alternatives.extend(last);
                out.insert(key.into(), Value::Array(alternatives));
            }
        }
    }
    if nullable {
        out.insert(NULLABLE_MARK.into(), Value::Bool(true));
    }
}

/// `oneOf`/`anyOf` of string `const`s (each perhaps with a description) becomes
/// `{"type": "string", "enum": [...]}`; the values' descriptions are kept for the
/// description text.
fn enum_from_consts(out: &mut JsonObject) {
    for key in ["oneOf", "anyOf"] {
        let Some(Value::Array(alternatives)) = out.get(key) else {
            continue;
        };
        let consts: Option<Vec<(String, Option<String>)>> = alternatives
            .iter()
            .map(|a| {
                let value = a.get("const")?.as_str()?.to_owned();
                let doc = a
                    .get("description")
                    .and_then(Value::as_str)
                    .map(str::to_owned);
                Some((value, doc))
            })
            .collect();
        let Some(consts) = consts.filter(|c| !c.is_empty()) else {
            continue;
        };
        out.remove(key);
        let docs: Vec<String> = consts
            .iter()
            .filter_map(|(value, doc)| {
                let doc = doc.as_deref()?.trim_end_matches('.');
                Some(format!("{value}: {doc}"))
            })
            .collect();
        out.insert("type".into(), Value::from("string"));
        out.insert(
            "enum".into(),
            Value::Array(consts.into_iter().map(|(v, _)| Value::from(v)).collect()),
        );
        if !docs.is_empty() {
            out.insert(VALUE_DOCS.into(), Value::from(docs.join("; ")));
        }
    }
}

/// Appends each enum's value descriptions to the description that survived the merges,
/// and removes the bookkeeping keys.
fn fold_value_docs(object: &mut JsonObject) {
    object.remove(NULLABLE_MARK);
    if let Some(Value::String(docs)) = object.remove(VALUE_DOCS) {
        let text = match object.get("description").and_then(Value::as_str) {
            Some(own) => format!("{own} Values: {docs}."),
            None => format!("Values: {docs}."),
        };
        object.insert("description".into(), Value::from(text));
    }
    for (key, value) in object.iter_mut() {
        if DATA_KEYWORDS.contains(&key.as_str()) {
            continue;
        }
        fold_in(value);
    }
}

fn fold_in(value: &mut Value) {
    match value {
        Value::Object(object) => fold_value_docs(object),
        Value::Array(items) => items.iter_mut().for_each(fold_in),
        _ => {}
    }
}

fn apply_limits(tool: &str, object: &mut JsonObject) {
    let Some(Value::Object(properties)) = object.get_mut("properties") else {
        return;
    };
    for limit in LIMITS.iter().filter(|l| l.tool == tool) {
        let Some(Value::Object(field)) = properties.get_mut(limit.field) else {
            continue;
        };
        if let Some(minimum) = limit.minimum {
            field.insert("minimum".into(), Value::from(minimum));
        }
        if let Some(maximum) = limit.maximum {
            field.insert("maximum".into(), Value::from(maximum));
        }
    }
}

/// Every construct in `schema` outside the portable subset, each named by its JSON
/// pointer; empty when the schema is portable.
pub fn non_portable(schema: &Value) -> Vec<String> {
    let mut found = Vec::new();
    walk(schema, "", &mut found);
    found
}

fn walk(value: &Value, pointer: &str, found: &mut Vec<String>) {
    let Some(object) = value.as_object() else {
        if let Value::Array(items) = value {
            for (i, item) in items.iter().enumerate() {
                walk(item, &format!("{pointer}/{i}"), found);
            }
        }
        return;
    };
    for (key, child) in object {
        let at = format!("{pointer}/{key}");
        match key.as_str() {
            "$ref" | "$defs" | "definitions" | "oneOf" | "anyOf" | "allOf" => {
                found.push(format!("{at}: `{key}`"));
            }
            "type" if child.is_array() => found.push(format!("{at}: type union {child}")),
            "additionalProperties" if child == &Value::Bool(false) => {
                found.push(format!("{at}: additionalProperties false"));
            }
            "format"
                if !child
                    .as_str()
                    .is_some_and(|f| STANDARD_FORMATS.contains(&f)) =>
            {
                found.push(format!("{at}: format {child}"));
            }
            k if k.starts_with("x-sightline") => found.push(format!("{at}: bookkeeping key")),
            _ => {}
        }
        if DATA_KEYWORDS.contains(&key.as_str()) {
            continue;
        }
        if SCHEMA_MAPS.contains(&key.as_str()) {
            for (name, schema) in child.as_object().into_iter().flatten() {
                walk(schema, &format!("{at}/{name}"), found);
            }
        } else {
            walk(child, &at, found);
        }
    }
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    use super::*;

    fn object(value: Value) -> JsonObject {
        match value {
            Value::Object(object) => object,
            _ => panic!("not an object"),
        }
    }

    #[test]
    fn references_are_inlined_and_definitions_removed() {
        let schema = object(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "$defs": {"Id": {"type": "string", "pattern": "^c[0-9]+$", "description": "an id"}},
            "type": "object",
            "properties": {
                "id": {"$ref": "#/$defs/Id", "description": "the one to read"},
                "ids": {"type": "array", "items": {"$ref": "#/$defs/Id"}}
            },
            "required": ["id"]
        }));
        let out = Value::Object(portable(&schema));
        assert_eq!(non_portable(&out), Vec::<String>::new());
        assert_eq!(
            out["properties"]["id"],
            json!({"type": "string", "pattern": "^c[0-9]+$", "description": "the one to read"})
        );
        assert_eq!(out["properties"]["ids"]["items"]["description"], "an id");
        assert_eq!(out["required"], json!(["id"]));
        assert!(out.get("$schema").is_none());
    }

    #[test]
    fn an_enum_of_consts_becomes_a_plain_enum_keeping_the_value_docs() {
        let schema = object(json!({
            "$defs": {"Intent": {"description": "what for", "oneOf": [
                {"const": "edit", "type": "string", "description": "Change code."},
                {"const": "locate", "type": "string", "description": "Point at it."}
            ]}},
            "type": "object",
            "properties": {
                "intent": {"$ref": "#/$defs/Intent", "description": "What the report is for."},
                "maybe": {"anyOf": [{"$ref": "#/$defs/Intent"}, {"type": "null"}], "default": null},
                "plain": {"oneOf": [{"const": "a"}, {"const": "b"}]}
            },
            "required": ["intent", "maybe"]
        }));
        let out = Value::Object(portable(&schema));
        assert_eq!(non_portable(&out), Vec::<String>::new());
        assert_eq!(
            out["properties"]["intent"],
            json!({
                "type": "string",
                "enum": ["edit", "locate"],
                "description": "What the report is for. Values: edit: Change code; locate: Point at it."
            })
        );
        assert_eq!(
            out["properties"]["maybe"]["enum"],
            json!(["edit", "locate"])
        );
        assert!(out["properties"]["maybe"].get("default").is_none());
        assert_eq!(
            out["properties"]["plain"],
            json!({"type": "string", "enum": ["a", "b"]})
        );
        assert_eq!(
            out["required"],
            json!(["intent"]),
            "nullable became optional"
        );
    }

    #[test]
    fn nullable_types_lose_the_null_and_leave_required() {
        let schema = object(json!({
            "type": "object",
            "properties": {
                "end": {"type": ["integer", "null"], "format": "uint32", "minimum": 0},
                "name": {"type": ["string", "null"], "default": null}
            },
            "required": ["end"]
        }));
        let out = Value::Object(portable(&schema));
        assert_eq!(non_portable(&out), Vec::<String>::new());
        assert_eq!(
            out["properties"]["end"],
            json!({"type": "integer", "minimum": 0})
        );
        assert_eq!(out["properties"]["name"], json!({"type": "string"}));
        assert!(out.get("required").is_none(), "{out}");
    }

    #[test]
    fn non_standard_formats_go_and_unsigned_ones_become_a_minimum() {
        let schema = object(json!({
            "type": "object",
            "properties": {
                "count": {"type": "integer", "format": "uint"},
                "ratio": {"type": "number", "format": "double"},
                "offset": {"type": "integer", "format": "int32"},
                "at": {"type": "string", "format": "date-time"}
            },
            "additionalProperties": false
        }));
        let out = Value::Object(portable(&schema));
        assert_eq!(non_portable(&out), Vec::<String>::new());
        assert_eq!(
            out["properties"]["count"],
            json!({"type": "integer", "minimum": 0})
        );
        assert_eq!(out["properties"]["ratio"], json!({"type": "number"}));
        assert_eq!(out["properties"]["offset"], json!({"type": "integer"}));
        assert_eq!(out["properties"]["at"]["format"], "date-time");
        assert!(out.get("additionalProperties").is_none());
    }

    #[test]
    fn a_property_named_like_a_keyword_is_left_alone() {
        let schema = object(json!({
            "type": "object",
            "properties": {"format": {"type": "string"}, "default": {"type": "integer"}}
        }));
        let out = portable(&schema);
        assert_eq!(Value::Object(out.clone()), Value::Object(schema));
    }

    #[test]
    fn a_recursive_reference_ends_in_an_open_schema_instead_of_looping() {
        let schema = object(json!({
            "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
            "type": "object",
            "properties": {"head": {"$ref": "#/$defs/Node"}}
        }));
        let out = Value::Object(portable(&schema));
        assert_eq!(non_portable(&out), Vec::<String>::new());
    }

    #[test]
    fn the_walker_names_every_non_portable_construct() {
        let bad = json!({
            "type": "object",
            "$defs": {},
            "additionalProperties": false,
            "properties": {
                "a": {"$ref": "#/$defs/A"},
                "b": {"type": ["string", "null"]},
                "c": {"anyOf": [{"type": "string"}]},
                "d": {"type": "integer", "format": "uint32"}
            }
        });
        assert_eq!(non_portable(&bad).len(), 6, "{:?}", non_portable(&bad));
    }

    #[test]
    fn limits_apply_to_the_named_tool_only() {
        let schema = object(json!({
            "type": "object",
            "properties": {"max_matches": {"type": "integer", "format": "uint", "minimum": 0}}
        }));
        let grep = finish("grep", &schema);
        assert_eq!(grep["properties"]["max_matches"]["minimum"], 1);
        assert_eq!(
            grep["properties"]["max_matches"]["maximum"],
            grep::MAX_MATCHES_CAP as u64
        );
        let other = finish("outline", &schema);
        assert_eq!(other["properties"]["max_matches"]["minimum"], 0);
        assert!(other["properties"]["max_matches"].get("maximum").is_none());
    }
}
