//! The keyword table: every filter of the keywords endpoint plus search, sorting by column,
//! page size and paging, all in the URL; answered by the API's own query engine.

use axum::http::StatusCode;
use kr_core::dataset::{Intent, KeywordRecord, KeywordSource, RankingKind, SerpFeature};
use kr_query::{KeywordQuery, Page, SortKey, NO_PERSONA};
use maud::{html, Markup};

use super::params::urlencode;
use super::search_console::{self, has_data as has_search_console};
use super::View;
use crate::{charts, format};

const PAGE_SIZES: [u32; 4] = [25, 50, 100, 200];

/// Sortable columns: header, `sortBy` name, numeric. SERP features sit after the paid
/// figures, where Semrush's Keyword Magic Tool puts them.
const COLUMNS: [(&str, Option<&str>, bool); 15] = [
    ("Keyword", Some("keyword"), false),
    ("Intent", Some("intent"), false),
    ("Volume", Some("searchVolume"), true),
    ("Trend", None, false),
    ("KD", Some("difficulty"), true),
    ("CPC", Some("cpc"), true),
    ("Comp.", Some("competition"), true),
    ("SERP", None, false),
    ("Organic", Some("organicOpportunityScore"), true),
    ("Paid", Some("paidOpportunityScore"), true),
    ("Value", Some("opportunityValue"), true),
    ("Cluster", None, false),
    ("Persona", None, false),
    ("Rankings", None, false),
    ("Source", None, false),
];

/// Search Console's columns, before "Source", in jobs that imported its data.
const SEARCH_CONSOLE_COLUMNS: [(&str, Option<&str>, bool); 2] = [
    ("Impr.", Some("impressions"), true),
    ("Pos.", Some("position"), true),
];

/// The columns of this job's table, in order.
fn columns(view: &View) -> Vec<(&'static str, Option<&'static str>, bool)> {
    let (before, source) = COLUMNS.split_at(COLUMNS.len() - 1);
    let console: &[_] = if has_search_console(view.job) {
        &SEARCH_CONSOLE_COLUMNS
    } else {
        &[]
    };
    [before, console, source].concat()
}

pub fn render(view: &View) -> (StatusCode, Markup) {
    let parsed = view
        .params
        .query()
        .and_then(|query| KeywordQuery::parse(&query));
    let query = match parsed {
        Ok(query) => query,
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
    let query = match view.params.get("cluster") {
        Some(cluster) => query.in_cluster(cluster),
        None => query,
    };
    let page = view.dataset.query(&query);
    (
        StatusCode::OK,
        html! {
            (filters(view))
            (count_and_scope(view, &page))
            @if page.keywords.is_empty() {
                div.empty { p { "No keyword matches these filters." } a href=(clear_link(view)) data-partial { "Clear all filters" } }
            } @else {
                (table(view, &query, &page))
                (super::pager(view, query.offset, query.limit, page.total))
            }
        },
    )
}

fn clear_link(view: &View) -> String {
    format!("{}?tab=keywords", view.base)
}

fn count_and_scope(view: &View, page: &Page) -> Markup {
    let cluster = view
        .params
        .get("cluster")
        .and_then(|id| view.dataset.clusters.iter().find(|c| c.id == id));
    html! {
        p.count #keyword-count {
            strong data-total=(page.total) { (format::count(page.total)) } " keywords"
            @if let Some(cluster) = cluster {
                " in the cluster " strong { (cluster.name) } " "
                a href=(view.params.link(view.base, &[("cluster", None), ("offset", None)])) data-partial { "(show all clusters)" }
            }
        }
    }
}

