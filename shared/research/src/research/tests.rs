use std::collections::HashSet;

use super::*;
use crate::intent::Intent;
use crate::SiteRole;

fn page(site: SiteRole, title: &str, headings: &[&str], body: &str) -> PageContent {
    PageContent {
        url: format!("https://example.com/{}", title.replace(' ', "-")),
        site: Some(site),
        title: title.to_string(),
        headings: headings.iter().map(|h| h.to_string()).collect(),
        body_text: body.to_string(),
        ..PageContent::default()
    }
}

pub(super) fn crawl() -> Vec<PageContent> {
    vec![
        page(
            SiteRole::Primary,
            "Acme Plumbing | Emergency plumber",
            &["Emergency plumber near me", "Boiler repair"],
            "Acme sends an emergency plumber within the hour. Boiler repair and leak detection.",
        ),
        page(
            SiteRole::Primary,
            "Boiler repair prices",
            &["Boiler repair cost", "Cheap boiler service"],
            "Our boiler repair prices are fixed. Boiler service for landlords.",
        ),
        page(
            SiteRole::Competitor(0),
            "Best plumbers in town",
            &["Emergency plumber", "Bathroom installation"],
            "Compare bathroom installation quotes. Emergency plumber reviews. Emergency plumbers on call.",
        ),
        page(
            SiteRole::Competitor(1),
            "Bathroom installation guide",
            &["How to plan a bathroom installation", "Underfloor heating"],
            "Underfloor heating explained. Bathroom installation for business premises. Electric \
             underfloor heating with electric underfloor heating mats.",
        ),
    ]
}

/// Assembly of every phrase the crawl holds, without the offline selection of
/// [`super::research`]: competitor-only phrases (content gaps) and off-topic ones included.
pub(super) fn research(pages: &[PageContent], input: &ResearchInput) -> ResearchOutput {
    let candidates = crate::discovery::discover(
        pages,
        &DiscoveryConfig::new(input.language.clone(), input.max_keywords),
    );
    let site = SiteProfile::from_pages(pages, &input.language);
    research_candidates(pages, &candidates, site, input)
}

#[test]
fn research_keeps_the_offline_keywords_in_their_order() {
    let output = super::research(&crawl(), &input());
    let offline =
        crate::offline::offline_keywords(&crawl(), &Language::english(), input().max_keywords);
    let texts: Vec<&str> = output.keywords.iter().map(|k| k.keyword.as_str()).collect();
    let expected: Vec<&str> = offline.iter().map(|c| c.keyword.as_str()).collect();
    assert_eq!(texts, expected);
    assert!(!texts.contains(&"underfloor heating"), "{texts:?}");
}

pub(super) fn input() -> ResearchInput {
    ResearchInput {
        brand_terms: vec!["acme.com".to_string()],
        max_keywords: 200,
        ..ResearchInput::default()
    }
}

#[test]
fn every_keyword_has_a_cluster_persona_slot_and_estimated_metrics() {
    let output = research(&crawl(), &input());
    assert!(!output.keywords.is_empty());
    let cluster_ids: HashSet<&str> = output.clusters.iter().map(|c| c.id.as_str()).collect();
    let persona_names: HashSet<&str> = output
        .personas
        .iter()
        .map(|p| p.avatar_name.as_str())
        .collect();
    for keyword in &output.keywords {
        assert!(
            cluster_ids.contains(keyword.cluster_id.as_str()),
            "{}",
            keyword.keyword
        );
        if let Some(name) = &keyword.persona_avatar_name {
            assert!(persona_names.contains(name.as_str()));
        }
        assert_eq!(keyword.metrics_source, "estimate");
        assert!(keyword.search_volume.is_some() && keyword.cpc.is_some());
        assert!(keyword.monthly_searches.is_empty() && keyword.rankings.is_empty());
        assert!((0.0..=100.0).contains(&keyword.organic_opportunity_score));
        assert!(keyword.opportunity_value >= 0.0);
    }
    let clustered: usize = output.clusters.iter().map(|c| c.keyword_count).sum();
    assert_eq!(clustered, output.keywords.len());
    assert!((MIN_PERSONAS..=MAX_PERSONAS).contains(&output.personas.len()));
    let assigned: usize = output.personas.iter().map(|p| p.keyword_count).sum();
    let with_persona = output
        .keywords
        .iter()
        .filter(|k| k.persona_avatar_name.is_some())
        .count();
    assert_eq!(assigned, with_persona);
    let ids: HashSet<&str> = output.keywords.iter().map(|k| k.id.as_str()).collect();
    assert_eq!(ids.len(), output.keywords.len());
}

