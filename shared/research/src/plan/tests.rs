//! [`plan`] over hand-made clusters: each action, competitors and gaps, topics on records.

use kr_core::dataset::{
    ClusterMethod, KeywordSource, PlanBasis, Ranking, RankingKind, SearchConsoleMetrics,
    SearchConsolePage,
};

use super::*;
use crate::clusters::Cluster;

fn keyword(text: &str, volume: i64, rankings: Vec<Ranking>, content_gap: bool) -> KeywordRecord {
    KeywordRecord {
        id: format!("k-{text}"),
        keyword: text.to_string(),
        search_volume: Some(volume),
        cpc: None,
        competition: None,
        difficulty: None,
        intent: Intent::Informational,
        secondary_intents: Vec::new(),
        persona_avatar_name: None,
        cluster_id: String::new(),
        cluster_name: String::new(),
        organic_opportunity_score: 10.0,
        paid_opportunity_score: 0.0,
        opportunity_value: 1.0,
        monthly_searches: Vec::new(),
        metrics_source: "dataforseo".to_string(),
        rankings,
        content_gap,
        source: Some(KeywordSource::Crawl),
        topic_id: None,
        serp_features: None,
        people_also_ask: None,
        weak_spots: None,
        search_console: None,
        ai_overview: None,
    }
}

fn ranks(domain: &str, position: u32, path: &str) -> Ranking {
    Ranking {
        domain: domain.to_string(),
        position,
        url: format!("https://{domain}{path}"),
        kind: RankingKind::Organic,
    }
}

fn cluster(name: &str, members: Vec<usize>) -> Cluster {
    Cluster {
        id: format!("c-{}", name.replace(' ', "-")),
        name: name.to_string(),
        primary_keyword: name.to_string(),
        members,
        method: ClusterMethod::Lexical,
        shared_urls: Vec::new(),
    }
}

fn record(cluster: &Cluster, keywords: &[KeywordRecord]) -> ClusterRecord {
    crate::research::summarize_cluster(cluster, keywords)
}

fn page(path: &str, title: &str) -> PageOutline {
    PageOutline {
        url: format!("https://acme.test{path}"),
        title: format!("{title} | Acme"),
        h1: title.to_string(),
    }
}

struct Planned {
    records: Vec<ClusterRecord>,
    keywords: Vec<KeywordRecord>,
    topics: Vec<TopicRecord>,
}

fn run(
    clusters: &[Cluster],
    keywords: Vec<KeywordRecord>,
    serps: &[Option<Vec<String>>],
    pages: &[PageOutline],
) -> Planned {
    run_named(clusters, keywords, serps, pages, None)
}

fn run_named(
    clusters: &[Cluster],
    mut keywords: Vec<KeywordRecord>,
    serps: &[Option<Vec<String>>],
    pages: &[PageOutline],
    brand: Option<&str>,
) -> Planned {
    let mut records: Vec<ClusterRecord> = clusters.iter().map(|c| record(c, &keywords)).collect();
    let competitors = vec!["rival.test".to_string(), "other.test".to_string()];
    let topics = plan(
        clusters,
        &mut records,
        &mut keywords,
        serps,
        &PlanSites {
            language: &Language::english(),
            primary_domain: Some("acme.test"),
            competitor_domains: &competitors,
            primary_pages: pages,
            brand,
            places: &[],
        },
    );
    Planned {
        records,
        keywords,
        topics,
    }
}

