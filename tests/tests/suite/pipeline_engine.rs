//! The pipeline engine over real SQS and DynamoDB, with stages whose behaviour the test
//! scripts: duplicate delivery, a stage that fails then succeeds, one that always fails,
//! a job deleted mid-run, a lost send, a malformed message in a batch.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

use kr_aws::sqs::SqsJobQueue;
use kr_core::domain::{Job, JobStatus, Stage};
use kr_core::store::{JobQueue, JobStore, PipelineMessage};
use kr_pipeline::engine::Handled;
use kr_pipeline::event::handle_event;
use kr_tests::harness;
use kr_tests::scripted_pipeline::{rig, ScriptedRunner, KEYWORDS};
use serde_json::json;

#[tokio::test]
async fn a_job_runs_every_stage_in_order_and_completes() {
    let rig = rig(ScriptedRunner::default(), vec![]).await;
    let job = rig.new_job(1).await;
    let done = rig.drive(job.id).await.unwrap();
    assert_eq!(done.status, JobStatus::Completed);
    assert_eq!(rig.ran(), Stage::ALL);
    assert_eq!(done.keyword_count, Some(KEYWORDS));
    assert_eq!(done.progress.percent, 100);
    assert!(
        done.started_at.is_some() && done.completed_at.is_some() && done.error_message.is_none()
    );
    let page = rig
        .store
        .list_jobs(job.owner, Some(JobStatus::Completed), 10, 0)
        .await
        .unwrap();
    assert_eq!(page.total, 1, "status counters follow the job");
    assert_eq!(
        rig.store
            .list_jobs(job.owner, Some(JobStatus::Queued), 10, 0)
            .await
            .unwrap()
            .total,
        0
    );
}

/// A stage waiting on the provider's queue ends its message; its next one arrives after the
/// delay, not before, nothing runs meanwhile, and the stage goes on from there.
#[tokio::test]
async fn a_waiting_stage_comes_back_in_a_delayed_message() {
    let runner = ScriptedRunner::default();
    *runner.waits_once.lock().unwrap() = Some((Stage::Metrics, Duration::from_secs(3)));
    let rig = rig(runner, vec![]).await;
    let job = rig.new_job(1).await;
    let done = rig.drive(job.id).await.unwrap();
    assert_eq!(done.status, JobStatus::Completed);
    let ran = rig.runner.ran_at.lock().unwrap().clone();
    let stages: Vec<Stage> = ran.iter().map(|(stage, _)| *stage).collect();
    assert_eq!(
        stages,
        [
            Stage::References,
            Stage::Crawl,
            Stage::Discovery,
            Stage::Metrics,
            Stage::Metrics,
            Stage::Analysis
        ]
    );
    let gap = ran[4].1 - ran[3].1;
    assert!(gap >= Duration::from_millis(2500), "{gap:?}");
}

#[tokio::test]
async fn duplicated_and_stale_messages_change_nothing() {
    let rig = rig(ScriptedRunner::default(), vec![]).await;
    let job = rig.new_job(1).await;
    // The first message arrives twice.
    let queue = SqsJobQueue::new(rig.clients.sqs.clone(), rig.queue_url.clone());
    queue
        .enqueue(&PipelineMessage {
            job_id: job.id,
            stage: Stage::References,
        })
        .await
        .unwrap();
    let done = rig.drive(job.id).await.unwrap();
    assert_eq!(done.status, JobStatus::Completed);
    let ran = rig.ran();
    for stage in Stage::ALL {
        assert!(ran.contains(&stage), "{stage:?} ran");
    }
    // Every stale copy afterwards is recognised and acknowledged.
    for stage in Stage::ALL {
        let handled = rig
            .pipeline
            .handle(
                &PipelineMessage {
                    job_id: job.id,
                    stage,
                },
                1,
            )
            .await
            .unwrap();
        assert_eq!(handled, Handled::Ignored);
    }
    let after = rig.store.job(job.id).await.unwrap().unwrap();
    assert_eq!(after, done, "the finished job is untouched");
}

#[tokio::test]
async fn a_stage_that_fails_then_succeeds_is_retried() {
    let runner = ScriptedRunner {
        transient_failures: Mutex::new(HashMap::from([(Stage::Crawl, 2)])),
        ..Default::default()
    };
    let rig = rig(runner, vec![]).await;
    let job = rig.new_job(1).await;
    let done = rig.drive(job.id).await.unwrap();
    assert_eq!(done.status, JobStatus::Completed);
    assert_eq!(rig.ran().iter().filter(|s| **s == Stage::Crawl).count(), 3);
    assert_eq!(rig.credits(&done).await, 0, "a completed job keeps its run");
}

