//! A job's Search Console import (issue 48, part 2), end to end: the real pipeline over the
//! sample sites, its import read through kr-google from the Google mock (in process), the
//! connection and its sealed grant in the emulator's table, the credentials key in its
//! Secrets Manager. Keywords carry the figures the mock's `/__mock/facts` publishes; queries
//! only Search Console knew join the job; 429s are retried; a revoked grant completes the
//! job without the data and says why; another account cannot name the property; the big
//! property's million rows are read whole, 25,000 at a time.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use kr_aws::google::GoogleSource;
use kr_core::dataset::{compared_keyword, KeywordSource, SEARCH_CONSOLE_SOURCE};
use kr_core::domain::{
    DomainName, ImportStatus, JobStatus, LanguageCode, LocationCode, Plan, PropertyUrl, UserId,
};
use kr_core::service::account::issue_api_key;
use kr_core::service::jobs::{check_search_console_property, CreateJobRequest};
use kr_core::service::search_console::{
    access, begin_connection, complete_connection, AnalyticsDimension, AnalyticsQuery,
};
use kr_core::store::SearchConsoleStore;
use kr_google::search_analytics::SearchAnalyticsRequest;
use kr_google::Google;
use kr_pipeline::stages::search_console::SearchConsoleParts;
use kr_pipeline::stages::ResearchSettings;
use kr_tests::google_mock::{FaultRequest, GoogleMockConfig, MockGoogle, BIG_ROWS, BIG_SITE_URL};
use kr_tests::harness::{self, Call};
use kr_tests::pipeline_rig::{rig_with_search_console, Rig};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};

const PROPERTY: &str = "sc-domain:brightbrew-coffee.com";
const REDIRECT: &str = "http://127.0.0.1:9000/api/v1/integrations/search-console/callback";

pub(crate) struct World {
    pub(crate) mock: MockGoogle,
    source: Arc<GoogleSource>,
    pub(crate) rig: Rig,
}

pub(crate) async fn world() -> World {
    world_with(GoogleMockConfig::default()).await
}

/// A Google mock started with `config` and a pipeline reading Search Console from it.
pub(crate) async fn world_with(config: GoogleMockConfig) -> World {
    let mock = MockGoogle::start(config).await.unwrap();
    let clients = harness::clients().await;
    let source = Arc::new(
        GoogleSource::new(
            clients.secrets.clone(),
            harness::resources().credentials_key_arn,
            None,
        )
        .with_settings(mock.settings()),
    );
    let store = harness::store().await;
    let rig = rig_with_search_console(
        None,
        &[],
        ResearchSettings::default(),
        Duration::from_millis(20),
        None,
        Some(SearchConsoleParts {
            store,
            google: source.clone(),
            days: 90,
        }),
    )
    .await;
    World { mock, source, rig }
}

impl World {
    /// A new account connected to the mock's Google account through the consent flow.
    pub(crate) async fn connected_user(&self) -> UserId {
        let user = harness::new_user(&self.rig.store, Plan::Agency, 5, 5).await;
        let connection = self.connect(user.id).await;
        assert!(connection
            .properties
            .iter()
            .any(|p| p.site_url.as_str() == PROPERTY));
        user.id
    }

    /// Connects `user` (again) to this mock's Google account through the consent flow.
    pub(crate) async fn connect(&self, user: UserId) -> kr_core::store::SearchConsoleConnection {
        let google = self.source.google().await.unwrap().unwrap();
        let key = self.source.key().await.unwrap();
        let now = chrono::Utc::now();
        let url = begin_connection(
            self.rig.store.as_ref(),
            google,
            key,
            user,
            None,
            REDIRECT,
            now,
        )
        .await
        .unwrap();
        let location = self.mock.consent(&url, true).await.unwrap();
        let callback = reqwest::Url::parse(&location).unwrap();
        let param = |name: &str| {
            callback
                .query_pairs()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.into_owned())
                .unwrap()
        };
        complete_connection(
            self.rig.store.as_ref(),
            google,
            key,
            user,
            None,
            &param("state"),
            &param("code"),
            now,
        )
        .await
        .unwrap()
    }

    pub(crate) async fn job_for(&self, owner: UserId) -> kr_core::domain::Job {
        let request = CreateJobRequest {
            primary_domain: DomainName::parse(DEMO_PRIMARY).unwrap(),
            competitor_domains: vec![DomainName::parse(DEMO_COMPETITOR).unwrap()],
            language_code: LanguageCode::parse("en").unwrap(),
            location_code: LocationCode::parse(2840).unwrap(),
            keywords: None,
            discover_keywords: true,
            callback_url: None,
            search_console_property: Some(PropertyUrl::parse(PROPERTY).unwrap()),
        };
        self.rig.start_for(owner, request).await
    }
}

