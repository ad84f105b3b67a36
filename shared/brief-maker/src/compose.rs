//! The brief from what was read: the cluster's keywords and plan, the pages' outline,
//! lengths and terms, and the site's pages to link with.

use chrono::{DateTime, Utc};
use kr_core::dataset::{
    BriefKeyword, BriefSource, ClusterBrief, ClusterRecord, InternalLink, JobResults, KeywordRecord,
};
use kr_crawler::OutlinedPage;
use kr_research::brief::{
    dominant_page_type, merge_outline, missing_terms, questions, word_count, word_count_range,
};
use kr_research::clusters::normalize_url;
use kr_research::plan::PageMatcher;

use crate::sources::{primary_keyword, Material, Source};

/// Secondary keywords a brief lists at most.
const MAX_SECONDARY: usize = 20;
/// Internal links a brief suggests at most.
const MAX_LINKS: usize = 10;

/// One source and what became of reading it: the page, or why it was skipped.
pub(crate) type Reading = (Source, Result<OutlinedPage, String>);

pub(crate) fn compose(
    material: &Material,
    dataset: &dyn JobResults,
    cluster: &ClusterRecord,
    members: &[&KeywordRecord],
    readings: &[Reading],
    now: DateTime<Utc>,
) -> ClusterBrief {
    let primary = primary_keyword(cluster, members);
    let mut by_volume: Vec<&KeywordRecord> = members.to_vec();
    by_volume.sort_by(|a, b| {
        b.search_volume
            .unwrap_or(-1)
            .cmp(&a.search_volume.unwrap_or(-1))
            .then_with(|| a.keyword.cmp(&b.keyword))
    });
    let secondary = by_volume
        .iter()
        .filter(|k| Some(k.id.as_str()) != primary.map(|p| p.id.as_str()))
        .take(MAX_SECONDARY)
        .map(|k| brief_keyword(k))
        .collect();
    let read: Vec<&OutlinedPage> = readings
        .iter()
        .filter_map(|(_, r)| r.as_ref().ok())
        .collect();
    let headings: Vec<&[(u8, String)]> = read.iter().map(|p| p.headings.as_slice()).collect();
    let texts: Vec<&str> = read.iter().map(|p| p.main_text.as_str()).collect();
    let own_text = cluster
        .target_url
        .as_deref()
        .and_then(|target| material.page(target))
        .map(|page| page.body_text.as_str());
    let sources = readings
        .iter()
        .map(|(source, reading)| BriefSource {
            url: source.url.clone(),
            position: source.position,
            fetched: reading.is_ok(),
            skipped_because: reading.as_ref().err().cloned(),
            word_count: reading
                .as_ref()
                .ok()
                .map(|page| word_count(&page.main_text, material.language)),
        })
        .collect::<Vec<_>>();
    let counts: Vec<usize> = sources.iter().filter_map(|s| s.word_count).collect();
    ClusterBrief {
        cluster_id: cluster.id.clone(),
        cluster_name: cluster.name.clone(),
        primary_keyword: primary.map(brief_keyword).unwrap_or_else(|| BriefKeyword {
            keyword: cluster.primary_keyword.clone(),
            search_volume: None,
            intent: cluster.dominant_intent,
        }),
        secondary_keywords: secondary,
        intent: cluster.dominant_intent,
        page_type: primary
            .and_then(|p| material.serp_of(p))
            .and_then(dominant_page_type),
        action: cluster.action,
        target_url: cluster.target_url.clone(),
        outline: merge_outline(&headings, material.language),
        questions: questions(&by_volume, material.language),
        word_count: word_count_range(&counts),
        missing_terms: missing_terms(&texts, own_text, material.language),
        internal_links: internal_links(material, dataset, cluster),
        sources,
        generated_at: now,
        wording: None,
        // Read beside the ranking pages (`cited.rs`).
        cited_pages: Vec::new(),
    }
}

fn brief_keyword(record: &KeywordRecord) -> BriefKeyword {
    BriefKeyword {
        keyword: record.keyword.clone(),
        search_volume: record.search_volume,
        intent: record.intent,
    }
}

/// The primary site's pages for the other clusters of the same topic, then its pages whose
/// title or H1 names this cluster; never the cluster's own target page.
fn internal_links(
    material: &Material,
    dataset: &dyn JobResults,
    cluster: &ClusterRecord,
) -> Vec<InternalLink> {
    let title_of = |url: &str| {
        material
            .page(url)
            .filter(|page| !page.title.is_empty())
            .map(|page| page.title.clone())
    };
    let target = cluster.target_url.as_deref().map(normalize_url);
    let mut seen: Vec<String> = target.into_iter().collect();
    let mut links: Vec<InternalLink> = Vec::new();
    let mut add = |url: &str, title: String| {
        let normal = normalize_url(url);
        if !seen.contains(&normal) && links.len() < MAX_LINKS {
            seen.push(normal);
            links.push(InternalLink {
                url: url.to_string(),
                title,
            });
        }
    };
    if let Some(topic) = &cluster.topic_id {
        for sibling in dataset
            .clusters()
            .iter()
            .filter(|c| c.id != cluster.id && c.topic_id.as_ref() == Some(topic))
        {
            if let Some(url) = &sibling.target_url {
                add(url, title_of(url).unwrap_or_else(|| sibling.name.clone()));
            }
        }
    }
    let primary_pages = material.outlines(true);
    let matcher = PageMatcher::new(&primary_pages, material.language, &[]);
    for (page, _) in matcher.matches(&cluster.name) {
        add(&page.url, page.title.clone());
    }
    links
}
