//! The content plan end to end: the real pipeline over the sample sites (offline, and with the
//! DataForSEO mock), then the results API, CSV and the answers to bad input. The sample sites
//! are written so that each action has a cluster whose right answer is known:
//!
//! - offline: `espresso machine maintenance` has a blog post and a service page titled for it
//!   (consolidate), `home espresso machine` has its shop page (improve), the competitor's moka
//!   pot pages have no counterpart on the primary site (create, a content gap);
//! - with the mock's rankings and SERPs: the decaf blog post and the decaf beans page both rank
//!   for the decaf cluster (consolidate), the cold brew recipe ranks for cold brew (improve, at
//!   its position), only the competitor ranks for moka pots (create, a gap).

use std::collections::{HashMap, HashSet};

use kr_core::dataset::{ClusterAction, ClusterMethod, ClusterRecord, ResultsDataset};
use kr_core::domain::{Job, JobStatus};
use kr_results::{router, ResultsState};
use kr_tests::dataforseo_mock::{MockConfig, MockDataForSeo};
use kr_tests::harness::{self, Call};
use kr_tests::pipeline_rig::{provider_at, rig, Rig};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::Value;

const BLOG_MAINTENANCE: &str = "/blog/espresso-machine-maintenance.html";
const SERVICE_MAINTENANCE: &str = "/services/espresso-machine-maintenance.html";

/// A page's path: the sample sites are served on loopback over http, the mock's rankings
/// name https addresses.
fn path(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    rest.find('/').map_or("/", |i| &rest[i..])
}

fn paths(urls: &[String]) -> Vec<&str> {
    urls.iter().map(|u| path(u)).collect()
}

fn cluster<'a>(dataset: &'a ResultsDataset, name: &str) -> &'a ClusterRecord {
    dataset
        .clusters
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no cluster {name:?}"))
}

/// The cluster holding `keyword`.
fn cluster_of<'a>(dataset: &'a ResultsDataset, keyword: &str) -> &'a ClusterRecord {
    let record = dataset
        .keywords
        .iter()
        .find(|k| k.keyword == keyword)
        .unwrap_or_else(|| panic!("no keyword {keyword:?}"));
    dataset
        .clusters
        .iter()
        .find(|c| c.id == record.cluster_id)
        .unwrap()
}

/// Every cluster and keyword has a topic of the dataset, topics partition the clusters, and a
/// topic's figures are its clusters'.
fn assert_topics_add_up(dataset: &ResultsDataset) {
    assert!(!dataset.topics.is_empty());
    let clusters: HashMap<&str, &ClusterRecord> = dataset
        .clusters
        .iter()
        .map(|c| (c.id.as_str(), c))
        .collect();
    let mut seen = HashSet::new();
    for topic in &dataset.topics {
        assert_eq!(topic.cluster_ids[0], topic.pillar_cluster_id);
        assert_eq!(topic.cluster_count, topic.cluster_ids.len());
        let members: Vec<&ClusterRecord> = topic
            .cluster_ids
            .iter()
            .map(|id| clusters[id.as_str()])
            .collect();
        assert_eq!(
            topic.keyword_count,
            members.iter().map(|c| c.keyword_count).sum::<usize>()
        );
        assert_eq!(
            topic.total_search_volume,
            members.iter().map(|c| c.total_search_volume).sum::<i64>()
        );
        assert_eq!(
            topic.actions.create + topic.actions.improve + topic.actions.consolidate,
            topic.cluster_count
        );
        for member in members {
            assert!(
                seen.insert(member.id.as_str()),
                "{} in two topics",
                member.id
            );
            assert_eq!(member.topic_id.as_deref(), Some(topic.id.as_str()));
        }
    }
    assert_eq!(seen.len(), dataset.clusters.len());
    for keyword in &dataset.keywords {
        assert_eq!(
            keyword.topic_id,
            clusters[keyword.cluster_id.as_str()].topic_id
        );
    }
    for cluster in &dataset.clusters {
        let action = cluster.action.expect("every cluster has an action");
        assert_eq!(
            action == ClusterAction::Create,
            cluster.target_url.is_none(),
            "{}",
            cluster.name
        );
        assert_eq!(
            action == ClusterAction::Consolidate,
            cluster.cannibalizing_urls.len() >= 2,
            "{}",
            cluster.name
        );
    }
}

async fn offline_job() -> (Rig, Job, ResultsDataset) {
    let rig = rig(None, &[]).await;
    let job = rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await;
    let job = rig.complete(job.id).await;
    let dataset = rig.dataset(job.id).await;
    (rig, job, dataset)
}

