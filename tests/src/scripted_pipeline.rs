//! A pipeline over real SQS and DynamoDB whose stages do what a test scripts (fail, fail
//! then succeed, take long, delete their job), and record what ran: for the engine's fault
//! tests.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::bridge::{Bridge, InProcessPipeline};
use crate::harness;
use async_trait::async_trait;
use aws_sdk_sqs::types::QueueAttributeName;
use chrono::{DateTime, Utc};
use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_aws::sqs::{SqsJobQueue, SqsWebhookQueue};
use kr_aws::AwsClients;
use kr_core::domain::{DomainName, JobId, LanguageCode, LocationCode, Stage};
use kr_core::domain::{Job, JobChange, Progress};
use kr_core::service::jobs::{create_job, delete_job, CreateJobRequest, JobPorts};
use kr_core::service::webhooks::{EventOutbox, QueuedJobEvents};
use kr_core::store::{
    JobQueue, JobStore, JobTransitions, PipelineMessage, StageClaim, StoreError, Transition,
    UsageDelta, UserStore,
};
use kr_pipeline::engine::Pipeline;
use kr_pipeline::runner::{ProgressReporter, StageError, StageOutcome, StageRunner};
use serde_json::json;

pub const KEYWORDS: i64 = 42;

/// Stages that do what the test says and record what ran.
#[derive(Default)]
pub struct ScriptedRunner {
    pub ran: Mutex<Vec<Stage>>,
    /// What ran, and when.
    pub ran_at: Mutex<Vec<(Stage, Instant)>>,
    pub transient_failures: Mutex<HashMap<Stage, u32>>,
    pub permanent_failure: Option<Stage>,
    pub delete_during: Option<Stage>,
    /// The stage takes this long (a slow crawl, a stuck provider).
    pub slow: Option<(Stage, Duration)>,
    /// The stage's first run waits this long for something outside (queued SERP tasks).
    pub waits_once: Mutex<Option<(Stage, Duration)>>,
    pub store: Option<Arc<DynamoStore>>,
    pub objects: Option<Arc<S3ObjectStore>>,
    pub clients: Option<AwsClients>,
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
        self.ran_at.lock().unwrap().push((stage, Instant::now()));
        progress.report(0.5, "halfway").await;
        if let Some((_, time)) = self.slow.filter(|(slow, _)| *slow == stage) {
            tokio::time::sleep(time).await;
        }
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
        let wait = {
            let mut waits = self.waits_once.lock().unwrap();
            waits
                .filter(|(waiting, _)| *waiting == stage)
                .inspect(|_| *waits = None)
        };
        if let Some((_, delay)) = wait {
            return Ok(StageOutcome::Unfinished {
                resume_after: delay,
            });
        }
        if self.permanent_failure == Some(stage) {
            return Err(StageError::permanent(
                "We could not reach example.com: the name does not resolve.",
            ));
        }
        if self.delete_during == Some(stage) {
            let clients = self.clients.as_ref().unwrap();
            let bucket = harness::resources().results_bucket;
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
                search_console: None,
                ai_answers: None,
            }
        } else {
            StageOutcome::Continue
        })
    }
}

/// A queue whose sends fail for the stages listed, once each.
pub struct FlakyQueue {
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

    async fn enqueue_after(
        &self,
        message: &PipelineMessage,
        delay: std::time::Duration,
    ) -> Result<(), StoreError> {
        self.inner.enqueue_after(message, delay).await
    }
}

/// The store's transitions, with a claim given back only after `delay`: the window in which
/// a message sent by the worker that holds the stage can arrive while it still holds it.
pub struct SlowRelease {
    pub inner: Arc<DynamoStore>,
    pub delay: Duration,
}

#[async_trait]
impl JobTransitions for SlowRelease {
    async fn apply(&self, current: &Job, change: JobChange) -> Result<Transition, StoreError> {
        self.inner.apply(current, change).await
    }

    async fn report_progress(&self, job: &Job, progress: Progress) -> Result<bool, StoreError> {
        self.inner.report_progress(job, progress).await
    }

