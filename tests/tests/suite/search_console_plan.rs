//! The content plan decided by Search Console (issue 48, part 3), end to end: the real
//! pipeline over the BrightBrew sample site with `sc-domain:brightbrew-coffee.com` read from
//! the Google mock. A planted cannibalized query's cluster is `consolidate` with the mock's
//! pages in order of clicks, a striking-distance query's cluster is `improve` its page at the
//! measured position, each cluster keeps its baseline; and two runs a month of data apart
//! (two mocks whose data ends 35 days apart, the owner reconnected between them) report each
//! cluster's figures before and after, and the keywords in and out of striking distance, in
//! `GET /jobs/{id}/changes`.

use std::collections::{BTreeMap, HashMap};

use chrono::{Days, Utc};
use kr_core::dataset::{compared_keyword, ClusterAction, ClusterRecord, PlanBasis, ResultsDataset};
use kr_core::domain::{
    DomainName, ImportStatus, Job, LanguageCode, LocationCode, Plan, PropertyUrl, UserId,
};
use kr_core::service::account::issue_api_key;
use kr_core::service::jobs::CreateJobRequest;
use kr_tests::google_mock::GoogleMockConfig;
use kr_tests::harness::{self, Call};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::Value;

use crate::search_console_import::{world_with, World};

const PROPERTY: &str = "sc-domain:brightbrew-coffee.com";

impl World {
    /// A completed run of BrightBrew against its competitor, with the property.
    async fn run(&self, owner: UserId) -> (Job, ResultsDataset) {
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
        let job = self.rig.start_for(owner, request).await;
        let done = self.rig.complete(job.id).await;
        let import = done.search_console.clone().expect("the import is recorded");
        assert_eq!(import.status, ImportStatus::Imported, "{:?}", import.reason);
        let dataset = self.rig.dataset(job.id).await;
        (done, dataset)
    }
}

fn cluster_of<'a>(dataset: &'a ResultsDataset, query: &str) -> Option<&'a ClusterRecord> {
    let keyword = dataset
        .keywords
        .iter()
        .find(|k| compared_keyword(&k.keyword) == compared_keyword(query))?;
    dataset.clusters.iter().find(|c| c.id == keyword.cluster_id)
}

/// The keywords of a cluster with Search Console impressions.
fn measured_members<'a>(dataset: &'a ResultsDataset, cluster: &ClusterRecord) -> Vec<&'a str> {
    dataset
        .keywords
        .iter()
        .filter(|k| k.cluster_id == cluster.id)
        .filter(|k| {
            k.search_console
                .as_ref()
                .is_some_and(|sc| sc.impressions > 0)
        })
        .map(|k| k.keyword.as_str())
        .collect()
}

fn names(list: &Value, field: &str) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|item| item[field].as_str().unwrap().to_string())
        .collect()
}

