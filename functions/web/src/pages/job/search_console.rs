//! The job's Search Console data (`?tab=search_console`, for jobs that imported some): the
//! queries in striking distance, the decaying ones and the cannibalized ones, each linking to
//! its cluster's keywords and (for the owner) the cluster's brief; and the import's outcome at
//! the head of the page. Queries and pages come from Google and the crawled property: text,
//! and pages link out only through the URL guard.

use kr_core::dataset::{KeywordRecord, SearchConsoleMetrics, SearchConsolePage};
use kr_core::domain::{ImportStatus, Job, SharedTab};
use kr_core::query_params::QueryParams;
use kr_query::{IndexedDataset, KeywordQuery, Page, MAX_LIMIT};
use maud::{html, Markup};

use super::params::urlencode;
use super::View;
use crate::format;
use crate::safe_link;

/// Rows per table: the most useful fifty, as the overview's top lists are short.
pub const ROWS: usize = 50;

/// Whether the job imported Search Console data for some of its keywords: the tab exists
/// only then.
pub fn has_data(job: &Job) -> bool {
    job.search_console
        .as_ref()
        .is_some_and(|import| import.status == ImportStatus::Imported && import.keywords > 0)
}

/// The import's outcome at the head of the job's page: what was read, or why nothing was;
/// nothing for a job that names no property. `shared`: a page seen through a share link,
/// which does not tell why the owner's import was skipped.
pub fn import_notice(job: &Job, shared: bool) -> Markup {
    let (Some(property), Some(import)) = (&job.search_console_property, &job.search_console) else {
        return html! {};
    };
    if shared && import.status == ImportStatus::Skipped {
        return html! {};
    }
    html! {
        p.notice.search-console #search-console-import data-status=(import.status.as_str()) role="status" {
            strong { "Search Console" } " (" (property.as_str()) "): "
            @match import.status {
                ImportStatus::Imported => {
                    "imported " (format::counted(import.rows as usize, "row"))
                    @if let (Some(start), Some(end)) = (&import.start_date, &import.end_date) {
                        " for " (start) "–" (end)
                    }
                    ", " (format::counted(import.keywords as usize, "keyword"))
                    " (" (format::count(import.added_keywords as usize)) " only in Search Console)."
                    @if let Some(reason) = &import.reason { " " (reason) }
                },
                ImportStatus::Skipped => {
                    "skipped: " (import.reason.as_deref().unwrap_or("no reason was recorded"))
                    @if !import.reason.as_deref().unwrap_or_default().ends_with('.') { "." }
                    " The job's figures come without it."
                },
            }
        }
    }
}

/// A page of the job's keywords through the query engine.
fn page(dataset: &IndexedDataset, query: &str) -> Page {
    let query = QueryParams::parse(query)
        .and_then(|params| KeywordQuery::parse(&params))
        .expect("the tab's own queries are valid");
    dataset.query(&query)
}

/// Every keyword matching `filter`, in pages of the engine's largest, in `filter`'s order;
/// `keep` picks those wanted, and the walk stops once `enough` are kept.
fn walk(
    dataset: &IndexedDataset,
    filter: &str,
    enough: Option<usize>,
    keep: impl Fn(&KeywordRecord) -> bool,
) -> Vec<KeywordRecord> {
    let mut kept = Vec::new();
    let mut offset = 0usize;
    loop {
        let found = page(
            dataset,
            &format!("{filter}&limit={MAX_LIMIT}&offset={offset}"),
        );
        let reached = found.keywords.len();
        kept.extend(found.keywords.into_iter().filter(&keep));
        offset += reached;
        if reached == 0 || offset >= found.total || enough.is_some_and(|n| kept.len() >= n) {
            break;
        }
    }
    if let Some(enough) = enough {
        kept.truncate(enough);
    }
    kept
}

/// Striking distance: position 4–20 with impressions, the most impressions first.
fn striking(dataset: &IndexedDataset) -> (Vec<KeywordRecord>, usize) {
    let found = page(
        dataset,
        &format!("strikingDistance=true&sortBy=impressions&sortOrder=desc&limit={ROWS}"),
    );
    (found.keywords, found.total)
}

/// Clicks lost between the 28 days before and the last 28.
fn lost(figures: &SearchConsoleMetrics) -> u64 {
    figures.previous_clicks.saturating_sub(figures.clicks)
}

/// Decaying: the most clicks lost first (ties: the most clicks before, then the keyword).
fn decaying(dataset: &IndexedDataset) -> (Vec<KeywordRecord>, usize) {
    let mut found = walk(
        dataset,
        "decaying=true&sortBy=keyword&sortOrder=asc",
        None,
        |_| true,
    );
    let total = found.len();
    let figures = |k: &KeywordRecord| {
        k.search_console
            .as_ref()
            .map_or((0, 0), |f| (lost(f), f.previous_clicks))
    };
    // Stable: keywords with the same loss stay in alphabetical order.
    found.sort_by_key(|k| std::cmp::Reverse(figures(k)));
    found.truncate(ROWS);
    (found, total)
}

