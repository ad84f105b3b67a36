//! The pipeline engine over real SQS and DynamoDB, with stages whose behaviour the test
//! scripts: duplicate delivery, a stage that fails then succeeds, one that always fails,
//! a job deleted mid-run, a lost send, a malformed message in a batch.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use async_trait::async_trait;
use aws_sdk_sqs::types::QueueAttributeName;
use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_aws::sqs::SqsJobQueue;
use kr_aws::AwsClients;
use kr_core::domain::Job;
use kr_core::domain::{DomainName, JobId, JobStatus, LanguageCode, LocationCode, Stage};
use kr_core::service::jobs::{create_job, delete_job, CreateJobRequest};
use kr_core::store::{JobQueue, JobStore, PipelineMessage, StoreError, UserStore};
use kr_pipeline::engine::{Handled, Pipeline};
use kr_pipeline::event::handle_event;
use kr_pipeline::runner::{ProgressReporter, StageError, StageOutcome, StageRunner};
use kr_tests::bridge::{Bridge, InProcessPipeline};
use kr_tests::harness;
use serde_json::json;

const KEYWORDS: i64 = 42;

/// Stages that do what the test says and record what ran.
#[derive(Default)]
struct ScriptedRunner {
    ran: Mutex<Vec<Stage>>,
    transient_failures: Mutex<HashMap<Stage, u32>>,
    permanent_failure: Option<Stage>,
    delete_during: Option<Stage>,
    store: Option<Arc<DynamoStore>>,
    objects: Option<Arc<S3ObjectStore>>,
    clients: Option<AwsClients>,
}

#[async_trait]
impl StageRunner for ScriptedRunner {
    async fn run(
        &self,
        job: &Job,
        stage: Stage,
        progress: &ProgressReporter,
    ) -> Result<StageOutcome, StageError> {
        assert_eq!(
            job.stage,
            Some(stage),
            "a stage only runs while the job is at it"
        );
        self.ran.lock().unwrap().push(stage);
        progress.report(0.5, "halfway").await;
        if let Some(left) = self
            .transient_failures
            .lock()
            .unwrap()
            .get_mut(&stage)
            .filter(|left| **left > 0)
        {
            *left -= 1;
            return Err(StageError::transient(format!(
                "The {} step timed out.",
                stage.as_str()
            )));
        }
        if self.permanent_failure == Some(stage) {
            return Err(StageError::permanent(
                "We could not reach example.com: the name does not resolve.",
            ));
        }
        if self.delete_during == Some(stage) {
            let clients = self.clients.as_ref().unwrap();
            let bucket = harness::config().results_bucket;
            clients
                .s3
                .put_object()
                .bucket(&bucket)
                .key(format!("jobs/{}/stages/{}.json", job.id, stage.as_str()))
                .body(b"{}".to_vec().into())
                .send()
                .await
                .unwrap();
            let store = self.store.as_ref().unwrap();
            assert!(delete_job(
                store.as_ref(),
                self.objects.as_ref().unwrap().as_ref(),
                job.owner,
                job.id
            )
            .await
            .unwrap());
            clients
                .s3
                .put_object()
                .bucket(&bucket)
                .key(format!("jobs/{}/stages/late.json", job.id))
                .body(b"{}".to_vec().into())
                .send()
                .await
                .unwrap();
        }
        Ok(if stage == Stage::Analysis {
            StageOutcome::Completed {
                keyword_count: KEYWORDS,
            }
        } else {
            StageOutcome::Continue
        })
    }
}

/// A queue whose sends fail for the stages listed, once each.
struct FlakyQueue {
    inner: SqsJobQueue,
    fail_once: Mutex<Vec<Stage>>,
}

#[async_trait]
impl JobQueue for FlakyQueue {
    async fn enqueue(&self, message: &PipelineMessage) -> Result<(), StoreError> {
        let inject = {
            let mut fail = self.fail_once.lock().unwrap();
            fail.iter()
                .position(|s| *s == message.stage)
                .map(|at| fail.remove(at))
                .is_some()
        };
        if inject {
            return Err(StoreError::new("injected send failure"));
        }
        self.inner.enqueue(message).await
    }
}

