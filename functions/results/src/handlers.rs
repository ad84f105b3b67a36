use std::sync::Arc;

use axum::extract::State;
use axum::Json;
use kr_core::dataset::{objects, ClusterRecord, KeywordRecord, Persona, Reference};
use kr_core::domain::{Job, JobId, JobStatus};
use kr_core::store::get_json;
use kr_http::error::ErrorBody;
use kr_http::extract::{self, PathParams, QueryParams, Viewer};
use kr_http::ApiError;
use serde::Serialize;
use utoipa::ToSchema;

use crate::ResultsState;
use kr_query::{ClusterQuery, IndexedDataset, KeywordQuery};

#[derive(Serialize, ToSchema)]
pub struct KeywordPage {
    keywords: Vec<KeywordRecord>,
    total: usize,
    limit: u32,
    offset: u32,
}

#[derive(Serialize, ToSchema)]
pub struct ClusterPage {
    clusters: Vec<ClusterRecord>,
    total: usize,
    limit: u32,
    offset: u32,
}

#[derive(Serialize, ToSchema)]
pub struct PersonaList {
    personas: Vec<Persona>,
}

#[derive(Serialize, ToSchema)]
pub struct ReferenceList {
    /// The primary site first, then the competitors in request order; `null` for a site not
    /// fetched (yet, or at all).
    references: Vec<Option<Reference>>,
}

/// The job if the caller may read it (owner, or anyone for a demo job), else 404.
async fn viewable_job(state: &ResultsState, viewer: Viewer, raw_id: &str) -> Result<Job, ApiError> {
    let found = extract::viewable_job(state.jobs.as_ref(), &state.config, viewer, raw_id).await;
    if found.is_err() {
        if let Ok(id) = raw_id.parse::<JobId>() {
            state.cache.forget(id);
        }
    }
    found
}

/// The dataset of a completed job; `None` before completion (results are empty lists then).
async fn dataset(state: &ResultsState, job: &Job) -> Result<Option<Arc<IndexedDataset>>, ApiError> {
    if job.status != JobStatus::Completed {
        return Ok(None);
    }
    Ok(Some(state.cache.get(job, state.objects.as_ref()).await?))
}

async fn keyword_page(
    state: &ResultsState,
    job: &Job,
    query: KeywordQuery,
) -> Result<KeywordPage, ApiError> {
    let (keywords, total) = match dataset(state, job).await? {
        Some(dataset) => {
            let page = dataset.query(&query);
            (page.keywords.into_iter().cloned().collect(), page.total)
        }
        None => (Vec::new(), 0),
    };
    Ok(KeywordPage {
        keywords,
        total,
        limit: query.limit,
        offset: query.offset,
    })
}

/// The job's keywords, filtered, sorted and paged. Before the job completes: an empty page.
///
/// Range filters exclude keywords whose metric is unknown. Nulls sort last in both
/// directions; ties break by keyword, then id, so pages never overlap. `sortBy`: `keyword`,
/// `searchVolume` (alias `volume`), `cpc`, `competition`, `difficulty`, `intent` (by name),
/// `organicOpportunityScore` (default), `paidOpportunityScore`, `opportunityValue`.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/keywords",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid), KeywordQuery),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "A page of keywords", body = KeywordPage),
        (status = 400, description = "Invalid query parameter (named in details)", body = ErrorBody),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
    )
)]
pub async fn keywords(
    State(state): State<ResultsState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
    query: QueryParams,
) -> Result<Json<KeywordPage>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let query = KeywordQuery::parse(&query)?;
    Ok(Json(keyword_page(&state, &job, query).await?))
}

/// The keywords of one cluster; the same parameters as the job's keywords.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/clusters/{clusterId}/keywords",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid), ("clusterId" = String, Path), KeywordQuery),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "A page of the cluster's keywords", body = KeywordPage),
        (status = 400, description = "Invalid query parameter (named in details)", body = ErrorBody),
        (status = 404, description = "No such job or cluster", body = ErrorBody),
    )
)]
pub async fn cluster_keywords(
    State(state): State<ResultsState>,
    viewer: Viewer,
    PathParams([job_id, cluster_id]): PathParams<2>,
    query: QueryParams,
) -> Result<Json<KeywordPage>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let query = KeywordQuery::parse(&query)?.in_cluster(&cluster_id);
    if let Some(dataset) = dataset(&state, &job).await? {
        if !dataset.has_cluster(&cluster_id) {
            return Err(ApiError::not_found("Cluster"));
        }
    }
    Ok(Json(keyword_page(&state, &job, query).await?))
}

/// The job's clusters, paged and sorted (`sortBy` default `totalSearchVolume`, `sortOrder`
/// default `desc`; nulls last, ties by name then id).
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/clusters",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid), ClusterQuery),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "A page of clusters", body = ClusterPage),
        (status = 400, description = "Invalid query parameter", body = ErrorBody),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
    )
)]
pub async fn clusters(
    State(state): State<ResultsState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
    query: QueryParams,
) -> Result<Json<ClusterPage>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let query = ClusterQuery::parse(&query)?;
    let (limit, offset) = (query.limit, query.offset);
    let Some(dataset) = dataset(&state, &job).await? else {
        return Ok(Json(ClusterPage {
            clusters: Vec::new(),
            total: 0,
            limit,
            offset,
        }));
    };
    let (page, total) = query.page(&dataset.dataset.clusters);
    let page = page.into_iter().cloned().collect();
    Ok(Json(ClusterPage {
        clusters: page,
        total,
        limit,
        offset,
    }))
}

/// The job's personas, each with the keywords that fit it best.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/personas",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid)),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The personas", body = PersonaList),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
    )
)]
pub async fn personas(
    State(state): State<ResultsState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
) -> Result<Json<PersonaList>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let personas = dataset(&state, &job)
        .await?
        .map(|d| d.dataset.personas.clone())
        .unwrap_or_default();
    Ok(Json(PersonaList { personas }))
}

/// Previews of the primary and competitor sites; available at any stage of the job.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/references",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid)),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "One item per site, `null` where not fetched", body = ReferenceList),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
    )
)]
pub async fn references(
    State(state): State<ResultsState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
) -> Result<Json<ReferenceList>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let sites = 1 + job.competitor_domains.len();
    let mut references: Vec<Option<Reference>> =
        get_json(state.objects.as_ref(), job.id, objects::REFERENCES)
            .await?
            .unwrap_or_default();
    references.resize(sites, None);
    Ok(Json(ReferenceList { references }))
}
