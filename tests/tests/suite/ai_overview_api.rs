//! AI Overviews from the SERPs a job fetches (issue 49, part 1), end to end: a job run
//! through the pipeline against the DataForSEO mock keeps who each keyword's overview cites
//! (the mock's `serp.json` says which: the sample primary on some keywords, the demo competitor
//! on others), the results API filters by it, clusters and topics carry their share of voice
//! and the citation to earn, and the CSV export has the columns.

use std::collections::{BTreeMap, BTreeSet};

use kr_core::dataset::{registrable_domain, KeywordRecord, ResultsDataset};
use kr_core::service::jobs::CreateJobRequest;
use kr_tests::dataforseo_mock::{MockConfig, MockData, MockDataForSeo};
use kr_tests::harness::{self, Call};
use kr_tests::pipeline_rig::{discovery_request, provider_at, rig};
use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
use serde_json::Value;

fn request() -> CreateJobRequest {
    discovery_request(DEMO_PRIMARY, &[DEMO_COMPETITOR], 2840)
}

/// What the mock's SERP of `record` says its overview cites: the sites of its references.
fn cited_sites(data: &MockData, record: &KeywordRecord) -> Option<Vec<String>> {
    let references = data.ai_overview_references(&record.keyword)?;
    Some(
        references
            .iter()
            .map(|url| {
                let rest = url.split_once("://").map_or(url.as_str(), |(_, rest)| rest);
                registrable_domain(rest.split(['/', '?', '#']).next().unwrap())
            })
            .collect(),
    )
}

fn ids(page: &Value) -> BTreeSet<String> {
    page["keywords"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["id"].as_str().unwrap().to_string())
        .collect()
}

