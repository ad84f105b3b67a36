//! The top of a job's page: status and progress, timings, where its figures came from, and
//! previews of its sites. Preview texts and URLs come from the crawled sites: escaped, and
//! only `http(s)` URLs become links; images are served from our origin.

use std::sync::Arc;

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use kr_core::dataset::{objects, PreviewImage, Reference, PREVIEW_IMAGE_LIMITS};
use kr_core::domain::{Job, JobStatus, RasterImage};
use kr_core::store::{get_json, StoreError, User};
use kr_query::IndexedDataset;
use maud::{html, Markup};

use crate::format;
use crate::layout;
use crate::pages::jobs::{progress, status_badge};
use crate::safe_link;
use crate::WebState;

/// What the page shows of a job's sites: one preview per site, the primary first, `None`
/// where the site could not be fetched, and the preview images kept with the job (`None`
/// where there was none to keep, and for every site of jobs run before images were kept).
#[derive(Debug, Default)]
pub struct SitePreviews {
    pub references: Vec<Option<Reference>>,
    pub images: Vec<Option<PreviewImage>>,
}

/// A job's [`SitePreviews`]. A finished job's never change, so they are read once per
/// instance.
pub async fn site_previews(state: &WebState, job: &Job) -> Result<Arc<SitePreviews>, StoreError> {
    let finished = job.status.is_finished();
    if finished {
        if let Some(known) = state.previews.get(job) {
            return Ok(known);
        }
    }
    let sites = 1 + job.competitor_domains.len();
    let (references, images) = tokio::try_join!(
        get_json::<Vec<Option<Reference>>>(state.objects.as_ref(), job.id, objects::REFERENCES),
        get_json::<Vec<Option<PreviewImage>>>(
            state.objects.as_ref(),
            job.id,
            objects::PREVIEW_IMAGES
        ),
    )?;
    let mut previews = SitePreviews {
        references: references.unwrap_or_default(),
        images: images.unwrap_or_default(),
    };
    previews.references.resize(sites, None);
    previews.images.resize(sites, None);
    let previews = Arc::new(previews);
    if finished {
        state.previews.keep(job, previews.clone());
    }
    Ok(previews)
}

/// The preview image of the job's site number `index` (as the page numbers them), from our
/// origin. The bytes are checked again before they are served, with the type read from them;
/// an empty 404 for a site without one.
pub async fn preview_image(state: &WebState, job: &Job, index: &str) -> Response {
    let previews = match site_previews(state, job).await {
        Ok(previews) => previews,
        Err(err) => return layout::internal_error(err),
    };
    let Some(index) = index
        .parse::<usize>()
        .ok()
        .filter(|index| matches!(previews.images.get(*index), Some(Some(_))))
    else {
        return StatusCode::NOT_FOUND.into_response();
    };
    let bytes = match state
        .objects
        .get_artifact(job.id, &objects::preview_image(index))
        .await
    {
        Ok(Some(bytes)) => bytes,
        Ok(None) => return StatusCode::NOT_FOUND.into_response(),
        Err(err) => return layout::internal_error(err),
    };
    match RasterImage::parse(bytes, PREVIEW_IMAGE_LIMITS) {
        Ok(image) => layout::image_response(image.kind(), image.into_bytes()),
        Err(reason) => {
            // Logged as the fault it is; the visitor sees the placeholder's empty 404.
            kr_http::ApiError::internal(format!(
                "job {} kept preview image {index} {reason}",
                job.id
            ));
            StatusCode::NOT_FOUND.into_response()
        }
    }
}

fn duration(job: &Job) -> Option<String> {
    let (start, end) = (job.started_at?, job.completed_at?);
    let seconds = (end - start).num_seconds().max(0);
    Some(if seconds < 60 {
        format!("{seconds} s")
    } else {
        format!("{} min {} s", seconds / 60, seconds % 60)
    })
}

/// How many keywords were measured by the data provider and how many estimated.
fn sources(dataset: &IndexedDataset) -> Markup {
    let estimated = dataset.estimated_count();
    let measured = dataset.keyword_count() - estimated;
    html! {
        @if measured > 0 { span { (format::count(measured)) " measured by DataForSEO" } }
        @if measured > 0 && estimated > 0 { " · " }
        @if estimated > 0 {
            span title="Estimated from the crawled pages (how often and where a phrase appears, scaled to typical search volumes), not measured." {
                (format::count(estimated)) " estimated " abbr.estimate title="estimate" { "≈" }
            }
        }
    }
}

/// What the head of the page offers: the owner's actions, and the account's spending on the
/// job, which a page seen through a share link never shows.
pub struct Controls {
    owner: bool,
    shared: bool,
}

