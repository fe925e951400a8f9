//! The module-resolution view of `tsconfig.json` files: `compilerOptions.baseUrl` and
//! `compilerOptions.paths`, merged along `extends` chains.
//!
//! Which config applies to a source file is decided by the caller (the nearest ancestor
//! `tsconfig.json`); `include`/`files`/`references` and sibling `tsconfig.*.json` files
//! are deliberately not consulted, which keeps the rule predictable and cheap.

use super::diagnostic::{DiagnosticKind, ResolveDiagnostic};
use super::jsonc::strip_jsonc;
use super::pattern::PatternMap;
use serde_json::{Map, Value};
use sightline_lang::path;
use std::collections::HashMap;

/// The effective (merged) resolution settings of one config file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TsConfig {
    /// Repo-relative directory `baseUrl` points at.
    pub base_url: Option<String>,
    /// `paths` rules, targets unjoined.
    pub paths: PatternMap,
    /// Directory `paths` targets are relative to: `baseUrl` when set, otherwise the
    /// directory of the config that defined `paths` (TypeScript ≥ 4.1 semantics).
    pub paths_base: String,
}

/// What one file says on its own, before `extends` is applied. Each setting remembers
/// the directory it is relative to, because a setting inherited from a base config stays
/// relative to the base config.
#[derive(Clone, Debug, Default)]
struct Layer {
    base_url: Option<String>,
    /// `paths` plus the directory of the config that declared them.
    paths: Option<(PatternMap, String)>,
}

impl Layer {
    fn overlay(&mut self, child: &Layer) {
        if child.base_url.is_some() {
            self.base_url.clone_from(&child.base_url);
        }
        if child.paths.is_some() {
            self.paths.clone_from(&child.paths);
        }
    }

    fn finish(self) -> TsConfig {
        let (paths, declared_in) = self.paths.unwrap_or_default();
        let paths_base = self.base_url.clone().unwrap_or(declared_in);
        TsConfig {
            base_url: self.base_url,
            paths,
            paths_base,
        }
    }
}

/// Longest `extends` chain followed. Real chains are a handful of files; the limit keeps a
/// hostile chain from exhausting the stack (the merge recurses once per link).
pub const MAX_EXTENDS_DEPTH: usize = 64;

/// Loads config files through `read`, following `extends`, memoizing merged layers so a
/// shared base is parsed (and diagnosed) once.
pub struct Loader<'r> {
    read: &'r dyn Fn(&str) -> Option<String>,
    merged: HashMap<String, Layer>,
    stack: Vec<String>,
    pub diagnostics: Vec<ResolveDiagnostic>,
}

impl<'r> Loader<'r> {
    pub fn new(read: &'r dyn Fn(&str) -> Option<String>) -> Self {
        Self {
            read,
            merged: HashMap::new(),
            stack: Vec::new(),
            diagnostics: Vec::new(),
        }
    }

    /// The effective settings of the config at `file` (a path known to be in the index).
    pub fn load(&mut self, file: &str) -> TsConfig {
        match (self.read)(file) {
            Some(text) => self.merged_layer(file, &text).finish(),
            None => {
                self.diag(file, DiagnosticKind::Unreadable);
                TsConfig::default()
            }
        }
    }

    fn merged_layer(&mut self, file: &str, text: &str) -> Layer {
        if let Some(done) = self.merged.get(file) {
            return done.clone();
        }
        self.stack.push(file.to_string());
        let (own, extends) = self.parse(file, text);
        let mut layer = Layer::default();
        for spec in extends {
            if let Some(parent) = self.extended(file, &spec) {
                layer.overlay(&parent);
            }
        }
        layer.overlay(&own);
        self.stack.pop();
        self.merged.insert(file.to_string(), layer.clone());
        layer
    }

