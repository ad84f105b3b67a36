//! The sweeper's job use cases: queued jobs whose first message was lost
//! ([`requeue_stale_jobs`]) and running jobs that stopped showing life
//! ([`redrive_stalled_jobs`]).

use chrono::{DateTime, Utc};

use crate::domain::Stage;
use crate::store::{JobQueue, JobStore, JobTransitions, PipelineMessage, StoreError, Transition};

/// Re-sends the first message of jobs that have sat in `queued` since before `older_than`
/// (a lost send, a message that expired, a start refused while the owner's running slots
/// were full). A job created before `give_up_before` is failed instead, its run given back.
/// Returns how many were re-sent.
pub async fn requeue_stale_jobs(
    jobs: &dyn JobStore,
    transitions: &dyn JobTransitions,
    queue: &dyn JobQueue,
    older_than: DateTime<Utc>,
    give_up_before: DateTime<Utc>,
) -> Result<usize, StoreError> {
    const BATCH: u32 = 100;
    let mut resent = 0;
    loop {
        // Each re-sent job is marked, which moves it out of the stale window.
        let stale = jobs.stale_queued_jobs(older_than, BATCH).await?;
        let mut moved = 0;
        for id in &stale {
            if let Some(job) = jobs.job(*id).await? {
                if job.created_at < give_up_before {
                    let failed = transitions
                        .fail_job(
                            &job,
                            "The job waited too long to start and was cancelled; its run was given back.",
                            Utc::now(),
                        )
                        .await?;
                    moved += usize::from(matches!(failed, Transition::Applied(_)));
                    continue;
                }
            }
            queue
                .enqueue(&PipelineMessage {
                    job_id: *id,
                    stage: Stage::first(),
                })
                .await?;
            jobs.mark_enqueued(*id, Utc::now()).await?;
            resent += 1;
            moved += 1;
        }
        // A full batch may have more behind it, unless nothing in it left the window: reading
        // it again would find the same jobs, for ever.
        if stale.len() < BATCH as usize || moved == 0 {
            return Ok(resent);
        }
    }
}

/// Sends the current stage of running jobs whose heartbeat is older than `stalled_before`
/// again (a worker that died, a message that was lost); a job already sent again
/// `max_redrives` times is failed with its run given back. Returns how many were re-sent.
pub async fn redrive_stalled_jobs(
    jobs: &dyn JobStore,
    transitions: &dyn JobTransitions,
    queue: &dyn JobQueue,
    stalled_before: DateTime<Utc>,
    max_redrives: u32,
) -> Result<usize, StoreError> {
    const BATCH: u32 = 100;
    let mut redriven = 0;
    loop {
        let stalled = jobs.stalled_running_jobs(stalled_before, BATCH).await?;
        let mut moved = 0;
        for id in &stalled {
            let Some(job) = jobs.job(*id).await? else {
                continue;
            };
            let Some(stage) = job.stage else {
                continue;
            };
            if job.redrives >= max_redrives {
                let message = format!(
                    "The job stopped making progress at the {} step and was stopped; its run was given back.",
                    stage.as_str()
                );
                let failed = transitions.fail_job(&job, &message, Utc::now()).await?;
                moved += usize::from(matches!(failed, Transition::Applied(_)));
                continue;
            }
            // Counted first: if the send is lost, the job stalls again and is counted again.
            if let Transition::Applied(_) =
                transitions.apply_if(&job, job.redrive(Utc::now())).await?
            {
                queue
                    .enqueue(&PipelineMessage {
                        job_id: job.id,
                        stage,
                    })
                    .await?;
                redriven += 1;
                moved += 1;
            }
        }
        // A full batch may have more behind it, unless nothing in it left the window (jobs
        // that expired, copies another worker moved): reading it again would find the same
        // jobs, for ever.
        if stalled.len() < BATCH as usize || moved == 0 {
            return Ok(redriven);
        }
    }
}
