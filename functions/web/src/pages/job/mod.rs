//! A job: its status, previews of its sites, and its results in tabs (keywords, clusters,
//! content plan, personas, overview). Readable by its owner, and by anyone for a demo job.

pub mod brief;
mod clusters;
mod keywords;
mod overview;
mod params;
mod personas;
mod plan;
mod plan_tree;
mod summary;

use std::sync::Arc;

use axum::extract::{Path, RawQuery, State};
use axum::http::StatusCode;
use axum::response::Response;
use kr_core::dataset::Reference;
use kr_core::domain::{Job, JobId, JobStatus};
use kr_core::service::jobs::readable_job;
use kr_core::store::User;
use kr_query::IndexedDataset;
use maud::{html, Markup};

use crate::format;
use crate::layout;
use crate::session::Visitor;
use crate::WebState;
use params::Params;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    Keywords,
    Clusters,
    Plan,
    Personas,
    Overview,
}

impl Tab {
    const ALL: [Tab; 5] = [
        Tab::Keywords,
        Tab::Clusters,
        Tab::Plan,
        Tab::Personas,
        Tab::Overview,
    ];

    fn name(self) -> &'static str {
        match self {
            Tab::Keywords => "keywords",
            Tab::Clusters => "clusters",
            Tab::Plan => "plan",
            Tab::Personas => "personas",
            Tab::Overview => "overview",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Tab::Keywords => "Keywords",
            Tab::Clusters => "Clusters",
            Tab::Plan => "Content plan",
            Tab::Personas => "Personas",
            Tab::Overview => "Overview",
        }
    }

    fn parse(raw: Option<&str>) -> Self {
        Tab::ALL
            .into_iter()
            .find(|tab| Some(tab.name()) == raw)
            .unwrap_or(Tab::Keywords)
    }
}

/// What a tab renders from: the job, its dataset and the page's query.
struct View<'a> {
    job: &'a Job,
    dataset: &'a IndexedDataset,
    params: &'a Params,
}

fn tabs(job: &Job, current: Tab) -> Markup {
    html! {
        nav.tabs aria-label="Results" {
            @for tab in Tab::ALL {
                a href={"/jobs/" (job.id) "?tab=" (tab.name())} data-partial
                    aria-current=[(tab == current).then_some("page")] { (tab.title()) }
            }
            a.button.export href={"/api/v1/jobs/" (job.id) "/export-keywords"} download { "Export CSV" }
        }
    }
}

/// Previous and next links around "1–50 of 120", over whatever the tab pages.
fn pager(view: &View, offset: u32, limit: u32, total: usize) -> Markup {
    let base = format!("/jobs/{}", view.job.id);
    let (offset, limit) = (offset as usize, limit as usize);
    let first = if total == 0 { 0 } else { offset + 1 };
    let last = (offset + limit).min(total);
    let previous = offset.saturating_sub(limit).to_string();
    let next = (offset + limit).to_string();
    html! {
        nav.pager aria-label="Pages" {
            @if offset > 0 { a rel="prev" href=(view.params.link(&base, &[("offset", Some(&previous))])) data-partial { "← Previous" } }
            span { (format::count(first)) "–" (format::count(last)) " of " (format::count(total)) }
            @if offset + limit < total { a rel="next" href=(view.params.link(&base, &[("offset", Some(&next))])) data-partial { "Next →" } }
        }
    }
}

pub async fn show(
    State(state): State<WebState>,
    Visitor(user): Visitor,
    Path(job_id): Path<String>,
    RawQuery(raw): RawQuery,
) -> Response {
    let not_found = || layout::not_found(user.as_ref(), "Job");
    let Ok(id) = job_id.parse::<JobId>() else {
        return not_found();
    };
    let demo = state.config.demo_user_id.map(Into::into);
    let job = match readable_job(state.jobs.as_ref(), id, user.as_ref().map(|u| u.id), demo).await {
        Ok(Some(job)) => job,
        Ok(None) => {
            state.cache.forget(id);
            return not_found();
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
    let references = match summary::references(&state, &job).await {
        Ok(references) => references,
        Err(err) => return layout::internal_error(err),
    };
    render(
        &job,
        dataset.as_deref(),
        &references,
        raw.as_deref().unwrap_or(""),
        user.as_ref(),
    )
}

/// The page from what was read: no I/O, so its cost can be measured on its own.
pub fn render(
    job: &Job,
    dataset: Option<&IndexedDataset>,
    references: &[Option<Reference>],
    raw_query: &str,
    user: Option<&User>,
) -> Response {
    let params = Params::parse(raw_query);
    let tab = Tab::parse(params.get("tab"));
    let (status, results) = match dataset {
        None => (StatusCode::OK, summary::no_results_yet(job)),
        Some(dataset) => {
            let view = View {
                job,
                dataset,
                params: &params,
            };
            match tab {
                Tab::Keywords => keywords::render(&view),
                Tab::Clusters => clusters::render(&view),
                Tab::Plan => plan::render(&view),
                Tab::Personas => (StatusCode::OK, personas::render(&view)),
                Tab::Overview => (StatusCode::OK, overview::render(&view)),
            }
        }
    };
    let owner = user.is_some_and(|u| u.id == job.owner);
    layout::page(
        status,
        job.primary_domain.as_str(),
        user,
        html! {
            (summary::header(job, dataset, owner))
            (summary::reference_cards(job, references))
            @if dataset.is_some() { (tabs(job, tab)) }
            section #results aria-live="polite" { (results) }
        },
    )
}
