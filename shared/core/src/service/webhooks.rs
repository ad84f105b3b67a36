//! Webhook use cases: an account's endpoints, their delivery log, the events jobs raise and
//! when a failed delivery is tried again.

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use chrono::{DateTime, Utc};
use serde_json::{Map, Value};

use super::webhook_signing::SigningKey;
use crate::domain::{Job, JobChange, JobId, Progress, UserId, WebhookEvent, WebhookId, WebhookUrl};
use crate::store::{
    CreateWebhookOutcome, EventSubject, JobTransitions, OwedEvent, OwedEvents, SkippedRun,
    StageClaim, StoreError, Transition, UsageDelta, Webhook, WebhookMessage, WebhookQueue,
    WebhookStore,
};
use crate::validation::FieldError;

/// Webhooks one account may have.
pub const MAX_WEBHOOKS: usize = 10;
/// Delivery attempts `GET /webhooks/{id}/deliveries` lists.
pub const DELIVERIES_LISTED: u32 = 100;

/// The checks of an endpoint that can be made before connecting: ports 80 and 443 only, and
/// no literal private, loopback or link-local address (where a name points is checked by the
/// delivering client when it connects).
pub fn check_endpoint(url: &WebhookUrl) -> Result<(), String> {
    let parsed =
        url::Url::parse(url.as_str()).map_err(|_| "must be an absolute http(s) URL".to_string())?;
    match parsed.port_or_known_default() {
        Some(80 | 443) => {}
        _ => return Err("must use port 80 or 443".into()),
    }
    let literal = match parsed.host() {
        Some(url::Host::Ipv4(ip)) => Some(std::net::IpAddr::V4(ip)),
        Some(url::Host::Ipv6(ip)) => Some(std::net::IpAddr::V6(ip)),
        _ => None,
    };
    if literal.is_some_and(|ip| !crate::address::is_public_ip(ip)) {
        return Err("must not point at a private, loopback or link-local address".into());
    }
    Ok(())
}

/// A webhook as requested: a URL and the events it wants (default: all).
#[derive(Debug, Clone)]
pub struct NewWebhookRequest {
    pub url: WebhookUrl,
    pub events: Vec<WebhookEvent>,
}

impl NewWebhookRequest {
    pub fn parse(body: &Map<String, Value>) -> Result<Self, Vec<FieldError>> {
        let mut errors = Vec::new();
        let url = match body.get("url").filter(|v| !v.is_null()) {
            None => Err("is required".to_string()),
            Some(Value::String(raw)) => WebhookUrl::parse(raw),
            Some(_) => Err("must be a string".to_string()),
        }
        .map_err(|message| errors.push(FieldError::new("url", message)))
        .ok();
        let mut events = Vec::new();
        match body.get("events").filter(|v| !v.is_null()) {
            None => events = WebhookEvent::ALL.to_vec(),
            Some(Value::Array(items)) if !items.is_empty() => {
                for (index, item) in items.iter().enumerate() {
                    match item.as_str().map(str::parse::<WebhookEvent>) {
                        Some(Ok(event)) if !events.contains(&event) => events.push(event),
                        Some(Ok(_)) => {}
                        Some(Err(message)) => {
                            errors.push(FieldError::new(format!("events[{index}]"), message))
                        }
                        None => errors.push(FieldError::new(
                            format!("events[{index}]"),
                            "must be a string",
                        )),
                    }
                }
            }
            Some(_) => errors.push(FieldError::new(
                "events",
                format!("must be a non-empty array of {}", WebhookEvent::NAMES),
            )),
        }
        match url {
            Some(url) if errors.is_empty() => Ok(Self { url, events }),
            _ => Err(errors),
        }
    }
}

#[derive(Debug)]
pub enum CreateWebhookError {
    LimitReached,
    Store(StoreError),
}

