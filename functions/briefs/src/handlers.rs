use axum::extract::State;
use axum::http::header::RETRY_AFTER;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kr_brief_maker::{markdown, Access, BriefError, BriefMaker};
use kr_core::dataset::JobResults;
use kr_core::domain::Job;
use kr_http::auth::AuthMethod;
use kr_http::error::{ErrorBody, ErrorCode};
use kr_http::extract::{self, CurrentUser, PathParams, Viewer};
use kr_http::ApiError;
use kr_query::Results;

use crate::BriefsState;

const MARKDOWN: &str = "text/markdown";

/// A writer's brief for one cluster of a completed job: its keywords, the intent and the
/// kind of page that ranks, the content plan's action, an outline merged from the H2/H3
/// headings of up to five ranking pages (read by our crawler: robots.txt obeyed), the
/// questions to answer, those pages' word counts and the terms most of them use that the
/// site's page lacks, and the site's pages to link with. `Accept: text/markdown` answers
/// Markdown.
///
/// Reads the brief once `POST` has made it: 404 before, for anyone who may see the job (a
/// demo job's visitors too). For scripts written before `POST` existed, the owner calling with
/// an API key (either header) still has it made here, as `POST` does; a session cookie
/// never does, so a link on another site cannot spend the job's briefs.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/clusters/{clusterId}/brief",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid), ("clusterId" = String, Path)),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The cluster's brief", content(
            (kr_contract::brief::ClusterBrief = "application/json"),
            (String = "text/markdown"),
        )),
        (status = 403, description = "Made by the owner's API key here: the job has had its bound of briefs made", body = ErrorBody),
        (status = 404, description = "No such job or cluster, or not yours; or the brief has not been made yet", body = ErrorBody),
        (status = 409, description = "The job has not completed yet (`job_not_ready`); or, made by the owner's API key here, another request is making this brief (`job_not_ready`, `Retry-After` seconds)", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds until the brief being made should be ready; only while it is being made"))),
    )
)]
pub async fn brief(
    State(state): State<BriefsState>,
    viewer: Viewer,
    headers: HeaderMap,
    PathParams([job_id, cluster_id]): PathParams<2>,
) -> Result<Response, Response> {
    let job = extract::viewable_job(state.jobs.as_ref(), &state.config, viewer, &job_id)
        .await
        .map_err(IntoResponse::into_response)?;
    // An API key is never attached by a browser on another site's behalf; a cookie is.
    let access = match viewer.0 {
        Some(principal)
            if principal.user_id == job.owner
                && matches!(principal.method, AuthMethod::ApiKey(_)) =>
        {
            Access::Make
        }
        _ => Access::Read,
    };
    answer(&state, &job, &cluster_id, access, &headers).await
}

/// Makes the brief of one cluster of your completed job (a few seconds: the ranking pages are
/// read once, and the brief is worded when a language model is configured), counts it against
/// the job's bound of briefs and stores it. Idempotent: a brief already made is answered as
/// it is, 200 either way, never counted or made again. While another request makes the same
/// brief, 409 with `Retry-After`. Only the job's owner: a demo job's visitors read briefs
/// with `GET`. A session cookie's request must come from our own origin.
#[utoipa::path(
    post,
    path = "/api/v1/jobs/{jobId}/clusters/{clusterId}/brief",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid), ("clusterId" = String, Path)),
    security(("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The cluster's brief, made now or before", content(
            (kr_contract::brief::ClusterBrief = "application/json"),
            (String = "text/markdown"),
        )),
        (status = 401, description = "No valid session or API key", body = ErrorBody),
        (status = 403, description = "The job has had its bound of briefs made; or a session cookie's request from another origin", body = ErrorBody),
        (status = 404, description = "No such job or cluster, or not yours", body = ErrorBody),
        (status = 409, description = "The job has not completed yet (`job_not_ready`); or another request is making this brief (`job_not_ready`, `Retry-After` seconds)", body = ErrorBody,
            headers(("Retry-After" = u64, description = "Seconds until the brief being made should be ready; only while it is being made"))),
    )
)]
pub async fn make_brief(
    State(state): State<BriefsState>,
    CurrentUser(principal): CurrentUser,
    headers: HeaderMap,
    PathParams([job_id, cluster_id]): PathParams<2>,
) -> Result<Response, Response> {
    let job = extract::viewable_job(
        state.jobs.as_ref(),
        &state.config,
        Viewer(Some(principal)),
        &job_id,
    )
    .await
    .map_err(IntoResponse::into_response)?;
    // A demo job is readable by everyone, but its briefs are its owner's to spend.
    if job.owner != principal.user_id {
        return Err(ApiError::not_found("Job").into_response());
    }
    answer(&state, &job, &cluster_id, Access::Make, &headers).await
}

async fn answer(
    state: &BriefsState,
    job: &Job,
    cluster_id: &str,
    access: Access,
    headers: &HeaderMap,
) -> Result<Response, Response> {
    let dataset = Results {
        cache: &state.cache,
        objects: state.objects.as_ref(),
    }
    .dataset(job)
    .await
    .map_err(|err| ApiError::internal(err).into_response())?;
    let maker = BriefMaker {
        objects: state.objects.as_ref(),
        ledger: state.ledger.as_ref(),
        crawler: &state.crawler,
        settings: &state.settings,
        writer: state.writer.as_deref(),
    };
    let brief = maker
        .brief(
            job,
            dataset.as_deref().map(|d| d as &dyn JobResults),
            cluster_id,
            access,
        )
        .await
        .map_err(refused)?;
    let wants_markdown = headers
        .get(header::ACCEPT)
        .and_then(|accept| accept.to_str().ok())
        .is_some_and(|accept| accept.to_ascii_lowercase().contains(MARKDOWN));
    Ok(if wants_markdown {
        (
            [(header::CONTENT_TYPE, "text/markdown; charset=utf-8")],
            markdown::render(&brief),
        )
            .into_response()
    } else {
        Json(brief).into_response()
    })
}

/// The contract's error body; a brief being made also says when to ask again.
fn refused(err: BriefError) -> Response {
    let retry_after = match err {
        BriefError::InProgress { retry_after_secs } => Some(retry_after_secs),
        _ => None,
    };
    let mut response = api_error(err).into_response();
    if let Some(secs) = retry_after {
        response
            .headers_mut()
            .insert(RETRY_AFTER, HeaderValue::from(secs));
    }
    response
}

/// A brief refused, as the API tells it (the MCP tool `cluster_brief` tells it the same way).
fn api_error(err: BriefError) -> ApiError {
    let code = match &err {
        BriefError::NotCompleted | BriefError::InProgress { .. } => ErrorCode::JobNotReady,
        BriefError::UnknownCluster | BriefError::NotMade => ErrorCode::NotFound,
        BriefError::LimitReached { .. } => ErrorCode::Forbidden,
        BriefError::Store(cause) => return ApiError::internal(cause),
    };
    ApiError::new(code, err.to_string())
}
