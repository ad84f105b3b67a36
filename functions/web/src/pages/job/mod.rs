//! A job: its status, previews of its sites, and its results in tabs (keywords, clusters,
//! content plan, personas, overview, changes, Search Console for a job that imported its
//! data, AI visibility for a job with AI Overviews or answers), with the Search Console import's outcome at the head. Readable by its owner, and by
//! anyone for a demo job.

pub mod ai_visibility;
pub mod brief;
pub mod changes;
mod clusters;
mod keywords;
mod overview;
mod params;
mod personas;
mod plan;
mod plan_tree;
mod search_console;
mod summary;

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use kr_core::domain::{Job, JobId, JobStatus, SharedTab, SharedTabs};
use kr_core::store::User;
use kr_http::routes::share_page;
use kr_query::IndexedDataset;
use maud::{html, Markup};

use crate::format;
use crate::layout;
use crate::session::Visitor;
use crate::WebState;
use params::Params;
pub use search_console::has_data as has_search_console_data;
pub use summary::{preview_image as site_preview_image, site_previews, SitePreviews};

fn title(tab: SharedTab) -> &'static str {
    match tab {
        SharedTab::Keywords => "Keywords",
        SharedTab::Clusters => "Clusters",
        SharedTab::Plan => "Content plan",
        SharedTab::Personas => "Personas",
        SharedTab::Overview => "Overview",
        SharedTab::Changes => "Changes",
        SharedTab::SearchConsole => "Search Console",
        SharedTab::AiVisibility => "AI visibility",
    }
}

/// Who sees the page: the dashboard's visitor at `/jobs/{jobId}`, or anyone holding a share
/// link at `/share/{token}` (the link's tabs only, nothing of the account, nothing to change).
pub enum Audience<'a> {
    Dashboard(Option<&'a User>),
    Shared {
        token: &'a str,
        tabs: &'a SharedTabs,
        brand: layout::SharedBrand<'a>,
    },
}

/// What a tab renders from: the job, its dataset and the page's query.
struct View<'a> {
    job: &'a Job,
    dataset: &'a IndexedDataset,
    params: &'a Params,
    /// The page's own path, which every link and form of the tabs starts from.
    base: &'a str,
    tabs: &'a SharedTabs,
    /// Seen through a share link: no briefs or export, which need an account.
    shared: bool,
    /// Read for the changes tab only.
    changes: Option<&'a changes::Loaded>,
    /// Read for the AI visibility tab only.
    ai_visibility: Option<&'a kr_query::AiVisibility>,
}

impl View<'_> {
    /// A link to `tab` with `query` (`&name=value…`), when this page shows that tab.
    fn tab_link(&self, tab: SharedTab, query: &str) -> Option<String> {
        self.tabs
            .contains(tab)
            .then(|| format!("{}?tab={}{query}", self.base, tab.as_str()))
    }
}

fn tabs_of(view: &View, current: SharedTab) -> Markup {
    html! {
        nav.tabs aria-label="Results" {
            @for tab in view.tabs.iter() {
                a href={(view.base) "?tab=" (tab.as_str())} data-partial
                    aria-current=[(tab == current).then_some("page")] { (title(tab)) }
            }
            @if !view.shared {
                a.button.export href={"/api/v1/jobs/" (view.job.id) "/export-keywords"} download { "Export CSV" }
            }
        }
    }
}

/// Previous and next links around "1–50 of 120", over whatever the tab pages.
fn pager(view: &View, offset: u32, limit: u32, total: usize) -> Markup {
    let base = view.base;
    let (offset, limit) = (offset as usize, limit as usize);
    let first = if total == 0 { 0 } else { offset + 1 };
    let last = (offset + limit).min(total);
    let previous = offset.saturating_sub(limit).to_string();
    let next = (offset + limit).to_string();
    html! {
        nav.pager aria-label="Pages" {
            @if offset > 0 { a rel="prev" href=(view.params.link(base, &[("offset", Some(&previous))])) data-partial { "← Previous" } }
            span { (format::count(first)) "–" (format::count(last)) " of " (format::count(total)) }
            @if offset + limit < total { a rel="next" href=(view.params.link(base, &[("offset", Some(&next))])) data-partial { "Next →" } }
        }
    }
}