/// The job imports its property (after two 429s, retried): keywords the site is shown for
/// carry the mock's figures for the last 28 days, the 28 before, pages and days; the
/// queries only Search Console knew join with `source: search_console`; without a paid
/// provider impressions are the volume (`metricsSource: search_console`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_imports_its_property_into_its_keywords() {
    let world = world().await;
    let owner = world.connected_user().await;
    let job = world.job_for(owner).await;
    world.mock.set_faults(&FaultRequest {
        search_analytics_429: Some(2),
        ..FaultRequest::default()
    });
    let done = world.rig.complete(job.id).await;
    let import = done.search_console.clone().expect("the import is recorded");
    assert_eq!(import.status, ImportStatus::Imported, "{:?}", import.reason);
    assert!(import.rows > 0 && import.keywords > 0, "{import:?}");
    assert_eq!(
        done.search_console_property.as_ref().map(|p| p.as_str()),
        Some(PROPERTY)
    );
    let facts = world.mock.facts(PROPERTY, Some("usa")).unwrap();
    assert_eq!(
        import.end_date.as_deref(),
        facts["dataEndDate"].as_str(),
        "the windows end on the last day with data"
    );
    let dataset = world.rig.dataset(job.id).await;
    let by_keyword = |query: &str| {
        dataset
            .keywords
            .iter()
            .find(|k| compared_keyword(&k.keyword) == compared_keyword(query))
    };
    // Every planted striking-distance query the job holds has the mock's figures exactly.
    let mut checked = 0;
    for planted in facts["strikingDistance"].as_array().unwrap() {
        let Some(keyword) = by_keyword(planted["query"].as_str().unwrap()) else {
            continue;
        };
        let figures = keyword
            .search_console
            .as_ref()
            .unwrap_or_else(|| panic!("{} has no figures", keyword.keyword));
        assert_eq!(
            figures.clicks,
            planted["clicks"].as_u64().unwrap(),
            "{}",
            keyword.keyword
        );
        assert_eq!(
            figures.impressions,
            planted["impressions"].as_u64().unwrap(),
            "{}",
            keyword.keyword
        );
        let position = planted["position"].as_f64().unwrap();
        assert!(
            (figures.position - position).abs() < 0.01,
            "{}",
            keyword.keyword
        );
        assert!(!figures.daily.is_empty() && figures.page.is_some());
        assert_eq!(keyword.metrics_source, SEARCH_CONSOLE_SOURCE);
        assert_eq!(keyword.search_volume, Some(figures.impressions as i64));
        checked += 1;
    }
    assert!(
        checked >= 1,
        "the job holds a planted striking-distance query"
    );
    // Decaying queries keep the 28 days before; cannibalized ones their pages.
    for planted in facts["decaying"].as_array().unwrap() {
        if let Some(figures) =
            by_keyword(planted["query"].as_str().unwrap()).and_then(|k| k.search_console.as_ref())
        {
            assert_eq!(
                figures.previous_clicks,
                planted["clicksBefore"].as_u64().unwrap()
            );
            assert_eq!(figures.clicks, planted["clicksRecent"].as_u64().unwrap());
        }
    }
    for planted in facts["cannibalized"].as_array().unwrap() {
        if let Some(figures) =
            by_keyword(planted["query"].as_str().unwrap()).and_then(|k| k.search_console.as_ref())
        {
            assert!(figures.pages.len() >= 2);
            assert_eq!(
                figures.pages[0].page,
                planted["pages"][0]["page"].as_str().unwrap()
            );
        }
    }
    // Queries the site never mentions came from Search Console alone.
    let only: Vec<&str> = facts["searchConsoleOnly"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|q| q.as_str())
        .collect();
    let joined: Vec<_> = only.iter().filter_map(|q| by_keyword(q)).collect();
    assert!(
        !joined.is_empty(),
        "Search-Console-only queries join the job"
    );
    assert!(joined
        .iter()
        .any(|k| k.source == Some(KeywordSource::SearchConsole)));
    assert_eq!(
        import.added_keywords as usize,
        dataset
            .keywords
            .iter()
            .filter(|k| k.source == Some(KeywordSource::SearchConsole))
            .count()
    );
    let stats = world.mock.stats();
    assert!(stats.search_analytics_pages >= 2, "{stats:?}");
}