#[test]
fn rankings_decide_improve_and_consolidate_and_competitors_are_listed_best_first() {
    let keywords = vec![
        keyword(
            "drain cleaning",
            900,
            vec![
                ranks("www.acme.test", 4, "/drain-cleaning"),
                ranks("rival.test", 2, "/drains"),
                ranks("other.test", 1, "/"),
            ],
            false,
        ),
        keyword(
            "sewer line repair",
            500,
            vec![
                ranks("acme.test", 7, "/sewer"),
                ranks("acme.test", 12, "/blog/sewer-repair"),
                ranks("acme.test", 30, "/"),
            ],
            false,
        ),
        keyword(
            "sewer repair",
            300,
            vec![ranks("blog.acme.test", 9, "/sewer-guide")],
            false,
        ),
        keyword(
            "tankless heater",
            200,
            vec![ranks("rival.test", 3, "/tankless")],
            true,
        ),
    ];
    let clusters = [
        cluster("drain cleaning", vec![0]),
        cluster("sewer line repair", vec![1, 2]),
        cluster("tankless heater", vec![3]),
    ];
    let planned = run(&clusters, keywords, &[], &[]);
    let [drain, sewer, tankless] = &planned.records[..] else {
        panic!()
    };

    assert_eq!(drain.action, Some(ClusterAction::Improve));
    assert_eq!(
        drain.target_url.as_deref(),
        Some("https://www.acme.test/drain-cleaning")
    );
    assert_eq!(drain.target_position, Some(4));
    assert_eq!(drain.target_score, None);
    let rivals: Vec<(&str, u32)> = drain
        .competitor_positions
        .iter()
        .map(|p| (p.domain.as_str(), p.position))
        .collect();
    assert_eq!(rivals, [("other.test", 1), ("rival.test", 2)]);
    assert!(!drain.content_gap);

    assert_eq!(sewer.action, Some(ClusterAction::Consolidate));
    assert_eq!(sewer.target_position, Some(7));
    assert_eq!(
        sewer.cannibalizing_urls,
        [
            "https://acme.test/sewer",
            "https://blog.acme.test/sewer-guide",
            "https://acme.test/blog/sewer-repair"
        ],
        "a page past position {COMPETING_DEPTH} does not compete"
    );

    assert_eq!(tankless.action, Some(ClusterAction::Create));
    assert_eq!(tankless.target_url, None);
    assert!(
        tankless.content_gap,
        "a competitor ranks and the site does not"
    );
}

#[test]
fn without_rankings_titles_decide_and_serp_positions_count_as_rankings() {
    let keywords = vec![
        keyword("water heater repair", 700, Vec::new(), false),
        keyword("gas line installation", 400, Vec::new(), false),
        keyword("sump pump alarm", 300, Vec::new(), true),
        keyword("leak detection", 100, Vec::new(), false),
    ];
    let clusters = [
        cluster("water heater repair", vec![0]),
        cluster("gas line installation", vec![1]),
        cluster("sump pump alarm", vec![2]),
        cluster("leak detection", vec![3]),
    ];
    let pages = [
        page("/water-heater-repair", "Water Heater Repair"),
        page("/services/gas-lines", "Gas Line Installation"),
        page("/gas-line-installation", "Gas Line Installation"),
        page("/", "Plumbers in Montclair"),
    ];
    let serps = vec![
        None,
        None,
        None,
        Some(vec![
            "https://rival.test/leaks".to_string(),
            "https://www.acme.test/leak-detection/".to_string(),
        ]),
    ];
    let planned = run(&clusters, keywords, &serps, &pages);
    let [heater, gas, sump, leak] = &planned.records[..] else {
        panic!()
    };

    assert_eq!(heater.action, Some(ClusterAction::Improve));
    assert_eq!(
        heater.target_url.as_deref(),
        Some("https://acme.test/water-heater-repair")
    );
    assert_eq!(heater.target_score, Some(1.0));
    assert_eq!(heater.target_position, None);

    assert_eq!(gas.action, Some(ClusterAction::Consolidate));
    assert_eq!(
        gas.cannibalizing_urls,
        [
            "https://acme.test/gas-line-installation",
            "https://acme.test/services/gas-lines"
        ]
    );

    assert_eq!(sump.action, Some(ClusterAction::Create));
    assert!(
        sump.content_gap,
        "offline: every keyword a content gap of the crawl"
    );

    assert_eq!(leak.action, Some(ClusterAction::Improve));
    assert_eq!(leak.target_position, Some(2));
    assert_eq!(leak.competitor_positions[0].position, 1);
}

