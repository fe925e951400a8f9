//! Rule 1c: a search target's `scope` must be a path of this repository. A model's free
//! text there (a sentence, an absolute path, a climb out with `..`) is dropped, leaving the
//! term to search the whole repository; the target itself is kept.

use sightline_base::Registry;

use crate::outcome::Rule;
use crate::pass::Pass;

/// Characters that start the glob part of a scope (`src/**/*.ts`).
const GLOB: [char; 4] = ['*', '?', '[', '{'];

/// Whether `scope` names the repository root, a directory or file some tool showed, or a
/// glob under one: relative, no `..`, no control characters.
fn is_repository_path(scope: &str, registry: &Registry) -> bool {
    let plain = !scope.starts_with('/')
        && !scope.contains('\\')
        && !scope.chars().any(char::is_control)
        && !scope.split('/').any(|s| s == "..")
        && !scope.trim().is_empty()
        && scope.trim() == scope;
    if !plain {
        return false;
    }
    // The literal directory part before any glob character.
    let literal = scope.split(GLOB).next().unwrap_or("");
    let dir = match literal.rfind('/') {
        Some(i) if literal.len() < scope.len() => &literal[..i],
        _ if literal.len() < scope.len() => "",
        _ => literal.trim_end_matches('/'),
    };
    let dir = dir.trim_start_matches("./");
    dir.is_empty()
        || dir == "."
        || registry
            .iter()
            .any(|c| c.path == dir || c.path.starts_with(&format!("{dir}/")))
}

pub(crate) fn drop_foreign_scopes(pass: &mut Pass, registry: &Registry) {
    let mut dropped = Vec::new();
    for s in &mut pass.sel.search_targets {
        if let Some(scope) = s.scope.take_if(|sc| !is_repository_path(sc, registry)) {
            dropped.push((s.term.clone(), scope));
        }
    }
    for (term, scope) in dropped {
        pass.record(
            Rule::ForeignScope,
            format!("scope of search `{term}`"),
            format!(
                "`{}` is not a path of this repository that a tool showed; the term searches everywhere",
                scope.chars().take(80).collect::<String>()
            ),
        );
    }
}
