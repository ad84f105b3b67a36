//! Google AI Mode (SERP API): the answer Google Search writes in its AI Mode tab and the pages
//! it cites, asked a question the way a searcher types it. DataForSEO returns it as an
//! `ai_overview` item shaped like the AI Overview of an organic SERP (its parts as
//! `ai_overview_element`s with their `text`, the cited pages as `references`). Asked Live
//! (USD 0.004) through [`JobSession::llm_response`], or through the Standard queue (USD 0.0012,
//! minutes) with the functions here: posted, listed when ready and collected by id, as
//! organic SERPs are (`crate::serp_queue`). Either way the answer is cached under the same
//! key, so a later job asking the same question in the same market pays nothing.

use kr_core::dataset::EngineReply;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::Market;
use crate::client::{cache_key, JobSession};
use crate::endpoint::Endpoint;
use crate::error::ProviderError;
use crate::lenient;
use crate::model::AiOverviewReference;
use crate::serp_queue::{PostedSerps, Queue, ReadySerp, SerpTask};

/// "you can specify up to 700 characters in the `keyword` field".
const MAX_QUESTION_CHARS: usize = 700;

/// The task asking `question` in `market`, the same for Live and the queue.
pub(crate) fn task(question: &str, market: &Market<'_>) -> Value {
    let question: String = question.trim().chars().take(MAX_QUESTION_CHARS).collect();
    json!({
        "keyword": question,
        "location_code": market.location_code,
        "language_code": market.language_code,
    })
}

/// A question's answer, from the cache or collected.
#[derive(Debug, Clone, PartialEq)]
pub enum AiModeAnswer {
    Ready {
        reply: EngineReply,
        cached: bool,
    },
    /// Still queued or running: come back later.
    Pending,
}

impl JobSession<'_> {
    fn ai_mode_cache_key(&self, question: &str, market: &Market<'_>) -> String {
        let body = Value::Array(vec![task(question, market)]).to_string();
        cache_key(
            &self.provider.settings().base_url,
            Endpoint::LlmResponses(kr_core::domain::AiEngine::GoogleAiMode),
            &body,
        )
    }

    /// The cached answer to `question`, counted as a cache hit when found.
    pub async fn cached_ai_mode(&self, question: &str, market: &Market<'_>) -> Option<EngineReply> {
        let results = self
            .cached(&self.ai_mode_cache_key(question, market))
            .await?;
        self.spend.cache_hit().await;
        Some(read_reply(results))
    }

    /// Questions the next post may hold (see [`JobSession::serp_tasks_per_post`]).
    pub fn ai_mode_tasks_per_post(&self) -> usize {
        self.tasks_per_post(Queue::AiMode)
    }

    /// Posts the questions (`SerpTask::keyword`) in one request, each with its tag.
    pub async fn post_ai_mode_tasks(
        &self,
        tasks: &[SerpTask],
        market: &Market<'_>,
    ) -> Result<PostedSerps, ProviderError> {
        let body = tasks
            .iter()
            .map(|posted| (task(&posted.keyword, market), posted.tag.as_str()))
            .collect();
        self.post_tasks(Queue::AiMode, body).await
    }

    /// Records the price of a task found again by its tag after its post answer was lost.
    pub async fn ai_mode_task_found_again(&self) {
        self.task_found_again(Queue::AiMode).await;
    }

    /// The account's finished AI Mode tasks not collected yet.
    pub async fn ready_ai_mode_tasks(&self) -> Result<Vec<ReadySerp>, ProviderError> {
        self.ready_tasks(Queue::AiMode).await
    }

    /// The answer of task `id`, posted for `question`; cached once ready.
    pub async fn collect_ai_mode_task(
        &self,
        id: &str,
        question: &str,
        market: &Market<'_>,
    ) -> Result<AiModeAnswer, ProviderError> {
        let Some(answer) = self.fetch_task(Queue::AiMode, id).await? else {
            return Ok(AiModeAnswer::Pending);
        };
        self.remember(&self.ai_mode_cache_key(question, market), answer.bytes)
            .await;
        Ok(AiModeAnswer::Ready {
            reply: read_reply(answer.envelope.into_results()),
            cached: false,
        })
    }
}

