use axum::body::Body;
use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use kr_core::domain::JobStatus;
use kr_http::error::{ErrorBody, ErrorCode};
use kr_http::extract::{viewable_job, PathParams, Viewer};
use kr_http::ApiError;

use crate::ExportState;

/// All keywords of the job with their cluster assignments, as CSV (RFC 4180, header row:
/// `Keyword,Cluster,Cluster ID,Search Volume,CPC,Competition,Difficulty,Intent,Persona,
/// Organic Opportunity Score,Paid Opportunity Score,Opportunity Value,Metrics Source`, then
/// the content plan's `Topic,Action,Target URL` of the keyword's cluster (its topic's name,
/// `create`/`improve`/`consolidate`, the page to work on), then `SERP Features,People Also
/// Ask,Weak Spots` (the features' names joined by `; `, the questions joined by ` | `, the
/// number of weak spots; empty for a keyword without a fetched SERP), then `Search Console
/// Clicks,Search Console Impressions,Search Console CTR,Search Console Position,Search Console
/// Page` (its `searchConsole` figures over the last 28 days of data; empty without them), then
/// `AI Overview,AI Overview Cites Site,AI Overview Cited URL,AI Overview Competitors` (`yes` or
/// `no`: the SERP showed an AI Overview, it cites the site; the site's first cited page; the
/// competitors it cites joined by `; `; empty for a keyword without a fetched SERP); an empty
/// cell for null; a cell starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with
/// `'`). The file is named `keywords-<primaryDomain>-<YYYY-MM-DD>.csv` after the day the job
/// completed.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/export-keywords",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid)),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The CSV file (`Content-Disposition: attachment`)", content_type = "text/csv"),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
        (status = 409, description = "The job has not completed (`job_not_ready`)", body = ErrorBody),
    )
)]
pub async fn export_keywords(
    State(state): State<ExportState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
) -> Result<Response, ApiError> {
    let job = viewable_job(state.jobs.as_ref(), &state.config, viewer, &job_id).await?;
    if job.status != JobStatus::Completed {
        return Err(ApiError::new(
            ErrorCode::JobNotReady,
            "The export is available once the job has completed.",
        ));
    }
    let stream = state
        .objects
        .open_export(job.id)
        .await?
        .ok_or_else(|| ApiError::internal(format!("completed job {} has no export", job.id)))?;
    let day = job
        .completed_at
        .unwrap_or(job.created_at)
        .format("%Y-%m-%d");
    let disposition = format!(
        "attachment; filename=\"keywords-{}-{day}.csv\"",
        job.primary_domain
    );
    Ok((
        [
            (CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (CONTENT_DISPOSITION, disposition),
        ],
        Body::from_stream(stream),
    )
        .into_response())
}
