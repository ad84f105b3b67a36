//! Jobs on the user's own keywords through the real pipeline (emulator, sample sites on
//! loopback): every imported keyword is kept and researched like a discovered one and marked
//! `imported`, a list-only job keeps nothing else, and with the DataForSEO mock the imported
//! keywords are measured.

use std::collections::HashMap;

use kr_core::dataset::{KeywordRecord, KeywordSource, ResultsDataset};
use kr_core::domain::{DomainName, KeywordList, LanguageCode, LocationCode};
use kr_core::service::jobs::CreateJobRequest;
use kr_tests::dataforseo_mock::{MockConfig, MockDataForSeo};
use kr_tests::pipeline_rig::{provider_at, rig, Rig};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::json;

const IMPORTED: [&str; 3] = ["cold brew coffee", "Coffee Grinder", "zebra crossing paint"];

fn request(discover: bool) -> CreateJobRequest {
    CreateJobRequest {
        primary_domain: DomainName::parse(DEMO_PRIMARY).unwrap(),
        competitor_domains: vec![DomainName::parse(DEMO_COMPETITOR).unwrap()],
        language_code: LanguageCode::parse("en").unwrap(),
        location_code: LocationCode::parse(2840).unwrap(),
        keywords: Some(KeywordList::from_json(&json!(IMPORTED)).unwrap()),
        discover_keywords: discover,
        callback_url: None,
        search_console_property: None,
    }
}

async fn run(rig: &Rig, discover: bool) -> ResultsDataset {
    let (_, job) = rig.start_request(request(discover)).await;
    assert_eq!(job.imported_keywords, 3);
    rig.complete(job.id).await;
    rig.dataset(job.id).await
}

fn by_keyword(dataset: &ResultsDataset) -> HashMap<&str, &KeywordRecord> {
    dataset
        .keywords
        .iter()
        .map(|k| (k.keyword.as_str(), k))
        .collect()
}

fn assert_researched(record: &KeywordRecord) {
    assert_eq!(
        record.source,
        Some(KeywordSource::Imported),
        "{}",
        record.keyword
    );
    assert!(!record.cluster_id.is_empty() && !record.cluster_name.is_empty());
    assert!(record.organic_opportunity_score >= 0.0);
}

#[tokio::test]
async fn imported_keywords_join_the_discovered_ones_and_say_where_they_came_from() {
    let rig = rig(None, &[]).await;
    let dataset = run(&rig, true).await;
    let keywords = by_keyword(&dataset);
    for phrase in ["cold brew coffee", "coffee grinder", "zebra crossing paint"] {
        let record = keywords
            .get(phrase)
            .unwrap_or_else(|| panic!("{phrase} is kept"));
        assert_researched(record);
        assert_eq!(record.metrics_source, "estimate");
    }
    let discovered: Vec<&KeywordRecord> = dataset
        .keywords
        .iter()
        .filter(|k| k.source == Some(KeywordSource::Crawl))
        .collect();
    assert!(discovered.len() >= 50, "{} discovered", discovered.len());
    assert_eq!(dataset.keywords.len(), discovered.len() + 3);
    // Ranked by relevance like the others: one the site is about comes before one it never
    // mentions.
    let rank = |phrase: &str| {
        dataset
            .keywords
            .iter()
            .position(|k| k.keyword == phrase)
            .unwrap()
    };
    assert!(rank("cold brew coffee") < rank("zebra crossing paint"));
}

#[tokio::test]
async fn a_list_only_job_researches_exactly_the_list() {
    let rig = rig(None, &[]).await;
    let dataset = run(&rig, false).await;
    let mut phrases: Vec<&str> = dataset
        .keywords
        .iter()
        .map(|k| k.keyword.as_str())
        .collect();
    phrases.sort_unstable();
    assert_eq!(
        phrases,
        ["coffee grinder", "cold brew coffee", "zebra crossing paint"]
    );
    dataset.keywords.iter().for_each(assert_researched);
    assert!(!dataset.clusters.is_empty());
}

#[tokio::test]
async fn with_the_data_provider_imported_keywords_are_measured() {
    let mock = MockDataForSeo::start(MockConfig::default()).await.unwrap();
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &[]).await;
    let rig = rig(Some(provider), &[]).await;
    let dataset = run(&rig, true).await;
    let keywords = by_keyword(&dataset);
    let grinder = keywords["coffee grinder"];
    assert_researched(grinder);
    assert_eq!(grinder.metrics_source, "dataforseo");
    assert_eq!(grinder.search_volume, Some(90_500));
    // Asked and unknown to the provider: no data, not an estimate.
    let unknown = keywords["zebra crossing paint"];
    assert_researched(unknown);
    assert_eq!(unknown.search_volume, None);
    assert!(dataset
        .keywords
        .iter()
        .any(|k| k.source == Some(KeywordSource::Ranked)));
}
