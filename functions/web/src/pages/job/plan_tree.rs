//! The content plan as a tree: topic → its clusters → their first keywords, each level a
//! `<details>` so it opens and closes without the script. Every URL here was found on a crawled
//! site and goes through `safe_link::external_link`.

use std::collections::HashMap;

use kr_core::dataset::{ClusterAction, ClusterRecord, KeywordRecord, SitePosition, TopicRecord};
use kr_query::{PlanEntry, PlanSlice, SortKey};
use maud::{html, Markup};

use super::params::urlencode;
use super::View;
use crate::format;
use crate::safe_link;
use kr_core::domain::SharedTab;

/// Keywords shown under a cluster; the keyword table has all of them, in the same order.
const KEYWORDS_SHOWN: usize = 10;

type Heads<'a> = HashMap<&'a str, Vec<KeywordRecord>>;

pub fn action_label(action: ClusterAction) -> &'static str {
    match action {
        ClusterAction::Create => "Create",
        ClusterAction::Improve => "Improve",
        ClusterAction::Consolidate => "Consolidate",
    }
}

fn action_meaning(action: ClusterAction) -> &'static str {
    match action {
        ClusterAction::Create => "No page of your site serves this cluster: write one",
        ClusterAction::Improve => "One page of your site serves this cluster: make it better",
        ClusterAction::Consolidate => {
            "Several pages of your site compete for this cluster: merge them into one"
        }
    }
}

/// A shape as well as a colour and a word, so the three read apart at a glance for anyone.
fn action_glyph(action: ClusterAction) -> &'static str {
    match action {
        ClusterAction::Create => "+",
        ClusterAction::Improve => "↑",
        ClusterAction::Consolidate => "⇄",
    }
}

pub fn action_badge(action: ClusterAction) -> Markup {
    html! {
        span class={"action action-" (action.as_str())} title=(action_meaning(action)) {
            span aria-hidden="true" { (action_glyph(action)) " " }
            (action_label(action))
        }
    }
}

fn keywords_of(view: &View, cluster: &ClusterRecord) -> Option<String> {
    view.tab_link(
        SharedTab::Keywords,
        &format!(
            "&cluster={}&sortBy=searchVolume&sortOrder=desc",
            urlencode(&cluster.id)
        ),
    )
}

pub fn tree(view: &View, slice: &PlanSlice) -> Markup {
    let ids: Vec<&str> = slice
        .topics
        .iter()
        .flat_map(|entry| entry.clusters.iter().map(|c| c.id.as_str()))
        .collect();
    let firsts = view
        .dataset
        .cluster_heads(&ids, SortKey::SearchVolume, true, KEYWORDS_SHOWN);
    let heads: Heads = ids.into_iter().zip(firsts).collect();
    html! {
        ol.plan {
            @for entry in &slice.topics { li { (topic(view, entry, &heads)) } }
        }
    }
}

fn topic(view: &View, entry: &PlanEntry, heads: &Heads) -> Markup {
    let topic = entry.topic;
    html! {
        details.topic data-topic=(topic.id) {
            summary {
                span.name { (topic.name) }
                (format::intent_badge(topic.dominant_intent))
                span.facts {
                    span { (format::counted(topic.cluster_count, "cluster")) }
                    span { (format::counted(topic.keyword_count, "keyword")) }
                    span title={(format::volume_exact(Some(topic.total_search_volume))) " searches a month"} { (format::volume(Some(topic.total_search_volume))) " volume" }
                    span title="Opportunity value, USD a month" { (format::money(topic.opportunity_value)) " value" }
                }
                (action_counts(topic))
            }
            @if entry.clusters.len() < topic.cluster_count {
                p.muted.filtered { "Showing " (entry.clusters.len()) " of its " (topic.cluster_count) " clusters; the filters hide the others." }
            }
            ol.topic-clusters {
                @for cluster in &entry.clusters {
                    li { (cluster_node(view, topic, cluster, heads.get(cluster.id.as_str()))) }
                }
            }
        }
    }
}

fn action_counts(topic: &TopicRecord) -> Markup {
    let counts = [
        (ClusterAction::Create, topic.actions.create),
        (ClusterAction::Improve, topic.actions.improve),
        (ClusterAction::Consolidate, topic.actions.consolidate),
    ];
    html! {
        span.action-counts {
            @for (action, count) in counts.into_iter().filter(|(_, count)| *count > 0) {
                span.action-count { (action_badge(action)) " " (count) }
            }
        }
    }
}

