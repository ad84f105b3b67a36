//! The content plan: clusters grouped into topics, and each cluster mapped to a page of the
//! primary site with what to do about it.
//!
//! # Target page and action
//!
//! For each cluster, in this order:
//!
//! 0. **Search Console** ([`measured`]), when its keywords have impressions on the job's
//!    property: a query shown with two or more of the site's pages is `consolidate` (those
//!    pages, most clicks first); else the page its queries bring the most impressions to is
//!    `improve`, at its measured position, when that is within [`COMPETING_DEPTH`];
//!    impressions only further down mean no page targets it: the crawl's rules below may
//!    still find one by its title, else `create`. Every cluster records its keywords' figures
//!    as its baseline.
//! 1. **Rankings.** The primary site's pages that rank for the cluster's keywords, from the
//!    provider's rankings and the fetched SERPs, each at its best position. Two or more of
//!    them in the top [`COMPETING_DEPTH`]: `consolidate` (they compete; the best is the
//!    target, all of them are listed). Otherwise the best ranking page: `improve`, with its
//!    position.
//! 2. **Titles.** Without rankings, the crawled page whose title and first heading (the
//!    part that names the page: "Drain Cleaning | Acme" and "Drain Cleaning: a Guide" name
//!    "drain cleaning") and address words match the cluster name best
//!    ([`pages`]: Dice's coefficient of content stems, weighted 0.4, 0.4 and 0.2; the home
//!    page's title and heading 0.5 and 0.5). A page
//!    whose title or first heading holds every content word of the name, at a score of
//!    [`SERVES`] or more, serves the cluster: `improve`, with the score ("Sump Pumps" does not
//!    serve "sump pump alarm"). Parts on most pages (the site's name, a template's title) name
//!    the home page only, and the site's towns do not count against a name without them.
//!    Two pages of at
//!    least [`COMPETES`], the second within [`EQUAL_RATIO`] of the first, match it equally:
//!    `consolidate`.
//! 3. **The site's brand.** A cluster whose name holds the site's name read as a brand
//!    ([`crate::personas::SiteProfile::brand`]: "flowmaster plumbing reviews" of FlowMaster
//!    Plumbing) is a search for the site: `improve` the page serving the rest of its name,
//!    else its home page, even when no title names it.
//! 4. Otherwise `create`.
//!
//! Per competitor, its best position and page for the cluster's keywords; a cluster where a
//! competitor ranks and the primary site does not is a content gap (offline, without
//! rankings: when every keyword is a content gap of the crawl). Each cluster says which rule
//! decided in `basis`: `search_console` (0, and `create` after it), `rankings` (1) or `crawl`.

mod measured;
mod pages;
mod positions;

use kr_core::dataset::{
    ActionCounts, ClusterAction, ClusterRecord, Intent, KeywordRecord, PlanBasis, SitePosition,
    TopicRecord,
};
use measured::{measured_plan, MeasuredPlan};

use crate::clusters::topics::{group_topics, TopicInput};
use crate::clusters::Cluster;
use crate::text::Language;
pub use pages::{PageMatcher, PageOutline, COMPETES, EQUAL_RATIO, SERVES};
pub(crate) use positions::bare_domain;
use positions::site_pages;

/// Positions within which two of the site's pages ranking for one cluster compete.
pub const COMPETING_DEPTH: u32 = 20;

/// The sites and pages a plan is made for.
pub struct PlanSites<'a> {
    pub language: &'a Language,
    pub primary_domain: Option<&'a str>,
    pub competitor_domains: &'a [String],
    pub primary_pages: &'a [PageOutline],
    /// The primary site's name as a brand ([`crate::personas::SiteProfile::brand`]).
    pub brand: Option<&'a str>,
    /// The towns and areas the primary site works in ([`crate::personas::SiteProfile::places`]).
    pub places: &'a [String],
}