/// Stores a webhook and returns it with its signing secret, which is never shown again.
pub async fn create_webhook(
    store: &dyn WebhookStore,
    key: &SigningKey,
    owner: UserId,
    request: NewWebhookRequest,
) -> Result<(Webhook, String), CreateWebhookError> {
    let webhook = Webhook {
        id: WebhookId::new(),
        owner,
        url: request.url,
        events: request.events,
        created_at: Utc::now(),
    };
    match store
        .create_webhook(&webhook, MAX_WEBHOOKS)
        .await
        .map_err(CreateWebhookError::Store)?
    {
        CreateWebhookOutcome::Created => {
            let secret = key.webhook_secret(webhook.id).reveal();
            Ok((webhook, secret))
        }
        CreateWebhookOutcome::LimitReached => Err(CreateWebhookError::LimitReached),
    }
}

/// When failed deliveries are tried again: the waits after the first, second… attempt. SQS
/// delays at most 15 minutes, so no single wait is longer.
#[derive(Debug, Clone, PartialEq)]
pub struct RetrySchedule(Vec<Duration>);

impl Default for RetrySchedule {
    /// Seven attempts over about an hour: 30 s, 2 min, 10 min, then every 15 min.
    fn default() -> Self {
        Self(
            [30, 120, 600, 900, 900, 900]
                .map(Duration::from_secs)
                .to_vec(),
        )
    }
}

impl RetrySchedule {
    /// `KR_WEBHOOK_RETRY_DELAYS`: comma-separated seconds, each 0 to 900.
    pub fn from_vars(lookup: impl Fn(&str) -> Option<String>) -> Result<Self, String> {
        let Some(raw) = lookup("KR_WEBHOOK_RETRY_DELAYS") else {
            return Ok(Self::default());
        };
        raw.split(',')
            .map(|item| {
                item.trim()
                    .parse::<u64>()
                    .ok()
                    .filter(|seconds| *seconds <= 900)
                    .map(Duration::from_secs)
                    .ok_or_else(|| {
                        "KR_WEBHOOK_RETRY_DELAYS must be comma-separated seconds, each 0 to 900"
                            .to_string()
                    })
            })
            .collect::<Result<Vec<_>, _>>()
            .map(Self)
    }

    /// One attempt only.
    pub fn none() -> Self {
        Self(Vec::new())
    }

    /// The wait before attempt `attempt + 1`; `None` once `attempt` was the last.
    pub fn after(&self, attempt: u32) -> Option<Duration> {
        self.0.get(attempt.checked_sub(1)? as usize).copied()
    }

    pub fn attempts(&self) -> usize {
        self.0.len() + 1
    }
}

/// Where jobs say they finished, and schedules that a run was skipped.
#[async_trait]
pub trait JobEvents: Send + Sync {
    async fn job_finished(&self, job: JobId, event: WebhookEvent) -> Result<(), StoreError>;
    async fn run_skipped(&self, run: SkippedRun) -> Result<(), StoreError>;
}

/// Sends finished jobs' events to the webhooks queue.
pub struct QueuedJobEvents(pub Arc<dyn WebhookQueue>);

#[async_trait]
impl JobEvents for QueuedJobEvents {
    async fn job_finished(&self, job: JobId, event: WebhookEvent) -> Result<(), StoreError> {
        self.0.send(&WebhookMessage::for_job(job, event), 0).await
    }

    async fn run_skipped(&self, run: SkippedRun) -> Result<(), StoreError> {
        self.0.send(&WebhookMessage::for_skipped_run(run), 0).await
    }
}

/// Owed events and the outbox that keeps each until it is sent: the write that finishes a
/// job records its event as owed (a tick records a skipped run's right after the run), the
/// event is sent, and only then settled. An event whose send was lost (an error, a worker
/// that died after the write) stays owed, and the sweeper raises it again
/// ([`EventOutbox::raise_overdue`]).
pub struct EventOutbox {
    pub events: Arc<dyn JobEvents>,
    pub owed: Arc<dyn OwedEvents>,
}

/// Owed events raised again by one sweep at most.
pub const OVERDUE_EVENTS_PER_SWEEP: u32 = 100;