fn filters(view: &View) -> Markup {
    let params = view.params;
    let chosen_intents = params.list("intent");
    let chosen_personas = params.list("personaAvatarNames");
    let chosen_features = params.list("serpFeature");
    let number = |name: &str, label: &str, step: &str| {
        html! {
            label.range {
                span { (label) }
                input type="number" name=(name) value=[params.get(name)] min="0" step=(step) inputmode="decimal";
            }
        }
    };
    html! {
        form.filters method="get" action=(view.base) data-partial role="search" aria-label="Filter keywords" {
            input type="hidden" name="tab" value="keywords";
            @if let Some(cluster) = params.get("cluster") { input type="hidden" name="cluster" value=(cluster); }
            @if let Some(sort) = params.get("sortBy") { input type="hidden" name="sortBy" value=(sort); }
            @if let Some(order) = params.get("sortOrder") { input type="hidden" name="sortOrder" value=(order); }
            label.search {
                span.sr-only { "Search keywords" }
                input type="search" name="search" value=[params.get("search")] placeholder="Search keywords";
            }
            fieldset.chips {
                legend.sr-only { "Intent" }
                @for intent in Intent::ALL {
                    label.chip title=(format::intent_label(intent)) {
                        input type="checkbox" name="intent" value=(intent.as_str())
                            checked[chosen_intents.iter().any(|c| c == intent.as_str())];
                        (format::intent_badge(intent))
                        " " (format::intent_label(intent))
                    }
                }
            }
            fieldset.ranges {
                legend.sr-only { "Ranges" }
                (number("minVolume", "Volume from", "1")) (number("maxVolume", "to", "1"))
                (number("minDifficulty", "KD from", "1")) (number("maxDifficulty", "to", "1"))
                (number("minCpc", "CPC from $", "0.01")) (number("maxCpc", "to $", "0.01"))
            }
            @if has_search_console(view.job) {
                fieldset.chips #search-console-filters {
                    legend.sr-only { "Search Console" }
                    label.chip title="Average position 4 to 20 with at least 10 impressions over the last 28 days" {
                        input type="checkbox" name="strikingDistance" value="true" checked[params.get("strikingDistance") == Some("true")];
                        " Striking distance"
                    }
                    label.chip title="At least 20 clicks in the 28 days before the last 28 and 30% fewer since" {
                        input type="checkbox" name="decaying" value="true" checked[params.get("decaying") == Some("true")];
                        " Decaying"
                    }
                }
            }
            @if view.dataset.has_serps() {
                label {
                    span { "SERP feature " }
                    select name="serpFeature" {
                        option value="" { "Any" }
                        @for feature in SerpFeature::ALL {
                            option value=(feature.as_str()) selected[chosen_features.len() == 1 && chosen_features[0] == feature.as_str()] { (feature.label()) }
                        }
                    }
                }
                (number("minWeakSpots", "Weak spots from", "1"))
            }
            label {
                span { "Persona " }
                select name="personaAvatarNames" {
                    option value="" { "Any persona" }
                    @for persona in &view.dataset.personas {
                        option value=(persona.avatar_name) selected[chosen_personas.len() == 1 && chosen_personas[0].eq_ignore_ascii_case(&persona.avatar_name)] { (persona.avatar_name) }
                    }
                    option value=(NO_PERSONA) selected[chosen_personas.len() == 1 && chosen_personas[0] == NO_PERSONA] { "No persona" }
                }
            }
            label {
                span { "Rows " }
                select name="limit" {
                    @for size in PAGE_SIZES {
                        option value=(size) selected[params.get("limit") == Some(size.to_string().as_str()) || (params.get("limit").is_none() && size == kr_query::DEFAULT_LIMIT)] { (size) }
                    }
                }
            }
            button.primary type="submit" { "Apply" }
            a.clear href=(clear_link(view)) data-partial { "Clear all" }
        }
    }
}

fn header_cell(
    view: &View,
    query: &KeywordQuery,
    label: &str,
    sort: Option<&str>,
    numeric: bool,
) -> Markup {
    let Some(sort) = sort else {
        return html! { th scope="col" .num[numeric] { (label) } };
    };
    let active = query.sort == SortKey::parse(sort);
    let next_order = if active && query.descending {
        "asc"
    } else {
        "desc"
    };
    let aria = active.then_some(if query.descending {
        "descending"
    } else {
        "ascending"
    });
    let href = view.params.link(
        view.base,
        &[
            ("sortBy", Some(sort)),
            ("sortOrder", Some(next_order)),
            ("offset", None),
        ],
    );
    html! {
        th scope="col" .num[numeric] aria-sort=[aria] {
            a href=(href) data-partial data-sort=(sort) {
                (label)
                @if active { span aria-hidden="true" { @if query.descending { " ↓" } @else { " ↑" } } }
            }
        }
    }
}

