//! Runs one message: decides whether it is current, stale or a duplicate, runs the stage,
//! and moves the job on with conditional writes.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use kr_core::domain::Job;
use kr_core::domain::{JobStatus, Progress, Stage, WebhookEvent};
use kr_core::domain::{Schedule, ScheduledRun};
use kr_core::service::jobs::JobPorts;
use kr_core::service::schedules::{run_due_schedules, TickReport};
use kr_core::service::webhooks::EventOutbox;
use kr_core::store::{
    ArtifactStore, EventSubject, JobQueue, JobStore, JobTransitions, OwedEvent, PipelineMessage,
    ResultStore, ScheduleStore, SkippedRun, StageClaim, StoreError, Transition,
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
    /// Part of the stage ran; the rest was sent as a new message.
    Continued,
    /// The owner has their cap of jobs running; the job waits in `queued` and is started
    /// when one of them finishes (or by the sweeper).
    Waiting,
}

/// Time kept back from the function's deadline to record the outcome of a stage.
pub const FINISHING_TIME: chrono::Duration = chrono::Duration::seconds(10);
/// How long a stage may run when the caller gives no deadline (tests, tools).
const DEFAULT_STAGE_TIME: chrono::Duration = chrono::Duration::minutes(5);
/// A running job whose stage shows no life this long is sent again: longer than one
/// attempt can last (the function's 5-minute timeout), so a live stage is never doubled.
pub const STALLED_AFTER: chrono::Duration = chrono::Duration::minutes(15);

pub struct Pipeline {
    pub jobs: Arc<dyn JobStore>,
    pub transitions: Arc<dyn JobTransitions>,
    pub queue: Arc<dyn JobQueue>,
    pub objects: Arc<dyn ResultStore>,
    pub runner: Arc<dyn StageRunner>,
    /// Deliveries of one stage's message before its job is failed. Below the queue's
    /// `maxReceiveCount`, so the job is failed with a message rather than dead-lettered.
    pub max_attempts: u32,
    /// Jobs of one owner running at once.
    pub running_cap: u32,
    /// Events still owed (finished jobs', skipped runs'); the sweeper raises those a worker
    /// did not send.
    pub event_outbox: Arc<EventOutbox>,
    /// Schedules whose runs the sweeper starts when due, and where a run's imported keywords
    /// are stored.
    pub schedules: Arc<dyn ScheduleStore>,
    pub artifacts: Arc<dyn ArtifactStore>,
}

impl Pipeline {
    /// Starts the runs of schedules due before `now` (the sweeper's tick; a test moves `now`).
    pub async fn start_due_schedules(
        &self,
        now: DateTime<Utc>,
    ) -> Result<(TickReport, Vec<(Schedule, ScheduledRun)>), StoreError> {
        let ports = JobPorts {
            jobs: self.jobs.as_ref(),
            queue: self.queue.as_ref(),
            artifacts: self.artifacts.as_ref(),
            removals: self.objects.as_ref(),
        };
        let (report, finished) = run_due_schedules(self.schedules.as_ref(), &ports, now).await?;
        // Only the tick that recorded a slot has it in `finished`: one event per skipped slot.
        for (schedule, run) in &finished {
            let Some(reason) = &run.skipped else { continue };
            let skipped = SkippedRun {
                owner: schedule.owner,
                schedule_id: schedule.id,
                slot: run.slot,
                reason: reason.clone(),
            };
            let owed = OwedEvent {
                subject: EventSubject::SkippedRun(skipped),
                event: WebhookEvent::ScheduleRunSkipped,
                owed_since: Utc::now(),
            };
            // Once recorded, a send that fails is the sweeper's to make again.
            if let Err(err) = self.event_outbox.owe_and_raise(&owed).await {
                tracing::error!(schedule = %schedule.id, %err, "a skipped run's webhook event was not sent");
            }
        }
        Ok((report, finished))
    }

    pub async fn handle(
        &self,
        message: &PipelineMessage,
        receive_count: u32,
    ) -> Result<Handled, Retry> {
        self.handle_until(message, receive_count, Utc::now() + DEFAULT_STAGE_TIME)
            .await
    }