impl EventOutbox {
    async fn send(&self, owed: &OwedEvent) -> Result<(), StoreError> {
        match &owed.subject {
            EventSubject::Job { job_id } => self.events.job_finished(*job_id, owed.event).await,
            EventSubject::SkippedRun(run) => self.events.run_skipped(run.clone()).await,
        }
    }

    /// Sends `owed`, then settles it. A failure leaves it owed.
    pub async fn raise(&self, owed: &OwedEvent) -> Result<(), StoreError> {
        self.send(owed).await?;
        self.owed.settle_event(owed).await
    }

    /// Records `owed` (an event no job transition writes), then raises it. Once recorded, a
    /// failed send is the sweeper's to make again; unrecorded, it is still sent, once.
    pub async fn owe_and_raise(&self, owed: &OwedEvent) -> Result<(), StoreError> {
        match self.owed.owe_event(owed).await {
            Ok(()) => self.raise(owed).await,
            Err(err) => {
                tracing::error!(subject = ?owed.subject, event = %owed.event.as_str(), %err, "an event was not recorded as owed; a failed send will not be made again");
                self.send(owed).await
            }
        }
    }

    /// Raises every event still owed from before `before` (the finishing worker had its
    /// chance to send it). Sent twice at worst (the worker's send arrived, its settle did
    /// not): the notifier's `webhook-id` is the same for both, so receivers drop the repeat.
    /// Returns how many were raised.
    pub async fn raise_overdue(&self, before: DateTime<Utc>) -> Result<usize, StoreError> {
        let overdue = self
            .owed
            .owed_events(before, OVERDUE_EVENTS_PER_SWEEP)
            .await?;
        let mut raised = 0;
        for owed in &overdue {
            match self.raise(owed).await {
                Ok(()) => raised += 1,
                // The next sweep tries again.
                Err(err) => {
                    tracing::warn!(subject = ?owed.subject, event = %owed.event.as_str(), %err, "an owed webhook event was not sent")
                }
            }
        }
        Ok(raised)
    }
}

/// Job transitions that raise an event when a job finishes. Only the write that finishes a
/// job does (a duplicate or stale one is superseded and raises nothing), whichever path
/// finished it: a stage, a failure, the sweeper. The store records the event as owed in
/// that same write; a send that fails here is logged, never fails the job, and is left to
/// the sweeper.
pub struct NotifyingTransitions {
    pub inner: Arc<dyn JobTransitions>,
    pub outbox: Arc<EventOutbox>,
}

