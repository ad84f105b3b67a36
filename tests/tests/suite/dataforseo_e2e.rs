//! Jobs with DataForSEO end to end: the real pipeline against the emulator, the sample sites
//! and the DataForSEO mock, whose fixture files are also what the results are checked against.

use std::collections::{HashMap, HashSet};

use kr_core::dataset::{ClusterMethod, ResultsDataset, SerpFeature};
use kr_core::domain::JobStatus;
use kr_core::domain::{DomainName, KeywordList, LanguageCode, LocationCode};
use kr_core::domain::{Job, ProviderUsage};
use kr_core::service::jobs::CreateJobRequest;
use kr_core::store::UserStore;
use kr_research::research::{KeywordRecord, RankingKind};
use kr_tests::dataforseo_mock::{paths, MockConfig, MockData, MockDataForSeo, MockStats};
use kr_tests::pipeline_rig::{provider_at, rig, Rig};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};

async fn mock(config: MockConfig) -> MockDataForSeo {
    MockDataForSeo::start(config).await.unwrap()
}

async fn rig_for(mock: &MockDataForSeo, vars: &[(&str, &str)]) -> Rig {
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", vars).await;
    rig(Some(provider), &[]).await
}

fn usage(job: &Job) -> ProviderUsage {
    job.usage
        .clone()
        .expect("the job records its provider usage")
}

/// Every request the mock saw is in the job's usage, and so is every cent it billed.
fn assert_usage_matches(usage: &ProviderUsage, stats: &MockStats) {
    assert_eq!(usage.provider, "dataforseo");
    assert_eq!(
        usage.requests,
        stats.requests.values().sum::<u64>(),
        "{:?}",
        stats.requests
    );
    assert!(
        (usage.cost_usd - stats.total_cost).abs() < 1e-6,
        "job {} vs mock {}",
        usage.cost_usd,
        stats.total_cost
    );
}

fn by_keyword(dataset: &ResultsDataset) -> HashMap<&str, &KeywordRecord> {
    dataset
        .keywords
        .iter()
        .map(|k| (k.keyword.as_str(), k))
        .collect()
}

/// Volume, CPC, competition, history, difficulty and intent exactly as the mock's files say.
fn assert_metrics_match(record: &KeywordRecord, data: &MockData) {
    let k = record.keyword.as_str();
    assert_eq!(record.metrics_source, "dataforseo", "{k}");
    let Some(labs) = data.labs(k) else {
        // Asked, and the provider has nothing: no data, not an estimate.
        assert_eq!(record.search_volume, None, "{k}");
        assert_eq!(record.cpc, None, "{k}");
        return;
    };
    assert_eq!(record.search_volume, labs.search_volume, "{k}");
    assert_eq!(record.cpc, labs.cpc, "{k}");
    assert_eq!(record.competition, labs.competition, "{k}");
    assert_eq!(record.difficulty, data.difficulty(k), "{k}");
    let mut months: Vec<(i64, i64, i64)> = labs
        .monthly_searches
        .iter()
        .filter_map(|m| Some((m.year, m.month, m.search_volume?)))
        .collect();
    months.sort();
    let got: Vec<(i64, i64, i64)> = record
        .monthly_searches
        .iter()
        .map(|m| (i64::from(m.year), i64::from(m.month), m.search_volume))
        .collect();
    assert_eq!(got, months, "{k}");
    let intent = labs.main_intent.or_else(|| data.intent(k).map(|i| i.label));
    if let Some(intent) = intent {
        assert_eq!(record.intent.as_str(), intent.to_lowercase(), "{k}");
    }
}

fn shared_urls(data: &MockData, a: &str, b: &str) -> usize {
    let (Some(a), Some(b)) = (data.serp_urls(a), data.serp_urls(b)) else {
        return 0;
    };
    let a: HashSet<&String> = a.iter().take(10).collect();
    b.iter().take(10).filter(|u| a.contains(u)).count()
}

