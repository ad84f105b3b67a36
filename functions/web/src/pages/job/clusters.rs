//! Clusters: a treemap of all of them (size = search volume, colour = dominant intent) and a
//! sortable list with their aggregates; a cluster opens its keywords, its "Brief" button its
//! writer's brief.

use axum::http::StatusCode;
use kr_core::dataset::ClusterRecord;
use kr_core::domain::SharedTab;
use kr_query::ClusterQuery;
use maud::{html, Markup};

use super::params::urlencode;
use super::View;
use crate::charts;
use crate::format;

const COLUMNS: [(&str, &str, bool); 6] = [
    ("Cluster", "name", false),
    ("Keywords", "keywordCount", true),
    ("Volume", "totalSearchVolume", true),
    ("Avg. KD", "avgDifficulty", true),
    ("Organic", "organicOpportunityScore", true),
    ("Value", "opportunityValue", true),
];

fn keywords_of(view: &View, cluster: &ClusterRecord) -> Option<String> {
    view.tab_link(
        SharedTab::Keywords,
        &format!("&cluster={}", urlencode(&cluster.id)),
    )
}

pub fn render(view: &View) -> (StatusCode, Markup) {
    let clusters = &view.dataset.clusters;
    let parsed = view.params.query().and_then(|query| {
        let query = ClusterQuery::parse(&query)?;
        let page = query.page(view.dataset)?;
        Ok((query, page))
    });
    let (query, (page, total)) = match parsed {
        Ok(found) => found,
        Err(err) => {
            return (
                StatusCode::BAD_REQUEST,
                html! { p.error role="alert" { (err.to_string()) } },
            )
        }
    };
    let all: Vec<&ClusterRecord> = clusters.iter().collect();
    let base = view.base;
    (
        StatusCode::OK,
        html! {
            figure.chart {
                (charts::cluster_treemap(&all, |cluster| keywords_of(view, cluster).unwrap_or_default()))
                figcaption { "Clusters by search volume; colour is the dominant intent. Select one to see its keywords." }
            }
            p.count { strong { (format::count(total)) } " clusters" }
            div.table-wrap {
                table.clusters {
                    caption.sr-only { "Clusters" }
                    thead { tr {
                        @for (label, sort, numeric) in COLUMNS {
                            @let active = query.sort == sort;
                            @let order = if active && query.descending { "asc" } else { "desc" };
                            th scope="col" .num[numeric] aria-sort=[active.then_some(if query.descending { "descending" } else { "ascending" })] {
                                a href=(view.params.link(base, &[("sortBy", Some(sort)), ("sortOrder", Some(order)), ("offset", None)])) data-partial { (label) }
                            }
                        }
                        th scope="col" { "Intent" }
                        @if !view.shared { th scope="col" { span.sr-only { "Brief" } } }
                    } }
                    tbody {
                        @for cluster in page {
                            tr {
                                th scope="row" { @match keywords_of(view, cluster) {
                                    Some(href) => a href=(href) data-partial data-cluster=(cluster.id) { (cluster.name) },
                                    None => (cluster.name),
                                } }
                                td.num { (format::count(cluster.keyword_count)) }
                                td.num title=(format::volume_exact(Some(cluster.total_search_volume))) { (format::volume(Some(cluster.total_search_volume))) }
                                td.num { @match cluster.avg_difficulty {
                                    Some(kd) => span class={"kd " (format::difficulty_band(kd.round() as i64).css_class())} { (format!("{kd:.1}")) },
                                    None => "—",
                                } }
                                td.num { (format!("{:.0}", cluster.organic_opportunity_score)) }
                                td.num { (format::money(cluster.opportunity_value)) }
                                td { (format::intent_badge(cluster.dominant_intent)) }
                                @if !view.shared {
                                    td { a.button.small href={"/jobs/" (view.job.id) "/clusters/" (urlencode(&cluster.id)) "/brief"} aria-label={"Brief for " (cluster.name)} { "Brief" } }
                                }
                            }
                        }
                    }
                }
            }
        },
    )
}
