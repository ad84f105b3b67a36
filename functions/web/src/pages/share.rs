//! Share links: the page a link opens (`/share/{token}`, the job's chosen tabs and nothing
//! else, under the agency's name and logo, served at `/share/{token}/logo`, with the sites'
//! preview images at `/share/{token}/previews/{index}`), and the owner's
//! page to make and revoke them (`/jobs/{jobId}/share`), with the same rules as
//! `POST`/`DELETE /api/v1/jobs/{jobId}/share-links`.

use axum::extract::{Path, RawQuery, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Redirect, Response};
use axum::Form;
use chrono::Utc;
use kr_core::domain::{
    Job, JobId, JobStatus, ShareLifetime, ShareLink, ShareLinkId, SharedTab, SharedTabs,
};
use kr_core::service::share_links::{self, ShareError, MAX_LIVE_SHARE_LINKS};
use kr_core::store::{StoreError, User};
use kr_http::absolute_url::absolute_url;
use kr_http::routes::share_page;
use maud::html;

use super::job::{self, Audience};
use crate::format;
use crate::layout;
use crate::session::{refused_foreign_form, SignedIn, Visitor};
use crate::WebState;

/// Opens a share link. Every way it can fail (a token never made, revoked or expired, a job
/// deleted since) is the same plain 404.
pub async fn open(
    State(state): State<WebState>,
    // Counts the view against the visitor's address, like any page; shows no account.
    Visitor(_): Visitor,
    Path(token): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let (link, job) = match share_links::shared_job(
        state.jobs.as_ref(),
        state.share_links.as_ref(),
        &token,
        Utc::now(),
    )
    .await
    {
        Ok(Some(found)) => found,
        Ok(None) => return gone(),
        Err(err) => return layout::internal_error(err),
    };
    let dataset = match state.cache.get(&job, state.objects.as_ref()).await {
        Ok(dataset) => dataset,
        Err(err) => return layout::internal_error(err),
    };
    let previews = match job::site_previews(&state, &job).await {
        Ok(previews) => previews,
        Err(err) => return layout::internal_error(err),
    };
    let branding = match state.branding.branding(job.owner).await {
        Ok(branding) => branding,
        Err(err) => return layout::internal_error(err),
    };
    let logo_url = branding.logo.as_ref().map(|logo| {
        format!(
            "{}/logo?v={}",
            share_page(&token),
            logo.updated_at.timestamp_millis()
        )
    });
    let raw = raw.as_deref().unwrap_or("");
    let loaded = if link.tabs.contains(SharedTab::Changes) {
        match job::changes::load(&state, &job, raw, job::changes::Asker::Anyone).await {
            Ok(loaded) => loaded,
            Err(page) => return page,
        }
    } else {
        None
    };
    let ai = if link.tabs.contains(SharedTab::AiVisibility) {
        match job::ai_visibility::load(&state, &job, raw).await {
            Ok(ai) => ai,
            Err(page) => return page,
        }
    } else {
        None
    };
    job::render(
        &job,
        job::Loaded {
            dataset: Some(&dataset),
            previews: &previews,
            changes: loaded.as_ref(),
            ai_visibility: ai.as_ref(),
        },
        raw,
        Audience::Shared {
            token: &token,
            tabs: &link.tabs,
            brand: layout::SharedBrand {
                name: branding.name.as_deref(),
                logo_url: logo_url.as_deref(),
            },
        },
    )
}

/// The logo of the agency that shared the job, from our own origin (a viewer's browser asks
/// no other server). An empty 404 for a link that does not work (whatever the reason, as the
/// page's) and for a link whose owner has no logo.
pub async fn logo(
    State(state): State<WebState>,
    Visitor(_): Visitor,
    Path(token): Path<String>,
) -> Response {
    let job = match shared_job(&state, &token).await {
        Ok(Some(job)) => job,
        Ok(None) => return StatusCode::NOT_FOUND.into_response(),
        Err(err) => return layout::internal_error(err),
    };
    match state.branding.logo(job.owner).await {
        Ok(Some((kind, bytes))) => layout::image_response(kind, bytes),
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(err) => layout::internal_error(err),
    }
}

/// A preview image of the shared job's sites, from our origin; an empty 404 for a link that
/// does not work, as for [`logo`].
pub async fn preview_image(
    State(state): State<WebState>,
    Visitor(_): Visitor,
    Path((token, index)): Path<(String, String)>,
) -> Response {
    match shared_job(&state, &token).await {
        Ok(Some(job)) => job::site_preview_image(&state, &job, &index).await,
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(err) => layout::internal_error(err),
    }
}