/// The planted queries of `list` in the facts (`strikingDistance`, `decaying`) that `dataset`
/// holds, compared as keywords are.
pub(crate) fn planted_in_job(
    facts: &serde_json::Value,
    list: &str,
    dataset: &kr_core::dataset::ResultsDataset,
) -> BTreeSet<String> {
    let held: BTreeSet<String> = dataset
        .keywords
        .iter()
        .map(|k| compared_keyword(&k.keyword))
        .collect();
    facts[list]
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| compared_keyword(entry["query"].as_str().unwrap()))
        .filter(|query| held.contains(query))
        .collect()
}

/// Through the results function: `strikingDistance=true` answers exactly the mock's
/// striking-distance queries the job holds, `decaying=true` exactly its decaying ones, and
/// each `false` the other keywords with Search Console data; clusters sum their keywords'
/// figures.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_keyword_filters_answer_the_planted_queries() {
    let world = world().await;
    let owner = world.connected_user().await;
    let job = world.job_for(owner).await;
    world.rig.complete(job.id).await;
    let facts = world.mock.facts(PROPERTY, Some("usa")).unwrap();
    let dataset = world.rig.dataset(job.id).await;
    let (_, key) = issue_api_key(
        world.rig.store.as_ref(),
        world.rig.store.as_ref(),
        owner,
        None,
    )
    .await
    .unwrap();
    let app = kr_results::router(
        kr_results::ResultsState::from_config(harness::config(), harness::resources()).await,
    );
    let answer = |query: &'static str| {
        let (app, key) = (app.clone(), key.expose().to_string());
        async move {
            Call::get(&format!(
                "/api/v1/jobs/{}/keywords?limit=500&{query}",
                job.id
            ))
            .api_key(&key)
            .send(&app)
            .await
            .expect(200)
            .json
        }
    };
    let keywords = |page: &serde_json::Value| -> BTreeSet<String> {
        page["keywords"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| compared_keyword(k["keyword"].as_str().unwrap()))
            .collect()
    };
    let with_data: BTreeSet<String> = dataset
        .keywords
        .iter()
        .filter(|k| k.search_console.is_some())
        .map(|k| compared_keyword(&k.keyword))
        .collect();
    for list in ["strikingDistance", "decaying"] {
        let planted = planted_in_job(&facts, list, &dataset);
        let (yes, no) = match list {
            "strikingDistance" => ("strikingDistance=true", "strikingDistance=false"),
            _ => ("decaying=true", "decaying=false"),
        };
        let found = keywords(&answer(yes).await);
        assert!(!planted.is_empty(), "the job holds {list} queries");
        assert_eq!(found, planted, "{list}");
        let others = keywords(&answer(no).await);
        assert!(others.is_disjoint(&found));
        assert_eq!(
            others.union(&found).cloned().collect::<BTreeSet<_>>(),
            with_data,
            "{list}: true and false split the keywords with data"
        );
    }
    // Striking distance, most impressions first: as the facts order them.
    let page = answer("strikingDistance=true&sortBy=impressions").await;
    let impressions: Vec<u64> = page["keywords"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["searchConsole"]["impressions"].as_u64().unwrap())
        .collect();
    assert!(
        impressions.windows(2).all(|w| w[0] >= w[1]),
        "{impressions:?}"
    );
    let bounded = keywords(&answer("minImpressions=10&maxPosition=20").await);
    assert!(bounded.is_superset(&planted_in_job(&facts, "strikingDistance", &dataset)));
    // A cluster's figures are its keywords' sums.
    let clusters = Call::get(&format!("/api/v1/jobs/{}/clusters?limit=500", job.id))
        .api_key(key.expose())
        .send(&app)
        .await
        .expect(200)
        .json;
    let mut summed = 0;
    for cluster in clusters["clusters"].as_array().unwrap() {
        let members: Vec<_> = dataset
            .keywords
            .iter()
            .filter(|k| k.cluster_id == cluster["id"].as_str().unwrap())
            .filter_map(|k| k.search_console.as_ref())
            .collect();
        let figures = &cluster["searchConsole"];
        if members.is_empty() {
            assert!(figures.is_null(), "{cluster}");
            continue;
        }
        let clicks: u64 = members.iter().map(|m| m.clicks).sum();
        let impressions: u64 = members.iter().map(|m| m.impressions).sum();
        assert_eq!(figures["clicks"], clicks);
        assert_eq!(figures["impressions"], impressions);
        if impressions > 0 {
            let weighted: f64 = members
                .iter()
                .map(|m| m.position * m.impressions as f64)
                .sum();
            let position = figures["position"].as_f64().unwrap();
            assert!((position - weighted / impressions as f64).abs() <= 0.005);
        }
        summed += 1;
    }
    assert!(summed >= 1, "some cluster has Search Console data");
}

