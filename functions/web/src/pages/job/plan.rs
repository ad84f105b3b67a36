//! The content plan: topics (a pillar page and its supporting pages) with their clusters and
//! what to do on the site for each, filtered by action and intent, sorted by volume or
//! value. `action` and `intent` read as `GET /jobs/{jobId}/clusters` reads them, the order as
//! `GET /jobs/{jobId}/topics` does, and the grouping is the MCP `content_plan` tool's
//! (`kr_query::content_plan`).

use axum::http::StatusCode;
use kr_core::dataset::{ClusterAction, Intent};
use kr_query::{ClusterFilter, TopicQuery};
use maud::{html, Markup};

use super::{plan_tree, View};
use crate::format;

/// The orders offered; the API's others (`clusterCount`, `keywordCount`, `name`) work in the
/// URL as well.
const SORTS: [(&str, &str); 2] = [
    ("totalSearchVolume", "Volume"),
    ("opportunityValue", "Opportunity value"),
];

pub fn render(view: &View) -> (StatusCode, Markup) {
    let dataset = view.dataset;
    if dataset.topics.is_empty() {
        return (StatusCode::OK, not_available(dataset.clusters.is_empty()));
    }
    let parsed = view.params.query().and_then(|query| {
        let topics = TopicQuery::parse(&query)?;
        let slice = kr_query::content_plan(dataset, &topics, &ClusterFilter::parse(&query)?)?;
        Ok((topics, slice))
    });
    let (topics, slice) = match parsed {
        Ok(found) => found,
        Err(err) => {
            return (
                StatusCode::BAD_REQUEST,
                html! {
                    (filters(view))
                    p.error role="alert" #filter-error { (err.to_string()) }
                },
            )
        }
    };
    (
        StatusCode::OK,
        html! {
            (filters(view))
            div.plan-bar {
                p.count #topic-count {
                    strong data-total=(slice.total) { (format::count(slice.total)) }
                    @if slice.total == 1 { " topic" } @else { " topics" }
                    @if filtered(view) { " with matching clusters" }
                }
                (sorting(view, &topics))
            }
            @if slice.topics.is_empty() {
                div.empty { p { "No cluster matches these filters." } a href=(clear_link(view)) data-partial { "Clear all filters" } }
            } @else {
                (plan_tree::tree(view, &slice))
                (plan_tree::legend())
                (super::pager(view, topics.offset, topics.limit, slice.total))
            }
        },
    )
}

/// Results from before content plans have clusters but no topics; running the job again
/// plans them. A job without clusters has nothing to plan either way.
fn not_available(no_clusters: bool) -> Markup {
    html! {
        div.empty #plan-unavailable {
            @if no_clusters {
                p { "This job has no clusters, so there is no content plan." }
            } @else {
                p { "The content plan is not available for this job: its results were computed before content plans. Run the job again to get one." }
            }
        }
    }
}

fn filtered(view: &View) -> bool {
    ["action", "intent", "topicId"]
        .iter()
        .any(|name| view.params.get(name).is_some())
}

fn clear_link(view: &View) -> String {
    format!("{}?tab=plan", view.base)
}

fn filters(view: &View) -> Markup {
    let params = view.params;
    let chosen = |name: &str, value: &str| {
        params
            .get(name)
            .is_some_and(|v| v.eq_ignore_ascii_case(value))
    };
    html! {
        form.filters method="get" action=(view.base) data-partial role="search" aria-label="Filter the content plan" {
            input type="hidden" name="tab" value="plan";
            @for name in ["sortBy", "sortOrder", "limit", "topicId"] {
                @if let Some(value) = params.get(name) { input type="hidden" name=(name) value=(value); }
            }
            label {
                span { "Action " }
                select name="action" {
                    option value="" { "Any action" }
                    @for action in ClusterAction::ALL {
                        option value=(action.as_str()) selected[chosen("action", action.as_str())] { (plan_tree::action_label(action)) }
                    }
                }
            }
            label {
                span { "Intent " }
                select name="intent" {
                    option value="" { "Any intent" }
                    @for intent in Intent::ALL {
                        option value=(intent.as_str()) selected[chosen("intent", intent.as_str())] { (format::intent_label(intent)) }
                    }
                }
            }
            button.primary type="submit" { "Apply" }
            a.clear href=(clear_link(view)) data-partial { "Clear all" }
        }
    }
}

/// Links rather than a field of the form: one click re-sorts, keeping the filters; the active
/// one turns the order round, as the tables' column headers do.
fn sorting(view: &View, query: &TopicQuery) -> Markup {
    let base = view.base;
    html! {
        nav.sorts aria-label="Sort topics" {
            span.muted { "Sort by" }
            @for (sort, label) in SORTS {
                @let active = query.sort == sort;
                @let order = if active && query.descending { "asc" } else { "desc" };
                a href=(view.params.link(base, &[("sortBy", Some(sort)), ("sortOrder", Some(order)), ("offset", None)]))
                    data-partial data-sort=(sort) aria-current=[active.then_some("true")] {
                    (label)
                    @if active {
                        span aria-hidden="true" { @if query.descending { " ↓" } @else { " ↑" } }
                        span.sr-only { @if query.descending { ", highest first" } @else { ", lowest first" } }
                    }
                }
            }
        }
    }
}