#[tokio::test]
async fn a_stage_that_always_fails_fails_the_job_and_refunds_once() {
    let runner = ScriptedRunner {
        transient_failures: Mutex::new(HashMap::from([(Stage::Discovery, 100)])),
        ..Default::default()
    };
    let rig = rig(runner, vec![]).await;
    let job = rig.new_job(1).await;
    assert_eq!(rig.credits(&job).await, 0);
    let failed = rig.drive(job.id).await.unwrap();
    assert_eq!(failed.status, JobStatus::Failed);
    assert_eq!(
        failed.error_message.as_deref(),
        Some("The discovery step timed out.")
    );
    assert!(failed.completed_at.is_some());
    assert_eq!(failed.keyword_count, Some(0));
    assert_eq!(
        rig.ran().iter().filter(|s| **s == Stage::Discovery).count(),
        3,
        "max_attempts deliveries"
    );
    assert_eq!(rig.credits(&failed).await, 1, "the run is given back");
    // The failure processed again (a redelivery, a second worker) refunds nothing more.
    let handled = rig
        .pipeline
        .handle(
            &PipelineMessage {
                job_id: job.id,
                stage: Stage::Discovery,
            },
            5,
        )
        .await
        .unwrap();
    assert_eq!(handled, Handled::Ignored);
    use kr_core::store::JobTransitions;
    // A worker still holding the job as it was before the failure.
    let stale = Job {
        status: JobStatus::Running,
        version: failed.version - 1,
        refunded: false,
        usage: None,
        heartbeat_at: None,
        redrives: 0,
        expires_at: None,
        imported_keywords: 0,
        discover_keywords: true,
        callback_url: None,
        ..failed.clone()
    };
    let outcome = rig
        .store
        .fail_job(&stale, "again", chrono::Utc::now())
        .await
        .unwrap();
    assert_eq!(outcome, kr_core::store::Transition::Superseded);
    assert_eq!(rig.credits(&failed).await, 1, "refunded exactly once");
    assert_eq!(
        rig.store
            .list_jobs(job.owner, Some(JobStatus::Failed), 10, 0)
            .await
            .unwrap()
            .total,
        1
    );
}

#[tokio::test]
async fn a_permanent_failure_fails_at_once_with_the_reason() {
    let runner = ScriptedRunner {
        permanent_failure: Some(Stage::Crawl),
        ..Default::default()
    };
    let rig = rig(runner, vec![]).await;
    let job = rig.new_job(1).await;
    let failed = rig.drive(job.id).await.unwrap();
    assert_eq!(failed.status, JobStatus::Failed);
    assert!(failed
        .error_message
        .unwrap()
        .contains("could not reach example.com"));
    assert_eq!(rig.ran().iter().filter(|s| **s == Stage::Crawl).count(), 1);
    assert_eq!(rig.credits(&job).await, 1);
}

#[tokio::test]
async fn a_job_deleted_mid_run_stops_and_leaves_nothing_behind() {
    let runner = ScriptedRunner {
        delete_during: Some(Stage::Discovery),
        ..Default::default()
    };
    let rig = rig(runner, vec![]).await;
    let job = rig.new_job(1).await;
    assert!(rig.drive(job.id).await.is_none(), "the job stays deleted");
    assert_eq!(
        rig.ran(),
        &Stage::ALL[..3],
        "nothing ran after the deletion"
    );
    let bucket = harness::resources().results_bucket;
    let left = rig
        .clients
        .s3
        .list_object_versions()
        .bucket(&bucket)
        .prefix(format!("jobs/{}/", job.id))
        .send()
        .await
        .unwrap();
    assert!(
        left.versions().is_empty() && left.delete_markers().is_empty(),
        "no result survives: {left:?}"
    );
}

#[tokio::test]
async fn a_send_lost_after_a_stage_is_healed_on_redelivery() {
    let rig = rig(ScriptedRunner::default(), vec![Stage::Analysis]).await;
    let job = rig.new_job(1).await;
    let done = rig.drive(job.id).await.unwrap();
    assert_eq!(done.status, JobStatus::Completed);
    assert_eq!(
        rig.ran().iter().filter(|s| **s == Stage::Metrics).count(),
        1,
        "the stage before the lost send ran once"
    );
}

#[tokio::test]
async fn one_bad_message_never_fails_the_batch() {
    let rig = rig(ScriptedRunner::default(), vec![]).await;
    let job = rig.new_job(1).await;
    let event = json!({"Records": [
        {"messageId": "bad", "receiptHandle": "r1", "body": "not json", "attributes": {"ApproximateReceiveCount": "1"}, "messageAttributes": {}},
        {"messageId": "good", "receiptHandle": "r2", "body": json!({"jobId": job.id, "stage": "references"}).to_string(), "attributes": {"ApproximateReceiveCount": "1"}, "messageAttributes": {}},
    ]});
    let response = handle_event(&rig.pipeline, event).await.unwrap();
    assert_eq!(response["batchItemFailures"], json!([]));
    assert_eq!(rig.ran(), [Stage::References]);
    let scheduled = handle_event(
        &rig.pipeline,
        json!({"detail-type": "Scheduled Event", "source": "aws.events"}),
    )
    .await
    .unwrap();
    assert!(scheduled["requeued"].is_u64());
    assert!(handle_event(&rig.pipeline, json!({"something": "else"}))
        .await
        .is_err());
}
