//! Webhook ports: the account's webhooks, every delivery attempt, and the queue deliveries
//! travel on.

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use super::StoreError;
use crate::domain::{JobId, ScheduleId, UserId, WebhookEvent, WebhookId, WebhookUrl};

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Webhook {
    pub id: WebhookId,
    pub owner: UserId,
    pub url: WebhookUrl,
    pub events: Vec<WebhookEvent>,
    pub created_at: DateTime<Utc>,
}

/// One try at delivering one event to one endpoint.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryAttempt {
    pub webhook_id: WebhookId,
    /// The `webhook-id` header: the same for every attempt and duplicate of one event.
    pub message_id: String,
    pub event: WebhookEvent,
    /// The job of a `job.*` event.
    #[serde(default)]
    pub job_id: Option<JobId>,
    /// The schedule of a `schedule.*` event.
    #[serde(default)]
    pub schedule_id: Option<ScheduleId>,
    /// 1 for the first try.
    pub attempt: u32,
    pub at: DateTime<Utc>,
    pub duration_ms: u64,
    /// The receiver's HTTP status; `None` when no response came.
    pub status_code: Option<u16>,
    /// Why the attempt failed; `None` on a 2xx.
    pub error: Option<String>,
    /// When the next try is due; `None` once delivered or given up.
    pub next_attempt_at: Option<DateTime<Utc>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CreateWebhookOutcome {
    Created,
    /// The account already has the most webhooks it may have.
    LimitReached,
}

#[async_trait]
pub trait WebhookStore: Send + Sync {
    /// Stores `webhook` unless its owner already has `limit` of them.
    async fn create_webhook(
        &self,
        webhook: &Webhook,
        limit: usize,
    ) -> Result<CreateWebhookOutcome, StoreError>;
    /// The owner's webhooks, oldest first.
    async fn list_webhooks(&self, owner: UserId) -> Result<Vec<Webhook>, StoreError>;
    async fn webhook(&self, owner: UserId, id: WebhookId) -> Result<Option<Webhook>, StoreError>;
    /// `false` when there was no such webhook of `owner`.
    async fn delete_webhook(&self, owner: UserId, id: WebhookId) -> Result<bool, StoreError>;
    async fn record_delivery(&self, attempt: &DeliveryAttempt) -> Result<(), StoreError>;
    /// The webhook's latest attempts, newest first.
    async fn deliveries(
        &self,
        id: WebhookId,
        limit: u32,
    ) -> Result<Vec<DeliveryAttempt>, StoreError>;
}

/// Where one delivery goes: an account webhook, or the job's own `callbackUrl`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "kind", content = "id")]
pub enum DeliveryTarget {
    Webhook(WebhookId),
    Callback,
}

/// What an event is about: a job (`job.*`), or a schedule's run that was skipped.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum EventSubject {
    #[serde(rename_all = "camelCase")]
    Job {
        job_id: JobId,
    },
    SkippedRun(SkippedRun),
}

/// A scheduled run that started no job, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SkippedRun {
    pub owner: UserId,
    pub schedule_id: ScheduleId,
    /// The slot that was skipped.
    pub slot: DateTime<Utc>,
    pub reason: String,
}

impl EventSubject {
    pub fn job_id(&self) -> Option<JobId> {
        match self {
            Self::Job { job_id } => Some(*job_id),
            Self::SkippedRun(_) => None,
        }
    }
}

/// A message on the webhooks queue: an event to fan out (`target: None`), or one delivery
/// attempt to one target.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WebhookMessage {
    /// Flattened: a job's message is `{"jobId": …, "event": …}`, as before schedules had events.
    #[serde(flatten)]
    pub subject: EventSubject,
    pub event: WebhookEvent,
    #[serde(default)]
    pub target: Option<DeliveryTarget>,
    #[serde(default = "first_attempt")]
    pub attempt: u32,
}

fn first_attempt() -> u32 {
    1
}

impl WebhookMessage {
    /// A job's event, to fan out.
    pub fn for_job(job_id: JobId, event: WebhookEvent) -> Self {
        Self {
            subject: EventSubject::Job { job_id },
            event,
            target: None,
            attempt: 1,
        }
    }

    /// A skipped run's event, to fan out.
    pub fn for_skipped_run(run: SkippedRun) -> Self {
        Self {
            subject: EventSubject::SkippedRun(run),
            event: WebhookEvent::ScheduleRunSkipped,
            target: None,
            attempt: 1,
        }
    }
}

/// The webhooks queue.
#[async_trait]
pub trait WebhookQueue: Send + Sync {
    /// Sends `message`, to be received no sooner than `delay_seconds` (at most 900) from now.
    async fn send(&self, message: &WebhookMessage, delay_seconds: u32) -> Result<(), StoreError>;
}

/// An event that has not reached the webhooks queue yet. The write that finishes a job
/// records its event (an outbox, in the same transaction); a tick records a skipped run's
/// event right after recording the run. It is settled once the event is sent, so a worker
/// that dies before the send, or a send that fails, loses nothing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OwedEvent {
    pub subject: EventSubject,
    pub event: WebhookEvent,
    /// When it became owed (the job finished, the run was skipped).
    pub owed_since: DateTime<Utc>,
}

/// The outbox of owed events (a job's is written by [`super::JobTransitions`]).
#[async_trait]
pub trait OwedEvents: Send + Sync {
    /// Records `owed`, for an event no job transition writes (a skipped run's).
    async fn owe_event(&self, owed: &OwedEvent) -> Result<(), StoreError>;
    /// Events owed since before `before`, oldest first, at most `limit`.
    async fn owed_events(
        &self,
        before: DateTime<Utc>,
        limit: u32,
    ) -> Result<Vec<OwedEvent>, StoreError>;
    /// The event was sent: it is owed no more.
    async fn settle_event(&self, owed: &OwedEvent) -> Result<(), StoreError>;
}

/// The deliveries an event's fan-out has queued the first attempt of, by `webhook-id`. An
/// event fanned out again (its message delivered again after a send failed part-way, or
/// raised twice) queues only the ones missing, so no endpoint gets a second first attempt.
#[async_trait]
pub trait FanOutLog: Send + Sync {
    async fn first_attempt_queued(&self, message_id: &str) -> Result<bool, StoreError>;
    async fn record_first_attempt(&self, message_id: &str) -> Result<(), StoreError>;
}