#[tokio::test]
async fn offline_the_sample_sites_get_create_improve_and_consolidate_where_they_should() {
    let (_rig, _job, dataset) = offline_job().await;
    assert_topics_add_up(&dataset);
    assert!(dataset
        .clusters
        .iter()
        .all(|c| c.method == Some(ClusterMethod::Lexical) && c.shared_urls.is_empty()));

    let maintenance = cluster(&dataset, "espresso machine maintenance");
    assert_eq!(maintenance.action, Some(ClusterAction::Consolidate));
    assert_eq!(
        paths(&maintenance.cannibalizing_urls),
        [BLOG_MAINTENANCE, SERVICE_MAINTENANCE]
    );
    assert_eq!(
        maintenance.target_url.as_deref().map(path),
        Some(BLOG_MAINTENANCE)
    );
    assert_eq!(maintenance.target_position, None, "offline: no rankings");

    let machine = cluster(&dataset, "home espresso machine");
    assert_eq!(machine.action, Some(ClusterAction::Improve));
    assert_eq!(
        machine.target_url.as_deref().map(path),
        Some("/shop/equipment/home-espresso-machine.html")
    );
    assert!(machine.target_score.is_some_and(|s| s >= 0.5));

    let moka = cluster_of(&dataset, "best coffee for moka pot");
    assert_eq!(moka.action, Some(ClusterAction::Create));
    assert!(
        moka.content_gap,
        "only the competitor writes about moka pots"
    );
    // Offline, of the competitor's moka pot phrases only the one naming BrightBrew's coffee
    // stays (issue 23), so its topic may hold it alone; other topics gather several clusters
    // under one head term.
    assert!(dataset
        .topics
        .iter()
        .any(|t| Some(&t.id) == moka.topic_id.as_ref()));
    let gathered = dataset.topics.iter().find(|t| t.cluster_count >= 2);
    assert!(gathered.is_some(), "{:?}", dataset.topics);
}

#[tokio::test]
async fn with_rankings_and_serps_the_sample_sites_get_each_action_from_positions() {
    let mock = MockDataForSeo::start(MockConfig::default()).await.unwrap();
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &[]).await;
    let rig = rig(Some(provider), &[]).await;
    let job = rig.start(DEMO_PRIMARY, &[DEMO_COMPETITOR]).await;
    rig.complete(job.id).await;
    let dataset = rig.dataset(job.id).await;
    assert_topics_add_up(&dataset);

    let decaf = cluster_of(&dataset, "swiss water decaf");
    assert_eq!(decaf.method, Some(ClusterMethod::Serp));
    assert!(decaf.shared_urls.len() >= 3, "{:?}", decaf.shared_urls);
    assert_eq!(decaf.action, Some(ClusterAction::Consolidate));
    assert_eq!(
        decaf.cannibalizing_urls,
        [
            "https://brightbrew-coffee.com/shop/beans/swiss-water-decaf.html",
            "https://brightbrew-coffee.com/blog/decaf-coffee-explained.html",
        ],
        "by best position: 5 and 8"
    );
    assert_eq!(decaf.target_position, Some(5));

    let cold_brew = cluster_of(&dataset, "easy cold brew coffee");
    assert_eq!(cold_brew.action, Some(ClusterAction::Improve));
    assert_eq!(
        cold_brew.target_url.as_deref(),
        Some("https://brightbrew-coffee.com/blog/cold-brew-recipe.html")
    );
    assert_eq!(cold_brew.target_position, Some(2));
    assert_eq!(cold_brew.target_score, None, "chosen by rankings");

    let moka = cluster_of(&dataset, "moka pot");
    assert_eq!(moka.action, Some(ClusterAction::Create));
    assert!(moka.content_gap);
    let rival = &moka.competitor_positions[0];
    assert_eq!(rival.domain, DEMO_COMPETITOR);
    assert!(
        rival.url.starts_with("https://roastrivals.com/"),
        "{rival:?}"
    );
}

/// The results API over the offline job, read as a demo job (no credentials).
struct Api {
    app: axum::Router,
    base: String,
}

impl Api {
    async fn get(&self, path: &str, status: u16) -> Value {
        Call::get(&format!("{}{path}", self.base))
            .send(&self.app)
            .await
            .expect(status)
            .json
    }
}

