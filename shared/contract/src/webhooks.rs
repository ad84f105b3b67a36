//! What the webhooks API answers of an endpoint and of a delivery attempt, built from the
//! stored records (`From`). Core types they hold are documented by their mirrors in
//! [`crate::domain`].

use chrono::{DateTime, Utc};
use kr_core::domain::{WebhookEvent, WebhookId};
use kr_core::store::{DeliveryAttempt, Webhook};
use serde::Serialize;
use utoipa::ToSchema;

/// An endpoint as the API shows it (its secret only once, at creation).
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebhookView {
    #[schema(value_type = crate::domain::WebhookId)]
    pub id: WebhookId,
    #[schema(example = "https://hooks.example.com/keyword-research")]
    pub url: String,
    #[schema(value_type = Vec<crate::domain::WebhookEvent>)]
    pub events: Vec<WebhookEvent>,
    #[serde(with = "kr_core::time")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: DateTime<Utc>,
}

impl From<&Webhook> for WebhookView {
    fn from(webhook: &Webhook) -> Self {
        Self {
            id: webhook.id,
            url: webhook.url.to_string(),
            events: webhook.events.clone(),
            created_at: webhook.created_at,
        }
    }
}

/// One delivery attempt as the API shows it.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryView {
    /// The `webhook-id` header sent: the same for every attempt of one event.
    pub message_id: String,
    #[schema(value_type = crate::domain::WebhookEvent)]
    pub event: WebhookEvent,
    /// The job of a `job.*` event; `null` for a `schedule.*` event.
    #[schema(value_type = Option<String>, format = Uuid, required = true)]
    pub job_id: Option<String>,
    /// The schedule of a `schedule.*` event or of a scheduled job's event; absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(value_type = String, format = Uuid)]
    pub schedule_id: Option<String>,
    /// 1 for the first try.
    pub attempt: u32,
    #[serde(with = "kr_core::time")]
    #[schema(value_type = String, format = DateTime)]
    pub attempted_at: DateTime<Utc>,
    pub duration_ms: u64,
    /// The receiver's HTTP status; `null` when no response came.
    pub status_code: Option<u16>,
    /// Why the attempt failed; `null` when it was delivered (2xx).
    pub error: Option<String>,
    /// When the next try is due; `null` once delivered or given up.
    #[serde(with = "kr_core::time::option")]
    #[schema(value_type = Option<String>, format = DateTime)]
    pub next_attempt_at: Option<DateTime<Utc>>,
}

impl From<&DeliveryAttempt> for DeliveryView {
    fn from(attempt: &DeliveryAttempt) -> Self {
        Self {
            message_id: attempt.message_id.clone(),
            event: attempt.event,
            job_id: attempt.job_id.map(|id| id.to_string()),
            schedule_id: attempt.schedule_id.map(|id| id.to_string()),
            attempt: attempt.attempt,
            attempted_at: attempt.at,
            duration_ms: attempt.duration_ms,
            status_code: attempt.status_code,
            error: attempt.error.clone(),
            next_attempt_at: attempt.next_attempt_at,
        }
    }
}