#[test]
fn a_search_for_the_site_by_name_improves_its_home_page() {
    // No title says "Acme Plumbing" (they say "… | Acme"), yet the name is the home page's.
    // With a service, the name is that service's page's.
    let keywords = vec![
        keyword("acme plumbing reviews", 300, Vec::new(), false),
        keyword("plumbing reviews", 200, Vec::new(), false),
        keyword("acme plumbing drain cleaning", 100, Vec::new(), false),
    ];
    let clusters = [
        cluster("acme plumbing reviews", vec![0]),
        cluster("plumbing reviews", vec![1]),
        cluster("acme plumbing drain cleaning", vec![2]),
    ];
    let pages = [
        page("/drain-cleaning", "Drain Cleaning"),
        page("/", "Plumbers in Montclair"),
    ];
    let planned = run_named(&clusters, keywords, &[], &pages, Some("acme plumbing"));
    let [named, other, service] = &planned.records[..] else {
        panic!()
    };
    assert_eq!(named.action, Some(ClusterAction::Improve));
    assert_eq!(named.target_url.as_deref(), Some("https://acme.test/"));
    assert_eq!(named.target_score, None);
    assert_eq!(other.action, Some(ClusterAction::Create));
    assert_eq!(other.target_url, None);
    assert_eq!(service.action, Some(ClusterAction::Improve));
    assert_eq!(
        service.target_url.as_deref(),
        Some("https://acme.test/drain-cleaning")
    );
    assert_eq!(service.target_score, Some(1.0));
}

#[test]
fn every_cluster_and_keyword_gets_its_topic_and_topics_add_up() {
    let keywords = vec![
        keyword("sump pump", 1000, Vec::new(), false),
        keyword("sump pumps", 200, Vec::new(), false),
        keyword("sump pump alarm", 300, Vec::new(), false),
        keyword("french drain", 100, Vec::new(), false),
    ];
    let clusters = [
        cluster("sump pump", vec![0, 1]),
        cluster("sump pump alarm", vec![2]),
        cluster("french drain", vec![3]),
    ];
    let pages = [page("/sump-pumps", "Sump Pumps")];
    let planned = run(&clusters, keywords, &[], &pages);
    assert_eq!(planned.topics.len(), 2);
    let pump = &planned.topics[0];
    assert_eq!(pump.id, "t-sump-pump");
    assert_eq!(pump.pillar_cluster_id, "c-sump-pump");
    assert_eq!(pump.cluster_ids, ["c-sump-pump", "c-sump-pump-alarm"]);
    assert_eq!((pump.cluster_count, pump.keyword_count), (2, 3));
    assert_eq!(pump.total_search_volume, 1500);
    assert_eq!(pump.opportunity_value, 3.0);
    assert_eq!((pump.actions.improve, pump.actions.create), (1, 1));
    for (record, cluster) in planned.records.iter().zip(&clusters) {
        let topic = record.topic_id.as_deref().unwrap();
        for &m in &cluster.members {
            assert_eq!(planned.keywords[m].topic_id.as_deref(), Some(topic));
        }
    }
    assert_eq!(
        planned.records[2].topic_id.as_deref(),
        Some("t-french-drain")
    );
}

/// Search Console figures over the last 28 days: `pages` as (path, clicks, impressions,
/// position), most clicks first as the import orders them.
fn measured(
    mut record: KeywordRecord,
    previous_clicks: u64,
    pages: &[(&str, u64, u64, f64)],
) -> KeywordRecord {
    let pages: Vec<SearchConsolePage> = pages
        .iter()
        .map(|&(path, clicks, impressions, position)| SearchConsolePage {
            page: format!("https://acme.test{path}"),
            clicks,
            impressions,
            position,
        })
        .collect();
    let clicks = pages.iter().map(|p| p.clicks).sum();
    let impressions: u64 = pages.iter().map(|p| p.impressions).sum();
    let weighted: f64 = pages
        .iter()
        .map(|p| p.position * p.impressions as f64)
        .sum();
    record.search_console = Some(SearchConsoleMetrics {
        clicks,
        impressions,
        ctr: clicks as f64 / impressions.max(1) as f64,
        position: weighted / impressions.max(1) as f64,
        page: pages.first().map(|p| p.page.clone()),
        previous_clicks,
        previous_impressions: 0,
        pages,
        daily: Vec::new(),
    });
    record
}

