//! `/webhooks`: an account's endpoints for job and schedule events, and their delivery log.

use axum::extract::State;
use axum::http::StatusCode;
use axum::Json;
use kr_contract::webhooks::{DeliveryView, WebhookView};
use kr_core::domain::WebhookId;
use kr_core::service::webhooks::{
    check_endpoint, create_webhook, CreateWebhookError, NewWebhookRequest, DELIVERIES_LISTED,
    MAX_WEBHOOKS,
};
use kr_core::validation::FieldError;
use kr_http::error::ErrorBody;
use kr_http::extract::{CurrentUser, JsonBody, PathParams};
use kr_http::ApiError;
use serde::Serialize;
use utoipa::ToSchema;

use crate::AccountState;

/// The body of `POST /webhooks`.
#[derive(ToSchema)]
// Only documents the body: `NewWebhookRequest::parse` reads it, naming each field's errors.
#[allow(dead_code)]
pub struct CreateWebhookRequest {
    /// Required: an absolute `http` or `https` URL, at most 2,048 characters, on port 80 or
    /// 443, without credentials. Deliveries never go to private, loopback or link-local
    /// addresses (checked when connecting) and never follow redirects.
    #[schema(
        example = "https://hooks.example.com/keyword-research",
        min_length = 1,
        max_length = 2048
    )]
    url: String,
    /// Optional, default every event (`job.completed`, `job.failed`, `job.changes`,
    /// `schedule.run_skipped`): the events to send.
    #[schema(min_items = 1)]
    events: Option<Vec<kr_contract::domain::WebhookEvent>>,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedWebhook {
    webhook: WebhookView,
    /// The signing secret (Standard Webhooks, `whsec_` and base64), shown this once.
    #[schema(example = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw")]
    secret: String,
}

#[derive(Serialize, ToSchema)]
pub struct WebhookList {
    webhooks: Vec<WebhookView>,
}

#[derive(Serialize, ToSchema)]
pub struct DeliveryList {
    /// The latest attempts, newest first (at most 100, kept 30 days).
    deliveries: Vec<DeliveryView>,
}

fn parse_webhook_id(raw: &str) -> Result<WebhookId, ApiError> {
    raw.parse().map_err(|_| ApiError::not_found("Webhook"))
}

/// Adds an endpoint that is told when the account's jobs complete or fail, what changed after
/// each scheduled run, and when a schedule skips a run. Every event is POSTed as JSON
/// `{"type", "timestamp", "data"}`: `data` is `{"job": …}` for `job.completed` and
/// `job.failed`; `{"job": …, "changes": {"since", "summary", "counts", "volumesCompared",
/// "searchConsoleCompared", "topMovers", "aiCitationsCompared", "aiCitationsGained",
/// "aiCitationsLost"}}` for `job.changes`, sent after a scheduled run completes (`since` is
/// the run compared with, `null` for a schedule's first run; the same figures as
/// `GET /jobs/{jobId}/changes`, `topMovers` its first 5 `searchConsoleMoves`, the AI
/// citation lists their first 5 each, `counts` whole); and
/// `{"scheduleId", "slot", "reason"}` for `schedule.run_skipped`, once per skipped slot. With
/// the Standard Webhooks headers `webhook-id` (the same for every retry of one event), `webhook-timestamp` and
/// `webhook-signature` (`v1,` base64 HMAC-SHA256 of `{id}.{timestamp}.{body}` with the
/// secret). A 2xx within 10 seconds is delivered; anything else is retried after 30 s, 2 min,
/// 10 min and then every 15 min, 7 attempts over about an hour. At most 10 per account.
#[utoipa::path(
    post,
    path = "/api/v1/webhooks",
    tag = "webhooks",
    request_body = CreateWebhookRequest,
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 201, description = "Created; the secret is in this answer only", body = CreatedWebhook),
        (status = 400, description = "Invalid URL or events", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 413, description = "Body over 64 KiB", body = ErrorBody),
        (status = 403, description = "The account has 10 webhooks already, or a cross-origin cookie request", body = ErrorBody),
    )
)]
pub async fn create(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
    body: JsonBody,
) -> Result<(StatusCode, Json<CreatedWebhook>), ApiError> {
    let request = NewWebhookRequest::parse(&body.0).map_err(ApiError::validation)?;
    check_endpoint(&request.url)
        .map_err(|message| ApiError::validation(vec![FieldError::new("url", message)]))?;
    let key = state.signing.key().await?;
    match create_webhook(state.webhooks.as_ref(), key, principal.user_id, request).await {
        Ok((webhook, secret)) => Ok((
            StatusCode::CREATED,
            Json(CreatedWebhook {
                webhook: WebhookView::from(&webhook),
                secret,
            }),
        )),
        Err(CreateWebhookError::LimitReached) => Err(ApiError::forbidden(format!(
            "This account has {MAX_WEBHOOKS} webhooks, the most it may have; delete one first."
        ))),
        Err(CreateWebhookError::Store(err)) => Err(err.into()),
    }
}

/// The account's webhooks, oldest first (without their secrets).
#[utoipa::path(
    get,
    path = "/api/v1/webhooks",
    tag = "webhooks",
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The webhooks", body = WebhookList),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
) -> Result<Json<WebhookList>, ApiError> {
    let webhooks = state.webhooks.list_webhooks(principal.user_id).await?;
    Ok(Json(WebhookList {
        webhooks: webhooks.iter().map(WebhookView::from).collect(),
    }))
}

/// Removes a webhook; deliveries already queued for it are dropped.
#[utoipa::path(
    delete,
    path = "/api/v1/webhooks/{webhookId}",
    tag = "webhooks",
    params(("webhookId" = String, Path, format = Uuid)),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 404, description = "No such webhook, or not yours", body = ErrorBody),
    )
)]
pub async fn delete(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
    PathParams([webhook_id]): PathParams<1>,
) -> Result<StatusCode, ApiError> {
    let id = parse_webhook_id(&webhook_id)?;
    if state.webhooks.delete_webhook(principal.user_id, id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("Webhook"))
    }
}

/// A webhook's delivery attempts, newest first: the status code or error of each, how long it
/// took and when the next try is due.
#[utoipa::path(
    get,
    path = "/api/v1/webhooks/{webhookId}/deliveries",
    tag = "webhooks",
    params(("webhookId" = String, Path, format = Uuid)),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The latest attempts", body = DeliveryList),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 404, description = "No such webhook, or not yours", body = ErrorBody),
    )
)]
pub async fn deliveries(
    State(state): State<AccountState>,
    CurrentUser(principal): CurrentUser,
    PathParams([webhook_id]): PathParams<1>,
) -> Result<Json<DeliveryList>, ApiError> {
    let id = parse_webhook_id(&webhook_id)?;
    if state
        .webhooks
        .webhook(principal.user_id, id)
        .await?
        .is_none()
    {
        return Err(ApiError::not_found("Webhook"));
    }
    let attempts = state.webhooks.deliveries(id, DELIVERIES_LISTED).await?;
    Ok(Json(DeliveryList {
        deliveries: attempts.iter().map(DeliveryView::from).collect(),
    }))
}