/// Groups `clusters` into topics and maps each to the site: fills the plan fields of
/// `records` (one per cluster, same order) and `topicId` of `keywords`, and returns the
/// topics in pillar order. `serps[i]` is keyword `i`'s top organic URLs, if fetched.
pub fn plan(
    clusters: &[Cluster],
    records: &mut [ClusterRecord],
    keywords: &mut [KeywordRecord],
    serps: &[Option<Vec<String>>],
    sites: &PlanSites,
) -> Vec<TopicRecord> {
    let matcher = PageMatcher::new(sites.primary_pages, sites.language, sites.places);
    // The primary first (when known), then the competitors, as compared.
    let domains: Vec<String> = sites
        .primary_domain
        .into_iter()
        .chain(sites.competitor_domains.iter().map(String::as_str))
        .map(bare_domain)
        .collect();
    for (cluster, record) in clusters.iter().zip(records.iter_mut()) {
        let members: Vec<&KeywordRecord> = cluster.members.iter().map(|&m| &keywords[m]).collect();
        let member_serps: Vec<Option<&[String]>> = cluster
            .members
            .iter()
            .map(|&m| serps.get(m).and_then(|s| s.as_deref()))
            .collect();
        map_cluster(record, &members, &member_serps, sites, &domains, &matcher);
    }

    let inputs: Vec<TopicInput> = clusters
        .iter()
        .zip(records.iter())
        .map(|(cluster, record)| TopicInput {
            name: &record.name,
            volume: record.total_search_volume as f64,
            shared_urls: &cluster.shared_urls,
        })
        .collect();
    let topics = group_topics(&inputs, sites.language);
    let mut topic_records = Vec::with_capacity(topics.len());
    for topic in topics {
        for &index in &topic.clusters {
            records[index].topic_id = Some(topic.id.clone());
            for &member in &clusters[index].members {
                keywords[member].topic_id = Some(topic.id.clone());
            }
        }
        let members: Vec<&KeywordRecord> = topic
            .clusters
            .iter()
            .flat_map(|&c| clusters[c].members.iter().map(|&m| &keywords[m]))
            .collect();
        let in_topic: Vec<&ClusterRecord> = topic.clusters.iter().map(|&c| &records[c]).collect();
        let mut actions = ActionCounts::default();
        for action in in_topic.iter().filter_map(|c| c.action) {
            actions.add(action);
        }
        topic_records.push(TopicRecord {
            pillar_cluster_id: in_topic[0].id.clone(),
            cluster_ids: in_topic.iter().map(|c| c.id.clone()).collect(),
            cluster_count: in_topic.len(),
            keyword_count: members.len(),
            total_search_volume: in_topic.iter().map(|c| c.total_search_volume).sum(),
            dominant_intent: dominant_intent(members.iter().map(|k| k.intent)),
            opportunity_value: round(in_topic.iter().map(|c| c.opportunity_value).sum(), 2),
            organic_opportunity_score: round(
                members
                    .iter()
                    .map(|k| k.organic_opportunity_score)
                    .sum::<f64>()
                    / members.len().max(1) as f64,
                2,
            ),
            actions,
            id: topic.id,
            name: topic.name,
            // Computed from the keywords when the dataset is loaded (kr-query).
            ai_share_of_voice: None,
        });
    }
    topic_records
}

