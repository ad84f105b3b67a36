//! What production throws at the pipeline, over real SQS and DynamoDB: a second worker for a
//! stage already at work, a stage that would outlive its function, a worker that died, a
//! message that ended in the dead-letter queue (stale or not), a part of the crawl sent on
//! while its worker still held the stage, an account over its running-job cap.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use chrono::{SecondsFormat, Utc};
use kr_core::domain::{Job, JobId, JobStatus, Stage};
use kr_core::service::jobs::redrive_stalled_jobs;
use kr_core::store::{JobStore, PipelineMessage};
use kr_pipeline::engine::{Handled, Pipeline};
use kr_pipeline::event::{handle_event_from, Source};
use kr_tests::harness;
use kr_tests::scripted_pipeline::{rig, rig_with_cap, Rig, ScriptedRunner, SlowRelease};
use serde_json::json;

fn message(job: &Job, stage: Stage) -> PipelineMessage {
    PipelineMessage {
        job_id: job.id,
        stage,
    }
}

/// Runs the job's first stage, so it is `running` at the crawl.
async fn at_crawl(rig: &Rig, job: &Job) -> Job {
    let handled = rig
        .pipeline
        .handle(&message(job, Stage::References), 1)
        .await
        .unwrap();
    assert_eq!(handled, Handled::Ran);
    let job = rig.store.job(job.id).await.unwrap().unwrap();
    assert_eq!(job.stage, Some(Stage::Crawl));
    job
}

/// Makes the job's last sign of life an hour old, as if its worker had died then.
async fn age_heartbeat(rig: &Rig, id: JobId) {
    use aws_sdk_dynamodb::types::AttributeValue;
    let then = Utc::now() - chrono::Duration::hours(1);
    rig.clients
        .dynamodb
        .update_item()
        .table_name(harness::resources().table_name)
        .key("PK", AttributeValue::S(format!("JOB#{id}")))
        .key("SK", AttributeValue::S("JOB".into()))
        .update_expression("SET heartbeatAt = :then, GSI3SK = :beat")
        .expression_attribute_values(":then", AttributeValue::S(then.to_rfc3339()))
        .expression_attribute_values(
            ":beat",
            AttributeValue::S(format!(
                "{}#{id}",
                then.to_rfc3339_opts(SecondsFormat::Millis, true)
            )),
        )
        .send()
        .await
        .unwrap();
}

fn crawls(rig: &Rig) -> usize {
    rig.ran().iter().filter(|s| **s == Stage::Crawl).count()
}

#[tokio::test]
async fn a_second_copy_of_a_message_never_runs_a_stage_that_is_at_work() {
    let runner = ScriptedRunner {
        slow: Some((Stage::Crawl, Duration::from_secs(2))),
        ..Default::default()
    };
    let rig = rig(runner, vec![]).await;
    let job = at_crawl(&rig, &rig.new_job(1).await).await;
    let crawl = message(&job, Stage::Crawl);
    let (first, second) = tokio::join!(rig.pipeline.handle(&crawl, 1), async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        rig.pipeline.handle(&crawl, 1).await
    });
    assert_eq!(first.unwrap(), Handled::Ran);
    assert!(
        second.is_err(),
        "a copy that finds the stage held is delivered again, not acknowledged: {second:?}"
    );
    assert_eq!(crawls(&rig), 1, "the crawl ran once");
    // Delivered again, it finds the job past the crawl.
    assert_eq!(
        rig.pipeline.handle(&crawl, 2).await.unwrap(),
        Handled::Resent
    );
    assert_eq!(crawls(&rig), 1);
}

/// Takes the next message off the rig's queue, waiting up to `wait` for one.
async fn next_message(rig: &Rig, wait: i32) -> Option<PipelineMessage> {
    let output = rig
        .clients
        .sqs
        .receive_message()
        .queue_url(&rig.queue_url)
        .max_number_of_messages(1)
        .wait_time_seconds(wait)
        .send()
        .await
        .unwrap();
    let message = output.messages.unwrap_or_default().into_iter().next()?;
    rig.clients
        .sqs
        .delete_message()
        .queue_url(&rig.queue_url)
        .receipt_handle(message.receipt_handle().unwrap())
        .send()
        .await
        .unwrap();
    Some(serde_json::from_str(message.body().unwrap()).unwrap())
}