impl Controls {
    pub fn of(user: Option<&User>, job: &Job, shared: bool) -> Self {
        Self {
            owner: !shared && user.is_some_and(|user| user.id == job.owner),
            shared,
        }
    }
}

pub fn header(job: &Job, dataset: Option<&IndexedDataset>, controls: Controls) -> Markup {
    html! {
        section.job-head data-poll-job=[(!job.status.is_finished()).then(|| job.id.to_string())] data-reload-when-done {
            div.title-row {
                h1 { (job.primary_domain.as_str()) }
                (status_badge(job.status))
                @if controls.owner {
                    @if job.status == JobStatus::Completed { a.button.share href={"/jobs/" (job.id) "/share"} { "Share" } }
                    a.button href={"/jobs/" (job.id) "/repeat"} { "Repeat this job" }
                    a.danger href={"/jobs/" (job.id) "/delete"} { "Delete" }
                }
            }
            @if !job.competitor_domains.is_empty() {
                p.muted { "Competitors: "
                    @for (index, domain) in job.competitor_domains.iter().enumerate() {
                        @if index > 0 { ", " } (domain.as_str())
                    }
                }
            }
            (progress(job))
            @if job.status == JobStatus::Failed {
                p.error role="alert" {
                    "This job failed: " (job.error_message.as_deref().unwrap_or("no reason was recorded")) "."
                    @if job.refunded { " The run it used was given back." }
                }
            }
            dl.facts {
                div { dt { "Created" } dd { (format::moment(&job.created_at)) } }
                @if let Some(started) = &job.started_at { div { dt { "Started" } dd { (format::moment(started)) } } }
                @if let Some(done) = &job.completed_at { div { dt { "Finished" } dd { (format::moment(done)) } } }
                @if let Some(took) = duration(job) { div { dt { "Took" } dd { (took) } } }
                @if job.status.is_finished() { div { dt { "Keywords" } dd data-keyword-count { (format::count(job.keyword_count.unwrap_or(0).max(0) as usize)) } } }
                div { dt { "Language · location" } dd title={(job.language_code) " · " (job.location_code)} { (kr_core::locales::market_name(&job.language_code, job.location_code)) } }
                @if let Some(dataset) = dataset { div { dt { "Figures" } dd { (sources(dataset)) } } }
                @if let (Some(usage), false) = (&job.usage, controls.shared) {
                    div {
                        dt { "Data provider" }
                        dd {
                            (usage.provider) ": $" (format!("{:.4}", usage.cost_usd)) " for "
                            (usage.requests) " requests, " (usage.cache_hits) " answers from the cache"
                            @if let Some(cap) = usage.cap_usd { " (cap $" (format!("{cap:.2}")) @if usage.cap_reached { ", reached" } ")" }
                        }
                    }
                }
            }
        }
    }
}

fn initial(domain: &str) -> char {
    domain.chars().next().unwrap_or('?').to_ascii_uppercase()
}

/// A card per site. Images come from our origin (`{base}/previews/{index}`): a viewer's
/// browser never asks a crawled site for anything.
pub fn reference_cards(job: &Job, previews: &SitePreviews, base: &str) -> Markup {
    let domains = std::iter::once(&job.primary_domain).chain(&job.competitor_domains);
    let sites = domains.zip(previews.references.iter().zip(&previews.images));
    html! {
        section.previews aria-label="Sites" {
            @for (index, (domain, (reference, image))) in sites.enumerate() {
                article.preview {
                    p.role { @if index == 0 { "Your site" } @else { "Competitor" } }
                    @match image {
                        Some(image) => img src={(base) "/previews/" (index)} alt="" loading="lazy"
                            width=(image.width) height=(image.height);,
                        None => div.placeholder aria-hidden="true" { (initial(domain.as_str())) },
                    }
                    @match reference {
                        Some(reference) => {
                            @let title = reference.title.as_deref().unwrap_or(domain.as_str());
                            h2 { (safe_link::external_link(reference.link.as_deref().unwrap_or_default(), title)) }
                            @if let Some(description) = &reference.description { p { (description) } }
                            p.muted { (domain.as_str()) }
                        },
                        None => {
                            h2 { (domain.as_str()) }
                            p.muted { "No preview: the site could not be fetched." }
                        },
                    }
                }
            }
        }
    }
}

pub fn no_results_yet(job: &Job) -> Markup {
    html! {
        div.empty {
            @match job.status {
                JobStatus::Failed => p { "This job has no results." },
                _ => p { "Results appear here when the job completes; this page follows its progress." },
            }
        }
    }
}
