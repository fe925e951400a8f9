//! `definition`: where a name is declared, one line per declaration (path and range, kind,
//! qualified name, signature), the body only on request.

use std::fmt::Write as _;

use serde::{Deserialize, Serialize};

use super::nearest::{self, NearName};
use super::{DeclAt, Tag, Target, decl_line, find, lines_of};
use crate::db::{Db, Workspace, workspace_graph};
use crate::facts::LineRange;
use crate::tools::ToolError;

/// Most declarations one answer lists; the rest are counted.
pub const MAX_DEFINITIONS: usize = 20;
/// Declarations whose body a `body: true` answer shows, the first ones listed.
pub const MAX_BODIES: usize = 3;
/// Most lines of one body; a longer one is cut, and says where to read on.
pub const MAX_BODY_LINES: u32 = 120;

/// Arguments of [`run`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
// The doc is for Rust callers; a model reads the tool's own description, not this one.
#[schemars(description = "")]
pub struct DefinitionArgs {
    /// The declaration wanted.
    #[serde(flatten)]
    #[schemars(description = "")]
    pub target: Target,
    /// Also show the body (of the first 3, at most 120 lines each).
    #[serde(default)]
    pub body: bool,
}

impl DefinitionArgs {
    /// The definitions of `name`, without bodies.
    pub fn new(name: impl Into<String>) -> DefinitionArgs {
        DefinitionArgs {
            target: Target {
                name: name.into(),
                ..Target::default()
            },
            body: false,
        }
    }
}

/// One declaration found.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefinitionHit {
    /// Repository-relative path.
    pub path: String,
    /// The whole declaration.
    pub lines: LineRange,
    /// `function`, `class`, `method`, …
    pub kind: String,
    /// The declared name.
    pub name: String,
    /// The name through its enclosing declarations (`Store.save`).
    pub qualified: String,
    /// The signature line's number.
    pub signature_line: u32,
    /// The signature line, trimmed, at most 200 characters.
    pub signature: String,
    /// Whether `signature` is the whole line (not cut), so it is verbatim evidence.
    pub signature_whole: bool,
    /// The body when asked for: the declaration's lines, at most [`MAX_BODY_LINES`].
    pub body: Option<Body>,
}

/// Lines of a declaration shown in full.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Body {
    /// The lines shown.
    pub lines: LineRange,
    /// Their text exactly as in the file, terminators included.
    pub text: String,
    /// The declaration goes on past `lines`.
    pub cut: bool,
}

/// Result of [`run`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DefinitionResult {
    /// What was asked for, as given.
    pub name: String,
    /// The declarations found, at most [`MAX_DEFINITIONS`].
    pub hits: Vec<DefinitionHit>,
    /// Declarations found but not listed.
    pub more: usize,
    /// When nothing matched: the nearest declared names; when only the name in another
    /// case did, the names a typo away from it as spelled.
    pub nearest: Vec<NearName>,
    /// The hits are the name in another case: no declaration has it as spelled.
    #[serde(default)]
    pub case_folded: bool,
}

impl DefinitionHit {
    pub(crate) fn of(d: &DeclAt) -> DefinitionHit {
        let decl = d.declaration();
        DefinitionHit {
            path: d.path.clone(),
            lines: decl.lines,
            kind: decl.kind.as_str().to_owned(),
            name: decl.name.clone(),
            qualified: decl.qualified.clone(),
            signature_line: decl.signature_line,
            signature: decl.signature.clone(),
            // The facts keep at most 200 characters of the line.
            signature_whole: decl.signature.chars().count() < SIGNATURE_CAP,
            body: None,
        }
    }
}

/// The facts' cap on a signature line, in characters.
const SIGNATURE_CAP: usize = 200;

/// Looks up the declarations `args.target` names.
pub fn run(
    db: &dyn Db,
    ws: Workspace,
    args: &DefinitionArgs,
) -> Result<DefinitionResult, ToolError> {
    let graph = workspace_graph(db, ws);
    let found = find(db, ws, &graph, &args.target)?;
    let more = found.decls.len().saturating_sub(MAX_DEFINITIONS);
    let hits = found
        .decls
        .iter()
        .take(MAX_DEFINITIONS)
        .enumerate()
        .map(|(i, d)| {
            let mut hit = DefinitionHit::of(d);
            if args.body && i < MAX_BODIES {
                let end = hit.lines.end.min(hit.lines.start + MAX_BODY_LINES - 1);
                let lines = LineRange::new(hit.lines.start, end);
                hit.body = Some(Body {
                    lines,
                    text: lines_of(d.file.text(db), lines),
                    cut: end < hit.lines.end,
                });
            }
            hit
        })
        .collect();
    Ok(DefinitionResult {
        name: args.target.name.clone(),
        hits,
        more,
        nearest: found.nearest,
        case_folded: found.case_folded,
    })
}

impl DefinitionResult {
    /// One line per declaration (`src/a.ts:12-40 [c5] method Store.save: async save(…) {`,
    /// `src/b.ts:3-9 [c6] function: export function load() {` for a top-level one whose
    /// signature names it), each body under its line instead of the signature, then what
    /// was cut; or the nearest names.
    pub fn render_tagged(&self, tag: Tag<'_>) -> String {
        let mut out = String::new();
        if self.hits.is_empty() {
            if self.name.is_empty() {
                // An ID of a line no declaration holds (an import, a module-level
                // statement) stands for no name: say so rather than quote an empty one.
                out.push_str("no declaration holds that line; read_file shows it\n");
                return out;
            }
            let _ = write!(
                out,
                "no declaration named `{}`; ",
                crate::escape::inline(&self.name)
            );
            nearest::render(&mut out, &self.nearest);
            return out;
        }
        if self.case_folded {
            nearest::render_case_folded(&mut out, &self.name, &self.nearest);
        }
        for h in &self.hits {
            // The signature already names a top-level declaration; a member's qualified
            // name says what it is a member of.
            let qualified = if h.qualified == h.name && h.signature.contains(&h.name) {
                ""
            } else {
                h.qualified.as_str()
            };
            decl_line(&mut out, &h.path, h.lines, &h.kind, qualified, tag);
            // A body prints the signature's line itself.
            match &h.body {
                Some(_) => out.push('\n'),
                None => {
                    let _ = writeln!(out, ": {}", crate::escape::inline(&h.signature));
                }
            }
            if let Some(body) = &h.body {
                for (n, line) in (body.lines.start..).zip(body.text.lines()) {
                    crate::tools::read_file::write_numbered(&mut out, n, line);
                }
                if body.cut {
                    let _ = writeln!(
                        out,
                        "… {} more lines; read_file from line {}",
                        h.lines.end - body.lines.end,
                        body.lines.end + 1
                    );
                }
            }
        }
        if self.more > 0 {
            let _ = writeln!(
                out,
                "(+{} more declarations; pass a qualified name or `path` to narrow)",
                self.more
            );
        }
        out
    }
}
