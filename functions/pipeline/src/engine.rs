//! Runs one message: decides whether it is current, stale or a duplicate, runs the stage,
//! and moves the job on with conditional writes.

use std::sync::Arc;

use chrono::Utc;
use kr_core::domain::Job;
use kr_core::domain::{JobStatus, Progress, Stage};
use kr_core::store::{
    JobQueue, JobStore, JobTransitions, PipelineMessage, ResultStore, StoreError, Transition,
};

use crate::runner::{FailureKind, ProgressReporter, StageError, StageOutcome, StageRunner};

/// A message the engine could not finish now; SQS should deliver it again.
#[derive(Debug)]
pub struct Retry(pub String);

impl From<StoreError> for Retry {
    fn from(err: StoreError) -> Self {
        Self(err.to_string())
    }
}

/// What became of a message that needs no retry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Handled {
    /// The stage ran and the job moved on (or completed, or failed for good).
    Ran,
    /// A duplicate or stale copy: nothing to do.
    Ignored,
    /// The job was deleted; anything this stage wrote has been removed.
    JobGone,
    /// The job had already moved past this stage; its next message was sent again in case
    /// the first send was lost.
    Resent,
}

pub struct Pipeline {
    pub jobs: Arc<dyn JobStore>,
    pub transitions: Arc<dyn JobTransitions>,
    pub queue: Arc<dyn JobQueue>,
    pub objects: Arc<dyn ResultStore>,
    pub runner: Arc<dyn StageRunner>,
    /// Deliveries of one stage's message before its job is failed. Below the queue's
    /// `maxReceiveCount`, so the job is failed with a message rather than dead-lettered.
    pub max_attempts: u32,
}

impl Pipeline {
    pub async fn handle(
        &self,
        message: &PipelineMessage,
        receive_count: u32,
    ) -> Result<Handled, Retry> {
        let Some(mut job) = self.jobs.job(message.job_id).await? else {
            return Ok(Handled::JobGone);
        };
        if job.status.is_finished() {
            return Ok(Handled::Ignored);
        }
        if job.status == JobStatus::Queued {
            if message.stage != Stage::first() {
                return Ok(Handled::Ignored);
            }
            job = match self.transitions.start_job(&job, Utc::now()).await? {
                Transition::Applied(job) => *job,
                Transition::Superseded => return Ok(Handled::Ignored),
                Transition::Gone => return Ok(Handled::JobGone),
            };
        }
        let Some(current) = job.stage else {
            return Ok(Handled::Ignored);
        };
        if message.stage < current {
            // A redelivered message of the stage just done: the engine may have stopped
            // between recording the stage and sending the next message. Sending it again
            // is harmless (duplicates are ignored) and heals a lost send.
            if message.stage.next() == Some(current) {
                self.queue
                    .enqueue(&PipelineMessage {
                        job_id: job.id,
                        stage: current,
                    })
                    .await?;
                return Ok(Handled::Resent);
            }
            return Ok(Handled::Ignored);
        }
        if message.stage > current {
            return Ok(Handled::Ignored);
        }
        let reporter = ProgressReporter::new(self.transitions.clone(), job.clone(), current);
        let outcome = self.runner.run(&job, current, &reporter).await;
        if reporter.stopped() && self.jobs.job(job.id).await?.is_none() {
            return self.forget(&job).await;
        }
        let job = reporter.job_after_stage();
        match outcome {
            Ok(StageOutcome::Continue) => self.advance(&job, current).await,
            Ok(StageOutcome::Completed { keyword_count }) => {
                match self
                    .transitions
                    .complete_job(&job, keyword_count, Utc::now())
                    .await?
                {
                    Transition::Applied(_) => Ok(Handled::Ran),
                    Transition::Superseded => Ok(Handled::Ignored),
                    Transition::Gone => self.forget(&job).await,
                }
            }
            Err(err)
                if err.kind == FailureKind::Permanent || receive_count >= self.max_attempts =>
            {
                self.fail(&job, current, &err).await
            }
            Err(err) => Err(Retry(format!(
                "stage {} of job {}: {}",
                current.as_str(),
                job.id,
                err.message
            ))),
        }
    }

    async fn advance(&self, job: &Job, done: Stage) -> Result<Handled, Retry> {
        let Some(next) = done.next() else {
            return Err(Retry(format!(
                "stage {} is the last but did not complete the job",
                done.as_str()
            )));
        };
        let progress = Progress::within(next, 0.0, format!("Starting {}", next.as_str()));
        match self.transitions.advance_job(job, next, progress).await? {
            Transition::Applied(job) => {
                // If this send fails the message is retried; the retry finds the job past
                // its stage and sends this message again.
                self.queue
                    .enqueue(&PipelineMessage {
                        job_id: job.id,
                        stage: next,
                    })
                    .await?;
                Ok(Handled::Ran)
            }
            Transition::Superseded => Ok(Handled::Ignored),
            Transition::Gone => self.forget(job).await,
        }
    }

    async fn fail(&self, job: &Job, stage: Stage, err: &StageError) -> Result<Handled, Retry> {
        tracing::warn!(job = %job.id, stage = stage.as_str(), error = %err.message, "job failed");
        match self
            .transitions
            .fail_job(job, &err.message, Utc::now())
            .await?
        {
            Transition::Applied(_) | Transition::Superseded => Ok(Handled::Ran),
            Transition::Gone => self.forget(job).await,
        }
    }

    /// The job was deleted while a stage ran: remove whatever the stage stored.
    async fn forget(&self, job: &Job) -> Result<Handled, Retry> {
        self.objects.delete_results(job.id).await?;
        Ok(Handled::JobGone)
    }
}