/// The job a live link shows; `None` for a link that does not work, whatever the reason.
async fn shared_job(state: &WebState, token: &str) -> Result<Option<Job>, StoreError> {
    let found = share_links::shared_job(
        state.jobs.as_ref(),
        state.share_links.as_ref(),
        token,
        Utc::now(),
    )
    .await?;
    Ok(found.map(|(_, job)| job))
}

fn gone() -> Response {
    layout::shared(
        StatusCode::NOT_FOUND,
        "Not found",
        layout::SharedBrand::default(),
        html! {
            section.notice {
                h1 { "This link does not work" }
                p { "It may have expired or been withdrawn. Ask whoever sent it for a new one." }
            }
        },
    )
}

/// The form's fields: a checkbox named after each tab to show, and `days`.
pub struct NewLink(Vec<(String, String)>);

impl NewLink {
    fn tabs(&self) -> Option<SharedTabs> {
        SharedTabs::new(self.0.iter().filter_map(|(name, _)| SharedTab::parse(name)))
    }

    fn lifetime(&self) -> Option<ShareLifetime> {
        let days = self.0.iter().find(|(name, _)| name == "days");
        match days.map(|(_, value)| value.trim()) {
            None | Some("") => Some(ShareLifetime::default()),
            Some(days) => days.parse().ok().and_then(ShareLifetime::days),
        }
    }
}

fn tab_names(tabs: &SharedTabs) -> String {
    tabs.iter()
        .map(SharedTab::as_str)
        .collect::<Vec<_>>()
        .join(", ")
}

/// Whether the share form offers `tab`: Search Console and AI visibility only for a job with
/// that data (`has_ai`: the job's AI Overviews or answers).
fn offered(tab: SharedTab, job: &Job, has_ai: bool) -> bool {
    match tab {
        SharedTab::SearchConsole => job::has_search_console_data(job),
        SharedTab::AiVisibility => has_ai,
        _ => true,
    }
}