#[async_trait]
impl JobTransitions for NotifyingTransitions {
    async fn apply(&self, current: &Job, change: JobChange) -> Result<Transition, StoreError> {
        let owed_event = change.owed_event(current);
        let transition = self.inner.apply(current, change).await?;
        if let (Some(event), Transition::Applied(job)) = (owed_event, &transition) {
            let owed = OwedEvent {
                subject: EventSubject::Job { job_id: job.id },
                event,
                owed_since: job.completed_at.unwrap_or_else(Utc::now),
            };
            if let Err(err) = self.outbox.raise(&owed).await {
                tracing::error!(job = %job.id, %err, "the job's webhook event was not sent; the sweeper will");
            }
        }
        Ok(transition)
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

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;
    use std::sync::Mutex;

    /// An outbox and a queue in memory, each failing when told to.
    #[derive(Default)]
    struct Memory {
        owed: Mutex<Vec<OwedEvent>>,
        sent: Mutex<Vec<OwedEvent>>,
        owing_fails: bool,
        sending_fails: bool,
    }

    fn fail() -> Result<(), StoreError> {
        Err(StoreError::new("injected"))
    }

    #[async_trait]
    impl OwedEvents for Memory {
        async fn owe_event(&self, owed: &OwedEvent) -> Result<(), StoreError> {
            if self.owing_fails {
                return fail();
            }
            self.owed.lock().unwrap().push(owed.clone());
            Ok(())
        }
        async fn owed_events(
            &self,
            _: DateTime<Utc>,
            _: u32,
        ) -> Result<Vec<OwedEvent>, StoreError> {
            Ok(self.owed.lock().unwrap().clone())
        }
        async fn settle_event(&self, owed: &OwedEvent) -> Result<(), StoreError> {
            self.owed.lock().unwrap().retain(|o| o != owed);
            Ok(())
        }
    }

    #[async_trait]
    impl JobEvents for Memory {
        async fn job_finished(&self, _: JobId, _: WebhookEvent) -> Result<(), StoreError> {
            unreachable!("a skipped run's event only")
        }
        async fn run_skipped(&self, run: SkippedRun) -> Result<(), StoreError> {
            if self.sending_fails {
                return fail();
            }
            self.sent.lock().unwrap().push(OwedEvent {
                subject: EventSubject::SkippedRun(run),
                event: WebhookEvent::ScheduleRunSkipped,
                owed_since: Utc::now(),
            });
            Ok(())
        }
    }

    fn skipped_run() -> OwedEvent {
        OwedEvent {
            subject: EventSubject::SkippedRun(SkippedRun {
                owner: UserId::new(),
                schedule_id: crate::domain::ScheduleId::new(),
                slot: Utc::now(),
                reason: "the account has no runs left".into(),
            }),
            event: WebhookEvent::ScheduleRunSkipped,
            owed_since: Utc::now(),
        }
    }

    fn outbox(memory: &Arc<Memory>) -> EventOutbox {
        EventOutbox {
            events: memory.clone(),
            owed: memory.clone(),
        }
    }

    #[tokio::test]
    async fn a_skipped_runs_event_stays_owed_until_sent_and_is_sent_even_unrecorded() {
        let owed = skipped_run();
        let failing = Arc::new(Memory {
            sending_fails: true,
            ..Memory::default()
        });
        assert!(outbox(&failing).owe_and_raise(&owed).await.is_err());
        assert_eq!(
            *failing.owed.lock().unwrap(),
            std::slice::from_ref(&owed),
            "left owed"
        );

        let sent = Arc::new(Memory::default());
        outbox(&sent).owe_and_raise(&owed).await.unwrap();
        assert!(sent.owed.lock().unwrap().is_empty(), "settled");
        assert_eq!(sent.sent.lock().unwrap().len(), 1);

        let unrecorded = Arc::new(Memory {
            owing_fails: true,
            ..Memory::default()
        });
        outbox(&unrecorded).owe_and_raise(&owed).await.unwrap();
        assert_eq!(
            unrecorded.sent.lock().unwrap().len(),
            1,
            "sent all the same"
        );
    }

    #[test]
    fn requests_default_to_every_event_and_name_bad_ones() {
        let body = |v: Value| v.as_object().unwrap().clone();
        let parsed =
            NewWebhookRequest::parse(&body(json!({"url": "https://h.example.com/x"}))).unwrap();
        assert_eq!(parsed.events, WebhookEvent::ALL);
        let errors =
            NewWebhookRequest::parse(&body(json!({"url": "ftp://x", "events": ["job.done", 3]})))
                .unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field.as_str()).collect();
        assert_eq!(fields, ["url", "events[0]", "events[1]"]);
        assert!(NewWebhookRequest::parse(&body(
            json!({"url": "https://h.example.com", "events": []})
        ))
        .is_err());
    }

    #[test]
    fn retries_follow_the_schedule_and_stop() {
        let schedule = RetrySchedule::default();
        assert_eq!(schedule.after(1), Some(Duration::from_secs(30)));
        assert_eq!(schedule.after(6), Some(Duration::from_secs(900)));
        assert_eq!(schedule.after(7), None);
        assert_eq!(schedule.attempts(), 7);
        let quick = RetrySchedule::from_vars(|_| Some("1, 2".into())).unwrap();
        assert_eq!(quick.after(2), Some(Duration::from_secs(2)));
        assert!(RetrySchedule::from_vars(|_| Some("901".into())).is_err());
    }
}