/// The crawl's pages of the Search Console tests: a title for each cluster, so measured data
/// has text to win against.
fn measured_site() -> Vec<PageOutline> {
    vec![
        page("/", "Acme Plumbing"),
        page("/drain-cleaning", "Drain Cleaning"),
        page("/services/water-heater-repair", "Water Heater Repair"),
        page("/blog/water-heater-repair", "Water Heater Repair: a Guide"),
        page("/sump-pump-installation", "Sump Pump Installation"),
    ]
}

#[test]
fn search_console_impressions_decide_improve_before_rankings_and_titles() {
    let keywords = vec![
        // Ranked by the provider on one page, titled by another: Search Console shows the
        // queries on a third, and that one is improved, at its measured position.
        measured(
            keyword(
                "drain cleaning",
                900,
                vec![ranks("acme.test", 3, "/drain-cleaning")],
                false,
            ),
            0,
            &[("/blog/clogged-drains", 5, 300, 6.0)],
        ),
        measured(
            keyword("drain cleaning cost", 400, Vec::new(), false),
            0,
            &[("/blog/clogged-drains", 2, 100, 10.0)],
        ),
        measured(
            keyword("drain cleaning near me", 300, Vec::new(), false),
            0,
            &[("/drain-cleaning", 9, 150, 4.0)],
        ),
        // Without figures: today's rule.
        keyword("sump pump installation", 200, Vec::new(), false),
    ];
    let clusters = [
        cluster("drain cleaning", vec![0, 1, 2]),
        cluster("sump pump installation", vec![3]),
    ];
    let planned = run(&clusters, keywords, &[], &measured_site());
    let [drain, sump] = &planned.records[..] else {
        panic!()
    };
    assert_eq!(drain.action, Some(ClusterAction::Improve));
    assert_eq!(drain.basis, Some(PlanBasis::SearchConsole));
    assert_eq!(
        drain.target_url.as_deref(),
        Some("https://acme.test/blog/clogged-drains"),
        "the page with the most impressions (400), not the one with the most clicks"
    );
    assert_eq!(
        drain.target_position,
        Some(7),
        "(6 × 300 + 10 × 100) / 400 = 7, weighted by impressions"
    );
    assert_eq!(drain.target_score, None);
    assert!(drain.cannibalizing_urls.is_empty());
    let baseline = drain.search_console_baseline.unwrap();
    assert_eq!((baseline.clicks, baseline.impressions), (16, 550));
    assert_eq!(
        baseline.position, 6.18,
        "(6 × 300 + 10 × 100 + 4 × 150) / 550"
    );

    assert_eq!(sump.action, Some(ClusterAction::Improve));
    assert_eq!(sump.basis, Some(PlanBasis::Crawl));
    assert_eq!(
        sump.target_url.as_deref(),
        Some("https://acme.test/sump-pump-installation")
    );
    assert_eq!(sump.search_console_baseline, None);
}

