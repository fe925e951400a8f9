//! The `map_code` prompt: hands a client's model Sightline's session loop (explore_code,
//! a few verifying calls, submit_report) for one question, so a client can run it as a
//! sub-agent with its own model in one step.

use rmcp::ErrorData;
use rmcp::model::{
    GetPromptRequestParams, GetPromptResult, ListPromptsResult, Prompt, PromptArgument,
    PromptMessage, Role,
};
use serde_json::Value;
use sightline_registry::Intent;
use sightline_registry::selection::MAX_PRIMARY;

use crate::schema;

/// The prompt's name in `prompts/list`.
pub const MAP_CODE: &str = "map_code";

const QUESTION: &str = "question";
const INTENT: &str = "intent";

/// How many verifying calls the workflow asks for between explore_code and submit_report.
const FOLLOW_UP_CALLS: &str = "2-4";

pub fn list() -> ListPromptsResult {
    let values = intent_values().join(", ");
    let prompt = Prompt::new(
        MAP_CODE,
        Some(
            "Map the code that answers a question with Sightline's session tools \
             (explore_code, then grep/read_file to verify, then submit_report) and return \
             the validated report.",
        ),
        Some(vec![
            PromptArgument::new(QUESTION)
                .with_description("What to find or explain in the repository.")
                .with_required(true),
            PromptArgument::new(INTENT)
                .with_description(format!(
                    "What the answer is for: one of {values} (the model chooses when absent)."
                ))
                .with_required(false),
        ]),
    )
    .with_title("Map code for a question");
    ListPromptsResult::with_all_items(vec![prompt])
}

pub fn get(request: &GetPromptRequestParams) -> Result<GetPromptResult, ErrorData> {
    if request.name != MAP_CODE {
        return Err(ErrorData::invalid_params(
            format!(
                "unknown prompt `{}`; this server has `{MAP_CODE}`",
                request.name
            ),
            None,
        ));
    }
    let argument = |name: &str| {
        request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get(name))
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|text| !text.is_empty())
    };
    let question = argument(QUESTION)
        .ok_or_else(|| ErrorData::invalid_params(format!("`{QUESTION}` is required"), None))?;
    let intent = argument(INTENT)
        .map(|text| {
            serde_json::from_value::<Intent>(Value::from(text)).map_err(|_| {
                ErrorData::invalid_params(
                    format!(
                        "`{INTENT}` must be one of {}, not `{text}`",
                        intent_values().join(", ")
                    ),
                    None,
                )
            })
        })
        .transpose()?;
    Ok(GetPromptResult::new(vec![PromptMessage::new_text(
        Role::User,
        workflow(question, intent),
    )])
    .with_description(format!("Map the code for: {question}")))
}

/// The workflow in a few dense lines; the tools' descriptions and schemas carry the rest.
fn workflow(question: &str, intent: Option<Intent>) -> String {
    let intent_line = match intent {
        Some(intent) => format!("Intent: {}", intent.as_str()),
        None => format!(
            "Intent: choose one of {} by what the answer is for.",
            intent_values().join(", ")
        ),
    };
    format!(
        "Map the code that answers this question with the sightline tools, then stop.\n\
         Question: {question}\n\
         {intent_line}\n\
         1. explore_code with `query` (identifiers or the code's own words from the question) \
         starts a session: the reply's first line names it, and every place carries a \
         candidate ID like [c7].\n\
         2. Verify in {FOLLOW_UP_CALLS} calls that pass that `session`: definition and \
         references for a name you saw, grep for text, read_file the ranges you will cite, \
         explore_code again with a sharper query if the first missed.\n\
         3. submit_report with `session`, the `intent`, `primary` (1-{MAX_PRIMARY} candidate \
         IDs, most important first), a `flow` whose quotes are copied verbatim from what a \
         tool showed for that candidate, `read_targets`, `action` and `confidence`. Cite only \
         IDs the tools showed. If the selection is rejected, fix the named field and submit \
         again.\n\
         Answer with the report submit_report returns, unchanged."
    )
}

/// The intent values, from the schema the tools publish (one source of truth).
fn intent_values() -> Vec<String> {
    let raw = serde_json::to_value(schemars::schema_for!(Intent))
        .ok()
        .and_then(|value| match value {
            Value::Object(object) => Some(object),
            _ => None,
        })
        .unwrap_or_default();
    let portable = schema::portable(&raw);
    portable
        .get("enum")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(Value::as_str)
        .map(str::to_owned)
        .collect()
}

#[cfg(test)]
mod tests {
    use serde_json::{Map, json};

    use super::*;

    fn request(name: &str, arguments: Value) -> GetPromptRequestParams {
        let mut params = Map::new();
        params.insert("name".into(), Value::from(name));
        params.insert("arguments".into(), arguments);
        serde_json::from_value(Value::Object(params)).unwrap()
    }

    fn text_of(result: &GetPromptResult) -> String {
        let value = serde_json::to_value(&result.messages).unwrap();
        value[0]["content"]["text"].as_str().unwrap().to_owned()
    }

    #[test]
    fn the_prompt_names_the_whole_loop_and_the_question() {
        let result = get(&request(
            MAP_CODE,
            json!({"question": "where are drafts validated", "intent": "edit"}),
        ))
        .unwrap();
        let text = text_of(&result);
        for needed in [
            "where are drafts validated",
            "Intent: edit",
            "explore_code",
            "grep",
            "read_file",
            "submit_report",
            "`session`",
        ] {
            assert!(text.contains(needed), "{needed} missing from\n{text}");
        }
    }

    #[test]
    fn without_an_intent_the_model_is_told_the_choices() {
        let text = text_of(&get(&request(MAP_CODE, json!({"question": "q"}))).unwrap());
        for value in intent_values() {
            assert!(text.contains(&value), "{value}: {text}");
        }
        assert_eq!(intent_values().len(), 4);
    }

    #[test]
    fn bad_requests_are_invalid_params() {
        for (name, arguments) in [
            ("other", json!({"question": "q"})),
            (MAP_CODE, json!({})),
            (MAP_CODE, json!({"question": "  "})),
            (MAP_CODE, json!({"question": "q", "intent": "sometimes"})),
        ] {
            let error = get(&request(name, arguments.clone())).unwrap_err();
            assert_eq!(error.code.0, -32602, "{name} {arguments}");
        }
    }

    #[test]
    fn the_listing_has_one_prompt_with_a_required_question() {
        let listed = serde_json::to_value(list()).unwrap();
        assert_eq!(listed["prompts"][0]["name"], MAP_CODE);
        assert_eq!(listed["prompts"][0]["arguments"][0]["name"], QUESTION);
        assert_eq!(listed["prompts"][0]["arguments"][0]["required"], true);
    }
}