/// Measured data decides: the planted cannibalized query's cluster is `consolidate` with the
/// mock's pages in order of clicks, a striking-distance query's cluster `improve` its page at
/// the measured position; each cluster with data keeps its keywords' figures as its baseline.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn measured_cannibalization_and_positions_decide_the_plan() {
    let world = world_with(GoogleMockConfig::default()).await;
    let owner = harness::new_user(&world.rig.store, Plan::Agency, 5, 5)
        .await
        .id;
    world.connect(owner).await;
    let (_, dataset) = world.run(owner).await;
    let facts = world.mock.facts(PROPERTY, Some("usa")).unwrap();

    // Consolidate: a cluster holding one planted cannibalized query lists the mock's pages.
    let cannibalized: Vec<&Value> = facts["cannibalized"].as_array().unwrap().iter().collect();
    let planted = |query: &str| {
        cannibalized
            .iter()
            .any(|c| compared_keyword(c["query"].as_str().unwrap()) == compared_keyword(query))
    };
    let mut consolidated = 0;
    for entry in &cannibalized {
        let query = entry["query"].as_str().unwrap();
        let Some(cluster) = cluster_of(&dataset, query) else {
            continue;
        };
        let members = measured_members(&dataset, cluster);
        if members.iter().filter(|k| planted(k)).count() != 1 {
            continue;
        }
        let pages = names(&entry["pages"], "page");
        assert_eq!(
            cluster.action,
            Some(ClusterAction::Consolidate),
            "{query}: {cluster:?}"
        );
        assert_eq!(cluster.basis, Some(PlanBasis::SearchConsole), "{query}");
        assert_eq!(
            cluster.cannibalizing_urls, pages,
            "{query}: the mock's pages in order of clicks"
        );
        assert_eq!(cluster.target_url.as_deref(), Some(pages[0].as_str()));
        consolidated += 1;
    }
    assert!(
        consolidated >= 1,
        "a planted cannibalized query's cluster holds no other"
    );

    // Improve: a cluster whose only measured keyword is a striking-distance query (shown on
    // one page) improves that query's page, at its measured position.
    let queries: HashMap<String, &Value> = facts["queries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|q| (compared_keyword(q["query"].as_str().unwrap()), q))
        .collect();
    let mut improved = 0;
    for entry in facts["strikingDistance"].as_array().unwrap() {
        let query = entry["query"].as_str().unwrap();
        let Some(cluster) = cluster_of(&dataset, query) else {
            continue;
        };
        // A cannibalized query may be in striking distance too: consolidated above.
        if planted(query) || measured_members(&dataset, cluster).len() != 1 {
            continue;
        }
        let page = queries[&compared_keyword(query)]["pages"][0]
            .as_str()
            .unwrap();
        assert_eq!(
            cluster.action,
            Some(ClusterAction::Improve),
            "{query}: {cluster:?}"
        );
        assert_eq!(cluster.basis, Some(PlanBasis::SearchConsole), "{query}");
        assert_eq!(cluster.target_url.as_deref(), Some(page), "{query}");
        // The position as the import keeps it (2 decimals), which is the mock's.
        let measured = dataset
            .keywords
            .iter()
            .find(|k| compared_keyword(&k.keyword) == compared_keyword(query))
            .and_then(|k| k.search_console.as_ref())
            .unwrap()
            .position;
        assert!((measured - entry["position"].as_f64().unwrap()).abs() < 0.01);
        assert_eq!(
            cluster.target_position,
            Some((measured.round() as u32).max(1)),
            "{query}: the measured position {measured}"
        );
        let baseline = cluster.search_console_baseline.expect("a baseline");
        assert_eq!(
            baseline.clicks,
            entry["clicks"].as_u64().unwrap(),
            "{query}"
        );
        assert_eq!(
            baseline.impressions,
            entry["impressions"].as_u64().unwrap(),
            "{query}"
        );
        improved += 1;
    }
    assert!(
        improved >= 1,
        "a striking-distance query's cluster is alone"
    );

    // Every cluster says what decided it; those without figures have no baseline.
    for cluster in &dataset.clusters {
        assert!(cluster.basis.is_some(), "{}", cluster.name);
        if !measured_members(&dataset, cluster).is_empty() {
            assert!(
                cluster.search_console_baseline.is_some(),
                "{}",
                cluster.name
            );
        }
    }
}