#[test]
fn one_query_shown_on_two_pages_is_measured_cannibalization() {
    let keywords = vec![
        measured(
            keyword("water heater repair", 700, Vec::new(), false),
            0,
            &[
                ("/blog/water-heater-repair", 30, 400, 5.2),
                ("/services/water-heater-repair", 12, 900, 8.4),
                ("/", 0, 3, 41.0),
            ],
        ),
        measured(
            keyword("water heater repair cost", 300, Vec::new(), false),
            0,
            &[("/services/water-heater-repair", 4, 80, 9.0)],
        ),
        // One page with impressions and one without: no cannibalization.
        measured(
            keyword("drain cleaning", 900, Vec::new(), false),
            0,
            &[
                ("/drain-cleaning", 20, 500, 3.0),
                ("/blog/clogged-drains", 0, 0, 0.0),
            ],
        ),
    ];
    let clusters = [
        cluster("water heater repair", vec![0, 1]),
        cluster("drain cleaning", vec![2]),
    ];
    let planned = run(&clusters, keywords, &[], &measured_site());
    let [heater, drain] = &planned.records[..] else {
        panic!()
    };
    assert_eq!(heater.action, Some(ClusterAction::Consolidate));
    assert_eq!(heater.basis, Some(PlanBasis::SearchConsole));
    assert_eq!(
        heater.cannibalizing_urls,
        [
            "https://acme.test/blog/water-heater-repair",
            "https://acme.test/services/water-heater-repair",
            "https://acme.test/",
        ],
        "the cannibalized query's pages with impressions, most clicks first"
    );
    assert_eq!(
        heater.target_url.as_deref(),
        Some("https://acme.test/blog/water-heater-repair")
    );
    assert_eq!(heater.target_position, Some(5));

    assert_eq!(drain.action, Some(ClusterAction::Improve));
    assert_eq!(drain.basis, Some(PlanBasis::SearchConsole));
    assert_eq!(drain.target_position, Some(3));
}

#[test]
fn impressions_only_far_down_are_create_unless_a_page_is_titled_for_it() {
    let keywords = vec![
        // Shown on the home page at 45: no page targets it, and none is titled for it.
        measured(
            keyword("tankless water heater", 600, Vec::new(), true),
            0,
            &[("/", 0, 25, 45.0)],
        ),
        // Shown at 38 on a blog post, and a page is titled for it: the crawl's rule stands.
        measured(
            keyword("sump pump installation", 200, Vec::new(), false),
            0,
            &[("/blog/basement-flooding", 0, 12, 38.0)],
        ),
    ];
    let clusters = [
        cluster("tankless water heater", vec![0]),
        cluster("sump pump installation", vec![1]),
    ];
    let planned = run(&clusters, keywords, &[], &measured_site());
    let [tankless, sump] = &planned.records[..] else {
        panic!()
    };
    assert_eq!(tankless.action, Some(ClusterAction::Create));
    assert_eq!(tankless.basis, Some(PlanBasis::SearchConsole));
    assert_eq!(tankless.target_url, None);
    assert_eq!(tankless.search_console_baseline.unwrap().impressions, 25);

    assert_eq!(sump.action, Some(ClusterAction::Improve));
    assert_eq!(sump.basis, Some(PlanBasis::Crawl));
    assert_eq!(
        sump.target_url.as_deref(),
        Some("https://acme.test/sump-pump-installation")
    );
    assert!(sump.target_score.is_some());
}

#[test]
fn without_search_console_every_cluster_says_its_rule() {
    let keywords = vec![
        keyword(
            "drain cleaning",
            900,
            vec![ranks("acme.test", 4, "/drain-cleaning")],
            false,
        ),
        keyword("water heater repair", 700, Vec::new(), false),
        keyword("gas line installation", 400, Vec::new(), false),
    ];
    let clusters = [
        cluster("drain cleaning", vec![0]),
        cluster("water heater repair", vec![1]),
        cluster("gas line installation", vec![2]),
    ];
    let planned = run(&clusters, keywords, &[], &measured_site());
    let bases: Vec<_> = planned
        .records
        .iter()
        .map(|r| (r.action, r.basis, r.search_console_baseline))
        .collect();
    assert_eq!(
        bases,
        [
            (
                Some(ClusterAction::Improve),
                Some(PlanBasis::Rankings),
                None
            ),
            (
                Some(ClusterAction::Consolidate),
                Some(PlanBasis::Crawl),
                None
            ),
            (Some(ClusterAction::Create), Some(PlanBasis::Crawl), None),
        ]
    );
}