/// A cluster's (or topic's) share of voice as the contract defines it, from the dataset.
fn expected_share<'a>(keywords: impl Iterator<Item = &'a KeywordRecord>) -> Value {
    let shown: Vec<_> = keywords
        .filter_map(|k| k.ai_overview.as_ref())
        .filter(|o| o.present)
        .collect();
    if shown.is_empty() {
        return Value::Null;
    }
    let share = |n: usize| (n as f64 / shown.len() as f64 * 1000.0).round() / 1000.0;
    let site = shown.iter().filter(|o| o.cites_site).count();
    let competitor = shown
        .iter()
        .filter(|o| o.cites_competitors.iter().any(|c| c == DEMO_COMPETITOR))
        .count();
    serde_json::json!({
        "overviews": shown.len(),
        "site": share(site),
        "competitors": {DEMO_COMPETITOR: share(competitor)},
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_job_keeps_who_its_ai_overviews_cite_and_answers_by_it() {
    let mock = MockDataForSeo::start(MockConfig::default()).await.unwrap();
    let data = mock.data();
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &[]).await;
    let rig = rig(Some(provider), &[]).await;
    let (owner, key) = harness::new_user_with_key(&rig.store).await;
    let job = rig.start_for(owner.id, request()).await;
    rig.complete(job.id).await;
    let dataset: ResultsDataset = rig.dataset(job.id).await;

    // Each keyword's record is what its SERP showed: null without a SERP, else the overview's
    // references in order, the site and the competitor found among them.
    let (mut present, mut citing_site, mut citing_competitor) =
        (BTreeSet::new(), BTreeSet::new(), BTreeSet::new());
    for record in &dataset.keywords {
        let Some(overview) = &record.ai_overview else {
            assert_eq!(record.serp_features, None, "{}", record.keyword);
            continue;
        };
        let k = record.keyword.as_str();
        match cited_sites(data, record) {
            None => {
                assert!(!overview.present, "{k}: {overview:?}");
                assert!(
                    overview.references.is_empty() && !overview.cites_site,
                    "{k}"
                );
            }
            Some(sites) => {
                assert!(overview.present, "{k}");
                let urls: Vec<&str> = overview.references.iter().map(|r| r.url.as_str()).collect();
                assert_eq!(urls, data.ai_overview_references(k).unwrap(), "{k}");
                let site = sites.iter().any(|s| s == DEMO_PRIMARY);
                assert_eq!(overview.cites_site, site, "{k}");
                assert_eq!(
                    overview.cited_url.is_some(),
                    site,
                    "{k}: {:?}",
                    overview.cited_url
                );
                let competitor = sites.iter().any(|s| s == DEMO_COMPETITOR);
                let expected: Vec<&str> = if competitor {
                    vec![DEMO_COMPETITOR]
                } else {
                    vec![]
                };
                assert_eq!(overview.cites_competitors, expected, "{k}");
                present.insert(record.id.clone());
                if site {
                    citing_site.insert(record.id.clone());
                }
                if competitor {
                    citing_competitor.insert(record.id.clone());
                }
            }
        }
    }
    assert!(
        !citing_site.is_empty() && !citing_competitor.is_empty(),
        "the mock cites the site on {citing_site:?} and the competitor on {citing_competitor:?}"
    );
    assert!(citing_site.is_disjoint(&citing_competitor));

    // The keywords endpoint answers exactly them, for each value and a list.
    let results = kr_results::router(
        kr_results::ResultsState::from_config(harness::config(), harness::resources()).await,
    );
    let base = format!("/api/v1/jobs/{}", job.id);
    let keywords = |query: &str| {
        let path = format!("{base}/keywords?limit=500&{query}");
        let (results, key) = (&results, key.expose());
        async move {
            Call::get(&path)
                .api_key(key)
                .send(results)
                .await
                .expect(200)
                .json
        }
    };
    assert_eq!(ids(&keywords("aiOverview=cites_site").await), citing_site);
    assert_eq!(
        ids(&keywords("aiOverview=cites_competitor").await),
        citing_competitor
    );
    assert_eq!(ids(&keywords("aiOverview=present").await), present);
    let either: BTreeSet<String> = citing_site.union(&citing_competitor).cloned().collect();
    assert_eq!(
        ids(&keywords("aiOverview=cites_site,cites_competitor").await),
        either
    );
    let absent = ids(&keywords("aiOverview=absent").await);
    assert!(absent.is_disjoint(&present) && !absent.is_empty());
    let page = keywords("aiOverview=cites_site").await;
    let cited = &page["keywords"][0]["aiOverview"];
    assert_eq!(cited["present"], true);
    assert_eq!(cited["citesSite"], true);
    assert!(
        cited["citedUrl"].as_str().unwrap().contains(DEMO_PRIMARY),
        "{cited}"
    );
    let refused = Call::get(&format!("{base}/keywords?aiOverview=cited"))
        .api_key(key.expose())
        .send(&results)
        .await
        .expect(400);
    assert_eq!(refused.invalid_fields(), ["aiOverview"]);

    // Clusters and topics: the share of voice of their keywords' overviews; a cluster whose
    // overviews cite the competitor and never the site is a citation to earn.
    let clusters = Call::get(&format!("{base}/clusters?limit=500&sortBy=aiShare"))
        .api_key(key.expose())
        .send(&results)
        .await
        .expect(200)
        .json;
    let mut to_earn = 0;
    let mut shares: Vec<Option<f64>> = Vec::new();
    for cluster in clusters["clusters"].as_array().unwrap() {
        let id = cluster["id"].as_str().unwrap();
        let share = expected_share(dataset.keywords.iter().filter(|k| k.cluster_id == id));
        assert_eq!(cluster["aiShareOfVoice"], share, "{id}");
        let earn =
            share["site"] == 0.0 && share["competitors"][DEMO_COMPETITOR].as_f64() > Some(0.0);
        assert_eq!(cluster["earnCitation"], earn, "{id}");
        to_earn += usize::from(earn);
        shares.push(share["site"].as_f64());
    }
    assert!(to_earn >= 1, "{clusters:#}");
    // `aiShare`, descending: the site's share, clusters without an overview last.
    let known: Vec<f64> = shares.iter().map_while(|s| *s).collect();
    assert!(known.windows(2).all(|w| w[0] >= w[1]), "{shares:?}");
    assert!(
        shares[known.len()..].iter().all(Option::is_none),
        "{shares:?}"
    );

    let topics = Call::get(&format!("{base}/topics?limit=500"))
        .api_key(key.expose())
        .send(&results)
        .await
        .expect(200)
        .json;
    let cluster_topic: BTreeMap<&str, Option<&str>> = dataset
        .clusters
        .iter()
        .map(|c| (c.id.as_str(), c.topic_id.as_deref()))
        .collect();
    let mut with_share = 0;
    for topic in topics["topics"].as_array().unwrap() {
        let id = topic["id"].as_str().unwrap();
        let share = expected_share(
            dataset
                .keywords
                .iter()
                .filter(|k| cluster_topic.get(k.cluster_id.as_str()) == Some(&Some(id))),
        );
        assert_eq!(topic["aiShareOfVoice"], share, "{id}");
        with_share += usize::from(!share.is_null());
    }
    assert!(with_share >= 1);

    // The CSV export: yes/no, the site's cited page and the competitors, empty without a SERP.
    let export = kr_export::router(
        kr_export::ExportState::from_config(harness::config(), harness::resources()).await,
    );
    let csv = Call::get(&format!("{base}/export-keywords"))
        .api_key(key.expose())
        .send(&export)
        .await
        .expect(200)
        .text;
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let headers: Vec<String> = reader.headers().unwrap().iter().map(String::from).collect();
    let column = |name: &str| headers.iter().position(|h| h == name).unwrap();
    let (shown, cites, url, competitors) = (
        column("AI Overview"),
        column("AI Overview Cites Site"),
        column("AI Overview Cited URL"),
        column("AI Overview Competitors"),
    );
    let rows: Vec<csv::StringRecord> = reader.records().map(Result::unwrap).collect();
    assert_eq!(rows.len(), dataset.keywords.len());
    for (row, record) in rows.iter().zip(&dataset.keywords) {
        let k = &record.keyword;
        match &record.ai_overview {
            None => assert_eq!(
                [&row[shown], &row[cites], &row[url], &row[competitors]],
                ["", "", "", ""],
                "{k}"
            ),
            Some(overview) => {
                let yes = |on: bool| if on { "yes" } else { "no" };
                assert_eq!(&row[shown], yes(overview.present), "{k}");
                assert_eq!(&row[cites], yes(overview.cites_site), "{k}");
                assert_eq!(
                    &row[url],
                    overview.cited_url.as_deref().unwrap_or(""),
                    "{k}"
                );
                assert_eq!(
                    &row[competitors],
                    overview.cites_competitors.join("; "),
                    "{k}"
                );
            }
        }
    }
}