    async fn add_usage(&self, job: &Job, delta: &UsageDelta) -> Result<bool, StoreError> {
        self.inner.add_usage(job, delta).await
    }

    async fn claim_stage(
        &self,
        job: &Job,
        token: &str,
        until: DateTime<Utc>,
        now: DateTime<Utc>,
    ) -> Result<StageClaim, StoreError> {
        self.inner.claim_stage(job, token, until, now).await
    }

    async fn release_stage(&self, job: &Job, token: &str) -> Result<(), StoreError> {
        tokio::time::sleep(self.delay).await;
        self.inner.release_stage(job, token).await
    }

    async fn start_job(
        &self,
        job: &Job,
        at: DateTime<Utc>,
        running_cap: u32,
    ) -> Result<Transition, StoreError> {
        self.inner.start_job(job, at, running_cap).await
    }
}

pub struct Rig {
    pub store: Arc<DynamoStore>,
    pub clients: AwsClients,
    pub queue_url: String,
    pub dead_letter_queue_arn: String,
    pub runner: Arc<ScriptedRunner>,
    pub pipeline: Arc<Pipeline>,
}

pub async fn rig(runner: ScriptedRunner, fail_sends: Vec<Stage>) -> Rig {
    rig_with_cap(runner, fail_sends, 3).await
}

/// A rig whose owners may run `running_cap` jobs at once.
pub async fn rig_with_cap(
    mut runner: ScriptedRunner,
    fail_sends: Vec<Stage>,
    running_cap: u32,
) -> Rig {
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
        harness::resources().results_bucket,
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
        running_cap,
        // Events go to a queue of the rig's own; these stages' transitions raise none
        // themselves, so the sweeper raises what they owe.
        event_outbox: Arc::new(EventOutbox {
            events: Arc::new(QueuedJobEvents(Arc::new(SqsWebhookQueue::new(
                clients.sqs.clone(),
                harness::fresh_queue(&clients).await,
            )))),
            owed: store.clone(),
        }),
        schedules: store.clone(),
        artifacts: Arc::new(S3ObjectStore::new(
            clients.s3.clone(),
            harness::resources().results_bucket,
        )),
    });
    Rig {
        store,
        clients,
        queue_url,
        dead_letter_queue_arn: dlq_arn,
        runner,
        pipeline,
    }
}

impl Rig {
    pub async fn new_job(&self, credits: i64) -> Job {
        let user = harness::new_user(&self.store, kr_core::domain::Plan::Agency, credits, 5).await;
        self.new_job_of(user.id).await
    }

    /// Another job of `owner` (on another domain each time).
    pub async fn new_job_of(&self, owner: kr_core::domain::UserId) -> Job {
        let request = CreateJobRequest {
            primary_domain: DomainName::parse(&format!(
                "site-{}.com",
                uuid::Uuid::new_v4().simple()
            ))
            .unwrap(),
            competitor_domains: vec![],
            language_code: LanguageCode::parse("en").unwrap(),
            location_code: LocationCode::parse(2840).unwrap(),
            keywords: None,
            discover_keywords: true,
            callback_url: None,
            search_console_property: None,
        };
        let queue = SqsJobQueue::new(self.clients.sqs.clone(), self.queue_url.clone());
        let objects = self
            .runner
            .objects
            .as_ref()
            .expect("the rig sets the store");
        let created = create_job(
            &JobPorts {
                jobs: self.store.as_ref(),
                queue: &queue,
                artifacts: objects.as_ref(),
                removals: objects.as_ref(),
            },
            owner,
            request,
            None,
            None,
        )
        .await
        .unwrap();
        self.store.job(created.id).await.unwrap().unwrap()
    }

    /// Delivers messages until the queue stays empty or the job is finished and drained.
    pub async fn drive(&self, id: JobId) -> Option<Job> {
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

    pub fn ran(&self) -> Vec<Stage> {
        self.runner.ran.lock().unwrap().clone()
    }

    pub async fn credits(&self, job: &Job) -> i64 {
        self.store
            .user(job.owner)
            .await
            .unwrap()
            .unwrap()
            .credits_balance
    }
}