    /// Handles a message in a function that is stopped at `deadline`: the stage is claimed
    /// until then, and given up (to be retried) before then.
    pub async fn handle_until(
        &self,
        message: &PipelineMessage,
        receive_count: u32,
        deadline: DateTime<Utc>,
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
            job = match self
                .transitions
                .start_job(&job, Utc::now(), self.running_cap)
                .await?
            {
                Transition::Applied(job) => *job,
                Transition::Superseded => return Ok(Handled::Ignored),
                Transition::Gone => return Ok(Handled::JobGone),
                Transition::AtCapacity => return Ok(Handled::Waiting),
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
        let token = uuid::Uuid::new_v4().to_string();
        match self
            .transitions
            .claim_stage(&job, &token, deadline, Utc::now())
            .await?
        {
            StageClaim::Claimed => {}
            // Another worker holds the stage. This copy may be the part that comes next (a
            // continuation sent just before the claim was given back) or a duplicate; either
            // way it is delivered again after the visibility timeout rather than dropped, and
            // finds the stage moved on (ignored) or free (run). One that keeps finding it held
            // reaches the dead-letter queue, where a fresh heartbeat keeps it from failing the
            // job (`dead_letter`).
            StageClaim::Held => {
                return Err(Retry(format!(
                    "stage {} of job {} is held by another worker",
                    current.as_str(),
                    job.id
                )))
            }
            StageClaim::Moved => return Ok(Handled::Ignored),
        }
        let reporter = ProgressReporter::until(
            self.transitions.clone(),
            job.clone(),
            current,
            deadline - FINISHING_TIME,
        );
        let time = (deadline - FINISHING_TIME - Utc::now())
            .to_std()
            .unwrap_or_default();
        let outcome =
            match tokio::time::timeout(time, self.runner.run(&job, current, &reporter)).await {
                Ok(outcome) => outcome,
                Err(_) => Err(StageError::transient(format!(
                    "The {} step did not finish in the time one attempt has.",
                    current.as_str()
                ))),
            };
        if reporter.stopped() && self.jobs.job(job.id).await?.is_none() {
            return self.forget(&job).await;
        }
        let job = reporter.job_after_stage();
        match outcome {
            Ok(StageOutcome::Continue) => self.advance(&job, current).await,
            Ok(StageOutcome::Unfinished { resume_after }) => {
                // The next part runs from its own message. The claim is given back first:
                // a part sent at once could otherwise arrive while this one still holds the
                // stage. If the send fails, this message is delivered again and runs the
                // next part itself.
                self.transitions.release_stage(&job, &token).await?;
                self.queue
                    .enqueue_after(
                        &PipelineMessage {
                            job_id: job.id,
                            stage: current,
                        },
                        resume_after,
                    )
                    .await?;
                Ok(Handled::Continued)
            }
            Ok(StageOutcome::Completed {
                keyword_count,
                search_console,
                ai_answers,
            }) => {
                match self
                    .transitions
                    .complete_job(&job, keyword_count, search_console, ai_answers, Utc::now())
                    .await?
                {
                    Transition::Applied(_) => {
                        self.start_next_queued(&job).await?;
                        Ok(Handled::Ran)
                    }
                    Transition::Superseded | Transition::AtCapacity => Ok(Handled::Ignored),
                    Transition::Gone => self.forget(&job).await,
                }
            }
            Err(err)
                if err.kind == FailureKind::Permanent || receive_count >= self.max_attempts =>
            {
                self.fail(&job, current, &err).await
            }
            Err(err) => {
                // Let the retry run at once rather than wait for the claim to run out.
                self.transitions.release_stage(&job, &token).await?;
                Err(Retry(format!(
                    "stage {} of job {}: {}",
                    current.as_str(),
                    job.id,
                    err.message
                )))
            }
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
            Transition::Superseded | Transition::AtCapacity => Ok(Handled::Ignored),
            Transition::Gone => self.forget(job).await,
        }
    }

    /// A running slot of the owner came free: their oldest waiting job goes next. (A job
    /// whose message is lost here is re-sent by the sweeper.)
    async fn start_next_queued(&self, finished: &Job) -> Result<(), Retry> {
        if let Some(next) = self.jobs.oldest_queued_job(finished.owner).await? {
            self.queue
                .enqueue(&PipelineMessage {
                    job_id: next,
                    stage: Stage::first(),
                })
                .await?;
            self.jobs.mark_enqueued(next, Utc::now()).await?;
        }
        Ok(())
    }

    /// A message that exhausted its deliveries (the dead-letter queue): its job is failed
    /// with its run given back, so it never stays `queued` or `running` — unless the message
    /// is stale. A dead letter of a stage the job has passed is a duplicate; one of the
    /// current stage while that stage shows life (a heartbeat within [`STALLED_AFTER`]: a
    /// claim writes one, and a claim never outlasts the function's timeout, far shorter) is
    /// a copy that kept finding the stage held by a live worker. Ignoring it is safe: if
    /// that worker stalls, its heartbeat ages and the sweeper re-drives the stage, then fails
    /// the job after `MAX_REDRIVES` ([`crate::event`]).
    pub async fn dead_letter(
        &self,
        message: &PipelineMessage,
        now: DateTime<Utc>,
    ) -> Result<Handled, Retry> {
        let Some(job) = self.jobs.job(message.job_id).await? else {
            return Ok(Handled::JobGone);
        };
        if job.status.is_finished() {
            return Ok(Handled::Ignored);
        }
        if let Some(current) = job.stage {
            if message.stage != current {
                return Ok(Handled::Ignored);
            }
            if job
                .heartbeat_at
                .is_some_and(|beat| now - beat < STALLED_AFTER)
            {
                tracing::warn!(job = %job.id, stage = current.as_str(), "dead letter of a stage that shows life; left to the sweeper");
                return Ok(Handled::Ignored);
            }
        }
        let stage = job.stage.unwrap_or(message.stage);
        let err = StageError::permanent(format!(
            "The {} step could not be completed after repeated attempts.",
            stage.as_str()
        ));
        self.fail(&job, stage, &err).await
    }

    async fn fail(&self, job: &Job, stage: Stage, err: &StageError) -> Result<Handled, Retry> {
        tracing::warn!(job = %job.id, stage = stage.as_str(), error = %err.message, "job failed");
        match self
            .transitions
            .fail_job(job, &err.message, Utc::now())
            .await?
        {
            Transition::Applied(_) => {
                self.start_next_queued(job).await?;
                Ok(Handled::Ran)
            }
            Transition::Superseded | Transition::AtCapacity => Ok(Handled::Ran),
            Transition::Gone => self.forget(job).await,
        }
    }

    /// The job was deleted while a stage ran: remove whatever the stage stored.
    async fn forget(&self, job: &Job) -> Result<Handled, Retry> {
        self.objects.delete_results(job.id).await?;
        Ok(Handled::JobGone)
    }
}