fn render(
    status: StatusCode,
    user: &User,
    job: &Job,
    has_ai: bool,
    links: &[ShareLink],
    created: Option<&str>,
    problem: Option<&str>,
) -> Response {
    let base = format!("/jobs/{}/share", job.id);
    layout::page(
        status,
        "Share",
        Some(user),
        html! {
            section.card {
                h1 { "Share " (job.primary_domain.as_str()) }
                p.muted { "A share link shows this job's results, the tabs you choose, to anyone who has the link: no sign-in, nothing of your account and no other job (the changes tab, when chosen, compares the job with this domain's earlier runs). It stops working when it expires or when you revoke it." }
                @if let Some(url) = created {
                    div.secret role="status" {
                        p { strong { "Your new link." } " Copy it now: it is shown this once and only its hash is kept." }
                        div.copy {
                            input #new-link type="text" readonly value=(url) aria-label="The new share link";
                            button type="button" data-copy="#new-link" { "Copy" }
                        }
                    }
                }
                @if let Some(problem) = problem { p.error role="alert" { (problem) } }
                form.share-form method="post" action=(base) data-once {
                    fieldset {
                        legend { "Tabs to show" }
                        @for tab in SharedTab::ALL.into_iter().filter(|tab| offered(*tab, job, has_ai)) {
                            label { input type="checkbox" name=(tab.as_str()) value="on" checked[SharedTab::SHARED_BY_DEFAULT.contains(&tab)]; " " (tab.as_str()) }
                        }
                    }
                    label for="share-days" { "Works for (days)" }
                    input #share-days name="days" type="number" min="1" max=(ShareLifetime::MAX_DAYS) value=(ShareLifetime::DEFAULT_DAYS) required;
                    button.primary type="submit" { "Create link" }
                }
                @if links.is_empty() {
                    p.muted #no-links { "No live links." }
                } @else {
                    div.table-wrap {
                        table.share-links {
                            caption.sr-only { "Live share links" }
                            thead { tr { th scope="col" { "Tabs" } th scope="col" { "Created" } th scope="col" { "Expires" } th scope="col" { span.sr-only { "Actions" } } } }
                            tbody {
                                @for link in links {
                                    tr data-link-id=(link.id) {
                                        th scope="row" { (tab_names(&link.tabs)) }
                                        td { (format::moment(&link.created_at)) }
                                        td { (format::moment(&link.expires_at)) }
                                        td {
                                            form.inline method="post" action={(base) "/" (link.id) "/revoke"} data-once {
                                                button.danger type="submit" { "Revoke" }
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
                p { a href={"/jobs/" (job.id)} { "Back to the job" } }
            }
        },
    )
}

/// The job if it is the user's own: the same 404 page otherwise.
pub(super) async fn own_job(state: &WebState, user: &User, raw: &str) -> Result<Job, Response> {
    let not_found = || layout::not_found(Some(user), "Job");
    let id: JobId = raw.parse().map_err(|_| not_found())?;
    match share_links::owned_job(state.jobs.as_ref(), user.id, id).await {
        Ok(job) => Ok(job),
        Err(ShareError::Store(err)) => Err(layout::internal_error(err)),
        Err(_) => Err(not_found()),
    }
}

/// The user's own job behind a form that changes something: refused when the form came from
/// another site, the same 404 page when the job is not theirs.
pub(super) async fn own_job_form(
    state: &WebState,
    user: &User,
    raw: &str,
    headers: &HeaderMap,
) -> Result<Job, Response> {
    if let Some(refused) = refused_foreign_form(headers, state) {
        return Err(refused);
    }
    own_job(state, user, raw).await
}

async fn page_with(
    state: &WebState,
    status: StatusCode,
    user: &User,
    job: &Job,
    created: Option<&str>,
    problem: Option<&str>,
) -> Response {
    // The AI visibility tab is offered from the job's results: read them (cached) when it has
    // some.
    let has_ai = if job.status == JobStatus::Completed {
        match state.cache.get(job, state.objects.as_ref()).await {
            Ok(dataset) => job::has_ai_visibility_data(job, &dataset),
            Err(err) => return layout::internal_error(err),
        }
    } else {
        false
    };
    match state.share_links.list_share_links(job.id, Utc::now()).await {
        Ok(links) => render(status, user, job, has_ai, &links, created, problem),
        Err(err) => layout::internal_error(err),
    }
}

pub async fn manage(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    Path(job_id): Path<String>,
) -> Response {
    match own_job(&state, &user, &job_id).await {
        Ok(job) => page_with(&state, StatusCode::OK, &user, &job, None, None).await,
        Err(page) => page,
    }
}

pub async fn create(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    Path(job_id): Path<String>,
    headers: HeaderMap,
    Form(form): Form<Vec<(String, String)>>,
) -> Response {
    let job = match own_job_form(&state, &user, &job_id, &headers).await {
        Ok(job) => job,
        Err(page) => return page,
    };
    let form = NewLink(form);
    let (Some(tabs), Some(lifetime)) = (form.tabs(), form.lifetime()) else {
        let problem = format!(
            "Choose at least one tab, and 1 to {} days.",
            ShareLifetime::MAX_DAYS
        );
        return page_with(
            &state,
            StatusCode::BAD_REQUEST,
            &user,
            &job,
            None,
            Some(&problem),
        )
        .await;
    };
    let made = share_links::create_share_link(
        state.jobs.as_ref(),
        state.share_links.as_ref(),
        user.id,
        job.id,
        tabs,
        lifetime,
        Utc::now(),
    )
    .await;
    let (status, problem) = match made {
        Ok((_, token)) => {
            let url = absolute_url(&headers, &share_page(token.expose()));
            return page_with(&state, StatusCode::CREATED, &user, &job, Some(&url), None).await;
        }
        Err(ShareError::NoSuchJob) => return layout::not_found(Some(&user), "Job"),
        Err(ShareError::Store(err)) => return layout::internal_error(err),
        Err(ShareError::NotCompleted) => (
            StatusCode::CONFLICT,
            "Only a completed job can be shared.".to_string(),
        ),
        Err(ShareError::TooManyLinks) => (
            StatusCode::FORBIDDEN,
            format!(
                "This job has {MAX_LIVE_SHARE_LINKS} live links, the most it can have. Revoke one to create another."
            ),
        ),
    };
    page_with(&state, status, &user, &job, None, Some(&problem)).await
}

pub async fn revoke(
    State(state): State<WebState>,
    SignedIn(user): SignedIn,
    Path((job_id, link_id)): Path<(String, String)>,
    headers: HeaderMap,
) -> Response {
    let job = match own_job_form(&state, &user, &job_id, &headers).await {
        Ok(job) => job,
        Err(page) => return page,
    };
    let Ok(link) = link_id.parse::<ShareLinkId>() else {
        return layout::not_found(Some(&user), "Share link");
    };
    match share_links::revoke_share_link(
        state.jobs.as_ref(),
        state.share_links.as_ref(),
        user.id,
        job.id,
        link,
    )
    .await
    {
        Ok(true) => Redirect::to(&format!("/jobs/{}/share", job.id)).into_response(),
        Ok(false) | Err(ShareError::NoSuchJob) => layout::not_found(Some(&user), "Share link"),
        Err(err) => layout::internal_error(err),
    }
}
