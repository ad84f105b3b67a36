//! The notifier: takes events off the webhooks queue, fans each out to the owner's webhooks
//! that want it (and a job's event to the job's `callbackUrl`), and delivers them. A
//! scheduled job's `job.completed` also raises `job.changes` for the webhooks that want it.
//! A delivery that fails is sent back to the queue with a delay for its next attempt, so no
//! invocation waits on a slow receiver for longer than one request's timeout, and a receiver
//! that is down never touches the job (it finished before its event was sent). A message
//! whose handling fails on every receive goes to the dead-letter queue (its alarm fires), and
//! the notifier says what it gave up: the job or schedule, the event and the target.

use std::sync::Arc;
use std::time::Duration;

use aws_lambda_events::sqs::{BatchItemFailure, SqsBatchResponse, SqsEvent};
use chrono::Utc;
use futures_util::future::join_all;
use kr_aws::signing_key::SigningKeySource;
use kr_contract::jobs::JobView;
use kr_core::domain::{Job, UserId, WebhookEvent};
use kr_core::service::webhook_signing::message_id;
use kr_core::service::webhooks::RetrySchedule;
use kr_core::store::{
    DeliveryAttempt, DeliveryTarget, EventSubject, FanOutLog, JobStore, SkippedRun, StoreError,
    WebhookMessage, WebhookQueue, WebhookStore,
};
use kr_crawler::{CrawlConfig, GuardedClient};
use serde_json::{json, Value};

pub use changes::{ChangeDigests, StoredChangeDigests};

mod changes;

/// How long a receiver has to answer.
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// Receives of one message before SQS moves it to the dead-letter queue: the webhooks
/// queue's `maxReceiveCount` in template.yaml.
pub const MAX_RECEIVES: u32 = 5;

pub struct Notifier {
    pub jobs: Arc<dyn JobStore>,
    pub webhooks: Arc<dyn WebhookStore>,
    pub queue: Arc<dyn WebhookQueue>,
    pub signing: Arc<SigningKeySource>,
    pub client: GuardedClient,
    pub retries: RetrySchedule,
    pub changes: Arc<dyn ChangeDigests>,
    pub fan_outs: Arc<dyn FanOutLog>,
}

/// An event's subject, read: what its deliveries need.
enum Subject {
    Job(Box<Job>),
    SkippedRun(SkippedRun),
}

impl Subject {
    fn owner(&self) -> UserId {
        match self {
            Self::Job(job) => job.owner,
            Self::SkippedRun(run) => run.owner,
        }
    }
}

impl Notifier {
    /// The client for receivers: the crawler's guard, with `KR_WEBHOOK_RESOLVE` host
    /// overrides (the same `host=ip:port,…` form as `KR_CRAWL_RESOLVE`) for tests and the
    /// local stack only.
    pub fn client_from_vars(
        lookup: impl Fn(&str) -> Option<String>,
    ) -> Result<GuardedClient, String> {
        let overrides = match lookup("KR_WEBHOOK_RESOLVE").filter(|v| !v.trim().is_empty()) {
            Some(spec) => CrawlConfig::parse_resolve(&spec).map_err(|err| err.to_string())?,
            None => Vec::new(),
        };
        GuardedClient::new(&overrides, DELIVERY_TIMEOUT, "KeywordResearchWebhooks/1.0")
    }

    /// One queue message: an event to fan out, or one attempt at one target.
    pub async fn handle(&self, message: &WebhookMessage) -> Result<(), StoreError> {
        let subject = match &message.subject {
            // A job deleted since has nothing to report.
            EventSubject::Job { job_id } => match self.jobs.job(*job_id).await? {
                Some(job) => Subject::Job(Box::new(job)),
                None => return Ok(()),
            },
            EventSubject::SkippedRun(run) => Subject::SkippedRun(run.clone()),
        };
        match message.target {
            Some(target) => self.deliver(&subject, message, target).await,
            None => self.fan_out(&subject, message).await,
        }
    }

