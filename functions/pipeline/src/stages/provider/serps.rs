//! The organic SERPs of a job's highest-volume keywords, for SERP-overlap clustering.
//! Live, they are fetched within the stage. Through the Standard queue (the default, a
//! third of the price), they are posted, where they stand is saved with the job, and later
//! messages of the stage collect them; what is still missing when the wait is over is
//! fetched Live, so a job gets the same SERPs either way.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use futures_util::stream::{self, StreamExt};
use kr_core::domain::Job;
use kr_dataforseo::keywords::sanitize;
use kr_dataforseo::{Collected, JobSession, Market, PostedSerps, ProviderError, SerpTask};
use kr_research::discovery::Candidate;
use serde::{Deserialize, Serialize};

use super::{settle, settle_error, KeywordFacts};
use crate::runner::{FailureKind, ProgressReporter, StageError};

/// Requests of one job in flight at once (Live SERPs, task collections).
const CONCURRENCY: usize = 8;
/// Organic results compared for clustering.
const SERP_DEPTH: usize = 10;
/// A queued task this old that the account's ready list has not shown is asked for by its id
/// (SERPs and Google AI Mode's answers alike): the list holds at most 1,000 tasks of every
/// job, so a busy account can hide one.
pub const ASK_DIRECTLY_AFTER: chrono::Duration = chrono::Duration::minutes(10);

/// Where a job's queued SERPs stand between the metrics stage's messages. Saved before each
/// `task_post` (its tasks pending without ids) and after it (with their ids), so a worker
/// that dies mid-way, or a duplicate message, never posts a task twice.
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
    /// Candidates whose tasks are not posted yet (posting stopped at a provider failure).
    #[serde(default)]
    pub unposted: Vec<usize>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PendingSerp {
    pub candidate: usize,
    /// `None` from just before the task is posted until its id is known: when the answer to
    /// the post was lost, the ready list gives the id of the task carrying `tag`.
    pub task_id: Option<String>,
    /// The task's `tag`: the job and a digest of the keyword.
    #[serde(default)]
    pub tag: String,
}

/// Where posting rounds save the queue.
#[async_trait]
pub trait SerpQueueStore: Send + Sync {
    async fn save(&self, queue: &SerpQueue) -> Result<(), StageError>;
}

/// What a collection round left.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Round {
    /// Every SERP is in (or known to be missing).
    Done,
    /// Some are still queued: come back later.
    Waiting,
}

/// The keywords whose SERP is fetched, up to `budget`: every kept keyword, those with a volume
/// first (highest first), then the others in the job's order (most relevant first). A keyword
/// the provider has no volume for still has results, and without them it could only be
/// grouped by its words.
pub fn serp_targets(facts: &[KeywordFacts], budget: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..facts.len()).collect();
    // Known volumes first, highest first; the rest keep the job's order (a stable sort).
    order.sort_by_key(|&i| std::cmp::Reverse(facts[i].volume().filter(|&v| v > 0)));
    order.truncate(budget);
    order
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
            facts[i].absorb_serp(serp, SERP_DEPTH);
        }
    }
    Ok(())
}

/// Posts the SERPs of `targets` to the Standard queue; cached ones are filled in at once.
/// The queue is saved as it goes (`store`).
#[allow(clippy::too_many_arguments)]
pub async fn post(
    job: &Job,
    candidates: &[Candidate],
    mut facts: Vec<KeywordFacts>,
    targets: Vec<usize>,
    session: &JobSession<'_>,
    market: &Market<'_>,
    progress: &ProgressReporter,
    store: &dyn SerpQueueStore,
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
    // A keyword with nothing usable left after cleaning is not asked.
    let usable: Vec<(usize, String)> = targets
        .iter()
        .filter_map(|&i| Some((i, sanitize(&candidates[i].keyword)?)))
        .collect();
    let keywords: Vec<String> = usable.iter().map(|(_, k)| k.clone()).collect();
    let cached = session.cached_serps(&keywords, market).await;
    let mut unposted = Vec::new();
    for ((candidate, _), serp) in usable.into_iter().zip(cached) {
        match serp {
            Some(serp) => facts[candidate].absorb_serp(serp, SERP_DEPTH),
            None => unposted.push(candidate),
        }
    }
    let mut queue = SerpQueue {
        facts,
        posted_at: Utc::now(),
        asked: targets.len(),
        pending: Vec::new(),
        unposted,
    };
    post_remaining(job, &mut queue, candidates, session, market, store).await?;
    Ok(queue)
}