/// The pages of the property shown for `keyword` (impressions > 0), most clicks first.
fn shown_pages(keyword: &KeywordRecord) -> Vec<&SearchConsolePage> {
    let mut pages: Vec<&SearchConsolePage> = keyword
        .search_console
        .iter()
        .flat_map(|figures| &figures.pages)
        .filter(|page| page.impressions > 0)
        .collect();
    pages.sort_by(|a, b| {
        b.clicks
            .cmp(&a.clicks)
            .then(b.impressions.cmp(&a.impressions))
            .then_with(|| a.page.cmp(&b.page))
    });
    pages
}

/// Cannibalized: two or more of the property's pages shown for one query, the queries with
/// the most impressions first. Two pages with impressions make at least 2 of them.
fn cannibalized(dataset: &IndexedDataset) -> Vec<KeywordRecord> {
    walk(
        dataset,
        "minImpressions=2&sortBy=impressions&sortOrder=desc",
        Some(ROWS),
        |keyword| shown_pages(keyword).len() >= 2,
    )
}

/// CTR as a percentage with one decimal: `3.2%`.
fn ctr(ctr: f64) -> String {
    if ctr.is_finite() {
        format!("{:.1}%", ctr * 100.0)
    } else {
        format::MISSING.to_owned()
    }
}

/// An average position with one decimal, `—` without impressions.
pub(super) fn position(position: f64, impressions: u64) -> String {
    if impressions == 0 || !position.is_finite() || position <= 0.0 {
        format::MISSING.to_owned()
    } else {
        format!("{position:.1}")
    }
}

/// The change from `before` to `now` in whole percent with its sign: `−45%`.
fn change(before: u64, now: u64) -> String {
    if before == 0 {
        return format::MISSING.to_owned();
    }
    let percent = ((now as f64 - before as f64) / before as f64 * 100.0).round() as i64;
    match percent {
        p if p < 0 => format!("−{}%", -p),
        0 => "0%".to_owned(),
        p => format!("+{p}%"),
    }
}

/// Impressions abbreviated as volumes are (`1.2K`), exact in the tooltip.
pub(super) fn impressions(count: u64) -> Markup {
    let count = i64::try_from(count).unwrap_or(i64::MAX);
    html! { span title=(format::volume_exact(Some(count))) { (format::volume(Some(count))) } }
}

/// A page of the property: a link when the guard passes it, text otherwise; `—` for none.
fn page_link(page: Option<&str>) -> Markup {
    html! {
        @match page {
            Some(page) => span.page { (safe_link::external_link(page, safe_link::url_text(page))) },
            None => (format::MISSING),
        }
    }
}

/// The keyword's name and its cluster: a link to the cluster's keywords (when this page shows
/// the keywords tab) and to its brief (for the owner).
fn keyword_cells(view: &View, keyword: &KeywordRecord) -> Markup {
    let cluster = urlencode(&keyword.cluster_id);
    let cluster_link = view.tab_link(SharedTab::Keywords, &format!("&cluster={cluster}"));
    html! {
        th scope="row" .keyword data-keyword-id=(keyword.id) { (keyword.keyword) }
        td {
            @match cluster_link {
                Some(href) => a href=(href) data-partial data-cluster=(keyword.cluster_id) { (keyword.cluster_name) },
                None => (keyword.cluster_name),
            }
        }
        @if !view.shared {
            td { a.button.small href={"/jobs/" (view.job.id) "/clusters/" (cluster) "/brief"} aria-label={"Brief for " (keyword.cluster_name)} { "Brief" } }
        }
    }
}

fn brief_header(view: &View) -> Markup {
    html! { @if !view.shared { th scope="col" { span.sr-only { "Brief" } } } }
}

fn striking_table(view: &View, rows: &[KeywordRecord], total: usize) -> Markup {
    html! {
        section.sc-section #striking-distance aria-labelledby="striking-distance-title" {
            h2 #striking-distance-title { "Striking distance" }
            p.muted { "Average position 4 to 20 with at least 10 impressions over the last 28 days: close to the first results, where a better page gains the most. The most impressions first"
                @if total > rows.len() { "; " (rows.len()) " of " (format::count(total)) }
                "." }
            @if rows.is_empty() {
                p.empty { "No query is in striking distance." }
            } @else {
                div.table-wrap { table.sc.striking {
                    caption.sr-only { "Queries in striking distance" }
                    thead { tr {
                        th scope="col" { "Keyword" } th scope="col" { "Cluster" } (brief_header(view))
                        th scope="col" .num { "Position" } th scope="col" .num { "Impressions" }
                        th scope="col" .num { "Clicks" } th scope="col" .num { "CTR" } th scope="col" { "Page" }
                    } }
                    tbody { @for keyword in rows { @if let Some(sc) = &keyword.search_console {
                        tr data-sc-row="striking" {
                            (keyword_cells(view, keyword))
                            td.num { (position(sc.position, sc.impressions)) }
                            td.num { (impressions(sc.impressions)) }
                            td.num { (format::count(sc.clicks as usize)) }
                            td.num { (ctr(sc.ctr)) }
                            td { (page_link(sc.page.as_deref())) }
                        }
                    } } }
                } }
            }
        }
    }
}