struct Rig {
    store: Arc<DynamoStore>,
    clients: AwsClients,
    queue_url: String,
    runner: Arc<ScriptedRunner>,
    pipeline: Arc<Pipeline>,
}

async fn rig(mut runner: ScriptedRunner, fail_sends: Vec<Stage>) -> Rig {
    let clients = harness::clients().await;
    // A short visibility timeout so retries come quickly; the redrive policy as in the template.
    let dlq = clients
        .sqs
        .create_queue()
        .queue_name(format!("dlq-{}", uuid::Uuid::new_v4().simple()))
        .send()
        .await
        .unwrap()
        .queue_url
        .unwrap();
    let dlq_arn = clients
        .sqs
        .get_queue_attributes()
        .queue_url(&dlq)
        .attribute_names(QueueAttributeName::QueueArn)
        .send()
        .await
        .unwrap()
        .attributes
        .unwrap()[&QueueAttributeName::QueueArn]
        .clone();
    let queue_url = clients
        .sqs
        .create_queue()
        .queue_name(format!("jobs-{}", uuid::Uuid::new_v4().simple()))
        .attributes(QueueAttributeName::VisibilityTimeout, "1")
        .attributes(
            QueueAttributeName::RedrivePolicy,
            json!({"deadLetterTargetArn": dlq_arn, "maxReceiveCount": 5}).to_string(),
        )
        .send()
        .await
        .unwrap()
        .queue_url
        .unwrap();
    let store = harness::store().await;
    let objects = Arc::new(S3ObjectStore::new(
        clients.s3.clone(),
        harness::config().results_bucket,
    ));
    runner.store = Some(store.clone());
    runner.objects = Some(objects.clone());
    runner.clients = Some(clients.clone());
    let runner = Arc::new(runner);
    let pipeline = Arc::new(Pipeline {
        jobs: store.clone(),
        transitions: store.clone(),
        queue: Arc::new(FlakyQueue {
            inner: SqsJobQueue::new(clients.sqs.clone(), queue_url.clone()),
            fail_once: Mutex::new(fail_sends),
        }),
        objects,
        runner: runner.clone(),
        max_attempts: 3,
    });
    Rig {
        store,
        clients,
        queue_url,
        runner,
        pipeline,
    }
}

impl Rig {
    async fn new_job(&self, credits: i64) -> Job {
        let user = harness::new_user(&self.store, kr_core::domain::Plan::Agency, credits, 5).await;
        let request = CreateJobRequest {
            primary_domain: DomainName::parse("example.com").unwrap(),
            competitor_domains: vec![],
            language_code: LanguageCode::parse("en").unwrap(),
            location_code: LocationCode::parse(2840).unwrap(),
        };
        let queue = SqsJobQueue::new(self.clients.sqs.clone(), self.queue_url.clone());
        let created = create_job(self.store.as_ref(), &queue, user.id, request, None)
            .await
            .unwrap();
        self.store.job(created.id).await.unwrap().unwrap()
    }

    /// Delivers messages until the queue stays empty or the job is finished and drained.
    async fn drive(&self, id: JobId) -> Option<Job> {
        let bridge = Bridge {
            sqs: self.clients.sqs.clone(),
            queue_url: self.queue_url.clone(),
            batch_size: 10,
        };
        let invoker = InProcessPipeline(self.pipeline.clone());
        let deadline = Instant::now() + Duration::from_secs(60);
        let mut idle = 0;
        while Instant::now() < deadline {
            let delivered = bridge.poll_once(&invoker, 0).await.unwrap();
            idle = if delivered == 0 { idle + 1 } else { 0 };
            // Retries reappear after the 1 s visibility timeout.
            if idle > 15 {
                break;
            }
            if delivered == 0 {
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
        self.store.job(id).await.unwrap()
    }

    fn ran(&self) -> Vec<Stage> {
        self.runner.ran.lock().unwrap().clone()
    }

    async fn credits(&self, job: &Job) -> i64 {
        self.store
            .user(job.owner)
            .await
            .unwrap()
            .unwrap()
            .credits_balance
    }
}

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
    let bucket = harness::config().results_bucket;
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