/// A grant revoked at Google: the job completes without Search Console data and says why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_revoked_grant_completes_the_job_without_the_data() {
    let world = world().await;
    let owner = world.connected_user().await;
    let job = world.job_for(owner).await;
    world.mock.set_faults(&FaultRequest {
        revoke_all: true,
        ..FaultRequest::default()
    });
    let done = world.rig.complete(job.id).await;
    assert_eq!(done.status, JobStatus::Completed);
    let import = done.search_console.clone().expect("recorded");
    assert_eq!(import.status, ImportStatus::Skipped);
    let reason = import.reason.unwrap();
    assert!(reason.contains("connect Search Console again"), "{reason}");
    let dataset = world.rig.dataset(job.id).await;
    assert!(dataset.keywords.iter().all(|k| k.search_console.is_none()));
    assert!(dataset
        .keywords
        .iter()
        .all(|k| k.source != Some(KeywordSource::SearchConsole)));
    let connection = world.rig.store.connection(owner).await.unwrap().unwrap();
    assert!(
        connection.lapsed.is_some(),
        "the connection is marked lapsed"
    );
}

/// Only an account whose connection lists the property may name it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_account_cannot_name_the_property() {
    let world = world().await;
    let owner = world.connected_user().await;
    let stranger = harness::new_user(&world.rig.store, Plan::Agency, 5, 5).await;
    let body = serde_json::json!({"primaryDomain": DEMO_PRIMARY, "languageCode": "en",
                                  "locationCode": 2840, "searchConsoleProperty": PROPERTY});
    let request = CreateJobRequest::parse(body.as_object().unwrap()).unwrap();
    let store = world.rig.store.as_ref();
    assert!(check_search_console_property(store, owner, &request)
        .await
        .unwrap()
        .is_ok());
    let refused = check_search_console_property(store, stranger.id, &request)
        .await
        .unwrap()
        .unwrap_err();
    assert_eq!(refused.field, "searchConsoleProperty");
    let other = serde_json::json!({"primaryDomain": DEMO_PRIMARY, "languageCode": "en",
        "locationCode": 2840, "searchConsoleProperty": "sc-domain:not-listed.com"});
    let request = CreateJobRequest::parse(other.as_object().unwrap()).unwrap();
    assert!(check_search_console_property(store, owner, &request)
        .await
        .unwrap()
        .is_err());
}

/// The big property's 1,000,000 rows by query, page and date: 40 full pages of 25,000 and a
/// short one, every row read once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_million_rows_are_read_whole_25000_at_a_time() {
    let world = world().await;
    let owner = world.connected_user().await;
    let connection = world.rig.store.connection(owner).await.unwrap().unwrap();
    let google: &Google = world.source.google().await.unwrap().unwrap();
    let token = access(google, world.source.key().await.unwrap(), &connection)
        .await
        .unwrap();
    let facts = world.mock.facts(BIG_SITE_URL, None).unwrap();
    let day = |field: &str| {
        chrono::NaiveDate::parse_from_str(facts[field].as_str().unwrap(), "%Y-%m-%d").unwrap()
    };
    let query = AnalyticsQuery {
        start_date: day("dataStartDate"),
        end_date: day("dataEndDate"),
        dimensions: vec![
            AnalyticsDimension::Query,
            AnalyticsDimension::Page,
            AnalyticsDimension::Date,
        ],
        country: None,
    };
    let started = Instant::now();
    let mut pages = Vec::new();
    let read = google
        .search_analytics_pages(
            &token,
            BIG_SITE_URL,
            SearchAnalyticsRequest::of(&query, 25_000),
            &mut |rows| pages.push(rows.len()),
        )
        .await
        .unwrap();
    let took = started.elapsed();
    eprintln!(
        "big property: {read} rows in {} pages, {took:?}",
        pages.len()
    );
    assert_eq!(read, BIG_ROWS);
    assert_eq!(pages.len(), 41);
    assert!(pages[..40].iter().all(|&n| n == 25_000));
    assert_eq!(pages[40], 0);
}
