//! Cluster-level figures from the member keywords.

use crate::clusters::Cluster;
use crate::plan::{dominant_intent, round};
use kr_core::dataset::{ClusterRecord, KeywordRecord};

pub(crate) fn summarize(cluster: &Cluster, keywords: &[KeywordRecord]) -> ClusterRecord {
    let members: Vec<&KeywordRecord> = cluster.members.iter().map(|&m| &keywords[m]).collect();
    let count = members.len();
    let mean = |values: Vec<f64>| {
        (!values.is_empty()).then(|| values.iter().sum::<f64>() / values.len() as f64)
    };
    let difficulties = members
        .iter()
        .filter_map(|k| k.difficulty.map(|d| d as f64))
        .collect();
    let cpcs = members.iter().filter_map(|k| k.cpc).collect();
    let average = |score: fn(&KeywordRecord) -> f64| {
        round(
            members.iter().map(|k| score(k)).sum::<f64>() / count.max(1) as f64,
            2,
        )
    };
    ClusterRecord {
        id: cluster.id.clone(),
        name: cluster.name.clone(),
        primary_keyword: cluster.primary_keyword.clone(),
        keyword_count: count,
        total_search_volume: members.iter().filter_map(|k| k.search_volume).sum(),
        avg_difficulty: mean(difficulties).map(|d| round(d, 1)),
        avg_cpc: mean(cpcs).map(|c| round(c, 2)),
        dominant_intent: dominant_intent(members.iter().map(|k| k.intent)),
        organic_opportunity_score: average(|k| k.organic_opportunity_score),
        paid_opportunity_score: average(|k| k.paid_opportunity_score),
        opportunity_value: round(members.iter().map(|k| k.opportunity_value).sum(), 2),
        method: Some(cluster.method),
        shared_urls: cluster.shared_urls.clone(),
        // The plan's fields are filled by `crate::plan::plan`.
        ..ClusterRecord::default()
    }
}