    /// Each target gets a message of its own, so one slow receiver holds up no other and
    /// every invocation does at most one request per message. A target whose first attempt
    /// was queued before (this message delivered again after a send failed part-way) is
    /// passed over: its receiver would get that attempt twice, and two chains of retries.
    async fn fan_out(&self, subject: &Subject, message: &WebhookMessage) -> Result<(), StoreError> {
        let mut events = vec![message.event];
        if let Subject::Job(job) = subject {
            if message.event == WebhookEvent::JobCompleted && job.schedule_id.is_some() {
                events.push(WebhookEvent::JobChanges);
            }
        }
        let mut deliveries: Vec<(WebhookEvent, DeliveryTarget)> = Vec::new();
        for webhook in self.webhooks.list_webhooks(subject.owner()).await? {
            for &event in events.iter().filter(|e| webhook.events.contains(e)) {
                deliveries.push((event, DeliveryTarget::Webhook(webhook.id)));
            }
        }
        // A job's own `callbackUrl` hears how it finished, nothing else.
        if let Subject::Job(job) = subject {
            if job.callback_url.is_some() {
                deliveries.push((message.event, DeliveryTarget::Callback));
            }
        }
        for (event, target) in deliveries {
            let id = message_id(&message.subject, event, target);
            if self.fan_outs.first_attempt_queued(&id).await? {
                continue;
            }
            let first = WebhookMessage {
                event,
                target: Some(target),
                attempt: 1,
                ..message.clone()
            };
            self.queue.send(&first, 0).await?;
            // Unrecorded, it is queued again only if a later send fails too.
            if let Err(err) = self.fan_outs.record_first_attempt(&id).await {
                tracing::warn!(message_id = %id, %err, "a queued first attempt was not recorded");
            }
        }
        Ok(())
    }

    /// The event's `data`.
    async fn data(&self, subject: &Subject, event: WebhookEvent) -> Result<Value, StoreError> {
        Ok(match subject {
            Subject::Job(job) if event == WebhookEvent::JobChanges => json!({
                "job": JobView::from(job.as_ref()),
                "changes": self.changes.digest(job).await?,
            }),
            Subject::Job(job) => json!({"job": JobView::from(job.as_ref())}),
            Subject::SkippedRun(run) => json!({
                "scheduleId": run.schedule_id,
                "slot": run.slot.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
                "reason": run.reason,
            }),
        })
    }

    async fn deliver(
        &self,
        subject: &Subject,
        message: &WebhookMessage,
        target: DeliveryTarget,
    ) -> Result<(), StoreError> {
        let key = self.signing.key().await?;
        let (url, secret) = match (target, subject) {
            (DeliveryTarget::Webhook(id), _) => {
                match self.webhooks.webhook(subject.owner(), id).await? {
                    Some(webhook) => (webhook.url.to_string(), key.webhook_secret(id)),
                    // Deleted since the event: nothing more goes there.
                    None => return Ok(()),
                }
            }
            (DeliveryTarget::Callback, Subject::Job(job)) => match &job.callback_url {
                Some(url) => (url.to_string(), key.callback_secret(job.id)),
                None => return Ok(()),
            },
            // Never fanned out: a schedule has no callback URL.
            (DeliveryTarget::Callback, Subject::SkippedRun(_)) => return Ok(()),
        };
        let now = Utc::now();
        let id = message_id(&message.subject, message.event, target);
        let body = serde_json::to_vec(&json!({
            "type": message.event,
            "timestamp": now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
            "data": self.data(subject, message.event).await?,
        }))
        .map_err(StoreError::new)?;
        let timestamp = now.timestamp();
        let signature = secret.sign(&id, timestamp, &body);
        let headers = [
            ("webhook-id", id.clone()),
            ("webhook-timestamp", timestamp.to_string()),
            ("webhook-signature", signature),
        ];
        let outcome = self.client.post(&url, &headers, body).await;
        let next = match &outcome.error {
            None => None,
            Some(_) => self.retries.after(message.attempt),
        };
        // The attempt is recorded before the next one is queued. Were it the other way round,
        // a failed record would have this message delivered again, and its second delivery
        // would queue a second copy of the next attempt: two chains of retries from then on.
        // This way a failed record queues nothing; the redelivery sends this attempt again
        // (the same `webhook-id`, so receivers drop the repeat) and queues the next once.
        match target {
            DeliveryTarget::Webhook(webhook_id) => {
                let attempt = DeliveryAttempt {
                    webhook_id,
                    message_id: id,
                    event: message.event,
                    job_id: message.subject.job_id(),
                    schedule_id: match subject {
                        Subject::Job(job) => job.schedule_id,
                        Subject::SkippedRun(run) => Some(run.schedule_id),
                    },
                    attempt: message.attempt,
                    at: now,
                    duration_ms: outcome.duration.as_millis() as u64,
                    status_code: outcome.status,
                    error: outcome.error,
                    next_attempt_at: next
                        .map(|delay| now + chrono::Duration::from_std(delay).unwrap_or_default()),
                };
                self.webhooks.record_delivery(&attempt).await?;
            }
            DeliveryTarget::Callback => {
                tracing::info!(job = ?message.subject.job_id(), attempt = message.attempt, status = ?outcome.status, error = ?outcome.error, "callback delivery");
            }
        }
        if let Some(delay) = next {
            let retry = WebhookMessage {
                target: Some(target),
                attempt: message.attempt + 1,
                ..message.clone()
            };
            self.queue.send(&retry, delay.as_secs() as u32).await?;
        }
        Ok(())
    }