#[tokio::test]
async fn a_job_gets_measured_metrics_rankings_intents_serp_clusters_and_its_cost() {
    let mock = mock(MockConfig::default()).await;
    let data = mock.data();
    let rig = rig_for(&mock, &[]).await;
    let job = rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await;
    let done = rig.complete(job.id).await;
    let stats = mock.stats();
    let result = rig.dataset(job.id).await;
    let keywords = by_keyword(&result);

    for record in &result.keywords {
        assert_metrics_match(record, data);
    }
    let measured = result
        .keywords
        .iter()
        .filter(|k| k.search_volume.is_some())
        .count();
    assert!(measured >= 40, "{measured} keywords with a volume");

    // Rankings: every position the mock gives either domain, on the keyword it is for.
    let mut checked = 0;
    for target in [DEMO_PRIMARY, DEMO_COMPETITOR] {
        for ranked in data.ranked(target) {
            let Some(record) = keywords.get(ranked.keyword.to_lowercase().as_str()) else {
                continue;
            };
            checked += 1;
            let kind = if ranked.item_type == "paid" {
                RankingKind::Paid
            } else {
                RankingKind::Organic
            };
            assert!(
                record.rankings.iter().any(|r| r.domain == target
                    && r.position == ranked.rank_group
                    && r.url == ranked.url
                    && r.kind == kind),
                "{target} {ranked:?} in {:?}",
                record.rankings
            );
        }
    }
    let total = data.ranked(DEMO_PRIMARY).len() + data.ranked(DEMO_COMPETITOR).len();
    assert!(
        checked * 10 >= total * 9,
        "{checked} of {total} rankings kept"
    );
    // Competitors rank organically, the primary not at all: a content gap.
    let organic = |target: &str, keyword: &str| {
        data.ranked(target)
            .iter()
            .any(|r| r.item_type == "organic" && r.keyword.eq_ignore_ascii_case(keyword))
    };
    let gaps: Vec<&&KeywordRecord> = keywords
        .values()
        .filter(|k| organic(DEMO_COMPETITOR, &k.keyword) && !organic(DEMO_PRIMARY, &k.keyword))
        .collect();
    assert!(!gaps.is_empty());
    assert!(gaps.iter().all(|k| k.content_gap), "{gaps:?}");

    // SERP clusters: keywords sharing ≥ 3 of their top-10 URLs are together, around the
    // highest-volume one; a keyword sharing only 2 with a SERP cluster stays out of it.
    // Through DataForSEO's Standard queue (the default): collected tasks hold the keyword.
    assert!(stats.requests_to(paths::SERP_TASK_POST) >= 1);
    assert_eq!(stats.requests_to(paths::SERP_ORGANIC), 0);
    let fetched: Vec<&str> = stats
        .tasks_to(paths::SERP_TASK_GET)
        .iter()
        .filter(|t| t.status_code == 20000)
        .filter_map(|t| t.task["keyword"].as_str())
        .filter(|k| keywords.contains_key(k))
        .collect();
    assert!(fetched.len() >= 20, "{} SERPs fetched", fetched.len());
    let mut together = 0;
    for a in &fetched {
        for b in &fetched {
            let shared = shared_urls(data, a, b);
            if a < b && shared >= 3 {
                together += 1;
                assert_eq!(keywords[a].cluster_id, keywords[b].cluster_id, "{a} / {b}");
            }
        }
    }
    assert!(together >= 10, "{together} overlapping pairs");
    // Shops' results carry Google's click tracker, a new value per results page: the same shop
    // page is still one URL, and no tracker is kept.
    let shared: Vec<&String> = result
        .clusters
        .iter()
        .flat_map(|c| &c.shared_urls)
        .collect();
    assert!(
        shared.iter().any(|u| u.contains("target.com/")),
        "{shared:?}"
    );
    assert!(!shared.iter().any(|u| u.contains("srsltid")), "{shared:?}");
    for a in &fetched {
        let in_serp_cluster = fetched
            .iter()
            .any(|b| b != a && shared_urls(data, a, b) >= 3);
        if !in_serp_cluster {
            continue;
        }
        for b in &fetched {
            if shared_urls(data, a, b) == 2
                && !fetched
                    .iter()
                    .any(|c| shared_urls(data, b, c) >= 3 && c != b)
            {
                assert_ne!(keywords[a].cluster_id, keywords[b].cluster_id, "{a} / {b}");
            }
        }
        let cluster = result
            .clusters
            .iter()
            .find(|c| c.id == keywords[a].cluster_id)
            .unwrap();
        let top = result
            .keywords
            .iter()
            .filter(|k| k.cluster_id == cluster.id)
            .map(|k| k.search_volume.unwrap_or(0))
            .max()
            .unwrap();
        assert_eq!(
            keywords[cluster.primary_keyword.as_str()]
                .search_volume
                .unwrap_or(0),
            top,
            "{cluster:?}"
        );
    }

    // The results page beyond its links: each keyword keeps the features and questions its
    // page shows and its forum results as weak spots; one the engine has no results for
    // ("No Search Results") has an empty page, none of either.
    let mut shown = (0, 0);
    for record in &result.keywords {
        let Some((features, questions)) = data.serp_features(&record.keyword) else {
            let nothing = |list: Option<usize>| list.is_none_or(|length| length == 0);
            assert!(
                nothing(record.serp_features.as_ref().map(Vec::len))
                    && nothing(record.weak_spots.as_ref().map(Vec::len)),
                "{}",
                record.keyword
            );
            continue;
        };
        if !fetched.contains(&record.keyword.as_str()) {
            continue;
        }
        let mut expected: Vec<SerpFeature> = features.iter().map(|f| f.parse().unwrap()).collect();
        expected.sort_by_key(|f| SerpFeature::ALL.iter().position(|g| g == f));
        assert_eq!(
            record.serp_features.as_ref(),
            Some(&expected),
            "{}",
            record.keyword
        );
        assert_eq!(
            record.people_also_ask.as_ref(),
            Some(&questions),
            "{}",
            record.keyword
        );
        let forums: Vec<u32> = data
            .serp_urls(&record.keyword)
            .unwrap()
            .iter()
            .enumerate()
            .filter(|(_, url)| url.contains("reddit.com/"))
            .map(|(i, _)| i as u32 + 1)
            .collect();
        let spots: Vec<u32> = record
            .weak_spots
            .iter()
            .flatten()
            .map(|s| s.position)
            .collect();
        assert_eq!(spots, forums, "{}", record.keyword);
        shown.0 += usize::from(!questions.is_empty());
        shown.1 += usize::from(!spots.is_empty());
    }
    assert!(
        shown.0 >= 1 && shown.1 >= 3,
        "{shown:?} keywords with questions / weak spots"
    );

    // The retried ranked-keywords task (40202 once) was asked twice and paid for.
    let rival_tasks = stats
        .tasks_to(paths::RANKED_KEYWORDS)
        .into_iter()
        .filter(|t| t.task["target"] == DEMO_COMPETITOR)
        .count();
    assert_eq!(rival_tasks, 2);
    let usage = usage(&done);
    assert_usage_matches(&usage, &stats);
    assert!(usage.cost_usd > 0.0);
    assert!(!usage.cap_reached);
    assert_eq!(done.keyword_count, Some(result.keywords.len() as i64));
}

