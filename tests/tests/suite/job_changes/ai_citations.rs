//! AI citations gained and lost between two runs of one site, on datasets and answers
//! documents stored as the pipeline leaves them (the earlier run's overviews and answers are
//! `dashboard_http::ai_visibility_tab`'s; the later run's differ on purpose): through
//! `GET /jobs/{id}/changes`, the `job.changes` digest the notifier sends, and the dashboard's
//! Changes tab; and end to end, two pipeline runs against the DataForSEO mock with two AI
//! Overviews edited between them.

use std::sync::Arc;

use chrono::{Duration, Utc};
use kr_aws::s3::S3ObjectStore;
use kr_core::dataset::{objects, AiAnswersDocument, AiOverview, AiReference, ResultsDataset};
use kr_core::domain::{AiAnswersOutcome, AiAnswersStatus, AiEngine, Job, JobStatus, Plan};
use kr_core::service::account::issue_api_key;
use kr_core::store::{ArtifactStore, JobStore};
use kr_notifier::{ChangeDigests, StoredChangeDigests};
use kr_results::{router, ResultsState};
use kr_tests::harness::{self, Call};
use serde_json::{json, Value};

use crate::dashboard_http::ai_visibility_tab::{answers, dataset, OTHER, RIVAL, SITE};

const PROMPT: &str = "What is the best cold brew?";

fn cited(urls: &[&str]) -> Option<AiOverview> {
    let references: Vec<AiReference> = urls
        .iter()
        .filter_map(|url| AiReference::new(url, None, None))
        .collect();
    let shown = (!urls.is_empty()).then_some(references.as_slice());
    Some(AiOverview::from_serp(shown, SITE, &[RIVAL, OTHER]))
}

/// The later run: cold brew ratio's overview now cites the site instead of the rival,
/// espresso's shows no overview any more, moka pot's now cites the rival, and moka pot guide
/// (no SERP before) cites the site; ChatGPT now cites the rival instead of the site.
fn later(job: kr_core::domain::JobId) -> (ResultsDataset, AiAnswersDocument) {
    let mut data = dataset(job);
    for keyword in &mut data.keywords {
        keyword.ai_overview = match keyword.id.as_str() {
            "k-ratio" => cited(&["https://www.brightbrew-coffee.com/ratio"]),
            "k-espresso" => cited(&[]),
            "k-moka" => cited(&["https://roastrivals.com/moka"]),
            "k-moka-guide" => cited(&["https://brightbrew-coffee.com/moka-guide"]),
            _ => keyword.ai_overview.clone(),
        };
    }
    let mut said = answers();
    said.answers[0].cited_urls = vec!["https://roastrivals.com/cold-brew".into()];
    said.answers[0].cites_site = false;
    (data, said)
}

/// A completed run of `owner`, completed `ago` minutes ago, with its results and answers.
async fn store_run(
    owner: kr_core::domain::UserId,
    ago: i64,
    results: &S3ObjectStore,
    contents: impl FnOnce(kr_core::domain::JobId) -> (ResultsDataset, AiAnswersDocument),
) -> Job {
    let store = harness::store().await;
    let job = Job {
        completed_at: Some(Utc::now() - Duration::minutes(ago)),
        keyword_count: Some(5),
        ai_answers: Some(AiAnswersOutcome {
            status: AiAnswersStatus::Completed,
            reason: None,
            engines: vec![AiEngine::ChatGpt, AiEngine::Perplexity],
            prompts: 1,
            cost_usd: 0.01,
        }),
        ..harness::job_record(owner, JobStatus::Completed, SITE, &[RIVAL, OTHER])
    };
    store.import_jobs(std::slice::from_ref(&job)).await.unwrap();
    let (data, said) = contents(job.id);
    kr_core::store::put_dataset(results, &data).await.unwrap();
    kr_core::store::put_json(results, job.id, &objects::ai_answers(), &said)
        .await
        .unwrap();
    job
}

/// (domain, source, keyword or prompt) of each entry of `list`.
fn entries(list: &Value) -> Vec<(String, String, String)> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let subject = entry["keyword"].as_str().or(entry["prompt"].as_str());
            (
                entry["domain"].as_str().unwrap().to_string(),
                entry["source"].as_str().unwrap().to_string(),
                subject.unwrap().to_string(),
            )
        })
        .collect()
}