fn rankings(keyword: &KeywordRecord) -> Markup {
    html! {
        @for ranking in keyword.rankings.iter().filter(|r| r.kind == RankingKind::Organic).take(4) {
            span.rank title={(ranking.domain) " ranks #" (ranking.position) " for this keyword"} { (ranking.domain) " #" (ranking.position) }
        }
    }
}

fn row(view: &View, keyword: &KeywordRecord, console: bool) -> Markup {
    let base = view.base;
    let estimated = keyword.is_estimate();
    html! {
        tr {
            th scope="row" .keyword { (keyword.keyword)
                @if keyword.content_gap { " " span.badge.gap title="Competitors rank for it and your site does not" { "gap" } }
                @if keyword.source == Some(KeywordSource::Imported) { " " span.badge.yours data-source="imported" title="From your own keyword list" { "yours" } }
            }
            td.intents { (format::intent_badge(keyword.intent))
                @for secondary in &keyword.secondary_intents { " " (format::secondary_intent_badge(*secondary)) }
            }
            td.num title=(format::volume_exact(keyword.search_volume)) data-volume=[keyword.search_volume] { (format::volume(keyword.search_volume)) }
            td.trend { @if let Some(line) = charts::sparkline(&keyword.monthly_searches) { (line) } }
            td.num { (format::difficulty_badge(keyword.difficulty)) }
            td.num { (format::cpc(keyword.cpc)) }
            td.num { (format::competition(keyword.competition)) }
            td.serp { (format::serp_overview(keyword)) }
            td.num { (format!("{:.0}", keyword.organic_opportunity_score)) }
            td.num { (format!("{:.0}", keyword.paid_opportunity_score)) }
            td.num { (format::money(keyword.opportunity_value)) }
            td { a href=(format!("{base}?tab=keywords&cluster={}", urlencode(&keyword.cluster_id))) data-partial { (keyword.cluster_name) } }
            td { @if let Some(persona) = &keyword.persona_avatar_name {
                a href=(format!("{base}?tab=keywords&personaAvatarNames={}", urlencode(persona))) data-partial { (persona) }
            } }
            td.ranks { (rankings(keyword)) }
            @if console {
                @match &keyword.search_console {
                    Some(sc) => {
                        td.num data-impressions=(sc.impressions) { (search_console::impressions(sc.impressions)) }
                        td.num { (search_console::position(sc.position, sc.impressions)) }
                    },
                    None => { td.num { (format::MISSING) } td.num { (format::MISSING) } },
                }
            }
            td { @if estimated {
                abbr.estimate title="Estimated from the crawled pages, not measured" { "≈ estimate" }
            } @else {
                span.measured title=(format!("Measured: {}", keyword.metrics_source)) { "measured" }
            } }
        }
    }
}

fn table(view: &View, query: &KeywordQuery, page: &Page) -> Markup {
    let console = has_search_console(view.job);
    html! {
        div.table-wrap {
            table.keywords {
                caption.sr-only { "Keywords" }
                thead { tr { @for (label, sort, numeric) in columns(view) { (header_cell(view, query, label, sort, numeric)) } } }
                tbody { @for keyword in &page.keywords { (row(view, keyword, console)) } }
            }
        }
        p.legend.muted {
            "KD: Semrush's bands — "
            @for band in format::DifficultyBand::ALL { span class={"kd " (band.css_class())} { (band.label()) } " " }
            "· ≈ estimate: not measured"
            @if console { " · Impr., Pos.: Search Console's impressions and average position over the last 28 days (— without data)" }
        }
        @if view.dataset.has_serps() {
            p.legend.muted #serp-legend {
                "SERP: the features on the keyword's first results page (AI Overview, featured snippet, People Also Ask, map pack, shopping, videos, images, news, knowledge panel, sitelinks; hover for names) and its weak spots, results from forums, Q&A and social sites a dedicated page can outrank. — : no results page fetched (past the job's SERP budget)."
            }
        } @else {
            p.legend.muted #serp-legend {
                "SERP features and weak spots come from the search results pages a data provider fetches; this job ran without one, so the SERP column is empty."
            }
        }
    }
}