/// Waits for the message the first worker sends, however slowly the emulator lets it get
/// there: only once that worker is done and the queue is still empty is it missing.
async fn continuation_of(rig: &Rig, first_done: &AtomicBool) -> Option<PipelineMessage> {
    loop {
        let done_before = first_done.load(Ordering::SeqCst);
        if let Some(message) = next_message(rig, 1).await {
            return Some(message);
        }
        if done_before {
            return None;
        }
    }
}

/// A part of the crawl that goes on at once: its message can arrive before the worker that
/// sent it is done with the stage. Here giving the claim back takes a second and the next
/// part's message is handled the moment it arrives; it must run, not be dropped as held.
#[tokio::test]
async fn a_continuation_sent_at_once_runs_and_is_never_dropped_as_held() {
    let runner = ScriptedRunner {
        waits_once: std::sync::Mutex::new(Some((Stage::Crawl, Duration::ZERO))),
        ..Default::default()
    };
    let rig = rig(runner, vec![]).await;
    let job = at_crawl(&rig, &rig.new_job(1).await).await;
    // The crawl's own message (sent by the references stage) is handled here directly.
    while next_message(&rig, 0).await.is_some() {}
    let slow = Pipeline {
        jobs: rig.pipeline.jobs.clone(),
        transitions: Arc::new(SlowRelease {
            inner: rig.store.clone(),
            delay: Duration::from_secs(1),
        }),
        queue: rig.pipeline.queue.clone(),
        objects: rig.pipeline.objects.clone(),
        runner: rig.pipeline.runner.clone(),
        max_attempts: 3,
        running_cap: 3,
        event_outbox: rig.pipeline.event_outbox.clone(),
        schedules: rig.pipeline.schedules.clone(),
        artifacts: rig.pipeline.artifacts.clone(),
    };
    let crawl = message(&job, Stage::Crawl);
    let first_done = AtomicBool::new(false);
    let (first, next) = tokio::join!(
        async {
            let handled = slow.handle(&crawl, 1).await;
            first_done.store(true, Ordering::SeqCst);
            handled
        },
        async {
            let continuation = continuation_of(&rig, &first_done)
                .await
                .expect("the next part was sent");
            assert_eq!(continuation, message(&job, Stage::Crawl));
            slow.handle(&continuation, 1).await
        }
    );
    assert_eq!(first.unwrap(), Handled::Continued);
    assert_eq!(next.unwrap(), Handled::Ran, "the next part ran");
    assert_eq!(crawls(&rig), 2);
    let job = rig.store.job(job.id).await.unwrap().unwrap();
    assert_eq!(job.stage, Some(Stage::Discovery));
}

#[tokio::test]
async fn a_stage_that_would_outlive_its_function_gives_up_in_time_and_runs_again() {
    // The stage would take far longer than the time it gets, so giving up is told apart
    // from finishing however slowly the emulator answers on a loaded machine.
    let stage_time = Duration::from_secs(12);
    let runner = ScriptedRunner {
        slow: Some((Stage::Crawl, stage_time)),
        ..Default::default()
    };
    let rig = rig(runner, vec![]).await;
    let job = at_crawl(&rig, &rig.new_job(1).await).await;
    // Ten seconds are kept back to record the outcome: this leaves the stage two.
    let deadline = Utc::now() + chrono::Duration::seconds(12);
    let started = std::time::Instant::now();
    let gave_up = rig
        .pipeline
        .handle_until(&message(&job, Stage::Crawl), 1, deadline)
        .await;
    assert!(gave_up.is_err(), "to be delivered again");
    assert!(
        started.elapsed() < stage_time,
        "it gave up before the stage ended"
    );
    // The claim was given back with the attempt: the next delivery runs at once.
    let again = rig
        .pipeline
        .handle(&message(&job, Stage::Crawl), 2)
        .await
        .unwrap();
    assert_eq!(again, Handled::Ran);
    assert_eq!(crawls(&rig), 2);
}