use crate::personas::{MAX_PERSONAS, MIN_PERSONAS};

#[test]
fn intent_brand_and_content_gap_reach_the_records() {
    let output = research(&crawl(), &input());
    let find = |text: &str| {
        output
            .keywords
            .iter()
            .find(|k| k.keyword == text)
            .unwrap_or_else(|| panic!("{text} missing"))
    };
    assert_eq!(find("acme plumbing").intent, Intent::Navigational);
    assert_eq!(find("boiler repair prices").intent, Intent::Transactional);
    assert_eq!(find("best plumbers").intent, Intent::Commercial);
    assert_eq!(find("underfloor heating").intent, Intent::Informational);
    assert!(find("bathroom installation").content_gap);
    assert!(!find("emergency plumber").content_gap);
    assert_eq!(
        find("cheap boiler service").persona_avatar_name.as_deref(),
        Some("Budget-conscious Bea")
    );
    // Only a competitor writes about it: nothing the primary site offers, no persona.
    assert_eq!(find("underfloor heating").persona_avatar_name, None);
    for persona in &output.personas {
        assert!(persona.keyword_count * 2 <= output.keywords.len());
    }
}

#[test]
fn cluster_aggregates_match_their_members() {
    // "best boiler repair", a close variant of "boiler repair", so that some cluster has two members.
    let mut pages = crawl();
    pages.push(page(
        SiteRole::Competitor(1),
        "Best boiler repair",
        &["Best boiler repair"],
        "The best boiler repair for every make.",
    ));
    let output = research(&pages, &input());
    for record in &output.clusters {
        let members: Vec<&KeywordRecord> = output
            .keywords
            .iter()
            .filter(|k| k.cluster_id == record.id)
            .collect();
        assert_eq!(record.keyword_count, members.len());
        assert!(members.iter().any(|k| k.keyword == record.primary_keyword));
        let volume: i64 = members.iter().filter_map(|k| k.search_volume).sum();
        assert_eq!(record.total_search_volume, volume);
        let value: f64 = members.iter().map(|k| k.opportunity_value).sum();
        assert!((record.opportunity_value - value).abs() < 0.01);
        let cpc = members.iter().filter_map(|k| k.cpc).sum::<f64>() / members.len() as f64;
        assert!((record.avg_cpc.unwrap() - cpc).abs() <= 0.005 + 1e-9);
        let dominant = members
            .iter()
            .filter(|k| k.intent == record.dominant_intent)
            .count();
        for intent in Intent::ALL {
            assert!(members.iter().filter(|k| k.intent == intent).count() <= dominant);
        }
    }
    // Close variants only ("quotes" and "how to plan" are other queries than "bathroom
    // installation"), but "best boiler repair" joins "boiler repair", so the sums above are tested.
    assert!(
        output.clusters.iter().any(|c| c.keyword_count >= 2),
        "{:?}",
        output.clusters
    );
}

#[test]
fn is_deterministic() {
    let first = research(&crawl(), &input());
    for _ in 0..3 {
        assert_eq!(research(&crawl(), &input()), first);
    }
}

#[test]
fn serialises_as_the_contract_records() {
    let output = research(&crawl(), &input());
    let keyword = serde_json::to_value(&output.keywords[0]).unwrap();
    for field in [
        "id",
        "keyword",
        "searchVolume",
        "cpc",
        "competition",
        "difficulty",
        "intent",
        "personaAvatarName",
        "clusterId",
        "clusterName",
        "organicOpportunityScore",
        "paidOpportunityScore",
        "opportunityValue",
        "monthlySearches",
        "metricsSource",
        "rankings",
    ] {
        assert!(keyword.get(field).is_some(), "keyword.{field}");
    }
    let cluster = serde_json::to_value(&output.clusters[0]).unwrap();
    for field in [
        "id",
        "name",
        "primaryKeyword",
        "keywordCount",
        "totalSearchVolume",
        "avgDifficulty",
        "avgCpc",
        "dominantIntent",
        "organicOpportunityScore",
        "paidOpportunityScore",
        "opportunityValue",
    ] {
        assert!(cluster.get(field).is_some(), "cluster.{field}");
    }
}

