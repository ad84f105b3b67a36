//! AI Optimization API, LLM Responses (Live): one question to one answer engine, the answer's
//! text and the addresses it cites. One task per request, `POST
//! /v3/ai_optimization/{engine}/llm_responses/live`; the task's `cost` is DataForSEO's task
//! price plus what the engine's API charged (`money_spent`). Answers are cached across jobs
//! like every other call: the same engine, question and market within the cache's TTL cost
//! nothing (the task's `tag` names the market, so the cache, keyed by the request body, keeps
//! markets apart even where the question reads the same).

use kr_core::dataset::EngineReply;
use kr_core::domain::AiEngine;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::Market;
use crate::client::JobSession;
use crate::endpoint::Endpoint;
use crate::error::ProviderError;
use crate::lenient;

/// "you can specify up to 500 characters in the `user_prompt` field".
pub const MAX_PROMPT_CHARS: usize = 500;
/// Enough for the 2,000 characters of an answer that are kept, and a bound on its price.
const MAX_OUTPUT_TOKENS: u32 = 600;

/// The model asked on each engine: the least costly one that searches the web, so the answer
/// cites what it read. Google's AI Mode has no model to choose.
pub fn model_name(engine: AiEngine) -> Option<&'static str> {
    match engine {
        AiEngine::ChatGpt => Some("gpt-4.1-mini"),
        AiEngine::Perplexity => Some("sonar"),
        AiEngine::Gemini => Some("gemini-2.5-flash"),
        AiEngine::Claude => Some("claude-haiku-4-5"),
        AiEngine::GoogleAiMode => None,
    }
}

/// An engine's answer and what it cost the job.
#[derive(Debug, Clone, PartialEq)]
pub struct LlmAnswer {
    pub reply: EngineReply,
    /// USD; 0 for a cached answer.
    pub cost_usd: f64,
    pub cached: bool,
}

/// The task of one question in `market`.
fn task(engine: AiEngine, prompt: &str, market: &Market<'_>) -> Value {
    let Some(model) = model_name(engine) else {
        return crate::ai_mode::task(prompt, market);
    };
    let prompt: String = prompt.trim().chars().take(MAX_PROMPT_CHARS).collect();
    let mut task = json!({
        "user_prompt": prompt,
        "model_name": model,
        "max_output_tokens": MAX_OUTPUT_TOKENS,
        "web_search": true,
        "tag": format!("kr-{}-{}", market.location_code, market.language_code),
    });
    let country = kr_core::locales::locations()
        .iter()
        .find(|location| location.location_code == market.location_code);
    if let Some(country) = country {
        task["web_search_country_iso_code"] = json!(country.country_iso_code);
    }
    task
}

impl JobSession<'_> {
    /// `engine`'s answer to `prompt`, searching the web as from `market`'s country (Live).
    pub async fn llm_response(
        &self,
        engine: AiEngine,
        prompt: &str,
        market: &Market<'_>,
    ) -> Result<LlmAnswer, ProviderError> {
        let priced = self
            .call_priced(Endpoint::LlmResponses(engine), task(engine, prompt, market))
            .await?;
        Ok(LlmAnswer {
            reply: match engine {
                AiEngine::GoogleAiMode => crate::ai_mode::read_reply(priced.results),
                _ => read_reply(priced.results),
            },
            cost_usd: priced.cost_usd,
            cached: priced.cached,
        })
    }
}

#[derive(Debug, Default, Deserialize)]
struct LlmResult {
    #[serde(default, deserialize_with = "lenient::list")]
    items: Vec<LlmItem>,
}

/// `message` (the answer) or `reasoning` (the model's notes, not part of it).
#[derive(Debug, Default, Deserialize)]
struct LlmItem {
    #[serde(rename = "type", default, deserialize_with = "lenient::opt_string")]
    item_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    sections: Vec<LlmSection>,
}

#[derive(Debug, Default, Deserialize)]
struct LlmSection {
    #[serde(rename = "type", default, deserialize_with = "lenient::opt_string")]
    section_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    text: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    annotations: Vec<LlmAnnotation>,
}

/// A source the section cites.
#[derive(Debug, Default, Deserialize)]
struct LlmAnnotation {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    url: Option<String>,
}

/// The text of the answer's `message` items (their `text` sections, in order) and the
/// addresses their annotations cite, in order. Anything unexpected reads as no text or no
/// citation, never as a failed answer.
fn read_reply(results: Vec<Value>) -> EngineReply {
    let result: LlmResult = results
        .into_iter()
        .next()
        .and_then(|first| serde_json::from_value(first).ok())
        .unwrap_or_default();
    let mut texts: Vec<String> = Vec::new();
    let mut cited_urls = Vec::new();
    for item in result.items {
        if item.item_type.as_deref().is_some_and(|t| t != "message") {
            continue;
        }
        for section in item.sections {
            if section.section_type.as_deref().is_none_or(|t| t == "text") {
                texts.extend(section.text.map(|t| t.trim().to_string()));
            }
            cited_urls.extend(section.annotations.into_iter().filter_map(|a| a.url));
        }
    }
    EngineReply {
        text: texts.join("\n\n"),
        cited_urls,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answer_is_its_message_text_with_the_cited_addresses_in_order() {
        let result = json!({
            "model_name": "gpt-4.1-mini-2025-04-14", "input_tokens": 12, "output_tokens": 80,
            "web_search": true, "money_spent": 0.0291, "datetime": "2026-11-30 10:00:00 +00:00",
            "items": [
                {"type": "reasoning", "sections": [{"type": "summary_text", "text": "thinking"}]},
                {"type": "message", "sections": [
                    {"type": "text", "text": " Cold brew steeps for 12 hours. ",
                     "annotations": [{"title": "Guide", "url": "https://a.com/guide"},
                                     {"title": null}, "not an annotation"]},
                    {"type": "text", "text": "Try BrightBrew.", "annotations": null},
                    {"type": "image", "text": "ignored", "annotations": [{"url": "https://b.com/"}]}
                ]},
                "junk"
            ],
            "fan_out_queries": ["cold brew time"]
        });
        let reply = read_reply(vec![result]);
        assert_eq!(
            reply.text,
            "Cold brew steeps for 12 hours.\n\nTry BrightBrew."
        );
        assert_eq!(reply.cited_urls, ["https://a.com/guide", "https://b.com/"]);
        assert_eq!(read_reply(vec![]), EngineReply::default());
        assert_eq!(
            read_reply(vec![json!({"items": 3})]),
            EngineReply::default()
        );
    }

    #[test]
    fn a_task_carries_the_model_the_country_and_the_market_and_cuts_long_prompts() {
        let market = Market {
            location_code: 2276,
            language_code: "de",
        };
        let task = task(AiEngine::Perplexity, &"x".repeat(900), &market);
        assert_eq!(task["model_name"], "sonar");
        assert_eq!(task["web_search_country_iso_code"], "DE");
        assert_eq!(task["tag"], "kr-2276-de");
        assert_eq!(
            task["user_prompt"].as_str().unwrap().len(),
            MAX_PROMPT_CHARS
        );
        assert_eq!(
            Endpoint::LlmResponses(AiEngine::ChatGpt).path(),
            "/v3/ai_optimization/chat_gpt/llm_responses/live"
        );
    }
}
