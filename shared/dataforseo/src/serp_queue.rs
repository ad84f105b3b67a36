//! SERPs through the Standard queue: tasks are posted (paid for, up to 100 a request), the
//! account's finished tasks are listed, and each is collected by its id (both free). A SERP
//! costs 0.0006 USD this way against 0.002 Live, and takes minutes instead of seconds, so the
//! caller comes back to collect rather than wait. Collected SERPs are cached under the Live
//! request they answer, so a later job gets them either way. Every task carries a `tag`
//! (the caller's), and a post whose answer was lost is never sent again: the tags find its
//! tasks in the ready list, so no task is paid for twice.

use futures_util::stream::{self, StreamExt};
use serde::Deserialize;
use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::api::{serp_task, Market};
use crate::client::{cache_key, Answer, JobSession};
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

/// A SERP task to post: its keyword (cleaned, see [`crate::keywords::sanitize`]) and the
/// `tag` it carries. DataForSEO keeps a task's tag with it and lists it in `tasks_ready`, so
/// a task whose post answer was lost can be found again without posting it twice.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SerpTask {
    pub keyword: String,
    pub tag: String,
}

impl SerpTask {
    /// `keyword`'s task for `job`, tagged with both (the keyword as a digest: a tag holds at
    /// most 255 characters, a keyword up to 700).
    pub fn of_job(job: &str, keyword: String) -> Self {
        let digest = Sha256::digest(keyword.as_bytes());
        Self {
            tag: format!("kr:{job}:{}", hex::encode(&digest[..8])),
            keyword,
        }
    }
}

/// What one `task_post` request did with its tasks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PostedSerps {
    /// Each task's id, in the order posted; `None` for one the queue refused.
    Answered(Vec<Option<String>>),
    /// The request went out and no answer came back: its tasks may be queued (and paid for)
    /// or not. They must not be posted again; their tags find them in the ready list.
    Unanswered,
}

