//! Read-only share links to a job's results: `POST`/`GET /jobs/{jobId}/share-links` and
//! `DELETE /jobs/{jobId}/share-links/{linkId}`. The page a link opens is the web function's
//! `/share/{token}`.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::Json;
use chrono::{DateTime, Utc};
use kr_core::domain::{ShareLifetime, ShareLink, ShareLinkId, SharedTab, SharedTabs};
use kr_core::service::share_links;
use kr_http::absolute_url::absolute_url;
use kr_http::error::{ErrorBody, FieldError};
use kr_http::extract::{CurrentUser, JsonBody, PathParams};
use kr_http::routes::share_page;
use kr_http::ApiError;
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

use crate::handlers::parse_job_id;
use crate::JobsState;

// Documents the body and is what parsing it yields, so the two cannot drift.
/// The body of `POST /jobs/{jobId}/share-links`; both fields are optional.
#[derive(ToSchema)]
#[schema(rename_all = "camelCase")]
pub struct CreateShareLinkRequest {
    /// The tabs the link shows, each once (default: keywords, clusters, plan, personas and
    /// overview; `changes`, which reads the account's earlier runs of the domain, and
    /// `search_console`, the job's Search Console data, only when chosen).
    #[schema(value_type = Option<Vec<kr_contract::domain::SharedTab>>, min_items = 1,
        example = json!(["keywords", "plan", "overview"]))]
    tabs: SharedTabs,
    /// Days until the link stops working: 1 to 365, default 30.
    #[schema(value_type = Option<i64>, minimum = 1, maximum = 365, example = 30)]
    expires_in_days: ShareLifetime,
}

impl CreateShareLinkRequest {
    /// Every field's problem at once, as `POST /jobs` reports them.
    fn parse(body: &JsonBody) -> Result<Self, ApiError> {
        let tabs = match body.get("tabs") {
            None => Ok(SharedTabs::shared_by_default()),
            Some(Value::Array(items)) => items
                .iter()
                .map(|item| item.as_str().and_then(SharedTab::parse))
                .collect::<Option<Vec<SharedTab>>>()
                .and_then(SharedTabs::new)
                .ok_or("must list one or more of keywords, clusters, plan, personas, overview, changes, search_console"),
            Some(_) => Err("must be an array"),
        };
        let expires_in_days = match body.get("expiresInDays") {
            None => Some(ShareLifetime::default()),
            // JSON Schema's integers include `30.0`.
            Some(value) => value
                .as_i64()
                .or_else(|| {
                    value
                        .as_f64()
                        .filter(|days| days.fract() == 0.0 && days.abs() <= 1e6)
                        .map(|days| days as i64)
                })
                .and_then(ShareLifetime::days),
        };
        match (tabs, expires_in_days) {
            (Ok(tabs), Some(expires_in_days)) => Ok(Self {
                tabs,
                expires_in_days,
            }),
            (tabs, expires_in_days) => {
                let mut fields = Vec::new();
                if let Err(message) = tabs {
                    fields.push(FieldError::new("tabs", message));
                }
                if expires_in_days.is_none() {
                    fields.push(FieldError::new(
                        "expiresInDays",
                        format!(
                            "must be a whole number of days from 1 to {}",
                            ShareLifetime::MAX_DAYS
                        ),
                    ));
                }
                Err(ApiError::validation(fields))
            }
        }
    }
}

/// A share link as listed: never its token, which only the response to its creation holds.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareLinkView {
    #[schema(value_type = String, format = Uuid)]
    id: ShareLinkId,
    #[schema(value_type = Vec<kr_contract::domain::SharedTab>, example = json!(["keywords", "plan"]))]
    tabs: SharedTabs,
    created_at: DateTime<Utc>,
    expires_at: DateTime<Utc>,
}

impl From<&ShareLink> for ShareLinkView {
    fn from(link: &ShareLink) -> Self {
        Self {
            id: link.id,
            tabs: link.tabs.clone(),
            created_at: link.created_at,
            expires_at: link.expires_at,
        }
    }
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreatedShareLink {
    #[serde(flatten)]
    link: ShareLinkView,
    /// The link to give the client, shown this once: only its token's hash is stored. Absolute
    /// on the host the request was sent to (where the dashboard is served).
    #[schema(example = "https://app.example.com/share/3q2N…")]
    url: String,
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareLinkList {
    /// The job's live links, newest first (revoked and expired ones are gone).
    share_links: Vec<ShareLinkView>,
}

/// Creates a read-only link to a completed job's results for someone without an account. The
/// link shows the chosen tabs of this job only: no account, balances or other jobs.
#[utoipa::path(
    post,
    path = "/api/v1/jobs/{jobId}/share-links",
    tag = "sharing",
    params(("jobId" = String, Path, format = Uuid)),
    request_body = CreateShareLinkRequest,
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 201, description = "Created; `url` is shown this once", body = CreatedShareLink),
        (status = 400, description = "Invalid tabs or expiry", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "The job has 20 live share links already", body = ErrorBody),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
        (status = 409, description = "The job has not completed", body = ErrorBody),
        (status = 413, description = "Body over 64 KiB", body = ErrorBody),
    )
)]
pub async fn create(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    PathParams([job_id]): PathParams<1>,
    headers: HeaderMap,
    // Read after the path, so an id that is no job is the 404 of any unknown id, whatever the body.
    body: Result<JsonBody, ApiError>,
) -> Result<(StatusCode, Json<CreatedShareLink>), ApiError> {
    let job_id = parse_job_id(&job_id)?;
    let request = CreateShareLinkRequest::parse(&body?)?;
    let (link, token) = share_links::create_share_link(
        state.jobs.as_ref(),
        state.share_links.as_ref(),
        principal.user_id,
        job_id,
        request.tabs,
        request.expires_in_days,
        Utc::now(),
    )
    .await?;
    Ok((
        StatusCode::CREATED,
        Json(CreatedShareLink {
            link: ShareLinkView::from(&link),
            url: absolute_url(&headers, &share_page(token.expose())),
        }),
    ))
}

/// Lists a job's live share links, without their tokens.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/share-links",
    tag = "sharing",
    params(("jobId" = String, Path, format = Uuid)),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The links", body = ShareLinkList),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    PathParams([job_id]): PathParams<1>,
) -> Result<Json<ShareLinkList>, ApiError> {
    let links = share_links::list_share_links(
        state.jobs.as_ref(),
        state.share_links.as_ref(),
        principal.user_id,
        parse_job_id(&job_id)?,
        Utc::now(),
    )
    .await?;
    Ok(Json(ShareLinkList {
        share_links: links.iter().map(ShareLinkView::from).collect(),
    }))
}

/// Revokes a share link: its URL answers 404 from now on.
#[utoipa::path(
    delete,
    path = "/api/v1/jobs/{jobId}/share-links/{linkId}",
    tag = "sharing",
    params(
        ("jobId" = String, Path, format = Uuid),
        ("linkId" = String, Path, format = Uuid, description = "The link's id (not its token)"),
    ),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 204, description = "Revoked"),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 404, description = "No such job or link, or not yours", body = ErrorBody),
    )
)]
pub async fn revoke(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    PathParams([job_id, link_id]): PathParams<2>,
) -> Result<StatusCode, ApiError> {
    let job_id = parse_job_id(&job_id)?;
    let link_id: ShareLinkId = link_id
        .parse()
        .map_err(|_| ApiError::not_found("Share link"))?;
    if share_links::revoke_share_link(
        state.jobs.as_ref(),
        state.share_links.as_ref(),
        principal.user_id,
        job_id,
        link_id,
    )
    .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("Share link"))
    }
}