#[tokio::test]
async fn topics_and_cluster_filters_through_the_api_and_the_export() {
    let (rig, job, dataset) = offline_job().await;
    let mut config = harness::config();
    config.demo_user_id = Some(job.owner.as_uuid());
    let api = Api {
        app: router(ResultsState::from_config(config.clone(), harness::resources()).await),
        base: format!("/api/v1/jobs/{}", job.id),
    };

    let page = api.get("/topics?limit=500", 200).await;
    assert_eq!(page["total"].as_u64(), Some(dataset.topics.len() as u64));
    let volumes: Vec<i64> = page["topics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["totalSearchVolume"].as_i64().unwrap())
        .collect();
    assert!(volumes.windows(2).all(|w| w[0] >= w[1]));
    let by_count = api.get("/topics?sortBy=clusterCount&limit=1", 200).await;
    let most = dataset
        .topics
        .iter()
        .map(|t| t.cluster_count)
        .max()
        .unwrap();
    assert_eq!(
        by_count["topics"][0]["clusterCount"].as_u64(),
        Some(most as u64)
    );

    let consolidate = api.get("/clusters?action=consolidate&limit=500", 200).await;
    let names: Vec<&str> = consolidate["clusters"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"espresso machine maintenance"), "{names:?}");
    let topic = cluster(&dataset, "espresso machine maintenance")
        .topic_id
        .clone()
        .unwrap();
    let in_topic = api
        .get(&format!("/clusters?topicId={topic}&limit=500"), 200)
        .await;
    let expected = dataset.topics.iter().find(|t| t.id == topic).unwrap();
    assert_eq!(
        in_topic["total"].as_u64(),
        Some(expected.cluster_count as u64)
    );
    let record = &in_topic["clusters"][0];
    for field in [
        "method",
        "topicId",
        "action",
        "targetUrl",
        "cannibalizingUrls",
        "competitorPositions",
        "contentGap",
    ] {
        assert!(record.get(field).is_some(), "{field}: {record}");
    }

    // Bad input: named, in the contract's error body.
    for (query, field) in [
        ("/clusters?action=delete", "action"),
        ("/clusters?topicId=t-no-such-topic", "topicId"),
        ("/clusters?topicId=%3Cscript%3E", "topicId"),
        ("/clusters?intent=sideways", "intent"),
        ("/topics?sortBy=volume", "sortBy"),
        ("/topics?limit=0", "limit"),
    ] {
        let body = api.get(query, 400).await;
        assert_eq!(body["code"], "validation_failed", "{query}: {body}");
        assert_eq!(body["details"]["fields"][0]["field"], field, "{query}");
    }

    // The export: the keyword's topic, its cluster's action and page.
    let export =
        kr_export::router(kr_export::ExportState::from_config(config, harness::resources()).await);
    let csv = Call::get(&format!("{}/export-keywords", api.base))
        .send(&export)
        .await
        .expect(200)
        .text;
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers: Vec<String> = reader
        .headers()
        .unwrap()
        .iter()
        .map(str::to_string)
        .collect();
    assert_eq!(&headers[13..16], ["Topic", "Action", "Target URL"]);
    let topics: HashMap<&str, &str> = dataset
        .topics
        .iter()
        .map(|t| (t.id.as_str(), t.name.as_str()))
        .collect();
    for (row, keyword) in reader.records().map(Result::unwrap).zip(&dataset.keywords) {
        let cluster = dataset
            .clusters
            .iter()
            .find(|c| c.id == keyword.cluster_id)
            .unwrap();
        assert_eq!(
            row[13].trim_start_matches('\''),
            topics[keyword.topic_id.as_deref().unwrap()]
        );
        assert_eq!(&row[14], cluster.action.unwrap().as_str());
        assert_eq!(&row[15], cluster.target_url.as_deref().unwrap_or(""));
    }
    drop(rig);
}

#[tokio::test]
async fn a_running_job_answers_topics_like_the_other_results() {
    let rig = rig(None, &[]).await;
    let job = rig.start(DEMO_PRIMARY, &[]).await;
    assert_eq!(job.status, JobStatus::Queued);
    let mut config = harness::config();
    config.demo_user_id = Some(job.owner.as_uuid());
    let app = router(ResultsState::from_config(config, harness::resources()).await);
    let base = format!("/api/v1/jobs/{}", job.id);
    for path in [
        "topics",
        "clusters?action=create",
        "clusters?topicId=t-anything",
    ] {
        let body = Call::get(&format!("{base}/{path}"))
            .send(&app)
            .await
            .expect(200)
            .json;
        assert_eq!(body["total"], 0, "{path}: {body}");
    }
}