#[derive(Debug, Default, Deserialize)]
struct AiModeResult {
    #[serde(default, deserialize_with = "lenient::list")]
    items: Vec<AiModeItem>,
}

#[derive(Debug, Default, Deserialize)]
struct AiModeItem {
    #[serde(rename = "type", default, deserialize_with = "lenient::opt_string")]
    item_type: Option<String>,
    #[serde(default, deserialize_with = "lenient::opt_string")]
    markdown: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    items: Vec<AiModeElement>,
    #[serde(default, deserialize_with = "lenient::list")]
    references: Vec<AiOverviewReference>,
}

#[derive(Debug, Default, Deserialize)]
struct AiModeElement {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    text: Option<String>,
    #[serde(default, deserialize_with = "lenient::list")]
    references: Vec<AiOverviewReference>,
}

/// The answer's text (its parts' `text`, in order, else the item's `markdown`) and the pages
/// it cites (the item's `references`, then its parts'). A result without an `ai_overview`
/// item is an empty answer: Google wrote none.
pub(crate) fn read_reply(results: Vec<Value>) -> EngineReply {
    let result: AiModeResult = results
        .into_iter()
        .next()
        .and_then(|first| serde_json::from_value(first).ok())
        .unwrap_or_default();
    let mut texts: Vec<String> = Vec::new();
    let mut cited_urls = Vec::new();
    for item in result.items {
        if item.item_type.as_deref() != Some("ai_overview") {
            continue;
        }
        let parts: Vec<String> = item
            .items
            .iter()
            .filter_map(|part| part.text.as_deref().map(str::trim))
            .filter(|text| !text.is_empty())
            .map(str::to_string)
            .collect();
        if parts.is_empty() {
            texts.extend(item.markdown.map(|text| text.trim().to_string()));
        } else {
            texts.extend(parts);
        }
        let nested = item.items.iter().flat_map(|part| part.references.iter());
        cited_urls.extend(
            item.references
                .iter()
                .chain(nested)
                .filter_map(|reference| reference.url.clone()),
        );
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
    fn the_answer_is_the_overview_parts_text_with_every_cited_page() {
        let result = json!({
            "keyword": "best espresso machine", "items_count": 2,
            "items": [
                {"type": "ai_overview", "markdown": "ignored when parts have text",
                 "references": [{"source": "A", "domain": "a.com", "url": "https://a.com/x",
                                 "title": "X", "text": "..."}, "junk"],
                 "items": [
                    {"type": "ai_overview_element", "text": " Look for a 15-bar pump. ",
                     "references": [{"url": "https://b.com/y"}]},
                    {"type": "ai_overview_element", "text": null}
                 ]},
                {"type": "organic", "url": "https://c.com/"}
            ]
        });
        let reply = read_reply(vec![result]);
        assert_eq!(reply.text, "Look for a 15-bar pump.");
        assert_eq!(reply.cited_urls, ["https://a.com/x", "https://b.com/y"]);
        let markdown_only =
            json!({"items": [{"type": "ai_overview", "markdown": "Only **this**."}]});
        assert_eq!(read_reply(vec![markdown_only]).text, "Only **this**.");
        assert_eq!(
            read_reply(vec![json!({"items": null})]),
            EngineReply::default()
        );
    }

    #[test]
    fn a_question_is_asked_in_the_market_and_cut_at_the_documented_length() {
        let market = Market {
            location_code: 2840,
            language_code: "en",
        };
        let asked = task(&"q".repeat(900), &market);
        assert_eq!(asked["keyword"].as_str().unwrap().len(), MAX_QUESTION_CHARS);
        assert_eq!(asked["location_code"], 2840);
        assert_eq!(
            Endpoint::AiModeTaskPost.path(),
            "/v3/serp/google/ai_mode/task_post"
        );
    }
}
