//! The sweeper's use cases: jobs that lost their first message (`requeue_stale_jobs`), running
//! jobs that stopped showing life (`redrive_stalled_jobs`), and events owed by finished jobs
//! (`EventOutbox::raise_overdue`).

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};

use super::{job_at, World};
use crate::domain::{Job, JobStatus, Stage, UserId, WebhookEvent};
use crate::service::jobs::{redrive_stalled_jobs, requeue_stale_jobs};
use crate::service::webhooks::{EventOutbox, QueuedJobEvents};
use crate::store::{EventSubject, JobStore, JobTransitions, PipelineMessage, Transition};

impl World {
    /// The sweep of stale queued jobs as the pipeline runs it at `now`: re-sent after 5
    /// minutes, given up after a day.
    async fn requeue(&self, now: DateTime<Utc>) -> usize {
        let store = self.store.as_ref();
        requeue_stale_jobs(
            store,
            store,
            self.queue.as_ref(),
            now - Duration::minutes(5),
            now - Duration::days(1),
        )
        .await
        .unwrap()
    }

    /// The sweep of stalled running jobs at `now`: silent for 15 minutes, 3 re-sends at most.
    async fn redrive(&self, now: DateTime<Utc>) -> usize {
        let store = self.store.as_ref();
        redrive_stalled_jobs(
            store,
            store,
            self.queue.as_ref(),
            now - Duration::minutes(15),
            3,
        )
        .await
        .unwrap()
    }

    async fn stored(&self, job: &Job) -> Job {
        self.store.job(job.id).await.unwrap().expect("the job")
    }

    fn outbox(&self) -> EventOutbox {
        EventOutbox {
            events: Arc::new(QueuedJobEvents(self.queue.clone())),
            owed: self.store.clone(),
        }
    }
}

/// A running job whose last sign of life was `silent_for` ago, at `stage`.
fn running(owner: UserId, silent_for: Duration, stage: Stage, redrives: u32) -> Job {
    let mut job = job_at(
        owner,
        Utc::now() - silent_for - Duration::hours(1),
        JobStatus::Running,
    );
    job.heartbeat_at = Some(Utc::now() - silent_for);
    job.stage = Some(stage);
    job.redrives = redrives;
    job
}

fn first_stage(job: &Job) -> PipelineMessage {
    PipelineMessage {
        job_id: job.id,
        stage: Stage::first(),
    }
}

#[tokio::test]
async fn a_job_left_queued_is_sent_again_once_per_window() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let job = job_at(owner, Utc::now() - Duration::minutes(10), JobStatus::Queued);
    world.store.import_jobs(std::slice::from_ref(&job));
    assert_eq!(world.requeue(Utc::now()).await, 1);
    assert_eq!(world.queue.messages(), [first_stage(&job)]);
    assert_eq!(
        world.requeue(Utc::now()).await,
        0,
        "marked: out of the window"
    );
    assert_eq!(
        world.requeue(Utc::now() + Duration::minutes(6)).await,
        1,
        "until it is stale again"
    );
}

#[tokio::test]
async fn a_freshly_queued_job_is_left_alone() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    world.create(owner, "example.com", None).await.unwrap();
    let sent = world.queue.messages().len();
    assert_eq!(world.requeue(Utc::now()).await, 0);
    assert_eq!(world.queue.messages().len(), sent);
}

#[tokio::test]
async fn a_job_whose_first_message_was_lost_is_sent_by_the_sweeper() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    world.queue.fail("enqueue");
    let created = world.create(owner, "example.com", None).await.unwrap();
    world.queue.heal("enqueue");
    assert_eq!(world.requeue(Utc::now() + Duration::minutes(6)).await, 1);
    assert_eq!(world.queue.messages()[0].job_id, created.id);
}

#[tokio::test]
async fn a_job_queued_too_long_is_failed_with_its_run_given_back_once() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let created = world.create(owner, "example.com", None).await.unwrap();
    assert_eq!(world.balance(owner).await, (4, 2));
    let sent = world.queue.messages().len();
    assert_eq!(
        world.requeue(Utc::now() + Duration::days(2)).await,
        0,
        "failed, not re-sent"
    );
    let failed = world.store.job(created.id).await.unwrap().unwrap();
    assert_eq!(failed.status, JobStatus::Failed);
    assert!(failed.refunded);
    assert!(failed.error_message.unwrap().contains("waited too long"));
    assert_eq!(
        world.balance(owner).await,
        (5, 2),
        "the run, not the domain"
    );
    assert_eq!(world.queue.messages().len(), sent);
    world.requeue(Utc::now() + Duration::days(3)).await;
    assert_eq!(world.balance(owner).await, (5, 2), "given back once");
}

#[tokio::test]
async fn more_stale_jobs_than_a_batch_are_all_sent_again() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let jobs: Vec<Job> = (0..150)
        .map(|i| {
            job_at(
                owner,
                Utc::now() - Duration::minutes(10 + i),
                JobStatus::Queued,
            )
        })
        .collect();
    world.store.import_jobs(&jobs);
    assert_eq!(world.requeue(Utc::now()).await, 150);
    assert_eq!(world.queue.messages().len(), 150);
}