/// A finished task of the account's ready list.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadySerp {
    pub id: String,
    pub tag: Option<String>,
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
    #[serde(default, deserialize_with = "lenient::opt_string")]
    tag: Option<String>,
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

    /// The cached SERP of each keyword (cleaned), read a few at a time as Live requests read
    /// them; each one found counts as a cache hit.
    pub async fn cached_serps(
        &self,
        keywords: &[String],
        market: &Market<'_>,
    ) -> Vec<Option<SerpResult>> {
        // Owned keywords: a stream of borrowed ones makes the caller's future `Send` only
        // for one lifetime, which async trait methods cannot use.
        let mut looked_up = stream::iter(keywords.to_vec())
            .map(|keyword| async move { self.cached(&self.serp_cache_key(&keyword, market)).await })
            .buffered(CACHE_READS);
        let mut found = Vec::with_capacity(keywords.len());
        while let Some(cached) = looked_up.next().await {
            found.push(match cached {
                Some(results) => {
                    self.spend.cache_hit().await;
                    Some(decode_all(results).into_iter().next().unwrap_or_default())
                }
                None => None,
            });
        }
        found
    }

    /// Tasks the next `task_post` may hold: 100, or as many as the job's spending cap has
    /// room for at list price (at least one; the request itself refuses once nothing is
    /// left), so one request cannot take a job far past its cap.
    pub fn serp_tasks_per_post(&self) -> usize {
        self.tasks_per_post(Queue::Organic)
    }

    pub(crate) fn tasks_per_post(&self, queue: Queue) -> usize {
        let post = queue.post();
        let affordable = self.spend.left().map_or(usize::MAX, |left| {
            // Less than the float dust of the division does not buy another task.
            (left / list_price(post).task - 1e-9).ceil() as usize
        });
        affordable.clamp(1, post.batch_size())
    }

    /// Posts `tasks` (at most [`Self::serp_tasks_per_post`]) in one request. The cost of
    /// every accepted task is added as the answer comes; a lost answer is never retried
    /// ([`PostedSerps::Unanswered`]).
    pub async fn post_serp_tasks(
        &self,
        tasks: &[SerpTask],
        market: &Market<'_>,
    ) -> Result<PostedSerps, ProviderError> {
        let body = tasks
            .iter()
            .map(|task| (serp_task(&task.keyword, market), task.tag.as_str()))
            .collect();
        self.post_tasks(Queue::Organic, body).await
    }

    /// Posts each task with its tag to `queue`, in one request.
    pub(crate) async fn post_tasks(
        &self,
        queue: Queue,
        tasks: Vec<(Value, &str)>,
    ) -> Result<PostedSerps, ProviderError> {
        let count = tasks.len();
        let body: Vec<Value> = tasks
            .into_iter()
            .map(|(mut posted, tag)| {
                posted["tag"] = Value::String(tag.to_string());
                posted
            })
            .collect();
        let answer = match self
            .exchange(
                queue.post(),
                "",
                Some(Value::Array(body).to_string()),
                false,
            )
            .await
        {
            Ok(answer) => answer,
            Err(ProviderError::Unanswered(detail)) => {
                tracing::warn!(%detail, tasks = count, "tasks posted without an answer; looking them up by tag");
                return Ok(PostedSerps::Unanswered);
            }
            Err(err) => return Err(err),
        };
        // Tasks are answered in the order they were posted.
        let mut ids = vec![None; count];
        for (id, task) in ids.iter_mut().zip(answer.envelope.tasks) {
            match (task.reported.status_code, task.id) {
                (Some(TASK_CREATED), Some(created)) => *id = Some(created),
                (code, _) => tracing::warn!(
                    code,
                    message = task.reported.status_message.as_deref().unwrap_or(""),
                    "the queue refused a task"
                ),
            }
        }
        Ok(PostedSerps::Answered(ids))
    }

    /// Records the price of a task whose post answer was lost and that was found again (it
    /// was accepted, so it was paid for); the request itself was counted when it was sent.
    pub async fn serp_task_found_again(&self) {
        self.task_found_again(Queue::Organic).await;
    }

    pub(crate) async fn task_found_again(&self, queue: Queue) {
        self.spend.add_cost(list_price(queue.post()).task).await;
    }

    /// The account's finished SERP tasks not collected yet, with their tags. The list is the
    /// account's (every job's), and DataForSEO returns at most 1,000 at a time.
    pub async fn ready_serp_tasks(&self) -> Result<Vec<ReadySerp>, ProviderError> {
        self.ready_tasks(Queue::Organic).await
    }

    pub(crate) async fn ready_tasks(&self, queue: Queue) -> Result<Vec<ReadySerp>, ProviderError> {
        let answer = self.exchange(queue.ready(), "", None, true).await?;
        Ok(decode_all::<ReadyTask>(answer.envelope.into_results())
            .into_iter()
            .filter_map(|task| {
                Some(ReadySerp {
                    id: task.id?,
                    tag: task.tag,
                })
            })
            .collect())
    }

    /// The SERP of task `id`, posted for `keyword`; cached as the Live answer once ready.
    pub async fn collect_serp_task(
        &self,
        id: &str,
        keyword: &str,
        market: &Market<'_>,
    ) -> Result<Collected, ProviderError> {
        let Some(answer) = self.fetch_task(Queue::Organic, id).await? else {
            return Ok(Collected::Pending);
        };
        if let Some(keyword) = sanitize(keyword) {
            self.remember(&self.serp_cache_key(&keyword, market), answer.bytes)
                .await;
        }
        let results = answer.envelope.into_results();
        Ok(Collected::Ready(
            decode_all(results).into_iter().next().unwrap_or_default(),
        ))
    }

    /// Task `id` of `queue` once it is finished (with results or none); `None` while it is
    /// queued or running.
    pub(crate) async fn fetch_task(
        &self,
        queue: Queue,
        id: &str,
    ) -> Result<Option<Answer>, ProviderError> {
        // An id is a UUID; anything else would change the path.
        if id.is_empty() || !id.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
            return Err(ProviderError::Rejected {
                code: 40_400,
                message: "not a task id".into(),
            });
        }
        let answer = self
            .exchange(queue.get(), &format!("/{id}"), None, false)
            .await?;
        let task = answer.envelope.tasks.first();
        let code = task.and_then(|t| t.reported.status_code).unwrap_or(OK);
        if NOT_READY.contains(&code) {
            return Ok(None);
        }
        if code != OK && code != NO_RESULTS {
            let message = task
                .and_then(|t| t.reported.status_message.clone())
                .unwrap_or_else(|| format!("status {code}"));
            return Err(ProviderError::from_status(classify(code), code, message));
        }
        Ok(Some(answer))
    }
}

/// The SERP API's queues this client posts to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Queue {
    Organic,
    AiMode,
}

impl Queue {
    fn post(self) -> Endpoint {
        match self {
            Queue::Organic => Endpoint::SerpTaskPost,
            Queue::AiMode => Endpoint::AiModeTaskPost,
        }
    }

    fn ready(self) -> Endpoint {
        match self {
            Queue::Organic => Endpoint::SerpTasksReady,
            Queue::AiMode => Endpoint::AiModeTasksReady,
        }
    }

    fn get(self) -> Endpoint {
        match self {
            Queue::Organic => Endpoint::SerpTaskGet,
            Queue::AiMode => Endpoint::AiModeTaskGet,
        }
    }
}