/// [`post_unposted`], where a transient failure leaves the rest for the next round.
async fn post_remaining(
    job: &Job,
    queue: &mut SerpQueue,
    candidates: &[Candidate],
    session: &JobSession<'_>,
    market: &Market<'_>,
    store: &dyn SerpQueueStore,
) -> Result<(), StageError> {
    match post_unposted(job, queue, candidates, session, market, store).await {
        Err(err) if err.kind == FailureKind::Transient => Ok(()),
        outcome => outcome,
    }
}

/// Posts the queue's unposted SERPs, one request at a time: before each request its tasks
/// are saved as pending without ids, after it with their ids. A request whose answer was
/// lost is not sent again; its tasks stay pending until the ready list shows their tags.
async fn post_unposted(
    job: &Job,
    queue: &mut SerpQueue,
    candidates: &[Candidate],
    session: &JobSession<'_>,
    market: &Market<'_>,
    store: &dyn SerpQueueStore,
) -> Result<(), StageError> {
    while !queue.unposted.is_empty() {
        let size = session.serp_tasks_per_post().min(queue.unposted.len());
        let batch: Vec<usize> = queue.unposted.drain(..size).collect();
        // Unposted keywords were usable when the queue was made; cleaning them is repeatable.
        let tasks: Vec<(usize, SerpTask)> = batch
            .iter()
            .filter_map(|&i| {
                let keyword = sanitize(&candidates[i].keyword)?;
                Some((i, SerpTask::of_job(&job.id.to_string(), keyword)))
            })
            .collect();
        let first_new = queue.pending.len();
        queue
            .pending
            .extend(tasks.iter().map(|(candidate, task)| PendingSerp {
                candidate: *candidate,
                task_id: None,
                tag: task.tag.clone(),
            }));
        let tasks: Vec<SerpTask> = tasks.into_iter().map(|(_, task)| task).collect();
        store.save(queue).await?;
        match session.post_serp_tasks(&tasks, market).await {
            Ok(PostedSerps::Answered(ids)) => {
                for (pending, id) in queue.pending[first_new..].iter_mut().zip(ids) {
                    pending.task_id = id;
                }
                // A task the queue refused has no SERP to wait for.
                let mut index = 0;
                queue.pending.retain(|p| {
                    index += 1;
                    index <= first_new || p.task_id.is_some()
                });
                store.save(queue).await?;
            }
            Ok(PostedSerps::Unanswered) => {
                // The provider is in trouble: the rest waits for the next round.
                return Ok(());
            }
            Err(err) => {
                // Nothing of this request was queued.
                queue.pending.truncate(first_new);
                if matches!(
                    err,
                    ProviderError::Unavailable(_) | ProviderError::Unanswered(_)
                ) {
                    queue.unposted.splice(0..0, batch);
                } else {
                    // The cap or an account problem: nothing more is posted.
                    queue.unposted.clear();
                }
                store.save(queue).await?;
                return settle_error(err, "SERP tasks");
            }
        }
    }
    Ok(())
}