/// Two runs 35 days of data apart: per cluster, the earlier run's baseline before and this
/// run's after, largest click change first; the keywords entering and leaving striking
/// distance are those the two datasets say; the summary and counts tell them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_runs_report_each_cluster_before_and_after() {
    let earlier_end = Utc::now().date_naive() - Days::new(2 + 35);
    let earlier = world_with(GoogleMockConfig {
        data_end_date: Some(earlier_end),
        ..GoogleMockConfig::default()
    })
    .await;
    let owner = harness::new_user(&earlier.rig.store, Plan::Agency, 5, 5)
        .await
        .id;
    earlier.connect(owner).await;
    let (first, before) = earlier.run(owner).await;
    drop(earlier);

    let later = world_with(GoogleMockConfig::default()).await;
    later.connect(owner).await;
    let (second, after) = later.run(owner).await;

    let (_, key) = issue_api_key(
        later.rig.store.as_ref(),
        later.rig.store.as_ref(),
        owner,
        None,
    )
    .await
    .unwrap();
    let app = kr_results::router(
        kr_results::ResultsState::from_config(harness::config(), harness::resources()).await,
    );
    let body = Call::get(&format!("/api/v1/jobs/{}/changes?limit=200", second.id))
        .api_key(key.expose())
        .send(&app)
        .await
        .expect(200)
        .json;
    assert_eq!(body["since"]["jobId"], first.id.to_string());
    assert_eq!(body["searchConsoleCompared"], true);

    let moves = body["searchConsoleMoves"].as_array().unwrap();
    assert!(!moves.is_empty(), "{body:#}");
    assert_eq!(
        body["counts"]["searchConsoleMoves"].as_u64().unwrap() as usize,
        moves.len()
    );
    let by_id = |dataset: &ResultsDataset, id: &str| -> ClusterRecord {
        dataset
            .clusters
            .iter()
            .find(|c| c.id == id)
            .cloned()
            .unwrap()
    };
    let figures = |cluster: &ClusterRecord| match cluster.search_console_baseline {
        Some(b) => serde_json::json!({"clicks": b.clicks, "impressions": b.impressions,
                                      "position": b.position}),
        None => Value::Null,
    };
    let mut moved = 0;
    let mut last_change = i64::MAX;
    for entry in moves {
        let was = by_id(&before, entry["previousClusterId"].as_str().unwrap());
        let now = by_id(&after, entry["clusterId"].as_str().unwrap());
        assert_eq!(entry["before"], figures(&was), "{entry:#}");
        assert_eq!(entry["after"], figures(&now), "{entry:#}");
        let clicks = |side: &ClusterRecord| side.search_console_baseline.map_or(0, |b| b.clicks);
        let change = clicks(&now) as i64 - clicks(&was) as i64;
        assert_eq!(entry["clicksChange"].as_i64().unwrap(), change);
        assert_eq!(
            entry["previousAction"].as_str(),
            was.action.map(|a| a.as_str())
        );
        assert!(change.abs() <= last_change, "largest click change first");
        last_change = change.abs();
        if change != 0 || entry["impressionsChange"] != 0 {
            moved += 1;
        }
    }
    assert!(moved >= 1, "a month of data later, some cluster moved");

    // Striking distance in and out, as the two datasets say.
    let striking = |dataset: &ResultsDataset| -> BTreeMap<String, String> {
        dataset
            .keywords
            .iter()
            .filter(|k| {
                k.search_console
                    .as_ref()
                    .is_some_and(|sc| sc.in_striking_distance())
            })
            .map(|k| (compared_keyword(&k.keyword), k.keyword.clone()))
            .collect()
    };
    let (then, now) = (striking(&before), striking(&after));
    let mut entered: Vec<String> = now
        .iter()
        .filter(|(key, _)| !then.contains_key(*key))
        .map(|(_, k)| k.clone())
        .collect();
    let mut left: Vec<String> = then
        .keys()
        .filter(|key| !now.contains_key(*key))
        .cloned()
        .collect();
    let mut reported_entered = names(&body["strikingDistanceEntered"], "keyword");
    let mut reported_left: Vec<String> = names(&body["strikingDistanceLeft"], "keyword")
        .iter()
        .map(|k| compared_keyword(k))
        .collect();
    for list in [
        &mut entered,
        &mut left,
        &mut reported_entered,
        &mut reported_left,
    ] {
        list.sort();
    }
    assert_eq!(reported_entered, entered);
    assert_eq!(reported_left, left);
    assert_eq!(
        body["counts"]["strikingDistanceEntered"].as_u64().unwrap() as usize,
        entered.len()
    );
    let summary = body["summary"].as_str().unwrap();
    assert!(
        summary.contains("Search Console")
            && summary.contains(&format!(
                "{} entered striking distance",
                match entered.len() {
                    1 => "1 keyword".to_string(),
                    n => format!("{n} keywords"),
                }
            )),
        "{summary}"
    );
}