    /// The merged layer of one `extends` entry, or `None` (with a diagnostic).
    fn extended(&mut self, file: &str, spec: &str) -> Option<Layer> {
        if self.stack.len() >= MAX_EXTENDS_DEPTH {
            self.diag(
                file,
                DiagnosticKind::ExtendsTooDeep {
                    limit: MAX_EXTENDS_DEPTH,
                },
            );
            return None;
        }
        let is_relative = spec.starts_with("./") || spec.starts_with("../");
        if !is_relative {
            let kind = if spec.starts_with('/') {
                DiagnosticKind::ExtendsNotFound {
                    specifier: spec.to_string(),
                }
            } else {
                DiagnosticKind::ExtendsPackageUnsupported {
                    specifier: spec.to_string(),
                }
            };
            self.diag(file, kind);
            return None;
        }
        let Some(target) = path::join(path::parent(file), spec) else {
            self.diag(
                file,
                DiagnosticKind::ExtendsNotFound {
                    specifier: spec.to_string(),
                },
            );
            return None;
        };
        // TypeScript appends `.json` when the name as written does not exist.
        let candidates = [target.clone(), format!("{target}.json")];
        for candidate in candidates {
            if let Some(pos) = self.stack.iter().position(|f| *f == candidate) {
                let mut chain = self.stack[pos..].to_vec();
                chain.push(candidate);
                self.diag(file, DiagnosticKind::ExtendsCycle { chain });
                return None;
            }
            if let Some(text) = (self.read)(&candidate) {
                return Some(self.merged_layer(&candidate, &text));
            }
        }
        self.diag(
            file,
            DiagnosticKind::ExtendsNotFound {
                specifier: spec.to_string(),
            },
        );
        None
    }

    /// This file's own settings and its `extends` list.
    fn parse(&mut self, file: &str, text: &str) -> (Layer, Vec<String>) {
        let root = match serde_json::from_str::<Value>(&strip_jsonc(text)) {
            Ok(Value::Object(root)) => root,
            Ok(_) => {
                let message = "top level is not an object".to_string();
                self.diag(file, DiagnosticKind::MalformedJson { message });
                return Default::default();
            }
            Err(e) => {
                self.diag(
                    file,
                    DiagnosticKind::MalformedJson {
                        message: e.to_string(),
                    },
                );
                return Default::default();
            }
        };
        let extends = match root.get("extends") {
            None => Vec::new(),
            Some(Value::String(s)) => vec![s.clone()],
            Some(Value::Array(items)) if items.iter().all(Value::is_string) => items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect(),
            Some(_) => {
                self.invalid(file, "extends", "expected a string or an array of strings");
                Vec::new()
            }
        };
        let mut layer = Layer::default();
        match root.get("compilerOptions") {
            None => {}
            Some(Value::Object(options)) => self.read_options(file, options, &mut layer),
            Some(_) => self.invalid(file, "compilerOptions", "expected an object"),
        }
        (layer, extends)
    }

    fn read_options(&mut self, file: &str, options: &Map<String, Value>, layer: &mut Layer) {
        let dir = path::parent(file);
        match options.get("baseUrl") {
            None => {}
            Some(Value::String(url)) => match path::join(dir, url) {
                Some(base) => layer.base_url = Some(base),
                None => self.invalid(
                    file,
                    "compilerOptions.baseUrl",
                    "points outside the repository",
                ),
            },
            Some(_) => self.invalid(file, "compilerOptions.baseUrl", "expected a string"),
        }
        match options.get("paths") {
            None => {}
            Some(Value::Object(paths)) => {
                let rules = self.path_rules(file, paths);
                layer.paths = Some((PatternMap::new(rules), dir.to_string()));
            }
            Some(_) => self.invalid(file, "compilerOptions.paths", "expected an object"),
        }
    }

    /// `paths` entries in sorted key order; invalid entries are skipped with a diagnostic.
    fn path_rules(&mut self, file: &str, paths: &Map<String, Value>) -> Vec<(String, Vec<String>)> {
        let mut rules = Vec::new();
        for (key, value) in paths {
            let field = format!("compilerOptions.paths[{key:?}]");
            if key.matches('*').count() > 1 {
                self.invalid(file, &field, "a pattern may contain at most one `*`");
                continue;
            }
            let Value::Array(items) = value else {
                self.invalid(file, &field, "expected an array of strings");
                continue;
            };
            let targets: Vec<String> = items
                .iter()
                .filter_map(Value::as_str)
                .map(str::to_string)
                .collect();
            if targets.len() != items.len() {
                self.invalid(file, &field, "non-string targets ignored");
            }
            rules.push((key.clone(), targets));
        }
        rules.sort();
        rules
    }

    fn invalid(&mut self, file: &str, field: &str, reason: &str) {
        let kind = DiagnosticKind::InvalidField {
            field: field.to_string(),
            reason: reason.to_string(),
        };
        self.diag(file, kind);
    }

    fn diag(&mut self, file: &str, kind: DiagnosticKind) {
        self.diagnostics.push(ResolveDiagnostic::new(file, kind));
    }
}
