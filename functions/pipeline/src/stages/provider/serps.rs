//! The organic SERPs of a job's highest-volume keywords, for SERP-overlap clustering.
//! Live, they are fetched within the stage. Through the Standard queue (the default, a
//! third of the price), they are posted, where they stand is saved with the job, and later
//! messages of the stage collect them; what is still missing when the wait is over is
//! fetched Live, so a job gets the same SERPs either way.

use std::collections::HashSet;
use std::time::Duration;

use chrono::{DateTime, Utc};
use futures_util::stream::{self, StreamExt};
use kr_dataforseo::model::SerpResult;
use kr_dataforseo::{Collected, JobSession, Market, ProviderError, QueuedSerp};
use kr_research::discovery::Candidate;
use serde::{Deserialize, Serialize};

use super::{settle, settle_error, KeywordFacts};
use crate::runner::{ProgressReporter, StageError};

/// Requests of one job in flight at once (Live SERPs, task collections).
const CONCURRENCY: usize = 8;
/// Organic results compared for clustering.
const SERP_DEPTH: usize = 10;
/// A task this old that the account's ready list has not shown is asked for by its id: the
/// list holds at most 1,000 tasks of every job, so a busy account can hide one.
const ASK_DIRECTLY_AFTER: chrono::Duration = chrono::Duration::minutes(10);

/// Where a job's queued SERPs stand between the metrics stage's messages.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SerpQueue {
    /// Every candidate's facts; collected SERPs are written into them.
    pub facts: Vec<KeywordFacts>,
    pub posted_at: DateTime<Utc>,
    /// SERPs asked for, cached ones included.
    pub asked: usize,
    /// Posted and not collected yet.
    pub pending: Vec<PendingSerp>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingSerp {
    pub candidate: usize,
    pub task_id: String,
}

/// What a collection round left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// Every SERP is in (or known to be missing).
    Done,
    /// Some are still queued: come back later.
    Waiting,
}

/// The keywords whose SERP is fetched: those with a volume, highest first, up to `budget`.
pub fn serp_targets(facts: &[KeywordFacts], budget: usize) -> Vec<usize> {
    let mut by_volume: Vec<usize> = (0..facts.len())
        .filter(|&i| facts[i].volume().is_some_and(|v| v > 0))
        .collect();
    by_volume.sort_by(|&a, &b| facts[b].volume().cmp(&facts[a].volume()).then(a.cmp(&b)));
    by_volume.truncate(budget);
    by_volume
}

/// The top organic URLs of a SERP, in rank order.
fn organic_urls(serp: SerpResult) -> Vec<String> {
    let mut organic: Vec<_> = serp
        .items
        .into_iter()
        .filter(|item| item.item_type.as_deref().is_none_or(|t| t == "organic"))
        .filter_map(|item| Some((item.rank_group.or(item.rank_absolute)?, item.url?)))
        .collect();
    organic.sort_by_key(|(position, _)| *position);
    organic
        .into_iter()
        .take(SERP_DEPTH)
        .map(|(_, url)| url)
        .collect()
}

/// Fetches the SERPs of `targets` with Live requests.
pub async fn fetch_live(
    candidates: &[Candidate],
    facts: &mut [KeywordFacts],
    targets: Vec<usize>,
    session: &JobSession<'_>,
    market: &Market<'_>,
    progress: &ProgressReporter,
) -> Result<(), StageError> {
    let total = targets.len();
    let mut answers = stream::iter(targets)
        .map(|i| async move {
            (
                i,
                session.serp_organic(&candidates[i].keyword, market).await,
            )
        })
        .buffer_unordered(CONCURRENCY);
    let mut done = 0;
    while let Some((i, answer)) = answers.next().await {
        done += 1;
        progress
            .report(
                0.5 + 0.5 * done as f64 / total as f64,
                format!("Fetched {done} of {total} search results pages"),
            )
            .await;
        if let Some(Some(serp)) = settle(answer, "SERP")? {
            facts[i].serp_urls = Some(organic_urls(serp));
        }
    }
    Ok(())
}

