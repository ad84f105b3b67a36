//! SERPs through the Standard queue: tasks are posted (paid for, up to 100 a request), the
//! account's finished tasks are listed, and each is collected by its id (both free). A SERP
//! costs 0.0006 USD this way against 0.002 Live, and takes minutes instead of seconds, so the
//! caller comes back to collect rather than wait. Collected SERPs are cached under the Live
//! request they answer, so a later job gets them either way.

use std::collections::HashSet;

use futures_util::stream::{self, StreamExt};
use serde::Deserialize;
use serde_json::{json, Value};

use crate::api::{Bulk, Market};
use crate::client::{cache_key, JobSession};
use crate::endpoint::Endpoint;
use crate::envelope::decode_all;
use crate::error::ProviderError;
use crate::keywords::sanitize;
use crate::lenient;
use crate::model::SerpResult;
use crate::pricing::list_price;
use crate::status::{classify, NO_RESULTS, OK};

/// Cache reads of one job in flight at once.
const CACHE_READS: usize = 8;
/// "Task Created.": a posted task is in the queue.
const TASK_CREATED: i64 = 20_100;
/// "Task Handed." and "Task In Queue.": collecting it is too early.
const NOT_READY: [i64; 2] = [40_601, 40_602];

/// A SERP asked of the queue.
#[derive(Debug, Clone)]
pub enum QueuedSerp {
    /// Answered by the cross-job cache: nothing was posted.
    Cached(SerpResult),
    /// Posted; collected later by this task id.
    Posted(String),
}

/// What collecting a task gave.
#[derive(Debug, Clone)]
pub enum Collected {
    Ready(SerpResult),
    /// Still queued or running: come back later.
    Pending,
}

#[derive(Debug, Deserialize)]
struct ReadyTask {
    #[serde(default, deserialize_with = "lenient::opt_string")]
    id: Option<String>,
}

/// The SERP task of `keyword` (already cleaned), the same for the Live and Standard methods.
pub(crate) fn serp_task(keyword: &str, market: &Market<'_>) -> Value {
    json!({
        "keyword": keyword,
        "location_code": market.location_code,
        "language_code": market.language_code,
        "depth": 10,
    })
}

impl JobSession<'_> {
    /// The Live request's cache key for `keyword` (cleaned): where a collected SERP is kept.
    fn serp_cache_key(&self, keyword: &str, market: &Market<'_>) -> String {
        let body = Value::Array(vec![serp_task(keyword, market)]).to_string();
        cache_key(
            &self.provider.settings().base_url,
            Endpoint::SerpOrganic,
            &body,
        )
    }

    /// Queues the top-ten organic SERP of each keyword. A keyword that cannot be sent is not
    /// asked; one the queue refused is asked without an answer; `stopped` says why the
    /// requests after it were not sent.
    pub async fn post_serp_tasks(
        &self,
        keywords: &[String],
        market: &Market<'_>,
    ) -> Bulk<QueuedSerp> {
        let mut bulk = Bulk {
            found: Vec::new(),
            asked: vec![false; keywords.len()],
            stopped: None,
        };
        let usable: Vec<(usize, String)> = keywords
            .iter()
            .enumerate()
            .filter_map(|(index, keyword)| Some((index, sanitize(keyword)?)))
            .collect();
        // The cache is read a few keywords at a time, as Live requests read it.
        let mut looked_up = stream::iter(usable)
            .map(|(index, keyword)| async move {
                let cached = self.cached(&self.serp_cache_key(&keyword, market)).await;
                (index, keyword, cached)
            })
            .buffered(CACHE_READS);
        let mut to_post: Vec<(usize, String)> = Vec::new();
        while let Some((index, keyword, cached)) = looked_up.next().await {
            match cached {
                Some(results) => {
                    self.spend.cache_hit().await;
                    let serp = decode_all(results).into_iter().next().unwrap_or_default();
                    bulk.found.push((index, QueuedSerp::Cached(serp)));
                    bulk.asked[index] = true;
                }
                None => to_post.push((index, keyword)),
            }
        }
        let mut rest = to_post.as_slice();
        while !rest.is_empty() {
            // A request holds as many tasks as the cap leaves room for at list price, so one
            // request cannot take a job far past it; `exchange` refuses once nothing is left.
            let affordable = self.spend.left().map_or(usize::MAX, |left| {
                // Less than the float dust of the division does not buy another task.
                (left / list_price(Endpoint::SerpTaskPost).task - 1e-9).ceil() as usize
            });
            let size = affordable
                .clamp(1, Endpoint::SerpTaskPost.batch_size())
                .min(rest.len());
            let (batch, after) = rest.split_at(size);
            rest = after;
            let tasks: Vec<Value> = batch
                .iter()
                .map(|(_, keyword)| serp_task(keyword, market))
                .collect();
            let body = Value::Array(tasks).to_string();
            let answer = match self
                .exchange(Endpoint::SerpTaskPost, "", Some(body), false)
                .await
            {
                Ok(answer) => answer,
                Err(err) => {
                    bulk.stopped = Some(err);
                    break;
                }
            };
            // Tasks are answered in the order they were posted.
            for ((index, _), task) in batch.iter().zip(answer.envelope.tasks) {
                bulk.asked[*index] = true;
                match (task.reported.status_code, task.id) {
                    (Some(TASK_CREATED), Some(id)) => {
                        bulk.found.push((*index, QueuedSerp::Posted(id)));
                    }
                    (code, _) => tracing::warn!(
                        code,
                        message = task.reported.status_message.as_deref().unwrap_or(""),
                        "the SERP queue refused a task"
                    ),
                }
            }
        }
        bulk
    }

    /// Ids of the account's finished SERP tasks not collected yet. The list is the
    /// account's (every job's), and DataForSEO returns at most 1,000 at a time.
    pub async fn ready_serp_tasks(&self) -> Result<HashSet<String>, ProviderError> {
        let answer = self
            .exchange(Endpoint::SerpTasksReady, "", None, true)
            .await?;
        Ok(decode_all::<ReadyTask>(answer.envelope.into_results())
            .into_iter()
            .filter_map(|task| task.id)
            .collect())
    }

    /// The SERP of task `id`, posted for `keyword`; cached as the Live answer once ready.
    pub async fn collect_serp_task(
        &self,
        id: &str,
        keyword: &str,
        market: &Market<'_>,
    ) -> Result<Collected, ProviderError> {
        // An id is a UUID; anything else would change the path.
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
            return Err(ProviderError::Rejected {
                code: 40_400,
                message: "not a task id".into(),
            });
        }
        let answer = self
            .exchange(Endpoint::SerpTaskGet, &format!("/{id}"), None, false)
            .await?;
        let task = answer.envelope.tasks.first();
        let code = task.and_then(|t| t.reported.status_code).unwrap_or(OK);
        if NOT_READY.contains(&code) {
            return Ok(Collected::Pending);
        }
        if code != OK && code != NO_RESULTS {
            let message = task
                .and_then(|t| t.reported.status_message.clone())
                .unwrap_or_else(|| format!("status {code}"));
            return Err(ProviderError::from_status(classify(code), code, message));
        }
        if let Some(keyword) = sanitize(keyword) {
            self.remember(&self.serp_cache_key(&keyword, market), answer.bytes)
                .await;
        }
        let results = answer.envelope.into_results();
        Ok(Collected::Ready(
            decode_all(results).into_iter().next().unwrap_or_default(),
        ))
    }
}