fn map_cluster(
    record: &mut ClusterRecord,
    members: &[&KeywordRecord],
    serps: &[Option<&[String]>],
    sites: &PlanSites,
    domains: &[String],
    matcher: &PageMatcher,
) {
    let mut per_site = site_pages(domains, members, serps).into_iter();
    let ranking = if sites.primary_domain.is_some() {
        per_site.next().unwrap_or_default()
    } else {
        Vec::new()
    };
    let mut competitors: Vec<SitePosition> = per_site
        .filter_map(|pages| pages.into_iter().next())
        .collect();
    competitors.sort_by(|a, b| {
        a.position
            .cmp(&b.position)
            .then_with(|| a.domain.cmp(&b.domain))
    });
    record.content_gap = if competitors.is_empty() {
        ranking.is_empty() && !members.is_empty() && members.iter().all(|k| k.content_gap)
    } else {
        ranking.is_empty()
    };
    record.competitor_positions = competitors;
    record.cannibalizing_urls = Vec::new();
    record.target_url = None;
    record.target_position = None;
    record.target_score = None;
    record.search_console_baseline = measured::baseline(members);

    let measured = measured_plan(members);
    match measured {
        Some(MeasuredPlan::Consolidate { pages, position }) => {
            record.target_url = pages.first().cloned();
            record.target_position = Some(position);
            record.cannibalizing_urls = pages;
            record.action = Some(ClusterAction::Consolidate);
            record.basis = Some(PlanBasis::SearchConsole);
            record.content_gap = false;
        }
        Some(MeasuredPlan::Improve { page, position }) => {
            record.target_url = Some(page);
            record.target_position = Some(position);
            record.action = Some(ClusterAction::Improve);
            record.basis = Some(PlanBasis::SearchConsole);
            record.content_gap = false;
        }
        Some(MeasuredPlan::Create) | None => {
            let basis = by_rankings_and_crawl(record, &ranking, sites, matcher);
            // Shown, but only far down, and no page serves it by its title either.
            let measured_create = measured == Some(MeasuredPlan::Create)
                && record.action == Some(ClusterAction::Create);
            record.basis = Some(if measured_create {
                PlanBasis::SearchConsole
            } else {
                basis
            });
        }
    }
}

/// Rules 1 to 4: the plan from the site's rankings, else its crawled pages; what decided.
fn by_rankings_and_crawl(
    record: &mut ClusterRecord,
    ranking: &[SitePosition],
    sites: &PlanSites,
    matcher: &PageMatcher,
) -> PlanBasis {
    if let Some(best) = ranking.first() {
        let competing: Vec<&SitePosition> = ranking
            .iter()
            .filter(|p| p.position <= COMPETING_DEPTH)
            .collect();
        record.target_url = Some(best.url.clone());
        record.target_position = Some(best.position);
        record.action = Some(if competing.len() >= 2 {
            record.cannibalizing_urls = competing.iter().map(|p| p.url.clone()).collect();
            ClusterAction::Consolidate
        } else {
            ClusterAction::Improve
        });
        return PlanBasis::Rankings;
    }
    let matches = matcher.matches(&record.name);
    let Some(&(best, best_score)) = matches.first() else {
        // A search for the site by its name is for the page serving the rest of the name
        // ("acme drain cleaning"), else its home page's, whatever its titles say: the name is
        // on every page, and is no page's title part of its own.
        let beside_brand = sites
            .brand
            .and_then(|brand| matcher.beside_brand(&record.name, brand));
        if let Some(rest) = beside_brand {
            let serving = matcher.matches(&rest).into_iter().next();
            record.target_score = serving.map(|(_, score)| score);
            record.target_url = serving
                .map(|(page, _)| page)
                .or_else(|| matcher.home_page())
                .map(|page| page.url.clone());
        }
        record.action = Some(if record.target_url.is_some() {
            ClusterAction::Improve
        } else {
            ClusterAction::Create
        });
        return PlanBasis::Crawl;
    };
    let equal: Vec<&str> = matches
        .iter()
        .filter(|(_, score)| *score >= COMPETES && *score >= EQUAL_RATIO * best_score)
        .map(|(page, _)| page.url.as_str())
        .collect();
    record.target_url = Some(best.url.clone());
    record.target_score = Some(best_score);
    record.action = Some(if equal.len() >= 2 {
        record.cannibalizing_urls = equal.into_iter().map(str::to_string).collect();
        ClusterAction::Consolidate
    } else {
        ClusterAction::Improve
    });
    PlanBasis::Crawl
}

/// The most common intent (ties in [`Intent::ALL`] order).
pub(crate) fn dominant_intent(intents: impl Iterator<Item = Intent>) -> Intent {
    let mut counts = [0usize; 4];
    for intent in intents {
        counts[Intent::ALL.iter().position(|&i| i == intent).unwrap_or(0)] += 1;
    }
    let mut best = 0;
    for (index, &count) in counts.iter().enumerate() {
        if count > counts[best] {
            best = index;
        }
    }
    Intent::ALL[best]
}

pub(crate) fn round(value: f64, decimals: i32) -> f64 {
    let factor = 10f64.powi(decimals);
    (value * factor).round() / factor
}

#[cfg(test)]
mod tests;