#[tokio::test]
async fn a_second_job_on_the_same_domains_is_answered_from_the_cache() {
    let mock = mock(MockConfig::default().without_faults()).await;
    let rig = rig_for(&mock, &[]).await;
    let first = rig
        .complete(rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await.id)
        .await;
    assert!(usage(&first).cost_usd > 0.0);
    // Every answer is cached once: each Labs request's and each collected SERP's (posting
    // and listing tasks give none).
    let answers = mock
        .stats()
        .tasks
        .iter()
        .filter(|t| t.path != paths::SERP_TASK_POST && t.path != paths::SERP_TASKS_READY)
        .count() as u64;
    mock.reset();
    let second_job = rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await;
    let second = rig.complete(second_job.id).await;
    let stats = mock.stats();
    let reused = usage(&second);
    assert_eq!(
        stats.requests.values().sum::<u64>(),
        0,
        "nothing asked twice: {:?}",
        stats.requests
    );
    assert_eq!(reused.cost_usd, 0.0);
    assert_eq!(reused.requests, 0);
    assert_eq!(reused.cache_hits, answers);
    // The same answers make the same results.
    let a = rig.dataset(first.id).await;
    let b = rig.dataset(second_job.id).await;
    assert_eq!(a.keywords, b.keywords);
}

#[tokio::test]
async fn the_spending_cap_stops_paid_calls_and_the_job_finishes_with_what_it_has() {
    let mock = mock(MockConfig::default().without_faults()).await;
    // Enough for the rankings and the ideas of discovery, not for measuring the rest.
    let rig = rig_for(&mock, &[("KR_DATAFORSEO_MAX_COST_PER_JOB", "0.03")]).await;
    let job = rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await;
    let done = rig.complete(job.id).await;
    let stats = mock.stats();
    let usage = usage(&done);
    assert!(usage.cap_reached);
    assert_eq!(usage.cap_usd, Some(0.03));
    assert_usage_matches(&usage, &stats);
    // Calls stop once the cap is reached; at most the calls already in flight go over it.
    let largest = stats.tasks.iter().map(|t| t.cost).fold(0.0, f64::max);
    assert!(
        usage.cost_usd >= 0.03 && usage.cost_usd < 0.03 + 2.0 * largest,
        "{usage:?}"
    );
    for after_the_cap in [
        paths::KEYWORD_OVERVIEW,
        paths::BULK_KEYWORD_DIFFICULTY,
        paths::SEARCH_INTENT,
        paths::SERP_ORGANIC,
        paths::SERP_TASK_POST,
    ] {
        assert_eq!(stats.requests_to(after_the_cap), 0, "{after_the_cap}");
    }
    let result = rig.dataset(job.id).await;
    let sources: HashSet<&str> = result
        .keywords
        .iter()
        .map(|k| k.metrics_source.as_str())
        .collect();
    assert!(sources.contains("estimate"), "{sources:?}");
    assert!(sources.contains("dataforseo"), "{sources:?}");
}

