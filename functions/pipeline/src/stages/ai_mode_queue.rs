//! Google AI Mode's answers through DataForSEO's Standard queue (a third of the Live price):
//! the analysis stage posts the job's questions, saves where they stand with the job, and
//! comes back every poll to collect what is ready, as the metrics stage does with SERPs.
//! Saved before and after the post, so a duplicate message or a dead worker never posts a
//! question twice; a post whose answer was lost finds its tasks again by their tags. What is
//! not answered when the SERP wait is over is left out, with the reason.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, Utc};
use kr_core::dataset::{objects, EngineReply};
use kr_core::domain::Job;
use kr_core::store::{get_json, put_job_json};
use kr_dataforseo::pricing::AI_MODE_QUEUED;
use kr_dataforseo::{AiModeAnswer, JobSession, Market, PostedSerps, ProviderError, SerpTask};
use kr_research::ai_prompts::AiPrompt;
use serde::{Deserialize, Serialize};

use super::provider::ASK_DIRECTLY_AFTER;
use super::{storage_failure, ResearchRunner};
use crate::runner::StageError;

/// Where the queued questions stand, between the analysis stage's messages.
const SAVED_QUEUE: &str = "ai-mode-queue";

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct AiModeQueue {
    pub posted_at: DateTime<Utc>,
    pub questions: Vec<QueuedQuestion>,
    /// Why posting stopped before every question was posted, if it did.
    #[serde(default)]
    pub stopped: Option<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct QueuedQuestion {
    pub cluster_id: String,
    pub prompt: String,
    pub tag: String,
    /// `None` before the post's answer names it (or when it was lost: the tag finds it).
    pub task_id: Option<String>,
    pub posted: bool,
    /// Refused by the queue or failed there: never answered.
    #[serde(default)]
    pub lost: bool,
    pub reply: Option<EngineReply>,
    #[serde(default)]
    pub cached: bool,
}

impl QueuedQuestion {
    fn pending(&self) -> bool {
        self.posted && !self.lost && self.reply.is_none()
    }
}

impl AiModeQueue {
    pub(super) fn prompts(&self) -> Vec<AiPrompt> {
        self.questions
            .iter()
            .map(|q| AiPrompt {
                cluster_id: q.cluster_id.clone(),
                prompt: q.prompt.clone(),
            })
            .collect()
    }

    /// Each answered question with what it cost the job (list price; nothing from the cache).
    pub(super) fn answered(&self) -> impl Iterator<Item = (&QueuedQuestion, &EngineReply, f64)> {
        self.questions.iter().filter_map(|q| {
            let reply = q.reply.as_ref()?;
            Some((q, reply, if q.cached { 0.0 } else { AI_MODE_QUEUED }))
        })
    }

    /// Why some questions have no answer, if any has none.
    pub(super) fn shortfall(&self) -> Option<String> {
        let unanswered = self.questions.iter().filter(|q| q.reply.is_none()).count();
        if unanswered == 0 {
            return self.stopped.clone();
        }
        let reason = format!(
            "{unanswered} of {} questions have no answer from Google AI Mode's queue",
            self.questions.len()
        );
        Some(match &self.stopped {
            Some(stopped) => format!("{reason} ({stopped})"),
            None => reason,
        })
    }
}

/// What a round left.
pub(super) enum QueueRound {
    Waiting,
    Done(AiModeQueue),
}

impl ResearchRunner {
    pub(super) async fn saved_ai_mode_queue(
        &self,
        job: &Job,
    ) -> Result<Option<AiModeQueue>, StageError> {
        get_json(self.objects.as_ref(), job.id, &objects::stage(SAVED_QUEUE))
            .await
            .map_err(storage_failure)
    }

    async fn save_ai_mode_queue(&self, job: &Job, queue: &AiModeQueue) -> Result<(), StageError> {
        put_job_json(
            self.objects.as_ref(),
            job,
            &objects::stage(SAVED_QUEUE),
            queue,
        )
        .await
        .map_err(storage_failure)
    }

    /// Takes cached answers, posts the other questions and saves the queue; done at once when
    /// nothing is left to wait for.
    pub(super) async fn post_ai_mode(
        &self,
        job: &Job,
        prompts: &[AiPrompt],
        session: &JobSession<'_>,
        market: &Market<'_>,
    ) -> Result<QueueRound, StageError> {
        let mut queue = AiModeQueue {
            posted_at: Utc::now(),
            questions: Vec::with_capacity(prompts.len()),
            stopped: None,
        };
        for prompt in prompts {
            let cached = session.cached_ai_mode(&prompt.prompt, market).await;
            let task = SerpTask::of_job(&format!("{}:ai-mode", job.id), prompt.prompt.clone());
            queue.questions.push(QueuedQuestion {
                cluster_id: prompt.cluster_id.clone(),
                prompt: prompt.prompt.clone(),
                tag: task.tag,
                task_id: None,
                posted: cached.is_some(),
                lost: false,
                cached: cached.is_some(),
                reply: cached,
            });
        }
        let mut to_post: Vec<usize> = (0..queue.questions.len())
            .filter(|&i| !queue.questions[i].posted)
            .collect();
        while !to_post.is_empty() {
            let batch: Vec<usize> = to_post
                .drain(..session.ai_mode_tasks_per_post().min(to_post.len()))
                .collect();
            for &i in &batch {
                queue.questions[i].posted = true;
            }
            // Saved as posted before the request: a retry looks for them, never posts again.
            self.save_ai_mode_queue(job, &queue).await?;
            let tasks: Vec<SerpTask> = batch
                .iter()
                .map(|&i| SerpTask {
                    keyword: queue.questions[i].prompt.clone(),
                    tag: queue.questions[i].tag.clone(),
                })
                .collect();
            match session.post_ai_mode_tasks(&tasks, market).await {
                Ok(PostedSerps::Answered(ids)) => {
                    for (&i, id) in batch.iter().zip(ids) {
                        queue.questions[i].lost = id.is_none();
                        queue.questions[i].task_id = id;
                    }
                }
                Ok(PostedSerps::Unanswered) => {}
                Err(err) => {
                    for &i in &batch {
                        queue.questions[i].posted = false;
                    }
                    queue.stopped = Some(match err {
                        ProviderError::CapReached => {
                            "the job's DataForSEO budget ran out before every question was asked"
                                .to_string()
                        }
                        err => format!("posting failed: {err}"),
                    });
                    break;
                }
            }
        }
        self.save_ai_mode_queue(job, &queue).await?;
        Ok(if queue.questions.iter().any(QueuedQuestion::pending) {
            QueueRound::Waiting
        } else {
            QueueRound::Done(queue)
        })
    }

    /// Collects what is ready; done when nothing is pending or the wait is over.
    pub(super) async fn collect_ai_mode(
        &self,
        job: &Job,
        mut queue: AiModeQueue,
        session: &JobSession<'_>,
        market: &Market<'_>,
        wait: std::time::Duration,
    ) -> Result<QueueRound, StageError> {
        match session.ready_ai_mode_tasks().await {
            Ok(ready) => {
                let by_tag: HashMap<String, String> = ready
                    .iter()
                    .filter_map(|r| Some((r.tag.clone()?, r.id.clone())))
                    .collect();
                let ready: HashSet<String> = ready.into_iter().map(|r| r.id).collect();
                let ask_all = Utc::now() - queue.posted_at >= ASK_DIRECTLY_AFTER;
                for question in queue.questions.iter_mut().filter(|q| q.pending()) {
                    if question.task_id.is_none() {
                        question.task_id = by_tag.get(&question.tag).cloned();
                        if question.task_id.is_some() {
                            session.ai_mode_task_found_again().await;
                        }
                    }
                    let Some(id) = question.task_id.clone() else {
                        continue;
                    };
                    if !(ask_all || ready.contains(&id)) {
                        continue;
                    }
                    match session
                        .collect_ai_mode_task(&id, &question.prompt, market)
                        .await
                    {
                        Ok(AiModeAnswer::Ready { reply, cached }) => {
                            question.reply = Some(reply);
                            question.cached = cached;
                        }
                        Ok(AiModeAnswer::Pending) | Err(ProviderError::Unavailable(_)) => {}
                        Err(err) => {
                            tracing::warn!(job = %job.id, %err, "an AI Mode task failed");
                            question.lost = true;
                        }
                    }
                }
            }
            Err(err) => tracing::warn!(job = %job.id, %err, "AI Mode's ready list failed"),
        }
        self.save_ai_mode_queue(job, &queue).await?;
        let waited = (Utc::now() - queue.posted_at).to_std().unwrap_or_default();
        if queue.questions.iter().any(QueuedQuestion::pending) && waited < wait {
            return Ok(QueueRound::Waiting);
        }
        Ok(QueueRound::Done(queue))
    }
}