fn cluster_node(
    view: &View,
    topic: &TopicRecord,
    cluster: &ClusterRecord,
    keywords: Option<&Vec<KeywordRecord>>,
) -> Markup {
    let keywords = keywords.map(Vec::as_slice).unwrap_or_default();
    html! {
        details.cluster data-cluster=(cluster.id) data-action=[cluster.action.map(ClusterAction::as_str)] {
            summary {
                @if let Some(action) = cluster.action { (action_badge(action)) }
                span.name { (cluster.name) }
                @if cluster.id == topic.pillar_cluster_id { span.pillar title="The topic's main page; the others support it" { "pillar" } }
                @if cluster.content_gap { span.badge.gap title="Competitors rank for it and your site does not" { "gap" } }
                span.facts {
                    span { (format::counted(cluster.keyword_count, "keyword")) }
                    span title={(format::volume_exact(Some(cluster.total_search_volume))) " searches a month"} { (format::volume(Some(cluster.total_search_volume))) " volume" }
                }
            }
            div.cluster-body {
                dl.plan-facts {
                    dt { "Your page" }
                    dd.target { (target(cluster)) }
                    @if !cluster.cannibalizing_urls.is_empty() {
                        dt { "Competing pages" }
                        dd { ul.urls { @for url in &cluster.cannibalizing_urls { li { (safe_link::external_link(url, safe_link::url_text(url))) } } } }
                    }
                    @if !cluster.competitor_positions.is_empty() {
                        dt { "Competitors" }
                        dd { @for position in &cluster.competitor_positions { (competitor(position)) " " } }
                    }
                }
                @if !keywords.is_empty() { (keyword_table(&cluster.name, keywords)) }
                @if let Some(href) = keywords_of(view, cluster) {
                    a.all-keywords href=(href) data-partial {
                        @if cluster.keyword_count > keywords.len() {
                            "All " (format::count(cluster.keyword_count)) " keywords of this cluster →"
                        } @else {
                            "These keywords in the keyword table →"
                        }
                    }
                }
            }
        }
    }
}

/// The page to work on, with why it was chosen: its best position where it ranks, else how
/// well its title, H1 and address match the cluster.
fn target(cluster: &ClusterRecord) -> Markup {
    let Some(url) = cluster.target_url.as_deref() else {
        return html! {
            @if cluster.action == Some(ClusterAction::Create) { "None yet: a new page" } @else { (format::MISSING) }
        };
    };
    html! {
        span.url { (safe_link::external_link(url, safe_link::url_text(url))) }
        @if let Some(position) = cluster.target_position {
            " " span.rank title="Its best position for the cluster's keywords" { "#" (position) }
        } @else if let Some(score) = cluster.target_score.filter(|s| s.is_finite()) {
            " " span.rank title="Not ranking yet: chosen by how well its title, H1 and address match the cluster" {
                "match " (format!("{:.0}%", score.clamp(0.0, 1.0) * 100.0))
            }
        }
    }
}

fn competitor(position: &SitePosition) -> Markup {
    let label = format!("{} #{}", position.domain, position.position);
    html! {
        span.rank title={(position.domain) "'s best position, and that page"} {
            (safe_link::external_link(&position.url, label))
        }
    }
}

fn keyword_table(cluster: &str, keywords: &[KeywordRecord]) -> Markup {
    html! {
        div.table-wrap {
            table.plan-keywords {
                caption.sr-only { "Top keywords of " (cluster) " by volume" }
                thead { tr {
                    th scope="col" { "Keyword" }
                    th scope="col" { "Intent" }
                    th scope="col" .num { "Volume" }
                    th scope="col" .num { "KD" }
                } }
                tbody {
                    @for keyword in keywords {
                        tr {
                            th scope="row" .keyword { (keyword.keyword) }
                            td { (format::intent_badge(keyword.intent)) }
                            td.num title=(format::volume_exact(keyword.search_volume)) data-volume=[keyword.search_volume] { (format::volume(keyword.search_volume)) }
                            td.num { (format::difficulty_badge(keyword.difficulty)) }
                        }
                    }
                }
            }
        }
    }
}

pub fn legend() -> Markup {
    html! {
        p.legend.muted {
            @for action in ClusterAction::ALL { (action_badge(action)) " " (action_meaning(action)) ". " }
            "KD in Semrush's bands, as in the keyword table."
        }
    }
}