#[tokio::test]
async fn account_problems_fail_the_job_with_the_reason_and_give_the_run_back() {
    let mock = mock(MockConfig::default().without_faults()).await;
    let wrong = provider_at(&mock.base_url(), "mock-login", "not-the-password", &[]).await;
    let rig = rig(Some(wrong), &[]).await;
    let (user, job) = rig.start_at(DEMO_PRIMARY, &[], 2840).await;
    let (done, _) = rig.run(job.id).await;
    assert_eq!(done.status, JobStatus::Failed);
    assert!(
        done.error_message
            .as_deref()
            .unwrap()
            .contains("credentials"),
        "{:?}",
        done.error_message
    );
    let after = rig.store.user(user.id).await.unwrap().unwrap();
    assert_eq!(after.credits_balance, 1, "the run is given back");
    // 401 is never retried.
    assert_eq!(mock.stats().requests.values().sum::<u64>(), 1);

    let broke = self::mock(MockConfig::default().without_faults().with_balance(0.0)).await;
    let rig = rig_for(&broke, &[]).await;
    let (user, job) = rig.start_at(DEMO_PRIMARY, &[], 2840).await;
    let (done, _) = rig.run(job.id).await;
    assert_eq!(done.status, JobStatus::Failed);
    assert!(
        done.error_message.as_deref().unwrap().contains("balance"),
        "{:?}",
        done.error_message
    );
    let after = rig.store.user(user.id).await.unwrap().unwrap();
    assert_eq!(after.credits_balance, 1);
}

#[tokio::test]
async fn a_primary_that_cannot_be_reached_costs_nothing() {
    let mock = mock(MockConfig::default().without_faults()).await;
    let rig = rig_for(&mock, &[]).await;
    let (user, job) = rig
        .start_at("unreachable-primary.com", &[DEMO_PRIMARY], 2840)
        .await;
    let (done, _) = rig.run(job.id).await;
    assert_eq!(done.status, JobStatus::Failed);
    assert_eq!(done.usage, None, "no paid call");
    assert_eq!(mock.stats().requests.values().sum::<u64>(), 0);
    let after = rig.store.user(user.id).await.unwrap().unwrap();
    assert_eq!(after.credits_balance, 1);
}

