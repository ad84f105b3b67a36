//! Datasets written in each frozen format read back as current records.

use super::*;
use crate::dataset::stored::DatasetBytes;

/// A dataset written as format 1 (before `searchConsole`) still reads, each keyword
/// as it was with no Search Console data; a format-2 object is not mistaken for one.
#[test]
fn a_format_1_dataset_still_decodes() {
    use super::{encode_v1, KeywordRecordV1, ResultsDatasetV1};
    use crate::dataset::{Intent, KeywordSource};
    let v1 = ResultsDatasetV1 {
        format: 1,
        keywords: vec![KeywordRecordV1 {
            id: "k-1".into(),
            keyword: "cold brew".into(),
            search_volume: Some(1900),
            cpc: Some(1.25),
            competition: None,
            difficulty: Some(31),
            intent: Intent::Commercial,
            secondary_intents: vec![Intent::Transactional],
            persona_avatar_name: Some("Ana".into()),
            cluster_id: "c-1".into(),
            cluster_name: "cold brew".into(),
            organic_opportunity_score: 0.5,
            paid_opportunity_score: 0.25,
            opportunity_value: 12.0,
            monthly_searches: vec![],
            metrics_source: "dataforseo".into(),
            rankings: vec![],
            content_gap: true,
            source: Some(KeywordSource::Idea),
            topic_id: Some("t-1".into()),
            serp_features: Some(vec![SerpFeature::PeopleAlsoAsk]),
            people_also_ask: None,
            weak_spots: None,
        }],
        clusters: vec![cluster_v2("c-1")],
        personas: vec![],
        topics: vec![],
    };
    let read = decode_v1(&encode_v1(&v1)).unwrap();
    assert_eq!(read.keywords.len(), 1);
    let keyword = &read.keywords[0];
    assert_eq!(keyword.keyword, "cold brew");
    assert_eq!(keyword.source, Some(KeywordSource::Idea));
    assert_eq!(keyword.secondary_intents, [Intent::Transactional]);
    assert_eq!(keyword.search_console, None);
    assert_eq!(read.clusters[0].id, "c-1");
    assert!(
        DatasetBytes::decode(&encode_v1(&v1)).is_err(),
        "format 1 is not the current format"
    );
}

fn cluster_v2(id: &str) -> super::ClusterRecordV2 {
    use crate::dataset::{ClusterAction, Intent};
    super::ClusterRecordV2 {
        id: id.into(),
        name: "espresso machine maintenance".into(),
        primary_keyword: "espresso machine maintenance".into(),
        keyword_count: 1,
        total_search_volume: 40,
        avg_difficulty: None,
        avg_cpc: None,
        dominant_intent: Intent::Commercial,
        organic_opportunity_score: 0.5,
        paid_opportunity_score: 0.1,
        opportunity_value: 3.0,
        method: None,
        shared_urls: vec![],
        topic_id: Some("t-1".into()),
        action: Some(ClusterAction::Consolidate),
        target_url: Some("https://brightbrew-coffee.com/services/".into()),
        target_position: None,
        target_score: Some(0.97),
        cannibalizing_urls: vec!["https://brightbrew-coffee.com/services/".into()],
        competitor_positions: vec![],
        content_gap: false,
    }
}

/// A dataset written as format 2 (before the plan's `basis` and `searchConsoleBaseline`)
/// still reads: its keywords' Search Console figures kept, its clusters' plans as they
/// were with neither; a format-3 reader does not mistake it for its own.
#[test]
fn a_format_2_dataset_still_decodes() {
    use super::{encode_v2, KeywordRecordV2, ResultsDatasetV2};
    use crate::dataset::{ClusterAction, Intent, SearchConsoleMetrics};
    let metrics = SearchConsoleMetrics {
        clicks: 12,
        impressions: 340,
        ctr: 12.0 / 340.0,
        position: 7.5,
        page: Some("https://brightbrew-coffee.com/blog/".into()),
        ..SearchConsoleMetrics::default()
    };
    let v2 = ResultsDatasetV2 {
        format: 2,
        keywords: vec![KeywordRecordV2 {
            id: "k-1".into(),
            keyword: "espresso machine maintenance".into(),
            search_volume: Some(340),
            cpc: None,
            competition: None,
            difficulty: None,
            intent: Intent::Commercial,
            secondary_intents: vec![],
            persona_avatar_name: None,
            cluster_id: "c-1".into(),
            cluster_name: "espresso machine maintenance".into(),
            organic_opportunity_score: 0.5,
            paid_opportunity_score: 0.1,
            opportunity_value: 3.0,
            monthly_searches: vec![],
            metrics_source: "search_console".into(),
            rankings: vec![],
            content_gap: false,
            source: None,
            topic_id: Some("t-1".into()),
            serp_features: None,
            people_also_ask: None,
            weak_spots: None,
            search_console: Some(metrics.clone()),
        }],
        clusters: vec![cluster_v2("c-1")],
        personas: vec![],
        topics: vec![],
    };
    let read = decode_v2(&encode_v2(&v2)).unwrap();
    assert_eq!(read.keywords[0].search_console, Some(metrics));
    let cluster = &read.clusters[0];
    assert_eq!(cluster.action, Some(ClusterAction::Consolidate));
    assert_eq!(cluster.target_score, Some(0.97));
    assert_eq!(cluster.basis, None);
    assert_eq!(cluster.search_console_baseline, None);
    assert!(
        DatasetBytes::decode(&encode_v2(&v2)).is_err(),
        "format 2 is not format 3"
    );
}

