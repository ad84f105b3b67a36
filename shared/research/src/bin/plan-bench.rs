//! Benchmark of the content plan ([`plan`]: topics, then each cluster's target page, action
//! and competitors) at the size of the largest jobs.
//!
//! Usage: `plan-bench [keywords] [runs]` (default: 100000 keywords, 5 runs). Prints the shape
//! of the input, what the plan found, and the minimum and median time of the runs on one
//! thread. Clustering is done once, untimed (`.ci/bench serp` and `.ci/bench clusters` time it).
//!
//! The input, from fixed seeds so every run sees the same:
//!
//! - the synthetic sump-pump niche of `cluster-eval` (products, brands, sizes, modifiers,
//!   places), so topics by head term have real words to work on;
//! - the first 1,000 keywords (the default SERP budget) with 10 result URLs each, drawn as in
//!   `serp-cluster-bench` (topics sharing pages, common pages across topics);
//! - rankings: one keyword in 10 has the primary site at a position 1 to 100 on one of its
//!   pages, one in 5 a competitor (3 competitors);
//! - 2,000 crawled primary pages titled and headed after keywords of the niche ("… | Acme").

#[path = "cluster-eval/synthetic.rs"]
mod synthetic;

use std::env;
use std::time::{Duration, Instant};

use kr_core::dataset::{
    ClusterAction, ClusterRecord, Intent, KeywordRecord, KeywordSource, Ranking, RankingKind,
};
use kr_research::clusters::topics::{group_topics, TopicInput};
use kr_research::clusters::{cluster_by_serp, SerpClusterConfig, SerpClusterInput};
use kr_research::plan::{plan, PageOutline, PlanSites};
use kr_research::research::summarize_cluster;
use kr_research::text::Language;
use synthetic::Rng;

const SERP_BUDGET: usize = 1000;
const PAGES: usize = 2000;
const COMPETITORS: [&str; 3] = [
    "rival-one.example",
    "rival-two.example",
    "rival-three.example",
];