pub async fn show(
    State(state): State<WebState>,
    Visitor(user): Visitor,
    Path(job_id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let job = match state.readable_job(&job_id, user.as_ref()).await {
        Ok(Some(job)) => job,
        Ok(None) => {
            // A deleted job's dataset need not stay cached.
            if let Ok(id) = job_id.parse::<JobId>() {
                state.cache.forget(id);
            }
            return layout::not_found(user.as_ref(), "Job");
        }
        Err(err) => return layout::internal_error(err),
    };
    let dataset: Option<Arc<IndexedDataset>> = if job.status == JobStatus::Completed {
        match state.cache.get(&job, state.objects.as_ref()).await {
            Ok(dataset) => Some(dataset),
            Err(err) => return layout::internal_error(err),
        }
    } else {
        None
    };
    let previews = match summary::site_previews(&state, &job).await {
        Ok(previews) => previews,
        Err(err) => return layout::internal_error(err),
    };
    let raw = raw.as_deref().unwrap_or("");
    let asker = match &user {
        Some(user) => changes::Asker::Visitor(user.id),
        // The demo job's visitors without an account see the changes since its last run.
        None => changes::Asker::Anyone,
    };
    let loaded = match changes::load(&state, &job, raw, asker).await {
        Ok(loaded) => loaded,
        Err(page) => return page,
    };
    let ai = match ai_visibility::load(&state, &job, raw).await {
        Ok(ai) => ai,
        Err(page) => return page,
    };
    render(
        &job,
        Loaded {
            dataset: dataset.as_deref(),
            previews: &previews,
            changes: loaded.as_ref(),
            ai_visibility: ai.as_ref(),
        },
        raw,
        Audience::Dashboard(user.as_ref()),
    )
}

/// A preview image of the job's sites (`/jobs/{jobId}/previews/{index}`), for whoever may
/// read the job; an empty 404 otherwise.
pub async fn preview_image(
    State(state): State<WebState>,
    Visitor(user): Visitor,
    Path((job_id, index)): Path<(String, String)>,
) -> Response {
    match state.readable_job(&job_id, user.as_ref()).await {
        Ok(Some(job)) => summary::preview_image(&state, &job, &index).await,
        Ok(None) => StatusCode::NOT_FOUND.into_response(),
        Err(err) => layout::internal_error(err),
    }
}

/// What the page shows, read before rendering.
pub struct Loaded<'a> {
    pub dataset: Option<&'a IndexedDataset>,
    pub previews: &'a SitePreviews,
    /// Read only when the changes tab is asked for.
    pub changes: Option<&'a changes::Loaded>,
    /// Read only when the AI visibility tab is asked for.
    pub ai_visibility: Option<&'a kr_query::AiVisibility>,
}

/// The tabs the page offers of `tabs`: the Search Console tab only for a job that imported
/// Search Console data, the AI visibility tab only for a job with AI Overviews or answers (a
/// link made with nothing else still opens on it, and says so).
fn shown_tabs(job: &Job, dataset: Option<&IndexedDataset>, tabs: &SharedTabs) -> SharedTabs {
    let search_console = search_console::has_data(job);
    let ai = dataset.is_some_and(|dataset| ai_visibility::has_data(job, dataset));
    SharedTabs::new(tabs.iter().filter(|tab| match tab {
        SharedTab::SearchConsole => search_console,
        SharedTab::AiVisibility => ai,
        _ => true,
    }))
    .unwrap_or_else(|| tabs.clone())
}

/// Whether the job's page offers the AI visibility tab (share links may show it then).
pub fn has_ai_visibility_data(job: &Job, dataset: &IndexedDataset) -> bool {
    ai_visibility::has_data(job, dataset)
}

/// The page from what was read: no I/O, so its cost can be measured on its own.
pub fn render(job: &Job, loaded: Loaded, raw_query: &str, audience: Audience) -> Response {
    let Loaded {
        dataset,
        previews,
        changes,
        ai_visibility,
    } = loaded;
    let params = Params::parse(raw_query);
    let every_tab = SharedTabs::all();
    let (base, tabs, user, brand) = match audience {
        Audience::Dashboard(user) => (format!("/jobs/{}", job.id), &every_tab, user, None),
        Audience::Shared { token, tabs, brand } => (share_page(token), tabs, None, Some(brand)),
    };
    let shared = brand.is_some();
    let tabs = &shown_tabs(job, dataset, tabs);
    let tab = params
        .get("tab")
        .and_then(SharedTab::parse)
        .filter(|tab| tabs.contains(*tab))
        .unwrap_or(tabs.first());
    let (status, results) = match dataset {
        None => (
            StatusCode::OK,
            html! { section #results aria-live="polite" { (summary::no_results_yet(job)) } },
        ),
        Some(dataset) => {
            let view = View {
                job,
                dataset,
                params: &params,
                base: &base,
                tabs,
                shared,
                changes,
                ai_visibility,
            };
            let (status, markup) = match tab {
                SharedTab::Keywords => keywords::render(&view),
                SharedTab::Clusters => clusters::render(&view),
                SharedTab::Plan => plan::render(&view),
                SharedTab::Personas => (StatusCode::OK, personas::render(&view)),
                SharedTab::Overview => (StatusCode::OK, overview::render(&view)),
                SharedTab::Changes => (StatusCode::OK, changes::render(&view, view.changes)),
                SharedTab::SearchConsole => (StatusCode::OK, search_console::render(&view)),
                SharedTab::AiVisibility => (
                    StatusCode::OK,
                    ai_visibility::render(&view, view.ai_visibility),
                ),
            };
            (
                status,
                html! { (tabs_of(&view, tab)) section #results aria-live="polite" { (markup) } },
            )
        }
    };
    let main = html! {
        (summary::header(job, dataset, summary::Controls::of(user, job, shared)))
        (search_console::import_notice(job, shared))
        (summary::reference_cards(job, previews, &base))
        (results)
    };
    match brand {
        Some(brand) => layout::shared(status, job.primary_domain.as_str(), brand, main),
        None => layout::page(status, job.primary_domain.as_str(), user, main),
    }
}