/// A dataset written as format 3 (before `aiOverview`) still reads: its clusters' plan
/// basis and baseline kept, its keywords with no AI Overview (`null`, as without a SERP);
/// a format-4 reader does not mistake it for its own.
#[test]
fn a_format_3_dataset_still_decodes() {
    use crate::dataset::{ClusterAction, ClusterSearchConsole, Intent, PlanBasis};
    let v2 = cluster_v2("c-1");
    let cluster = ClusterRecordV3 {
        id: v2.id,
        name: v2.name,
        primary_keyword: v2.primary_keyword,
        keyword_count: v2.keyword_count,
        total_search_volume: v2.total_search_volume,
        avg_difficulty: v2.avg_difficulty,
        avg_cpc: v2.avg_cpc,
        dominant_intent: v2.dominant_intent,
        organic_opportunity_score: v2.organic_opportunity_score,
        paid_opportunity_score: v2.paid_opportunity_score,
        opportunity_value: v2.opportunity_value,
        method: v2.method,
        shared_urls: v2.shared_urls,
        topic_id: v2.topic_id,
        action: v2.action,
        target_url: v2.target_url,
        target_position: v2.target_position,
        target_score: v2.target_score,
        cannibalizing_urls: v2.cannibalizing_urls,
        competitor_positions: v2.competitor_positions,
        content_gap: v2.content_gap,
        basis: Some(PlanBasis::SearchConsole),
        search_console_baseline: Some(ClusterSearchConsole {
            clicks: 3,
            impressions: 90,
            position: 8.25,
        }),
    };
    let v3 = ResultsDatasetV3 {
        format: 3,
        keywords: vec![KeywordRecordV2 {
            id: "k-1".into(),
            keyword: "espresso machine maintenance".into(),
            search_volume: Some(340),
            cpc: None,
            competition: None,
            difficulty: None,
            intent: Intent::Commercial,
            secondary_intents: vec![],
            persona_avatar_name: None,
            cluster_id: "c-1".into(),
            cluster_name: "espresso machine maintenance".into(),
            organic_opportunity_score: 0.5,
            paid_opportunity_score: 0.1,
            opportunity_value: 3.0,
            monthly_searches: vec![],
            metrics_source: "dataforseo".into(),
            rankings: vec![],
            content_gap: false,
            source: None,
            topic_id: Some("t-1".into()),
            serp_features: Some(vec![SerpFeature::AiOverview]),
            people_also_ask: None,
            weak_spots: None,
            search_console: None,
        }],
        clusters: vec![cluster],
        personas: vec![],
        topics: vec![],
    };
    let read = decode_v3(&encode_v3(&v3)).unwrap();
    assert_eq!(
        read.keywords[0].serp_features,
        Some(vec![SerpFeature::AiOverview])
    );
    assert_eq!(read.keywords[0].ai_overview, None);
    let cluster = &read.clusters[0];
    assert_eq!(cluster.action, Some(ClusterAction::Consolidate));
    assert_eq!(cluster.basis, Some(PlanBasis::SearchConsole));
    assert_eq!(
        cluster.search_console_baseline.map(|b| b.impressions),
        Some(90)
    );
    assert!(
        DatasetBytes::decode(&encode_v3(&v3)).is_err(),
        "format 3 is not format 4"
    );
}