fn main() {
    let mut args = env::args().skip(1).filter_map(|a| a.parse::<usize>().ok());
    let count = args.next().unwrap_or(100_000);
    let runs = args.next().unwrap_or(5).max(1);

    let niche = synthetic::niche_keywords(count);
    let serps = synthetic::serps(SERP_BUDGET.min(count));
    let mut rng = Rng(0x5EED_0000_97A4_0001);
    let pages: Vec<PageOutline> = (0..PAGES)
        .map(|i| {
            let keyword = &niche[(i * 37) % niche.len()].keyword;
            PageOutline {
                url: format!("https://acme.example/{}/{i}", keyword.replace(' ', "-")),
                title: format!("{} | Acme", title_case(keyword)),
                h1: title_case(keyword),
            }
        })
        .collect();
    let mut keywords = Vec::with_capacity(niche.len());
    let mut inputs = Vec::with_capacity(niche.len());
    let mut serp_urls = Vec::with_capacity(niche.len());
    for (index, item) in niche.iter().enumerate() {
        let mut rankings = Vec::new();
        if rng.below(10) == 0 {
            rankings.push(ranking(
                "acme.example",
                &pages[rng.below(PAGES)].url,
                &mut rng,
            ));
        }
        if rng.below(5) == 0 {
            let domain = COMPETITORS[rng.below(COMPETITORS.len())];
            let url = format!("https://{domain}/p/{}", rng.below(5000));
            rankings.push(ranking(domain, &url, &mut rng));
        }
        let urls = serps.get(index).and_then(|s| s.serp_urls.clone());
        inputs.push(SerpClusterInput {
            keyword: item.keyword.clone(),
            volume: item.value,
            lexical_value: item.value,
            serp_urls: urls.clone(),
        });
        serp_urls.push(urls);
        keywords.push(record(index, &item.keyword, item.value, rankings));
    }
    let clusters = cluster_by_serp(&inputs, &SerpClusterConfig::default());
    for cluster in &clusters {
        for &member in &cluster.members {
            keywords[member].cluster_id = cluster.id.clone();
        }
    }
    let records: Vec<ClusterRecord> = clusters
        .iter()
        .map(|c| summarize_cluster(c, &keywords))
        .collect();
    let competitors: Vec<String> = COMPETITORS.iter().map(|d| d.to_string()).collect();
    let language = Language::english();
    let sites = PlanSites {
        language: &language,
        primary_domain: Some("acme.example"),
        competitor_domains: &competitors,
        primary_pages: &pages,
        // A name every cluster without a page is checked against, as a crawled site has.
        brand: Some("acme pumps"),
        places: &[],
    };

    let mut times = Vec::with_capacity(runs);
    let mut last = None;
    for _ in 0..runs {
        let (mut run_records, mut run_keywords) = (records.clone(), keywords.clone());
        let started = Instant::now();
        let topics = plan(
            &clusters,
            &mut run_records,
            &mut run_keywords,
            &serp_urls,
            &sites,
        );
        times.push(started.elapsed());
        last = Some((topics, run_records));
    }
    let (topics, planned) = last.expect("at least one run");
    // The topic grouping alone, to see which half the time goes to.
    let inputs: Vec<TopicInput> = clusters
        .iter()
        .zip(&planned)
        .map(|(cluster, record)| TopicInput {
            name: &record.name,
            volume: record.total_search_volume as f64,
            shared_urls: &cluster.shared_urls,
        })
        .collect();
    let started = Instant::now();
    group_topics(&inputs, &language);
    let grouping = started.elapsed();
    let count_of = |action| planned.iter().filter(|c| c.action == Some(action)).count();
    times.sort();
    println!(
        "keywords {} ({} with SERPs, {} with rankings) | primary pages {PAGES} | clusters {}",
        keywords.len(),
        serp_urls.iter().filter(|s| s.is_some()).count(),
        keywords.iter().filter(|k| !k.rankings.is_empty()).count(),
        planned.len()
    );
    println!(
        "topics {} (largest {} clusters) | create {} improve {} consolidate {} | gaps {}",
        topics.len(),
        topics.iter().map(|t| t.cluster_count).max().unwrap_or(0),
        count_of(ClusterAction::Create),
        count_of(ClusterAction::Improve),
        count_of(ClusterAction::Consolidate),
        planned.iter().filter(|c| c.content_gap).count()
    );
    println!(
        "topics + mapping: min {} median {} ({runs} runs, one thread); topics alone {}",
        seconds(times[0]),
        seconds(times[times.len() / 2]),
        seconds(grouping)
    );
}

fn seconds(time: Duration) -> String {
    format!("{:.3} s", time.as_secs_f64())
}

fn title_case(text: &str) -> String {
    text.split(' ')
        .map(|word| {
            let mut chars = word.chars();
            chars
                .next()
                .map(|first| first.to_uppercase().chain(chars).collect())
                .unwrap_or_default()
        })
        .collect::<Vec<String>>()
        .join(" ")
}

fn ranking(domain: &str, url: &str, rng: &mut Rng) -> Ranking {
    Ranking {
        domain: domain.to_string(),
        position: 1 + rng.below(100) as u32,
        url: url.to_string(),
        kind: RankingKind::Organic,
    }
}

fn record(index: usize, keyword: &str, volume: f64, rankings: Vec<Ranking>) -> KeywordRecord {
    KeywordRecord {
        id: format!("k-{}", index + 1),
        keyword: keyword.to_string(),
        search_volume: Some(volume as i64),
        cpc: None,
        competition: None,
        difficulty: None,
        intent: Intent::Commercial,
        secondary_intents: Vec::new(),
        persona_avatar_name: None,
        cluster_id: String::new(),
        cluster_name: String::new(),
        organic_opportunity_score: 50.0,
        paid_opportunity_score: 0.0,
        opportunity_value: volume / 10.0,
        monthly_searches: Vec::new(),
        metrics_source: "dataforseo".to_string(),
        content_gap: rankings.iter().all(|r| r.domain != "acme.example") && !rankings.is_empty(),
        rankings,
        source: Some(KeywordSource::Ranked),
        topic_id: None,
        serp_features: None,
        people_also_ask: None,
        weak_spots: None,
        search_console: None,
        ai_overview: None,
    }
}