/// Posts the SERPs of `targets` to the Standard queue; cached ones are filled in at once.
pub async fn post(
    candidates: &[Candidate],
    mut facts: Vec<KeywordFacts>,
    targets: Vec<usize>,
    session: &JobSession<'_>,
    market: &Market<'_>,
    progress: &ProgressReporter,
) -> Result<SerpQueue, StageError> {
    progress
        .report(
            0.5,
            format!(
                "Queueing {} search results pages with DataForSEO",
                targets.len()
            ),
        )
        .await;
    let keywords: Vec<String> = targets
        .iter()
        .map(|&i| candidates[i].keyword.clone())
        .collect();
    let posted = session.post_serp_tasks(&keywords, market).await;
    let mut pending = Vec::new();
    for (slot, queued) in posted.found {
        let candidate = targets[slot];
        match queued {
            QueuedSerp::Cached(serp) => facts[candidate].serp_urls = Some(organic_urls(serp)),
            QueuedSerp::Posted(task_id) => pending.push(PendingSerp { candidate, task_id }),
        }
    }
    if let Some(err) = posted.stopped {
        settle_error(err, "SERP tasks")?;
    }
    Ok(SerpQueue {
        facts,
        posted_at: Utc::now(),
        asked: targets.len(),
        pending,
    })
}

/// One collection round: takes in what the queue has finished; after `wait`, fetches what
/// is still missing Live.
pub async fn collect(
    queue: &mut SerpQueue,
    candidates: &[Candidate],
    session: &JobSession<'_>,
    market: &Market<'_>,
    wait: Duration,
    progress: &ProgressReporter,
) -> Result<Round, StageError> {
    if queue.pending.is_empty() {
        return Ok(Round::Done);
    }
    let ready = match session.ready_serp_tasks().await {
        Ok(ready) => ready,
        Err(err) => {
            waitable(err, "SERP ready list")?;
            HashSet::new()
        }
    };
    let ask_all = Utc::now() - queue.posted_at >= ASK_DIRECTLY_AFTER;
    let due: Vec<PendingSerp> = queue
        .pending
        .iter()
        .filter(|p| ask_all || ready.contains(&p.task_id))
        .cloned()
        .collect();
    let mut answers = stream::iter(due)
        .map(|pending| async move {
            let keyword = &candidates[pending.candidate].keyword;
            let answer = session
                .collect_serp_task(&pending.task_id, keyword, market)
                .await;
            (pending, answer)
        })
        .buffer_unordered(CONCURRENCY);
    let mut settled = HashSet::new();
    while let Some((pending, answer)) = answers.next().await {
        match answer {
            Ok(Collected::Pending) => continue,
            Ok(Collected::Ready(serp)) => {
                queue.facts[pending.candidate].serp_urls = Some(organic_urls(serp));
            }
            // Lost for this job (a search engine error, an unknown id): it has no SERP.
            Err(err) => {
                if waitable(err, "SERP task")? {
                    continue;
                }
            }
        }
        settled.insert(pending.task_id);
    }
    queue.pending.retain(|p| !settled.contains(&p.task_id));
    let collected = queue.asked - queue.pending.len();
    progress
        .report(
            0.5 + 0.5 * collected as f64 / queue.asked.max(1) as f64,
            format!(
                "Collected {collected} of {} search results pages from DataForSEO's queue",
                queue.asked
            ),
        )
        .await;
    if queue.pending.is_empty() {
        return Ok(Round::Done);
    }
    let waited = (Utc::now() - queue.posted_at).to_std().unwrap_or_default();
    if waited < wait {
        return Ok(Round::Waiting);
    }
    tracing::warn!(
        missing = queue.pending.len(),
        "SERP tasks not ready in time; fetching them Live"
    );
    let late: Vec<usize> = queue.pending.drain(..).map(|p| p.candidate).collect();
    fetch_live(
        candidates,
        &mut queue.facts,
        late,
        session,
        market,
        progress,
    )
    .await?;
    Ok(Round::Done)
}

/// `Ok(true)`: a failure another round may get past (the provider is unavailable), so the
/// job waits for it; `Ok(false)`: the task is lost and the job goes on without it.
fn waitable(err: ProviderError, what: &str) -> Result<bool, StageError> {
    if let ProviderError::Unavailable(detail) = &err {
        tracing::warn!(%detail, what, "provider unavailable; collecting next round");
        return Ok(true);
    }
    settle_error(err, what).map(|()| false)
}