#[tokio::test]
async fn markets_labs_does_not_cover_are_measured_with_google_ads() {
    let mock = mock(MockConfig::default()).await;
    let data = mock.data();
    let uncovered = kr_core::locales::locations()
        .iter()
        .map(|l| l.location_code)
        .find(|code| !data.labs_locations().contains(&i64::from(*code)))
        .expect("a location outside the mock's Labs list");
    let rig = rig_for(&mock, &[]).await;
    let (_, job) = rig
        .start_at(DEMO_PRIMARY, &[DEMO_COMPETITOR], uncovered)
        .await;
    let done = rig.complete(job.id).await;
    let result = rig.dataset(job.id).await;
    let mut matched = 0;
    for record in &result.keywords {
        assert_eq!(
            record.metrics_source, "dataforseo_google_ads",
            "{}",
            record.keyword
        );
        if let Some(ads) = data.ads(&record.keyword) {
            matched += 1;
            assert_eq!(
                record.search_volume, ads.search_volume,
                "{}",
                record.keyword
            );
            assert_eq!(record.cpc, ads.cpc, "{}", record.keyword);
            // Google Ads' 0..100 index, on the API's 0..1 scale.
            assert_eq!(
                record.competition,
                ads.competition_index.map(|i| i as f64 / 100.0),
                "{}",
                record.keyword
            );
        }
    }
    assert!(matched >= 10, "{matched} keywords measured by Google Ads");
    let stats = mock.stats();
    // Labs refuses the market (40501): once per domain, never asked again after that (the
    // competitor's first answer is the fault file's 40202, which is retried).
    let refused = stats
        .tasks_to(paths::RANKED_KEYWORDS)
        .iter()
        .filter(|t| t.status_code == 40501)
        .count();
    assert_eq!(refused, 2);
    assert_eq!(stats.requests_to(paths::RANKED_KEYWORDS), 3);
    // The first Google Ads request met a 40202 and was retried.
    assert!(stats.requests_to(paths::ADS_SEARCH_VOLUME) >= 2);
    assert_usage_matches(&usage(&done), &stats);
}

/// A keyword's words without order or a plural "s": "sump pumps" and "pump sump" read alike.
fn reordered_or_plural(keyword: &str) -> Vec<String> {
    let mut words: Vec<String> = keyword
        .split_whitespace()
        .map(|w| w.strip_suffix('s').unwrap_or(w).to_string())
        .collect();
    words.sort();
    words
}

#[tokio::test]
async fn past_the_serp_budget_close_variants_join_the_serp_cluster_of_their_twin() {
    let mock = mock(MockConfig::default().without_faults()).await;
    let rig = rig_for(&mock, &[("KR_DATAFORSEO_SERP_BUDGET", "60")]).await;
    // The crawl offered to the provider holds only queries naming the site's offerings, few of
    // them variants of each other; the user's own list brings some (unknown to the provider,
    // so past the budget) of keywords that get a SERP.
    let variants = [
        "moka pots",
        "pot moka",
        "beans espresso",
        "brew cold coffee",
        "kettle gooseneck",
    ];
    let (_, job) = rig
        .start_request(CreateJobRequest {
            primary_domain: DomainName::parse(DEMO_PRIMARY).unwrap(),
            competitor_domains: vec![DomainName::parse(DEMO_COMPETITOR).unwrap()],
            language_code: LanguageCode::parse("en").unwrap(),
            location_code: LocationCode::parse(2840).unwrap(),
            keywords: Some(KeywordList::from_json(&serde_json::json!(variants)).unwrap()),
            discover_keywords: true,
            callback_url: None,
            search_console_property: None,
        })
        .await;
    rig.complete(job.id).await;
    let result = rig.dataset(job.id).await;
    let with_serp = result
        .keywords
        .iter()
        .filter(|k| k.serp_features.is_some())
        .count();
    assert!(
        with_serp <= 60 && result.keywords.len() > 2 * with_serp,
        "{with_serp} of {} keywords with a SERP",
        result.keywords.len()
    );
    let method: HashMap<&str, Option<ClusterMethod>> = result
        .clusters
        .iter()
        .map(|c| (c.id.as_str(), c.method))
        .collect();
    // Per word set, the SERP cluster of the keywords with a SERP that have it.
    let mut serp_cluster_of: HashMap<Vec<String>, &str> = HashMap::new();
    for k in result.keywords.iter().filter(|k| k.serp_features.is_some()) {
        if method[k.cluster_id.as_str()] == Some(ClusterMethod::Serp) {
            serp_cluster_of
                .entry(reordered_or_plural(&k.keyword))
                .or_insert(k.cluster_id.as_str());
        }
    }
    let mut joined = 0;
    for k in result.keywords.iter().filter(|k| k.serp_features.is_none()) {
        let Some(&twin_cluster) = serp_cluster_of.get(&reordered_or_plural(&k.keyword)) else {
            continue;
        };
        assert_eq!(
            method[k.cluster_id.as_str()],
            Some(ClusterMethod::Serp),
            "{} (no SERP) is a variant of a SERP-clustered keyword of {twin_cluster}, \
             yet in {}",
            k.keyword,
            k.cluster_id
        );
        joined += 1;
    }
    assert!(
        joined > 0,
        "no keyword past the budget has a twin with a SERP"
    );
}