fn owned(list: &[(&str, &str, &str)]) -> Vec<(String, String, String)> {
    list.iter()
        .map(|(a, b, c)| (a.to_string(), b.to_string(), c.to_string()))
        .collect()
}

#[tokio::test]
async fn a_second_run_reports_ai_citations_gained_and_lost_per_cluster() {
    let store = harness::store().await;
    let owner = harness::new_user(&store, Plan::Agency, 1, 1).await;
    let results = S3ObjectStore::new(
        harness::clients().await.s3,
        harness::resources().results_bucket,
    );
    let first = store_run(owner.id, 60, &results, |id| (dataset(id), answers())).await;
    let second = store_run(owner.id, 1, &results, later).await;

    let (_, key) = issue_api_key(store.as_ref(), store.as_ref(), owner.id, None)
        .await
        .unwrap();
    let app = router(ResultsState::from_config(harness::config(), harness::resources()).await);
    let body = Call::get(&format!("/api/v1/jobs/{}/changes?limit=200", second.id))
        .api_key(key.expose())
        .send(&app)
        .await
        .expect(200)
        .json;
    assert_eq!(body["since"]["jobId"], first.id.to_string(), "{body:#}");
    assert_eq!(body["aiCitationsCompared"], true);
    let gained = owned(&[
        (SITE, "ai_overview", "cold brew ratio"),
        (RIVAL, "chat_gpt", PROMPT),
        (RIVAL, "ai_overview", "moka pot"),
    ]);
    let lost = owned(&[
        (SITE, "chat_gpt", PROMPT),
        (SITE, "ai_overview", "espresso grind size"),
        (RIVAL, "ai_overview", "cold brew ratio"),
        (OTHER, "ai_overview", "espresso grind size"),
    ]);
    assert_eq!(
        entries(&body["aiCitationsGained"]),
        gained,
        "the site's first, then the cluster with more volume; moka pot guide had no SERP before"
    );
    assert_eq!(entries(&body["aiCitationsLost"]), lost);
    let first_gain = &body["aiCitationsGained"][0];
    assert_eq!(
        first_gain,
        &json!({"clusterId": "cold-brew", "clusterName": "cold brew", "domain": SITE,
                "site": true, "source": "ai_overview", "keyword": "cold brew ratio",
                "prompt": null})
    );
    assert_eq!(body["aiCitationsGained"][1]["keyword"], Value::Null);
    assert_eq!(body["counts"]["aiCitationsGained"], 3);
    assert_eq!(body["counts"]["aiCitationsLost"], 4);
    let summary = body["summary"].as_str().unwrap();
    assert!(
        summary.contains("the site gained 1 and lost 2; its competitors gained 2 and lost 2"),
        "{summary}"
    );
    // Lists are cut at `limit`; counts stay whole.
    let one = Call::get(&format!("/api/v1/jobs/{}/changes?limit=1", second.id))
        .api_key(key.expose())
        .send(&app)
        .await
        .expect(200)
        .json;
    assert_eq!(entries(&one["aiCitationsLost"]), lost[..1]);
    assert_eq!(one["counts"]["aiCitationsLost"], 4);

    // The job.changes digest carries them, as the notifier sends it.
    let jobs: Arc<dyn JobStore> = store.clone();
    let objects: Arc<dyn ArtifactStore> = Arc::new(S3ObjectStore::new(
        harness::clients().await.s3,
        harness::resources().results_bucket,
    ));
    let digest = StoredChangeDigests::new(jobs, objects)
        .digest(&second)
        .await
        .unwrap();
    assert_eq!(digest["aiCitationsCompared"], true);
    assert_eq!(entries(&digest["aiCitationsGained"]), gained);
    assert_eq!(entries(&digest["aiCitationsLost"]), lost);
    assert_eq!(digest["counts"]["aiCitationsLost"], 4);
    assert_eq!(digest["summary"], body["summary"]);

    // The dashboard's Changes tab lists both.
    let web = kr_web::router(
        kr_web::WebState::from_config(harness::config(), harness::resources()).await,
    );
    let cookie = harness::web_session(&web, owner.email.as_str()).await;
    let page = Call::get(&format!("/jobs/{}?tab=changes", second.id))
        .header("cookie", &cookie)
        .send(&web)
        .await
        .expect(200)
        .text;
    assert!(page.contains("AI citations gained"), "{page}");
    assert!(page.contains("AI citations lost"));
    assert_eq!(page.matches("data-ai-citation=").count(), 7, "{page}");
    assert!(page.contains(r#"data-source="chat_gpt""#) && page.contains("ChatGPT"));
    assert!(page.contains("(your site)"));
}

/// A run of the sample sites through the pipeline against the DataForSEO mock over `data`,
/// results pages included (they carry the AI Overviews).
async fn serp_run(data: &std::path::Path, owner: kr_core::domain::UserId) -> Job {
    use kr_tests::dataforseo_mock::{MockConfig, MockDataForSeo};
    use kr_tests::pipeline_rig::{provider_at, rig};
    let mock = MockDataForSeo::start(MockConfig {
        data_dir: data.to_path_buf(),
        ..MockConfig::default()
    })
    .await
    .unwrap();
    let provider = provider_at(&mock.base_url(), "mock-login", "mock-password", &[]).await;
    let rig = rig(Some(provider), &[]).await;
    let request = super::request(
        kr_tests::sites::DEMO_PRIMARY,
        kr_tests::sites::DEMO_COMPETITOR,
    );
    let job = rig.start_for(owner, request).await;
    rig.complete(job.id).await
}

/// End to end: the mock's AI Overviews edited between two pipeline runs (one overview no
/// longer cites the site but the competitor, another cites the site instead of the
/// competitor) are exactly the citations `/changes` reports gained and lost.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn overviews_edited_between_two_pipeline_runs_are_the_citations_gained_and_lost() {
    use kr_tests::sites::{DEMO_COMPETITOR, DEMO_PRIMARY};
    let data = super::EditableCopy::of(&kr_tests::dataforseo_mock::fixtures_dir());
    let store = harness::store().await;
    let (user, key) = harness::user_with_key(&store, 10, 10).await;
    let first = serp_run(data.path(), user.id).await;

    let lost_site = "easy cold brew coffee";
    let gained_site = "nitro cold brew at home";
    data.edit_json("serp.json", |serps| {
        let references = |keyword: &str| -> Vec<String> {
            serps[keyword]["ai_overview_references"]
                .as_array()
                .unwrap_or_else(|| panic!("{keyword} shows an overview in the fixtures"))
                .iter()
                .map(|u| u.as_str().unwrap().to_string())
                .collect()
        };
        let swap = |urls: Vec<String>, from: &str, to: &str| -> Vec<String> {
            urls.into_iter()
                .map(|url| {
                    if url.contains(from) {
                        format!("https://{to}/blog/{}.html", from.len())
                    } else {
                        url
                    }
                })
                .collect()
        };
        let easy = swap(references(lost_site), DEMO_PRIMARY, DEMO_COMPETITOR);
        let nitro = swap(references(gained_site), DEMO_COMPETITOR, DEMO_PRIMARY);
        serps[lost_site]["ai_overview_references"] = json!(easy);
        serps[gained_site]["ai_overview_references"] = json!(nitro);
    });
    let second = serp_run(data.path(), user.id).await;

    let app = router(ResultsState::from_config(harness::config(), harness::resources()).await);
    let body = Call::get(&format!("/api/v1/jobs/{}/changes?limit=200", second.id))
        .api_key(&key)
        .send(&app)
        .await
        .expect(200)
        .json;
    assert_eq!(body["since"]["jobId"], first.id.to_string(), "{body:#}");
    assert_eq!(body["aiCitationsCompared"], true);
    let sorted = |list: &Value| {
        let mut found: Vec<(String, String, String)> = entries(list)
            .into_iter()
            .map(|(domain, source, keyword)| (domain, source, keyword.to_lowercase()))
            .collect();
        found.sort();
        found
    };
    let mut gained = owned(&[
        (DEMO_PRIMARY, "ai_overview", gained_site),
        (DEMO_COMPETITOR, "ai_overview", lost_site),
    ]);
    let mut lost = owned(&[
        (DEMO_PRIMARY, "ai_overview", lost_site),
        (DEMO_COMPETITOR, "ai_overview", gained_site),
    ]);
    gained.sort();
    lost.sort();
    assert_eq!(sorted(&body["aiCitationsGained"]), gained, "{body:#}");
    assert_eq!(sorted(&body["aiCitationsLost"]), lost, "{body:#}");
    assert_eq!(
        body["aiCitationsGained"][0]["site"], true,
        "the site's first"
    );
}
