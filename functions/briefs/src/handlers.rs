use axum::extract::State;
use axum::http::{header, HeaderMap};
use axum::response::{IntoResponse, Response};
use axum::Json;
use kr_brief_maker::{markdown, BriefMaker};
use kr_core::dataset::{ClusterBrief, JobResults};
use kr_http::error::ErrorBody;
use kr_http::extract::{self, PathParams, Viewer};
use kr_http::ApiError;
use kr_query::Results;

use crate::BriefsState;

const MARKDOWN: &str = "text/markdown";

/// A writer's brief for one cluster of a completed job: its keywords, the intent and the
/// kind of page that ranks, the content plan's action, an outline merged from the H2/H3
/// headings of up to five ranking pages (read by our crawler: robots.txt obeyed), the
/// questions to answer, those pages' word counts and the terms most of them use that the
/// site's page lacks, and the site's pages to link with. Made on the first request (a few
/// seconds) and stored: later requests read it. `Accept: text/markdown` answers Markdown.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/clusters/{clusterId}/brief",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid), ("clusterId" = String, Path)),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The cluster's brief", content(
            (ClusterBrief = "application/json"),
            (String = "text/markdown"),
        )),
        (status = 403, description = "The job has had its bound of briefs made", body = ErrorBody),
        (status = 404, description = "No such job or cluster, or not yours", body = ErrorBody),
        (status = 409, description = "The job has not completed yet", body = ErrorBody),
    )
)]
pub async fn brief(
    State(state): State<BriefsState>,
    viewer: Viewer,
    headers: HeaderMap,
    PathParams([job_id, cluster_id]): PathParams<2>,
) -> Result<Response, ApiError> {
    let job = extract::viewable_job(state.jobs.as_ref(), &state.config, viewer, &job_id).await?;
    let dataset = Results {
        cache: &state.cache,
        objects: state.objects.as_ref(),
    }
    .dataset(&job)
    .await
    .map_err(ApiError::internal)?;
    let maker = BriefMaker {
        objects: state.objects.as_ref(),
        ledger: state.ledger.as_ref(),
        crawler: &state.crawler,
        settings: &state.settings,
        writer: state.writer.as_deref(),
    };
    let brief = maker
        .brief(
            &job,
            dataset.as_deref().map(|d| d as &dyn JobResults),
            &cluster_id,
        )
        .await?;
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