#[tokio::test]
async fn a_job_that_stops_showing_life_is_sent_again_then_failed_with_its_run_given_back() {
    let rig = rig(ScriptedRunner::default(), vec![]).await;
    let job = at_crawl(&rig, &rig.new_job(1).await).await;
    assert_eq!(rig.credits(&job).await, 0);
    let sweep = || async {
        redrive_stalled_jobs(
            rig.store.as_ref(),
            rig.store.as_ref(),
            rig.pipeline.queue.as_ref(),
            Utc::now() - chrono::Duration::minutes(30),
            2,
        )
        .await
        .unwrap()
    };
    for redrives in 1..=2 {
        age_heartbeat(&rig, job.id).await;
        assert!(sweep().await >= 1);
        let swept = rig.store.job(job.id).await.unwrap().unwrap();
        assert_eq!(swept.redrives, redrives);
        assert_eq!(swept.status, JobStatus::Running);
        assert_eq!(swept.stage, Some(Stage::Crawl));
    }
    // A fresh heartbeat keeps a job out of the sweep.
    sweep().await;
    assert_eq!(rig.store.job(job.id).await.unwrap().unwrap().redrives, 2);

    age_heartbeat(&rig, job.id).await;
    sweep().await;
    let failed = rig.store.job(job.id).await.unwrap().unwrap();
    assert_eq!(failed.status, JobStatus::Failed);
    let reason = failed.error_message.as_deref().unwrap();
    assert!(
        reason.contains("crawl") && reason.contains("given back"),
        "{reason}"
    );
    assert_eq!(rig.credits(&failed).await, 1, "the run is given back");
    age_heartbeat(&rig, job.id).await;
    sweep().await;
    assert_eq!(rig.credits(&failed).await, 1, "once");
}

#[tokio::test]
async fn a_dead_lettered_message_fails_its_job_and_gives_the_run_back_once() {
    let rig = rig(ScriptedRunner::default(), vec![]).await;
    let job = at_crawl(&rig, &rig.new_job(1).await).await;
    let record = |id: &str, stage: &str| {
        json!({"messageId": id, "receiptHandle": id, "eventSourceARN": rig.dead_letter_queue_arn,
               "body": json!({"jobId": job.id, "stage": stage}).to_string(),
               "attributes": {"ApproximateReceiveCount": "1"}, "messageAttributes": {}})
    };
    let source = Source {
        deadline: Utc::now() + chrono::Duration::minutes(5),
        dead_letter_queue_arn: Some(&rig.dead_letter_queue_arn),
    };
    let deliver = |delivery: &'static str, stage: &'static str| {
        let event = json!({ "Records": [record(delivery, stage)] });
        let source = &source;
        let rig = &rig;
        async move {
            let answer = handle_event_from(&rig.pipeline, event, source)
                .await
                .unwrap();
            assert_eq!(answer["batchItemFailures"], json!([]));
        }
    };
    // Stale dead letters: a stage the job has passed, and the current stage while it shows
    // life (a copy that kept finding it held by a live worker). Neither fails the job.
    deliver("passed", "references").await;
    deliver("live", "crawl").await;
    let running = rig.store.job(job.id).await.unwrap().unwrap();
    assert_eq!(running.status, JobStatus::Running);
    assert_eq!(rig.credits(&running).await, 0, "no run given back");

    // The stage stopped showing life: the dead letter fails the job, once.
    age_heartbeat(&rig, job.id).await;
    for delivery in ["first", "again"] {
        deliver(delivery, "crawl").await;
    }
    let failed = rig.store.job(job.id).await.unwrap().unwrap();
    assert_eq!(failed.status, JobStatus::Failed);
    assert!(failed
        .error_message
        .as_deref()
        .unwrap()
        .contains("crawl step could not be completed"));
    assert_eq!(rig.credits(&failed).await, 1);
    assert_eq!(crawls(&rig), 0, "a dead letter never runs its stage");
}

#[tokio::test]
async fn jobs_over_the_accounts_running_cap_wait_queued_and_start_as_others_finish() {
    let runner = ScriptedRunner {
        slow: Some((Stage::Discovery, Duration::from_millis(500))),
        ..Default::default()
    };
    let rig = rig_with_cap(runner, vec![], 1).await;
    let first = rig.new_job(3).await;
    let second = rig.new_job_of(first.owner).await;
    let third = rig.new_job_of(first.owner).await;
    // All three first messages are in the queue; one job may run at a time.
    rig.drive(third.id).await;
    let mut runs: Vec<Job> = Vec::new();
    for job in [&first, &second, &third] {
        let done = rig.store.job(job.id).await.unwrap().unwrap();
        assert_eq!(
            done.status,
            JobStatus::Completed,
            "{:?}",
            done.error_message
        );
        runs.push(done);
    }
    runs.sort_by_key(|job| job.started_at);
    for pair in runs.windows(2) {
        assert!(
            pair[1].started_at >= pair[0].completed_at,
            "one running at a time: {:?} started before {:?} completed",
            pair[1].id,
            pair[0].id
        );
    }
}
