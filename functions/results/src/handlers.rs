use axum::extract::State;
use axum::Json;
use kr_core::domain::{Job, JobId};
use kr_http::error::{ErrorBody, ErrorCode};
use kr_http::extract::{self, PathParams, Query, Viewer};
use kr_http::ApiError;

use crate::ResultsState;
use kr_query::{
    job_changes, AiVisibility, ChangeQuery, ChangeSources, ClusterPage, ClusterQuery, JobChanges,
    KeywordPage, KeywordQuery, PersonaList, QueryError, ReferenceList, Results, TopicPage,
    TopicQuery,
};

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

/// A query the engine refuses, as the API tells it (the MCP tools tell it the same way).
fn refused(err: QueryError) -> ApiError {
    let code = match err {
        QueryError::Invalid(field) => return field.into(),
        QueryError::Store(err) => return err.into(),
        QueryError::SinceNotFound => ErrorCode::NotFound,
        QueryError::SinceNotCompleted => ErrorCode::JobNotReady,
    };
    ApiError::new(code, err.to_string())
}

fn results(state: &ResultsState) -> Results<'_> {
    Results {
        cache: &state.cache,
        objects: state.objects.as_ref(),
    }
}

/// The job's keywords, filtered, sorted and paged. Before the job completes: an empty page.
///
/// Range filters exclude keywords whose metric is unknown. Nulls sort last in both
/// directions; ties break by keyword, then id, so pages never overlap. `sortBy`: `keyword`,
/// `searchVolume` (alias `volume`), `cpc`, `competition`, `difficulty`, `intent` (by name),
/// `organicOpportunityScore` (default), `paidOpportunityScore`, `opportunityValue`, and Search
/// Console's `impressions`, `clicks`, `position` (keywords without its data last). Search
/// Console filters: `strikingDistance`, `decaying`, `minImpressions`, `maxPosition` (keywords
/// without its data never match). `aiOverview` (`present`, `absent`, `cites_site`,
/// `cites_competitor`, any of a comma list): keywords by the AI Overview on their SERP
/// (keywords without a fetched SERP never match).
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
    Query(query): Query,
) -> Result<Json<KeywordPage>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let query = KeywordQuery::parse(&query)?;
    Ok(Json(results(&state).keywords(&job, &query).await?))
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
    Query(query): Query,
) -> Result<Json<KeywordPage>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let query = KeywordQuery::parse(&query)?;
    results(&state)
        .cluster_keywords(&job, &cluster_id, query)
        .await?
        .map(Json)
        .ok_or_else(|| ApiError::not_found("Cluster"))
}

/// The job's clusters, paged and sorted (`sortBy` default `totalSearchVolume`, `sortOrder`
/// default `desc`; nulls last, ties by name then id), each with its topic and what to do on
/// the primary site (`action`, `targetUrl`; see "Content plan" in the description), its
/// keywords' AI Overviews (`aiShareOfVoice`, `earnCitation`; `sortBy=aiShare` orders by the
/// site's share, clusters without an overview last). Filters: `action`, `topicId`, `intent`.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/clusters",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid), ClusterQuery),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "A page of clusters", body = ClusterPage),
        (status = 400, description = "Invalid query parameter, or a `topicId` the job does not have (named in details)", body = ErrorBody),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
    )
)]
pub async fn clusters(
    State(state): State<ResultsState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
    Query(query): Query,
) -> Result<Json<ClusterPage>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let query = ClusterQuery::parse(&query)?;
    Ok(Json(
        results(&state)
            .clusters(&job, &query)
            .await
            .map_err(refused)?,
    ))
}

/// The job's topics: its clusters grouped as a pillar page and its supporting pages would be
/// (see "Content plan" in the description), paged and sorted (`sortBy` default
/// `totalSearchVolume`, `sortOrder` default `desc`; ties by name then id). Empty until the
/// job completes, like the other results.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/topics",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid), TopicQuery),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "A page of topics", body = TopicPage),
        (status = 400, description = "Invalid query parameter", body = ErrorBody),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
    )
)]
pub async fn topics(
    State(state): State<ResultsState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
    Query(query): Query,
) -> Result<Json<TopicPage>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let query = TopicQuery::parse(&query)?;
    Ok(Json(results(&state).topics(&job, &query).await?))
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
    Ok(Json(results(&state).personas(&job).await?))
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
    Ok(Json(results(&state).references(&job).await?))
}

