//! The pipeline wired to its ports, in one place: the function's `main` and the tests' rig
//! (`tests/src/pipeline_rig.rs`) both build their [`Pipeline`] here, so a new port or stage is
//! wired once. What they do differently (where the stores and queues are, the crawler's
//! reach and pace, the data provider, the settings) comes in as [`Parts`].

use std::sync::Arc;

use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_core::service::webhooks::{EventOutbox, NotifyingTransitions, QueuedJobEvents};
use kr_core::store::{JobQueue, WebhookQueue};
use kr_crawler::Crawler;
use kr_dataforseo::DataForSeo;
use kr_research::personas::model::PersonaModel;

use crate::stages::search_console::SearchConsoleParts;
use crate::stages::{ResearchRunner, ResearchSettings};
use crate::Pipeline;

/// Deliveries of a stage's message before its job is failed (the queue dead-letters at 5).
pub const MAX_ATTEMPTS: u32 = 3;

/// What the function reads from its environment and the rig sets for its tests.
pub struct Parts {
    /// The table: every DynamoDB port (jobs and their transitions, schedules, owed events).
    pub store: Arc<DynamoStore>,
    /// The results bucket: what the stages store for each job.
    pub objects: Arc<S3ObjectStore>,
    /// Where each stage's next message is sent.
    pub jobs_queue: Arc<dyn JobQueue>,
    /// Where finished jobs' webhook events are sent.
    pub webhooks_queue: Arc<dyn WebhookQueue>,
    pub crawler: Crawler,
    pub settings: ResearchSettings,
    /// Measured data; `None` (no credentials) means the offline estimate.
    pub provider: Option<Arc<DataForSeo>>,
    /// Personas written by a language model; `None` means the deterministic ones.
    pub personas_model: Option<Arc<dyn PersonaModel>>,
    /// Jobs of one owner running at once.
    pub running_cap: u32,
    /// Search Console for jobs naming a property: the connections, the sealing key and the
    /// Google client (`kr_aws::google::GoogleSource`). `None`: such jobs complete without
    /// it and say so.
    pub search_console: Option<SearchConsoleParts>,
}

/// The pipeline on `parts`: the research stages as its runner, and every job that finishes,
/// whatever finished it, raising its webhook event; the store keeps the event owed until it
/// is sent, and the sweeper raises those a worker did not send.
pub fn pipeline(parts: Parts) -> Pipeline {
    let Parts {
        store,
        objects,
        jobs_queue,
        webhooks_queue,
        crawler,
        settings,
        provider,
        personas_model,
        running_cap,
        search_console,
    } = parts;
    let runner = ResearchRunner {
        crawler,
        objects: objects.clone(),
        settings,
        provider,
        personas_model,
        search_console,
    };
    let event_outbox = Arc::new(EventOutbox {
        events: Arc::new(QueuedJobEvents(webhooks_queue)),
        owed: store.clone(),
    });
    let transitions = Arc::new(NotifyingTransitions {
        inner: store.clone(),
        outbox: event_outbox.clone(),
    });
    Pipeline {
        jobs: store.clone(),
        transitions,
        queue: jobs_queue,
        artifacts: objects.clone(),
        objects,
        runner: Arc::new(runner),
        max_attempts: MAX_ATTEMPTS,
        running_cap,
        event_outbox,
        schedules: store,
    }
}