fn decaying_table(view: &View, rows: &[KeywordRecord], total: usize) -> Markup {
    html! {
        section.sc-section #decaying aria-labelledby="decaying-title" {
            h2 #decaying-title { "Decaying" }
            p.muted { "At least 20 clicks in the 28 days before the last 28 and 30% fewer since. The most clicks lost first"
                @if total > rows.len() { "; " (rows.len()) " of " (format::count(total)) }
                "." }
            @if rows.is_empty() {
                p.empty { "No query is losing its clicks." }
            } @else {
                div.table-wrap { table.sc.decaying {
                    caption.sr-only { "Decaying queries" }
                    thead { tr {
                        th scope="col" { "Keyword" } th scope="col" { "Cluster" } (brief_header(view))
                        th scope="col" .num { "Clicks before → now" } th scope="col" .num { "Change" }
                        th scope="col" { "Page" }
                    } }
                    tbody { @for keyword in rows { @if let Some(sc) = &keyword.search_console {
                        tr data-sc-row="decaying" {
                            (keyword_cells(view, keyword))
                            td.num { (format::count(sc.previous_clicks as usize)) " → " (format::count(sc.clicks as usize)) }
                            td.num.down { (change(sc.previous_clicks, sc.clicks)) }
                            td { (page_link(sc.page.as_deref())) }
                        }
                    } } }
                } }
            }
        }
    }
}

fn cannibalized_table(view: &View, rows: &[KeywordRecord]) -> Markup {
    html! {
        section.sc-section #cannibalized aria-labelledby="cannibalized-title" {
            h2 #cannibalized-title { "Cannibalized queries" }
            p.muted { "Two or more of your pages shown for one query over the last 28 days, most clicks first: they compete with each other. The queries with the most impressions first." }
            @if rows.is_empty() {
                p.empty { "No query shows more than one of your pages." }
            } @else {
                div.table-wrap { table.sc.cannibalized {
                    caption.sr-only { "Cannibalized queries" }
                    thead { tr {
                        th scope="col" { "Keyword" } th scope="col" { "Cluster" } (brief_header(view))
                        th scope="col" { "Pages: clicks · impressions · position" }
                    } }
                    tbody { @for keyword in rows {
                        tr data-sc-row="cannibalized" {
                            (keyword_cells(view, keyword))
                            td { ol.sc-pages {
                                @for shown in shown_pages(keyword) {
                                    li {
                                        (page_link(Some(&shown.page)))
                                        " " span.muted.num {
                                            (format::counted(shown.clicks as usize, "click")) " · "
                                            (impressions(shown.impressions)) " impr. · "
                                            "#" (position(shown.position, shown.impressions))
                                        }
                                    }
                                }
                            } }
                        }
                    } }
                } }
            }
        }
    }
}

pub fn render(view: &View) -> Markup {
    if !has_data(view.job) {
        return html! { div.empty { p { "This job has no Search Console data." } } };
    }
    let (striking, striking_total) = striking(view.dataset);
    let (decaying, decaying_total) = decaying(view.dataset);
    let cannibalized = cannibalized(view.dataset);
    let window = view
        .job
        .search_console
        .as_ref()
        .and_then(|import| import.end_date.as_deref());
    html! {
        p.muted.sc-window {
            "From the job's Search Console property"
            @if let Some(property) = &view.job.search_console_property { " (" (property.as_str()) ")" }
            @if let Some(end) = window { ", the 28 days to " (end) }
            ". Select a cluster to see its keywords."
        }
        (striking_table(view, &striking, striking_total))
        (decaying_table(view, &decaying, decaying_total))
        (cannibalized_table(view, &cannibalized))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_search_console_shows_them() {
        assert_eq!(ctr(0.0321), "3.2%");
        assert_eq!(ctr(0.0), "0.0%");
        assert_eq!(position(7.26, 10), "7.3");
        assert_eq!(position(7.0, 0), "—");
        assert_eq!(change(40, 10), "−75%");
        assert_eq!(change(40, 40), "0%");
        assert_eq!(change(20, 30), "+50%");
        assert_eq!(change(0, 3), "—");
        assert_eq!(
            lost(&SearchConsoleMetrics {
                clicks: 5,
                previous_clicks: 30,
                ..Default::default()
            }),
            25
        );
    }
}