#[tokio::test]
async fn a_stalled_running_job_is_sent_its_stage_again_and_counted() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let job = running(owner, Duration::minutes(20), Stage::Crawl, 0);
    world.store.import_jobs(std::slice::from_ref(&job));
    assert_eq!(world.redrive(Utc::now()).await, 1);
    assert_eq!(
        world.queue.messages(),
        [PipelineMessage {
            job_id: job.id,
            stage: Stage::Crawl
        }]
    );
    let redriven = world.stored(&job).await;
    assert_eq!((redriven.redrives, redriven.version), (1, job.version + 1));
    assert_eq!(
        world.redrive(Utc::now()).await,
        0,
        "its heartbeat restarted"
    );
}

#[tokio::test]
async fn a_running_job_showing_life_is_not_redriven() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let job = running(owner, Duration::minutes(1), Stage::Metrics, 0);
    world.store.import_jobs(std::slice::from_ref(&job));
    assert_eq!(world.redrive(Utc::now()).await, 0);
    assert!(world.queue.messages().is_empty());
}

#[tokio::test]
async fn progress_is_a_heartbeat_that_keeps_a_job_from_the_redrive() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let job = running(owner, Duration::minutes(20), Stage::Metrics, 0);
    world.store.import_jobs(std::slice::from_ref(&job));
    let progress = crate::domain::Progress::within(Stage::Metrics, 0.5, "half");
    assert!(world.store.report_progress(&job, progress).await.unwrap());
    assert_eq!(world.redrive(Utc::now()).await, 0);
}

#[tokio::test]
async fn a_job_redriven_too_often_is_failed_with_its_run_given_back() {
    let world = World::new();
    let owner = world.store.add_user(0, 0);
    let job = running(owner, Duration::minutes(20), Stage::Discovery, 3);
    world.store.import_jobs(std::slice::from_ref(&job));
    assert_eq!(world.redrive(Utc::now()).await, 0);
    assert!(world.queue.messages().is_empty());
    let failed = world.stored(&job).await;
    assert_eq!(failed.status, JobStatus::Failed);
    assert!(failed.error_message.unwrap().contains("discovery"));
    assert_eq!(world.balance(owner).await, (1, 0));
}

#[tokio::test]
async fn more_stalled_jobs_than_a_batch_are_all_redriven() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let jobs: Vec<Job> = (0..150)
        .map(|i| running(owner, Duration::minutes(20 + i), Stage::Crawl, 0))
        .collect();
    world.store.import_jobs(&jobs);
    assert_eq!(world.redrive(Utc::now()).await, 150);
}

#[tokio::test]
async fn a_stale_copy_of_a_job_cannot_move_it() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let job = running(owner, Duration::minutes(20), Stage::Crawl, 0);
    world.store.import_jobs(std::slice::from_ref(&job));
    world.redrive(Utc::now()).await;
    let late = world
        .store
        .fail_job(&job, "late", Utc::now())
        .await
        .unwrap();
    assert_eq!(late, Transition::Superseded);
    assert_eq!(
        world.balance(owner).await,
        (5, 3),
        "no refund from a stale copy"
    );
}

#[tokio::test]
async fn the_event_a_sweep_owes_is_raised_and_settled() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let created = world.create(owner, "example.com", None).await.unwrap();
    world.requeue(Utc::now() + Duration::days(2)).await;
    let owed = world.store.owed_now();
    assert_eq!(owed.len(), 1);
    assert_eq!(owed[0].subject, EventSubject::Job { job_id: created.id });
    assert_eq!(owed[0].event, WebhookEvent::JobFailed);

    let outbox = world.outbox();
    world.queue.fail("send");
    assert_eq!(
        outbox
            .raise_overdue(Utc::now() + Duration::minutes(1))
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        world.store.owed_now().len(),
        1,
        "still owed after a failed send"
    );
    world.queue.heal("send");
    assert_eq!(
        outbox
            .raise_overdue(Utc::now() + Duration::minutes(1))
            .await
            .unwrap(),
        1
    );
    assert!(world.store.owed_now().is_empty());
    let sent = world.queue.webhook_messages();
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0].0.subject.job_id(), Some(created.id));
}

#[tokio::test]
async fn an_event_owed_within_the_grace_is_left_to_the_finishing_worker() {
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    world.create(owner, "example.com", None).await.unwrap();
    world.requeue(Utc::now() + Duration::days(2)).await;
    let raised = world
        .outbox()
        .raise_overdue(Utc::now() - Duration::minutes(5))
        .await;
    assert_eq!(raised.unwrap(), 0);
    assert_eq!(world.store.owed_now().len(), 1);
}

#[tokio::test]
async fn a_full_batch_of_stalled_jobs_that_cannot_move_ends_the_sweep() {
    // Expired jobs stay in the index until TTL removes them, and no reader sees them: a
    // sweep that read them again while it had redriven anything before never ended.
    let world = World::new();
    let owner = world.store.add_user(5, 3);
    let live = running(owner, Duration::minutes(500), Stage::Crawl, 0);
    let expired: Vec<Job> = (0..100)
        .map(|i| {
            let mut job = running(owner, Duration::minutes(20 + i), Stage::Crawl, 0);
            job.expires_at = Some(Utc::now() - Duration::hours(1));
            job
        })
        .collect();
    world.store.import_jobs(std::slice::from_ref(&live));
    world.store.import_jobs(&expired);
    let redriven =
        tokio::time::timeout(std::time::Duration::from_secs(5), world.redrive(Utc::now()))
            .await
            .expect("the sweep ends");
    assert_eq!(redriven, 1);
    assert_eq!(world.stored(&live).await.redrives, 1);
}