#[test]
fn empty_crawl_gives_empty_results_with_default_personas() {
    let output = research(&[], &ResearchInput::default());
    assert!(output.keywords.is_empty() && output.clusters.is_empty());
    assert_eq!(output.personas.len(), MIN_PERSONAS);
}

#[test]
fn a_local_roofers_crawl_gives_personas_of_its_towns_and_services() {
    let output = research(
        &crate::personas::site_tests::roofing_pages(),
        &ResearchInput::default(),
    );
    assert!((3..=6).contains(&output.personas.len()));
    for persona in &output.personas {
        assert!(persona.keyword_count * 2 <= output.keywords.len());
    }
    let local = output
        .personas
        .iter()
        .find(|p| p.avatar_name == "Local Lena")
        .expect("a local persona");
    assert!(local.description.contains("Newark") && local.description.contains("roof"));
    assert!(output
        .keywords
        .iter()
        .any(|k| k.keyword.contains("newark")
            && k.persona_avatar_name.as_deref() == Some("Local Lena")));
}

#[test]
fn the_site_s_own_name_is_a_brand_search_for_its_home_page() {
    // The domain spells no brand and the titles only the trade: the name is in the logo.
    let plumber = |path: &str, title: &str, headings: &[&str], body: &str| PageContent {
        url: format!("https://plumbing-pros.test{path}"),
        site: Some(SiteRole::Primary),
        title: title.to_string(),
        headings: headings.iter().map(|h| h.to_string()).collect(),
        body_text: body.to_string(),
        anchors: vec!["Brookside Plumbing".to_string()],
        image_alts: vec!["Brookside Plumbing logo".to_string()],
        ..PageContent::default()
    };
    let pages = vec![
        plumber(
            "/",
            "Plumbing — Residential & Emergency Plumbing",
            &["Emergency repairs"],
            "Brookside Plumbing fixes leaks. Plumbing repair and emergency plumbing.",
        ),
        plumber(
            "/services",
            "Services — Plumbing",
            &["Leak repair"],
            "Residential plumbing services and plumbing repair by Brookside Plumbing.",
        ),
    ];
    let output = research(&pages, &ResearchInput::default());
    let brand = output
        .keywords
        .iter()
        .find(|k| k.keyword == "brookside plumbing")
        .expect("the name is a keyword");
    assert_eq!(brand.intent, Intent::Navigational);
    let cluster = output
        .clusters
        .iter()
        .find(|c| c.id == brand.cluster_id)
        .expect("its cluster");
    assert_eq!(
        cluster.action,
        Some(kr_core::dataset::ClusterAction::Improve)
    );
    assert_eq!(
        cluster.target_url.as_deref(),
        Some("https://plumbing-pros.test/")
    );
}

#[test]
fn a_trade_at_the_end_of_every_title_is_no_brand() {
    // "… | Plumbing Services" on every page names what the site does, in words its text
    // writes in lowercase: no search for "plumbing services" is a search for this site.
    let page = |path: &str, title: &str| PageContent {
        url: format!("https://drains.test{path}"),
        site: Some(SiteRole::Primary),
        title: title.to_string(),
        headings: vec![title.split(" | ").next().unwrap_or_default().to_string()],
        body_text: "Local plumbing services: drain cleaning and leak repair. Our plumbing \
                    services come with a quote."
            .to_string(),
        ..PageContent::default()
    };
    let pages = vec![
        page("/drain-cleaning", "Drain Cleaning | Plumbing Services"),
        page("/leak-repair", "Leak Repair | Plumbing Services"),
    ];
    let site = SiteProfile::from_pages(&pages, &Language::english());
    assert_eq!(site.name.as_deref(), Some("Plumbing Services"));
    assert_eq!(site.brand, None);
    let output = research(&pages, &ResearchInput::default());
    for keyword in &output.keywords {
        assert_ne!(keyword.intent, Intent::Navigational, "{}", keyword.keyword);
    }
}
