//! [`assemble`] with provider data: metrics, rankings, intents and SERPs.

use super::tests::{crawl, input};
use super::*;
use crate::discovery::discover;
use crate::intent::Intent;
use crate::metrics::KeywordMetrics;
use kr_core::dataset::SerpFeature;

fn provider_data(candidates: &[Candidate]) -> Vec<Measured> {
    candidates
        .iter()
        .enumerate()
        .map(|(i, _)| Measured {
            metrics: KeywordMetrics {
                search_volume: (i % 2 == 0).then_some(1000),
                cpc: Some(2.0),
                competition: None,
                difficulty: Some(40),
                monthly_searches: Vec::new(),
            },
            source: "dataforseo".to_string(),
            rankings: vec![Ranking {
                domain: "www.acme.com".to_string(),
                position: 1,
                url: "https://acme.com/".to_string(),
                kind: RankingKind::Organic,
            }],
            ..Measured::default()
        })
        .collect()
}

#[test]
fn provider_metrics_and_rankings_can_replace_the_estimate() {
    let candidates = discover(&crawl(), &DiscoveryConfig::new(Language::english(), 50));
    let measured = provider_data(&candidates);
    let mut with_domain = input();
    with_domain.primary_domain = Some("acme.com".to_string());
    let ranked = assemble(
        &candidates,
        &measured,
        &with_domain,
        &OfflinePersonaGenerator,
    );
    let unranked_data: Vec<Measured> = measured
        .iter()
        .map(|m| Measured {
            rankings: Vec::new(),
            ..m.clone()
        })
        .collect();
    let unranked = assemble(
        &candidates,
        &unranked_data,
        &with_domain,
        &OfflinePersonaGenerator,
    );
    assert_eq!(ranked.keywords[0].metrics_source, "dataforseo");
    assert_eq!(ranked.keywords[0].search_volume, Some(1000));
    assert_eq!(ranked.keywords[1].search_volume, None);
    assert_eq!(ranked.keywords[0].rankings, measured[0].rankings);
    // Ranking first already: nothing left to gain.
    assert_eq!(ranked.keywords[0].opportunity_value, 0.0);
    assert!(unranked.keywords[0].opportunity_value > 0.0);
    assert!(
        ranked.keywords[0].organic_opportunity_score
            < unranked.keywords[0].organic_opportunity_score
    );
    // A paid ad at position 1 is not an organic ranking: the headroom stays.
    let paid_data: Vec<Measured> = measured
        .iter()
        .map(|m| Measured {
            rankings: m
                .rankings
                .iter()
                .map(|r| Ranking {
                    kind: RankingKind::Paid,
                    ..r.clone()
                })
                .collect(),
            ..m.clone()
        })
        .collect();
    let paid = assemble(
        &candidates,
        &paid_data,
        &with_domain,
        &OfflinePersonaGenerator,
    );
    assert_eq!(
        paid.keywords[0].organic_opportunity_score,
        unranked.keywords[0].organic_opportunity_score
    );
    // Missing entries: nothing known.
    let short = assemble(
        &candidates,
        &measured[..1],
        &with_domain,
        &OfflinePersonaGenerator,
    );
    assert_eq!(short.keywords[2].cpc, None);
    assert_eq!(short.keywords[2].metrics_source, NO_DATA_SOURCE);
    assert_eq!(short.keywords[0].metrics_source, "dataforseo");
}

#[test]
fn the_providers_intent_overrides_the_classifier() {
    let candidates = discover(&crawl(), &DiscoveryConfig::new(Language::english(), 50));
    let position = |text: &str| candidates.iter().position(|c| c.keyword == text).unwrap();
    let (prices, heating) = (
        position("boiler repair prices"),
        position("underfloor heating"),
    );
    let mut measured = provider_data(&candidates);
    measured[prices].intent = Some(Intent::Informational);
    let output = assemble(&candidates, &measured, &input(), &OfflinePersonaGenerator);
    assert_eq!(output.keywords[prices].intent, Intent::Informational);
    // No provider intent: the classifier's.
    assert_eq!(output.keywords[heating].intent, Intent::Informational);
    measured[heating].intent = Some(Intent::Transactional);
    let output = assemble(&candidates, &measured, &input(), &OfflinePersonaGenerator);
    assert_eq!(output.keywords[heating].intent, Intent::Transactional);
}

#[test]
fn without_a_provider_intent_the_classifier_reads_the_results_page() {
    let candidates = discover(&crawl(), &DiscoveryConfig::new(Language::english(), 50));
    let heating = candidates
        .iter()
        .position(|c| c.keyword == "underfloor heating")
        .unwrap();
    let mut measured = provider_data(&candidates);
    measured[heating].serp_urls = Some(vec![
        "https://shop.example/collections/underfloor-heating-kits".to_string(),
        "https://www.amazon.com/s?k=underfloor+heating".to_string(),
    ]);
    measured[heating].serp_features = Some(vec![SerpFeature::Shopping]);
    let output = assemble(&candidates, &measured, &input(), &OfflinePersonaGenerator);
    assert_eq!(output.keywords[heating].intent, Intent::Transactional);
}

#[test]
fn shared_results_cluster_around_the_highest_volume() {
    let candidates = discover(&crawl(), &DiscoveryConfig::new(Language::english(), 50));
    let position = |text: &str| candidates.iter().position(|c| c.keyword == text).unwrap();
    let group = [
        position("underfloor heating"),
        position("boiler repair"),
        position("emergency plumber"),
    ];
    let mut measured = provider_data(&candidates);
    for (volume, index) in [(50, group[0]), (5000, group[1]), (900, group[2])] {
        // Three results in common, seven of its own.
        let serp = (0..10).map(|n| match n {
            0..=2 => format!("https://shared{n}.example/"),
            _ => format!("https://own{index}-{n}.example/"),
        });
        measured[index].metrics.search_volume = Some(volume);
        measured[index].serp_urls = Some(serp.collect());
    }
    let output = assemble(&candidates, &measured, &input(), &OfflinePersonaGenerator);
    let cluster = &output.clusters[0];
    assert_eq!(cluster.primary_keyword, "boiler repair");
    assert_eq!(cluster.keyword_count, 3);
    for index in group {
        assert_eq!(output.keywords[index].cluster_id, cluster.id);
    }
    let clustered: usize = output.clusters.iter().map(|c| c.keyword_count).sum();
    assert_eq!(clustered, output.keywords.len());
    // Above the overlap the SERPs share, the words decide again.
    let strict = ResearchInput {
        serp_overlap: 4,
        ..input()
    };
    let output = assemble(&candidates, &measured, &strict, &OfflinePersonaGenerator);
    assert_ne!(
        output.keywords[group[0]].cluster_id,
        output.keywords[group[1]].cluster_id
    );
}
