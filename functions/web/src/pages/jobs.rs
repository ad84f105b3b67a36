//! The user's jobs, newest first, with live progress; deleting one; the demo job.

use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Redirect, Response};
use kr_core::domain::{Job, JobId, JobStatus, Stage};
use kr_core::service::jobs::delete_job;
use kr_core::time;
use maud::{html, Markup};
use serde::Deserialize;

use crate::layout;
use crate::session::{refused_foreign_form, SignedIn};
use crate::WebState;

const PAGE_SIZE: u32 = 20;

#[derive(Deserialize)]
pub struct ListQuery {
    status: Option<String>,
    page: Option<u32>,
}

/// What a stage does, in words a user reads on a progress bar.
pub fn stage_in_words(stage: Stage) -> &'static str {
    match stage {
        Stage::References => "Fetching site previews",
        Stage::Crawl => "Crawling the sites",
        Stage::Discovery => "Finding keywords",
        Stage::Metrics => "Measuring search demand",
        Stage::Analysis => "Scoring, clustering and personas",
    }
}

pub fn status_badge(status: JobStatus) -> Markup {
    html! { span class={"status status-" (status.as_str())} data-status { (status.as_str()) } }
}

/// Progress as a bar and words; the script updates both while the job runs.
pub fn progress(job: &Job) -> Markup {
    let words = match (job.status, job.stage) {
        (JobStatus::Running, Some(stage)) => stage_in_words(stage).to_string(),
        (JobStatus::Queued, _) => "Waiting to start".to_string(),
        (JobStatus::Completed, _) => "Completed".to_string(),
        (JobStatus::Failed, _) => "Failed".to_string(),
        (JobStatus::Running, None) => "Running".to_string(),
    };
    html! {
        div.progress {
            progress value=(job.progress.percent) max="100" aria-label="Progress" data-progress {
                (job.progress.percent) "%"
            }
            span.stage data-stage { (words) }
        }
    }
}

fn filters(current: Option<JobStatus>) -> Markup {
    html! {
        nav.chips aria-label="Filter by status" {
            a href="/jobs" aria-current=[current.is_none().then_some("true")] { "All" }
            @for status in JobStatus::ALL {
                a href={"/jobs?status=" (status.as_str())}
                    aria-current=[(current == Some(status)).then_some("true")] { (status.as_str()) }
            }
        }
    }
}

pub async fn list(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    Query(query): Query<ListQuery>,
) -> Response {
    let status = query
        .status
        .as_deref()
        .and_then(|raw| raw.parse::<JobStatus>().ok());
    let page = query.page.unwrap_or(1).max(1);
    let offset = (page - 1).saturating_mul(PAGE_SIZE);
    let listed = match state
        .jobs
        .list_jobs(user.id, status, PAGE_SIZE, offset)
        .await
    {
        Ok(listed) => listed,
        Err(err) => return layout::internal_error(err),
    };
    let pages = listed.total.div_ceil(u64::from(PAGE_SIZE)).max(1);
    let link = |page: u64| match status {
        Some(status) => format!("/jobs?status={}&page={page}", status.as_str()),
        None => format!("/jobs?page={page}"),
    };
    layout::ok(
        "Jobs",
        Some(&user),
        html! {
            div.title-row {
                h1 { "Jobs" }
                a.button.primary href="/jobs/new" { "New job" }
            }
            (filters(status))
            @if listed.jobs.is_empty() {
                section.empty {
                    @if status.is_some() {
                        p { "No jobs with this status." }
                    } @else {
                        p { "No jobs yet. A job crawls a site and its competitors and finds the keywords worth targeting." }
                        a.button.primary href="/jobs/new" { "Start your first job" }
                    }
                }
            } @else {
                div.table-wrap {
                    table.jobs {
                        caption.sr-only { "Your jobs, newest first" }
                        thead { tr {
                            th scope="col" { "Site" } th scope="col" { "Market" } th scope="col" { "Status" } th scope="col" { "Progress" }
                            th scope="col" .num { "Keywords" } th scope="col" { "Created" } th scope="col" { span.sr-only { "Actions" } }
                        } }
                        tbody {
                            @for job in &listed.jobs {
                                tr data-poll-job=[(!job.status.is_finished()).then(|| job.id.to_string())] {
                                    td {
                                        a href={"/jobs/" (job.id)} { (job.primary_domain.as_str()) }
                                        @if !job.competitor_domains.is_empty() {
                                            span.muted { " + " (job.competitor_domains.len()) " competitors" }
                                        }
                                    }
                                    td { (kr_core::locales::market_name(&job.language_code, job.location_code)) }
                                    td { (status_badge(job.status)) }
                                    td { (progress(job)) }
                                    td.num data-keyword-count { (job.keyword_count.map(|c| c.to_string()).unwrap_or_default()) }
                                    td { time datetime=(time::format(&job.created_at)) { (job.created_at.format("%Y-%m-%d %H:%M")) } }
                                    td { a.danger href={"/jobs/" (job.id) "/delete"} aria-label={"Delete the job on " (job.primary_domain.as_str())} { "Delete" } }
                                }
                            }
                        }
                    }
                }
                @if pages > 1 {
                    nav.pager aria-label="Pages" {
                        @if page > 1 { a rel="prev" href=(link(u64::from(page) - 1)) { "← Newer" } }
                        span { "Page " (page) " of " (pages) }
                        @if u64::from(page) < pages { a rel="next" href=(link(u64::from(page) + 1)) { "Older →" } }
                    }
                }
            }
        },
    )
}

