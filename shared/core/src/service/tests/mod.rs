//! Unit tests of the use cases on the in-memory fakes of the ports (`store::memory`): each
//! rule of a use case checked in plain `cargo test`, without AWS or the emulator. One file
//! per use case; the world they run in is here.

mod jobs;
mod schedules;
mod search_console;
mod search_console_import;
mod share_links;
mod sweeper;

use std::sync::Arc;

use chrono::{DateTime, Duration, Utc};
use serde_json::{json, Map, Value};

use crate::domain::{DomainName, Job, JobId, JobStatus, NewJob, UserId};
use crate::service::jobs::{create_job, CreateJobError, CreateJobRequest, CreatedJob, JobPorts};
use crate::store::memory::{MemoryObjects, MemoryQueue, MemoryStore};
use crate::store::UserStore;

/// The ports a use case runs on: the table, the queues and the bucket.
#[derive(Default)]
struct World {
    store: Arc<MemoryStore>,
    queue: Arc<MemoryQueue>,
    objects: Arc<MemoryObjects>,
}

impl World {
    fn new() -> Self {
        Self::default()
    }

    /// New jobs expire after 30 days.
    fn with_retention() -> Self {
        Self {
            store: Arc::new(MemoryStore::new().with_retention(30, None)),
            ..Self::default()
        }
    }

    fn ports(&self) -> JobPorts<'_> {
        JobPorts {
            jobs: self.store.as_ref(),
            queue: self.queue.as_ref(),
            artifacts: self.objects.as_ref(),
            removals: self.objects.as_ref(),
        }
    }

    /// The user's runs and domain allowance left.
    async fn balance(&self, user: UserId) -> (i64, i64) {
        let user = self.store.user(user).await.unwrap().expect("a user");
        (user.credits_balance, user.domains_balance)
    }

    /// A job of `owner` on `domain` as `POST /jobs` creates it, with `key` as its
    /// `Idempotency-Key`.
    async fn create(
        &self,
        owner: UserId,
        domain: &str,
        key: Option<&str>,
    ) -> Result<CreatedJob, CreateJobError> {
        create_job(
            &self.ports(),
            owner,
            request(body(domain)),
            key.map(String::from),
            None,
        )
        .await
    }
}

/// A `POST /jobs` body on `domain`.
fn body(domain: &str) -> Map<String, Value> {
    object(json!({
        "primaryDomain": domain,
        "competitorDomains": ["competitor.com"],
        "languageCode": "en",
        "locationCode": 2840,
    }))
}

fn object(value: Value) -> Map<String, Value> {
    match value {
        Value::Object(map) => map,
        other => panic!("not an object: {other}"),
    }
}

fn request(body: Map<String, Value>) -> CreateJobRequest {
    CreateJobRequest::parse(&body).expect("a valid request")
}

/// A stored job of `owner` created at `created_at`, in `status`, as the pipeline leaves it.
fn job_at(owner: UserId, created_at: DateTime<Utc>, status: JobStatus) -> Job {
    let queued = Job::queued(&NewJob {
        id: JobId::new(),
        owner,
        primary_domain: DomainName::parse("example.com").unwrap(),
        competitor_domains: Vec::new(),
        language_code: crate::domain::LanguageCode::parse("en").unwrap(),
        location_code: crate::domain::LocationCode::parse(2840).unwrap(),
        created_at,
        imported_keywords: 0,
        discover_keywords: true,
        callback_url: None,
        schedule_id: None,
        search_console_property: None,
    });
    let started = created_at + Duration::seconds(1);
    match status {
        JobStatus::Queued => queued,
        JobStatus::Running => queued.start(started).unwrap().next,
        JobStatus::Completed => {
            let running = queued.start(started).unwrap().next;
            running.complete(42, started).unwrap().next
        }
        JobStatus::Failed => queued.fail("failed", started).unwrap().next,
    }
}