/// One collection round: posts what is still unposted, takes in what the queue has finished
/// (finding tasks whose post answer was lost by their tags); after `wait`, fetches what is
/// still missing Live.
#[allow(clippy::too_many_arguments)]
pub async fn collect(
    job: &Job,
    queue: &mut SerpQueue,
    candidates: &[Candidate],
    session: &JobSession<'_>,
    market: &Market<'_>,
    wait: Duration,
    progress: &ProgressReporter,
    store: &dyn SerpQueueStore,
) -> Result<Round, StageError> {
    post_remaining(job, queue, candidates, session, market, store).await?;
    if queue.pending.is_empty() && queue.unposted.is_empty() {
        return Ok(Round::Done);
    }
    let ready = match session.ready_serp_tasks().await {
        Ok(ready) => ready,
        Err(err) => {
            waitable(err, "SERP ready list")?;
            Vec::new()
        }
    };
    // Tasks whose post answer was lost: the ready list names them by tag. They were
    // accepted, so their price is recorded now.
    let by_tag: HashMap<&str, &str> = ready
        .iter()
        .filter_map(|r| Some((r.tag.as_deref()?, r.id.as_str())))
        .collect();
    let mut found_again = 0;
    for pending in queue.pending.iter_mut().filter(|p| p.task_id.is_none()) {
        if let Some(id) = by_tag.get(pending.tag.as_str()) {
            pending.task_id = Some(id.to_string());
            found_again += 1;
        }
    }
    for _ in 0..found_again {
        session.serp_task_found_again().await;
    }
    let ready: HashSet<String> = ready.into_iter().map(|r| r.id).collect();
    let ask_all = Utc::now() - queue.posted_at >= ASK_DIRECTLY_AFTER;
    let due: Vec<(PendingSerp, String)> = queue
        .pending
        .iter()
        .filter_map(|p| {
            let id = p.task_id.clone()?;
            (ask_all || ready.contains(&id)).then(|| (p.clone(), id))
        })
        .collect();
    let mut answers = stream::iter(due)
        .map(|(pending, id)| async move {
            let keyword = &candidates[pending.candidate].keyword;
            let answer = session.collect_serp_task(&id, keyword, market).await;
            (pending, answer)
        })
        .buffer_unordered(CONCURRENCY);
    let mut settled = HashSet::new();
    while let Some((pending, answer)) = answers.next().await {
        match answer {
            Ok(Collected::Pending) => continue,
            Ok(Collected::Ready(serp)) => {
                queue.facts[pending.candidate].absorb_serp(serp, SERP_DEPTH);
            }
            // Lost for this job (a search engine error, an unknown id): it has no SERP.
            Err(err) => {
                if waitable(err, "SERP task")? {
                    continue;
                }
            }
        }
        settled.insert(pending.tag);
    }
    queue.pending.retain(|p| !settled.contains(&p.tag));
    let collected = queue.asked - queue.pending.len() - queue.unposted.len();
    progress
        .report(
            0.5 + 0.5 * collected as f64 / queue.asked.max(1) as f64,
            format!(
                "Collected {collected} of {} search results pages from DataForSEO's queue",
                queue.asked
            ),
        )
        .await;
    if queue.pending.is_empty() && queue.unposted.is_empty() {
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
    // Those never posted and those whose lost post never showed up included.
    let mut late: Vec<usize> = queue.pending.drain(..).map(|p| p.candidate).collect();
    late.append(&mut queue.unposted);
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

#[cfg(test)]
mod target_tests {
    use super::*;

    #[test]
    fn every_keyword_is_a_target_known_volumes_first_then_in_job_order() {
        let facts: Vec<KeywordFacts> = [None, Some(50), Some(0), Some(900), None]
            .into_iter()
            .map(|volume| KeywordFacts {
                metrics: Some(kr_research::metrics::KeywordMetrics {
                    search_volume: volume,
                    ..Default::default()
                }),
                ..Default::default()
            })
            .collect();
        assert_eq!(serp_targets(&facts, 10), [3, 1, 0, 2, 4]);
        assert_eq!(serp_targets(&facts, 3), [3, 1, 0]);
        assert!(serp_targets(&facts, 0).is_empty());
    }
}
