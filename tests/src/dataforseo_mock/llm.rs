//! AI Optimization, LLM Responses (Live): a deterministic answer to each question, shaped as
//! the documentation describes it (FACTS.md, LLM Responses): one result with `model_name`,
//! token counts, `web_search`, `money_spent`, `datetime`, `items` (a `message` whose `text`
//! sections carry `annotations` of cited pages) and `fan_out_queries`.
//!
//! Which answer a question gets depends on the question's text only ([`answer_kind`]), so a
//! test can say what every answer must record: some name and cite the sample primary, some
//! a competitor, some neither, and one kind is hostile text (a script, markup) naming the
//! competitor.

use serde_json::{json, Value};

use super::answer::Answer;
use super::{COMPETITORS, PRIMARY};

/// The model names each engine accepts (the `models` endpoint lists more); others are refused
/// with `40501 Invalid Field: 'model_name'.`.
const MODELS: [(&str, &[&str]); 4] = [
    ("chat_gpt", &["gpt-4.1-mini", "gpt-4o-mini", "gpt-4.1"]),
    ("perplexity", &["sonar", "sonar-pro"]),
    ("gemini", &["gemini-2.5-flash", "gemini-2.5-pro"]),
    ("claude", &["claude-haiku-4-5", "claude-sonnet-4-0"]),
];

/// What an answer says about the sites.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerKind {
    /// Names the sample primary ("BrightBrew Coffee") and cites one of its pages.
    CitesPrimary,
    /// Names and cites the first competitor.
    CitesCompetitor,
    /// Names no site of the job and cites an encyclopedia.
    Neutral,
    /// A `<script>` and markup in the text; names the first competitor, cites nothing.
    Hostile,
}

/// The hostile text's script, which a page showing it must not run.
pub const HOSTILE_SCRIPT: &str = "<script>window.__krHostile = 1</script>";

/// The kind of answer `prompt` gets: a hash of its text, so the same question always gets
/// the same answer.
pub fn answer_kind(prompt: &str) -> AnswerKind {
    // FNV-1a: stable across runs and platforms.
    let hash = prompt
        .trim()
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
        });
    match hash % 4 {
        0 => AnswerKind::CitesPrimary,
        1 => AnswerKind::CitesCompetitor,
        2 => AnswerKind::Neutral,
        _ => AnswerKind::Hostile,
    }
}

/// The engine an LLM Responses path is for (`/v3/ai_optimization/{engine}/llm_responses/live`),
/// or `google_ai_mode` for AI Mode's Live path.
pub fn engine_of(path: &str) -> Option<&str> {
    if path == super::paths::AI_MODE_LIVE {
        return Some("google_ai_mode");
    }
    let rest = path.strip_prefix("/v3/ai_optimization/")?;
    let (engine, tail) = rest.split_once('/')?;
    (tail == "llm_responses/live").then_some(engine)
}

/// The answer's text and cited pages (address, title).
fn text_of(kind: AnswerKind) -> (String, Vec<(String, String)>) {
    let competitor = COMPETITORS[0];
    // The question is not repeated: its words could name a site and blur what each kind says.
    match kind {
        AnswerKind::CitesPrimary => (
            format!("BrightBrew Coffee is a good place to start: its guides explain the basics, and {PRIMARY} sells what you need."),
            vec![
                (format!("https://{PRIMARY}/"), "BrightBrew Coffee".into()),
                ("https://en.wikipedia.org/wiki/Coffee".into(), "Coffee - Wikipedia".into()),
            ],
        ),
        AnswerKind::CitesCompetitor => (
            format!("Many people end up at Roast Rivals ({competitor}), which compares the options side by side."),
            vec![(format!("https://www.{competitor}/guide"), "Roast Rivals guide".into())],
        ),
        AnswerKind::Neutral => (
            "It depends on taste, budget and time; compare a few options before deciding.".to_string(),
            vec![("https://en.wikipedia.org/wiki/Coffee_preparation".into(), "Coffee preparation".into())],
        ),
        AnswerKind::Hostile => (
            format!("{HOSTILE_SCRIPT}<img src=x onerror=\"window.__krHostile=2\"><b>Try {competitor}</b> & <a href=\"javascript:alert(1)\">more</a>."),
            Vec::new(),
        ),
    }
}