    /// An SQS batch: messages whose handling failed (a store or queue error, not a failed
    /// delivery, which has its own retry) are reported for SQS to deliver again.
    pub async fn handle_batch(&self, batch: SqsEvent) -> SqsBatchResponse {
        // Concurrently: a batch takes as long as its slowest receiver, not the sum.
        let outcomes = join_all(batch.records.into_iter().map(|record| async move {
            let id = record.message_id.clone().unwrap_or_default();
            let receives = record
                .attributes
                .get("ApproximateReceiveCount")
                .and_then(|count| count.parse::<u32>().ok())
                .unwrap_or(1);
            let parsed: Result<WebhookMessage, _> =
                serde_json::from_str(record.body.as_deref().unwrap_or(""));
            match parsed {
                Ok(message) => self.handle(&message).await.map_err(|err| {
                    report_failure(&message, receives, &err);
                    id
                }),
                // Not ours to retry: a malformed message never becomes well-formed.
                Err(err) => {
                    tracing::error!(%err, "malformed webhook message dropped");
                    Ok(())
                }
            }
        }))
        .await;
        let failures = outcomes
            .into_iter()
            .filter_map(Result::err)
            .map(|id| {
                let mut failure = BatchItemFailure::default();
                failure.item_identifier = id;
                failure
            })
            .collect();
        let mut response = SqsBatchResponse::default();
        response.batch_item_failures = failures;
        response
    }

    pub async fn handle_event(&self, event: Value) -> Result<Value, lambda_runtime::Error> {
        let batch: SqsEvent = serde_json::from_value(event)?;
        Ok(serde_json::to_value(self.handle_batch(batch).await)?)
    }
}

/// Why a message is delivered again; on its last receive, that it is given up (SQS moves it to
/// the dead-letter queue next), naming what its receivers will not get.
fn report_failure(message: &WebhookMessage, receives: u32, err: &StoreError) {
    let job = message.subject.job_id().map(|id| id.to_string());
    let schedule = match &message.subject {
        EventSubject::SkippedRun(run) => Some(run.schedule_id.to_string()),
        EventSubject::Job { .. } => None,
    };
    let event = message.event.as_str();
    let (target, attempt) = (message.target, message.attempt);
    if receives >= MAX_RECEIVES {
        tracing::error!(?job, ?schedule, event, ?target, attempt, receives, %err, "webhook message given up: it goes to the dead-letter queue");
    } else {
        tracing::warn!(?job, ?schedule, event, ?target, attempt, receives, %err, "webhook message will be retried");
    }
}
