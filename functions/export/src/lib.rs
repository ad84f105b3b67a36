//! The export function: `GET /jobs/{jobId}/export-keywords`, the job's keywords as CSV,
//! streamed from storage so memory stays flat however large the job.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRef, Path, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::response::{IntoResponse, Response};
use axum::Router;
use kr_shared::auth::Authenticator;
use kr_shared::config::Config;
use kr_shared::domain::JobStatus;
use kr_shared::error::{ErrorBody, ErrorCode};
use kr_shared::http::{finish_router, viewable_job, Viewer, API_PREFIX};
use kr_shared::store::{ExportStore, JobStore};
use kr_shared::wiring::Wiring;
use kr_shared::ApiError;
use utoipa::openapi::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Clone, FromRef)]
pub struct ExportState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub jobs: Arc<dyn JobStore>,
    pub exports: Arc<dyn ExportStore>,
}

impl ExportState {
    pub async fn from_config(config: Config) -> Self {
        let wiring = Wiring::from_config(config).await;
        Self {
            config: wiring.config,
            auth: wiring.auth,
            jobs: wiring.store,
            exports: wiring.results,
        }
    }
}

/// All keywords of the job with their cluster assignments, as CSV (RFC 4180, header row:
/// `Keyword,Cluster,Cluster ID,Search Volume,CPC,Competition,Difficulty,Intent,Persona,
/// Organic Opportunity Score,Paid Opportunity Score,Opportunity Value,Metrics Source`; an
/// empty cell for null; a cell starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with
/// `'`). The file is named `keywords-<primaryDomain>-<YYYY-MM-DD>.csv` after the day the job
/// completed.
#[utoipa::path(
    get,
    path = "/jobs/{jobId}/export-keywords",
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
    Path(job_id): Path<String>,
) -> Result<Response, ApiError> {
    let job = viewable_job(state.jobs.as_ref(), &state.config, viewer, &job_id).await?;
    if job.status != JobStatus::Completed {
        return Err(ApiError::new(
            ErrorCode::JobNotReady,
            "The export is available once the job has completed.",
        ));
    }
    let stream = state
        .exports
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

fn api() -> OpenApiRouter<ExportState> {
    OpenApiRouter::new().nest(
        API_PREFIX,
        OpenApiRouter::new().routes(routes!(export_keywords)),
    )
}

/// The endpoints of this function in the OpenAPI document.
pub fn openapi() -> OpenApi {
    api().into_openapi()
}

pub fn router(state: ExportState) -> Router {
    let (router, _) = api().split_for_parts();
    finish_router(router.with_state(state))
}