/// The answer to one LLM Responses task. `money_spent` is what the engine's own API charged
/// (`pricing.json`'s `item`); the task costs DataForSEO's fee (its `task`) plus that.
pub(crate) fn llm_response(path: &str, task: &Value, money_spent: f64) -> Answer {
    let Some(engine) = engine_of(path) else {
        return Answer::failed(40_400, "Not Found.");
    };
    let prompt = task["user_prompt"].as_str().unwrap_or("");
    if prompt.trim().is_empty() || prompt.chars().count() > 500 {
        return Answer::failed(40_501, "Invalid Field: 'user_prompt'.");
    }
    let model = task["model_name"].as_str().unwrap_or("");
    let known = MODELS
        .iter()
        .find(|(name, _)| *name == engine)
        .is_some_and(|(_, models)| models.contains(&model));
    if !known {
        return Answer::failed(40_501, "Invalid Field: 'model_name'.");
    }
    let kind = answer_kind(prompt);
    let (text, cited) = text_of(kind);
    let annotations: Vec<Value> = cited
        .iter()
        .map(|(url, title)| json!({"title": title, "url": url}))
        .collect();
    Answer::ok_result(
        json!({
            "model_name": format!("{model}-2026-01-01"),
            "input_tokens": prompt.split_whitespace().count() * 2,
            "output_tokens": text.split_whitespace().count() * 2,
            "reasoning_tokens": 0,
            "web_search": task["web_search"].as_bool().unwrap_or(false),
            "money_spent": money_spent,
            "datetime": "2026-11-30 10:00:00 +00:00",
            "items": [
                {"type": "message", "sections": [
                    {"type": "text", "text": text, "annotations": if annotations.is_empty() { Value::Null } else { Value::Array(annotations) }}
                ]}
            ],
            "fan_out_queries": [prompt.to_lowercase()],
        }),
        1,
    )
}

/// Google AI Mode's answer to the question `task` carries as its `keyword` (Live, and what a
/// queued task is collected with): a SERP result whose one item is an `ai_overview` with the
/// answer as parts (`ai_overview_element`, `text` and `markdown`) and its cited pages as
/// `references` (source, domain, url, title, text), as the help center describes it.
pub(crate) fn ai_mode_response(task: &Value) -> Answer {
    let question = task["keyword"].as_str().unwrap_or("");
    if question.trim().is_empty() || question.chars().count() > 700 {
        return Answer::invalid("keyword");
    }
    let (text, cited) = text_of(answer_kind(question));
    let references: Vec<Value> = cited
        .iter()
        .map(|(url, title)| {
            let domain = url
                .split("://")
                .nth(1)
                .and_then(|rest| rest.split('/').next())
                .unwrap_or("");
            json!({"type": "ai_overview_reference", "source": title, "domain": domain,
                   "url": url, "title": title, "text": "…"})
        })
        .collect();
    Answer::ok_result(
        json!({
            "keyword": question, "type": "ai_mode", "se_domain": "google.com",
            "location_code": task["location_code"], "language_code": task["language_code"],
            "check_url": "https://www.google.com/search?udm=50", "datetime": "2026-11-30 10:00:00 +00:00",
            "item_types": ["ai_overview"], "items_count": 1,
            "items": [{
                "type": "ai_overview", "rank_group": 1, "rank_absolute": 1, "markdown": text,
                "items": [{"type": "ai_overview_element", "title": null, "text": text, "markdown": text,
                           "references": null}],
                "references": if references.is_empty() { Value::Null } else { Value::Array(references) },
            }],
        }),
        1,
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_depend_on_the_question_only_and_every_kind_occurs() {
        let kinds: Vec<AnswerKind> = (0..40)
            .map(|i| answer_kind(&format!("What should I know about coffee {i}?")))
            .collect();
        for kind in [
            AnswerKind::CitesPrimary,
            AnswerKind::CitesCompetitor,
            AnswerKind::Neutral,
            AnswerKind::Hostile,
        ] {
            assert!(kinds.contains(&kind), "{kind:?}");
        }
        assert_eq!(answer_kind("x?"), answer_kind(" x? "));
        assert_eq!(
            engine_of("/v3/ai_optimization/chat_gpt/llm_responses/live"),
            Some("chat_gpt")
        );
        assert_eq!(engine_of("/v3/serp/google/organic/live/advanced"), None);
    }
}