/// What changed since an earlier completed run of the same primary domain and market.
///
/// `since` names that run (a job of the caller's), else it is the job owner's previous
/// completed run of the domain, language and location (for a demo job, its owner's). Keywords
/// new and lost; volume moves of at least 20 % and 10 searches a month (measured volumes only:
/// estimates are not compared); the primary site's organic position moves per keyword and per
/// cluster (an unranked side counts as 101); clusters and topics new and gone (a cluster
/// continues an earlier one holding at least half of the smaller one's keywords, or of the
/// same name); a one-paragraph summary; and the site's visibility per run (at most 12 runs,
/// oldest first) for a chart. Each list holds at most `limit` items (default 20, at most 200);
/// `counts` are whole. Without an earlier run, or before the job completes (like its other
/// results), `since` is `null` and the lists are empty.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/changes",
    tag = "results",
    params(
        ("jobId" = String, Path, format = Uuid),
        ("since" = Option<String>, Query, format = Uuid, description = "The earlier job to compare with: the same primary domain, language and location."),
        ("limit" = Option<u32>, Query, minimum = 1, maximum = 200, description = "Items per list (default 20)."),
    ),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The changes", body = JobChanges),
        (status = 400, description = "Invalid query parameter, or `since` is this job or a job of another domain or market (named in details)", body = ErrorBody),
        (status = 404, description = "No such job (or `since` job), or not yours", body = ErrorBody),
        (status = 409, description = "The `since` job has not completed", body = ErrorBody),
    )
)]
pub async fn changes(
    State(state): State<ResultsState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
    Query(query): Query,
) -> Result<Json<JobChanges>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    let query = ChangeQuery::parse(&query)?;
    let since = match query.since {
        Some(id) => Some(
            extract::viewable_job(state.jobs.as_ref(), &state.config, viewer, &id.to_string())
                .await?,
        ),
        None => None,
    };
    let sources = ChangeSources {
        results: &results(&state),
        jobs: state.jobs.as_ref(),
    };
    Ok(Json(
        job_changes(&sources, &job, since, &query)
            .await
            .map_err(refused)?,
    ))
}

/// The job's AI visibility: its keywords' Google AI Overviews counted (keywords with a SERP,
/// those showing an overview, those citing the site, and per competitor those citing it),
/// and what AI answer engines (ChatGPT, Perplexity, ...; `KR_AI_ANSWERS`) answered to the
/// job's questions, derived from its most valuable clusters: per answer whether it names or
/// cites the site, which competitors it names or cites, the cited addresses and the text (at
/// most 2,000 characters; model text, escape it wherever it is shown). `answers` is `[]` when
/// no engine was asked (the job's `aiAnswers` says why). 409 before the job completes.
#[utoipa::path(
    get,
    path = "/api/v1/jobs/{jobId}/ai-visibility",
    tag = "results",
    params(("jobId" = String, Path, format = Uuid)),
    security((), ("bearerAuth" = []), ("apiKeyHeader" = []), ("sessionCookie" = [])),
    responses(
        (status = 200, description = "The job's AI visibility", body = AiVisibility),
        (status = 404, description = "No such job, or not yours", body = ErrorBody),
        (status = 409, description = "The job has not completed", body = ErrorBody),
    )
)]
pub async fn ai_visibility(
    State(state): State<ResultsState>,
    viewer: Viewer,
    PathParams([job_id]): PathParams<1>,
) -> Result<Json<AiVisibility>, ApiError> {
    let job = viewable_job(&state, viewer, &job_id).await?;
    match results(&state).ai_visibility(&job).await? {
        Some(visibility) => Ok(Json(visibility)),
        None => Err(ApiError::new(
            ErrorCode::JobNotReady,
            format!(
                "The job is {}: its AI visibility is ready once it completes.",
                job.status
            ),
        )),
    }
}
