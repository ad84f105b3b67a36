use axum::extract::State;
use axum::http::header::LOCATION;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kr_contract::jobs::{CreatedJobView, JobView};
use kr_contract::query_params::paging_parameters;
use kr_core::domain::{JobId, UserId};
use kr_core::service::jobs::{self, CreateJobRequest};
use kr_http::error::ErrorBody;
use kr_http::extract::{viewable_job, CurrentUser, JobRequestBody, PathParams, Query, Viewer};
use kr_http::ApiError;
use kr_http::API_PREFIX;
use serde::Serialize;
use utoipa::openapi::path::{Parameter, ParameterIn};
use utoipa::{IntoParams, ToSchema};

use crate::JobsState;

pub const DEFAULT_PAGE: u32 = 20;
pub const MAX_PAGE: u32 = 100;

/// The paging of `GET /jobs`, documented from the constants it is read with.
pub struct ListQuery;

impl IntoParams for ListQuery {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        paging_parameters("Jobs", MAX_PAGE, DEFAULT_PAGE).to_vec()
    }
}

#[derive(Serialize, ToSchema)]
pub struct CreatedJobEnvelope {
    pub job: CreatedJobView,
}

#[derive(Serialize, ToSchema)]
pub struct JobEnvelope {
    job: JobView,
}

#[derive(Serialize, ToSchema)]
pub struct JobList {
    jobs: Vec<JobView>,
    /// Jobs matching `status` (all jobs without it).
    total: u64,
    limit: u32,
    offset: u32,
}

pub(crate) fn parse_job_id(raw: &str) -> Result<JobId, ApiError> {
    raw.parse().map_err(|_| ApiError::not_found("Job"))
}

/// Creates a job and starts its pipeline; consumes one run.
///
/// Checks, in order: authentication (401), body (400), runs (402), domain allowance (403).
/// A new primary domain lowers `domains_balance` by one; later jobs on it do not.
/// With an `Idempotency-Key` header, a retried request within 24 hours returns the first
/// response without charging again; the same key with a different body is refused (400).
#[utoipa::path(
    post,
    path = "/api/v1/jobs",
    tag = "jobs",
    request_body = kr_contract::job_request::CreateJobRequest,
    params(("Idempotency-Key" = Option<String>, Header, nullable = false, min_length = 1, max_length = 255, pattern = "^[!-~](?:[ -~]{0,253}[!-~])?$",
        description = "Makes retries safe: 1 to 255 printable ASCII characters (spaces inside only), kept 24 hours")),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 201, description = "Created; `Location: /api/v1/jobs/{id}`", body = CreatedJobEnvelope),
        (status = 400, description = "Validation failed", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 402, description = "No runs left (`insufficient_credits`)", body = ErrorBody),
        (status = 403, description = "Domain allowance used up (`domain_limit_reached`), or a cross-origin cookie request", body = ErrorBody),
        (status = 413, description = "Body over 64 KiB (1 MiB with `keywords`)", body = ErrorBody),
    )
)]
pub async fn create(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    headers: HeaderMap,
    JobRequestBody(body): JobRequestBody,
) -> Result<Response, ApiError> {
    let request = CreateJobRequest::parse(&body.0).map_err(ApiError::validation)?;
    crate::keyword_lists::check_property(&state, principal.user_id, &request).await?;
    create_parsed(&state, principal.user_id, &headers, request).await
}

/// Creates the job of a parsed request: the part `POST /jobs` and `POST /jobs/import` share.
pub async fn create_parsed(
    state: &JobsState,
    owner: UserId,
    headers: &HeaderMap,
    request: CreateJobRequest,
) -> Result<Response, ApiError> {
    let idempotency_key = match headers.get("idempotency-key") {
        None => None,
        Some(value) => Some(
            value
                .to_str()
                .map_err(|_| "must be printable ASCII".to_string())
                .and_then(jobs::parse_idempotency_key)
                .map_err(|message| ApiError::field("Idempotency-Key", message))?,
        ),
    };
    let callback_key = match &request.callback_url {
        Some(_) => Some(state.signing.key().await?),
        None => None,
    };
    let created = jobs::create_job(
        &jobs::JobPorts {
            jobs: state.jobs.as_ref(),
            queue: state.queue.as_ref(),
            artifacts: state.artifacts.as_ref(),
            removals: state.objects.as_ref(),
        },
        owner,
        request,
        idempotency_key,
        callback_key,
    )
    .await?;
    let location = format!("{API_PREFIX}/jobs/{}", created.id);
    Ok((
        StatusCode::CREATED,
        [(LOCATION, location)],
        Json(CreatedJobEnvelope {
            job: CreatedJobView::from(&created),
        }),
    )
        .into_response())
}

/// Lists the current user's jobs, newest first.
#[utoipa::path(
    get,
    path = "/api/v1/jobs",
    tag = "jobs",
    params(
        ListQuery,
        ("status" = Option<kr_contract::domain::JobStatus>, Query, description = "Only jobs with this status"),
    ),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "A page of jobs", body = JobList),
        (status = 400, description = "Invalid query parameter", body = ErrorBody),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
    )
)]
pub async fn list(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    Query(query): Query,
) -> Result<Json<JobList>, ApiError> {
    let (limit, offset) = query.paging(MAX_PAGE, DEFAULT_PAGE)?;
    let status = query.job_status()?;
    let page = state
        .jobs
        .list_jobs(principal.user_id, status, limit, offset)
        .await?;
    Ok(Json(JobList {
        jobs: page.jobs.iter().map(JobView::from).collect(),
        total: page.total,
        limit,
        offset,
    }))
}

/// A job with its status and progress; `keywordCount` once it is completed or failed.
/// Readable by its owner, and by anyone for a demo job; everyone else gets 404.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}",
    tag = "jobs",
    params(("jobId" = String, Path, format = Uuid)),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The job", body = JobEnvelope),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
    )
)]
pub async fn get(
    State(state): State<JobsState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
) -> Result<Json<JobEnvelope>, ApiError> {
    let job = viewable_job(state.jobs.as_ref(), &state.config, viewer, &job_id).await?;
    Ok(Json(JobEnvelope {
        job: JobView::from(&job),
    }))
}

/// Deletes a job and all its results; a running pipeline stops. Owner only; refunds nothing.
#[utoipa::path(
    delete,
    path = "/api/v1/jobs/{jobId}",
    tag = "jobs",
    params(("jobId" = String, Path, format = Uuid)),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 204, description = "Deleted"),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
    )
)]
pub async fn delete(
    State(state): State<JobsState>,
    CurrentUser(principal): CurrentUser,
    PathParams([job_id]): PathParams<1>,
) -> Result<StatusCode, ApiError> {
    let id = parse_job_id(&job_id)?;
    if jobs::delete_job(
        state.jobs.as_ref(),
        state.objects.as_ref(),
        principal.user_id,
        id,
    )
    .await?
    {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::not_found("Job"))
    }
}
