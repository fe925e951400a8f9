//! Imports, re-exports, dynamic `import()` / `require()`, and local export lists.

use tree_sitter::Node;

use super::grammar::Kind;
use super::walk::Extractor;
use sightline_lang::syntax::text::unquote;
use sightline_lang::syntax::traverse::field_child;
use sightline_lang::{Import, ImportedName};

impl<'t> Extractor<'t> {
    /// `import D, { a as b } from "m"`, `import * as ns from "m"`, `import type …`,
    /// `import "m"`, and `import x = require("m")`.
    pub(super) fn import_statement(&mut self, node: Node<'t>) {
        let mut import = self.new_import(node);
        let mut cursor = node.walk();
        for child in node.children(&mut cursor) {
            match child.kind() {
                "type" if !child.is_named() => import.type_only = true,
                "import_clause" => self.import_clause(child, &mut import),
                "import_require_clause" => {
                    let mut inner = child.walk();
                    for part in child.named_children(&mut inner) {
                        match part.kind() {
                            "identifier" => import.namespace = Some(self.text_of(part).to_owned()),
                            "string" => import.specifier = unquote(self.text_of(part)).to_owned(),
                            _ => {}
                        }
                    }
                }
                _ => {}
            }
        }
        if !import.specifier.is_empty() {
            self.facts.imports.push(import);
        }
    }

    fn import_clause(&self, clause: Node<'t>, import: &mut Import) {
        let f = self.g.fields;
        let mut cursor = clause.walk();
        for part in clause.named_children(&mut cursor) {
            match part.kind() {
                "identifier" => import.names.push(ImportedName {
                    imported: super::decls::DEFAULT_NAME.to_owned(),
                    local: self.text_of(part).to_owned(),
                }),
                "namespace_import" => {
                    let mut inner = part.walk();
                    let ident = part
                        .named_children(&mut inner)
                        .find(|n| n.kind() == "identifier");
                    import.namespace = ident.map(|n| self.text_of(n).to_owned());
                }
                "named_imports" => {
                    let mut inner = part.walk();
                    for spec in part.named_children(&mut inner) {
                        if spec.kind() != "import_specifier" {
                            continue;
                        }
                        let Some(name) = field_child(spec, f.name) else {
                            continue;
                        };
                        let imported = unquote(self.text_of(name));
                        let local =
                            field_child(spec, f.alias).map_or(imported, |a| self.text_of(a));
                        import.names.push(ImportedName {
                            imported: imported.to_owned(),
                            local: local.to_owned(),
                        });
                    }
                }
                _ => {}
            }
        }
    }

    /// Re-exports become imports with `reexport`; local `export { a }`, `export default a`
    /// and `export = a` are remembered to flag the declarations after the walk.
    pub(super) fn export_statement(&mut self, node: Node<'t>) {
        let f = self.g.fields;
        let source = field_child(node, f.source);
        let mut import = self.new_import(node);
        import.reexport = true;
        let mut after_equals = false;
        let mut locals: Vec<(&'t str, &'t str)> = Vec::new();
        let mut cursor = node.walk();
        if cursor.goto_first_child() {
            loop {
                let child = cursor.node();
                let field = cursor.field_id().map_or(0, |id| id.get());
                match child.kind() {
                    "type" if !child.is_named() => import.type_only = true,
                    "=" if !child.is_named() => after_equals = true,
                    "export_clause" => self.export_clause(child, &mut locals),
                    "namespace_export" => {
                        let mut inner = child.walk();
                        let name = child.named_children(&mut inner).next();
                        import.namespace = name.map(|n| unquote(self.text_of(n)).to_owned());
                    }
                    "identifier" if field == f.value || after_equals => {
                        self.local_exports.insert(self.text_of(child), true);
                    }
                    _ => {}
                }
                if !cursor.goto_next_sibling() {
                    break;
                }
            }
        }
        match source {
            Some(_) => {
                import.names = locals
                    .into_iter()
                    .map(|(name, alias)| ImportedName {
                        imported: name.to_owned(),
                        local: alias.to_owned(),
                    })
                    .collect();
                if !import.specifier.is_empty() {
                    self.facts.imports.push(import);
                }
            }
            None => {
                for (name, alias) in locals {
                    let entry = self.local_exports.entry(name).or_insert(false);
                    *entry |= alias == super::decls::DEFAULT_NAME;
                }
            }
        }
    }

    /// `{ a, b as c }` → `(a, a)`, `(b, c)`.
    fn export_clause(&self, clause: Node<'t>, out: &mut Vec<(&'t str, &'t str)>) {
        let f = self.g.fields;
        let mut cursor = clause.walk();
        for spec in clause.named_children(&mut cursor) {
            if spec.kind() != "export_specifier" {
                continue;
            }
            let Some(name) = field_child(spec, f.name).map(|n| unquote(self.text_of(n))) else {
                continue;
            };
            let alias = field_child(spec, f.alias).map_or(name, |a| unquote(self.text_of(a)));
            out.push((name, alias));
        }
    }

    /// `import("m")` / `require("m")` with a literal argument; returns whether one was found.
    pub(super) fn dynamic_import(&mut self, call: Node<'t>) -> bool {
        let Some(specifier) = self.literal_argument(call) else {
            return false;
        };
        let mut import = self.new_import(call);
        import.specifier = specifier.to_owned();
        import.dynamic = true;
        self.facts.imports.push(import);
        true
    }

    /// The first argument when it is a plain string (or a template without substitutions).
    fn literal_argument(&self, call: Node<'t>) -> Option<&'t str> {
        let args = field_child(call, self.g.fields.arguments)?;
        let mut cursor = args.walk();
        let first = args
            .named_children(&mut cursor)
            .find(|n| self.g.kind(*n) != Kind::Comment)?;
        let raw = self.text_of(first);
        let literal = match first.kind() {
            "string" => true,
            "template_string" => !raw.contains("${"),
            _ => false,
        };
        let specifier = unquote(raw);
        (literal && !specifier.is_empty()).then_some(specifier)
    }

    /// An import at `node`'s line, with the `source` field's specifier when present.
    fn new_import(&self, node: Node<'t>) -> Import {
        let specifier = field_child(node, self.g.fields.source)
            .map(|s| unquote(self.text_of(s)).to_owned())
            .unwrap_or_default();
        Import::new(specifier, self.line(node.start_position().row))
    }
}