/// The job the signed-in user owns, or a not-found page.
async fn owned_job(
    state: &WebState,
    user: &kr_core::store::User,
    raw: &str,
) -> Result<Job, Response> {
    let id: JobId = raw
        .parse()
        .map_err(|_| layout::not_found(Some(user), "Job"))?;
    match state.jobs.job(id).await {
        Ok(Some(job)) if job.owner == user.id => Ok(job),
        Ok(_) => Err(layout::not_found(Some(user), "Job")),
        Err(err) => Err(layout::internal_error(err)),
    }
}

pub async fn confirm_delete(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    Path(job_id): Path<String>,
) -> Response {
    let job = match owned_job(&state, &user, &job_id).await {
        Ok(job) => job,
        Err(page) => return page,
    };
    layout::ok(
        "Delete job",
        Some(&user),
        html! {
            section.card.narrow {
                h1 { "Delete the job on " (job.primary_domain.as_str()) "?" }
                p { "Its keywords, clusters, personas and export are deleted for good. The run it used is not given back." }
                form method="post" action={"/jobs/" (job.id) "/delete"} data-once {
                    button.danger type="submit" { "Delete job" }
                    " "
                    a href="/jobs" { "Cancel" }
                }
            }
        },
    )
}

pub async fn delete(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    headers: HeaderMap,
    Path(job_id): Path<String>,
) -> Response {
    if let Some(refused) = refused_foreign_form(&headers, &state) {
        return refused;
    }
    let Ok(id) = job_id.parse::<JobId>() else {
        return layout::not_found(Some(&user), "Job");
    };
    match delete_job(state.jobs.as_ref(), state.removals.as_ref(), user.id, id).await {
        Ok(true) => {
            state.cache.forget(id);
            state.previews.forget(id);
            Redirect::to("/jobs").into_response()
        }
        Ok(false) => layout::not_found(Some(&user), "Job"),
        Err(err) => layout::internal_error(err),
    }
}

/// The demo account's newest finished job, readable without signing in.
pub async fn demo(State(state): State<WebState>) -> Response {
    let Some(demo_user) = state.config.demo_user_id else {
        return layout::not_found(None, "Demo job");
    };
    match state
        .jobs
        .list_jobs(demo_user.into(), Some(JobStatus::Completed), 1, 0)
        .await
    {
        Ok(page) => match page.jobs.first() {
            Some(job) => Redirect::to(&format!("/jobs/{}", job.id)).into_response(),
            None => layout::not_found(None, "Demo job"),
        },
        Err(err) => layout::internal_error(err),
    }
}
