//! Parsing a submitted selection with errors that name the field and what was expected
//! (`flow[1].quote: missing field`), so a model can correct its call.

use sightline_base::Selection;

/// Why a submitted selection could not be parsed, naming where.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SelectionError {
    /// The text is not JSON (or is cut short).
    #[error("not valid JSON at line {line}, column {column}: {message}")]
    Syntax {
        /// 1-based line of the error.
        line: usize,
        /// 1-based column of the error.
        column: usize,
        /// The JSON parser's message.
        message: String,
    },
    /// JSON that does not fit the selection schema.
    #[error("{path}: {message}")]
    Field {
        /// The field's path, like `flow[1].quote`.
        path: String,
        /// What was wrong with it.
        message: String,
    },
}

/// Parses the `submit_report` argument.
pub fn parse_selection(json: &str) -> Result<Selection, SelectionError> {
    let mut de = serde_json::Deserializer::from_str(json);
    let parsed: Result<Selection, _> = serde_path_to_error::deserialize(&mut de);
    let selection = parsed.map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        error_of(path, inner)
    })?;
    de.end().map_err(|e| error_of(".".to_owned(), e))?;
    Ok(selection)
}

fn error_of(path: String, e: serde_json::Error) -> SelectionError {
    if e.is_syntax() || e.is_eof() || e.is_io() {
        return SelectionError::Syntax {
            line: e.line(),
            column: e.column(),
            message: without_position(&e),
        };
    }
    let message = without_position(&e);
    // `missing field `quote`` at `flow[1]` reads better as `flow[1].quote: missing field`.
    if let Some(field) = message
        .strip_prefix("missing field `")
        .and_then(|r| r.strip_suffix('`'))
    {
        let path = if path == "." {
            field.to_owned()
        } else {
            format!("{path}.{field}")
        };
        return SelectionError::Field {
            path,
            message: "missing field".to_owned(),
        };
    }
    let path = if path == "." {
        "selection".to_owned()
    } else {
        path
    };
    SelectionError::Field { path, message }
}

/// serde_json's message without its trailing ` at line L column C`.
fn without_position(e: &serde_json::Error) -> String {
    let full = e.to_string();
    match full.rfind(" at line ") {
        Some(i) if e.line() > 0 => full[..i].to_owned(),
        _ => full,
    }
}
