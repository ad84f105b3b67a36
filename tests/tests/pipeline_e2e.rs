//! The real pipeline (crawler and research engine) end to end against the emulator and the
//! sample websites served on loopback.

use std::sync::Arc;
use std::time::{Duration, Instant};

use kr_crawler::{CrawlConfig, Crawler};
use kr_pipeline::stages::{ResearchRunner, ResearchSettings};
use kr_pipeline::Pipeline;
use kr_shared::domain::{DomainName, JobId, JobStatus, LanguageCode, LocationCode, Plan};
use kr_shared::results::{objects, Reference, ResultsDataset};
use kr_shared::service::jobs::{create_job, JobRequest};
use kr_shared::store::s3::S3ResultStore;
use kr_shared::store::sqs::SqsJobQueue;
use kr_shared::store::{get_json, Job, JobStore, UserStore};
use kr_tests::bridge::{Bridge, InProcessPipeline};
use kr_tests::harness;
use kr_tests::sites::{fixtures_root, resolve_spec, serve_sites, DEMO_COMPETITOR, DEMO_PRIMARY};

struct Rig {
    pipeline: Arc<Pipeline>,
    results: Arc<S3ResultStore>,
    queue_url: String,
    clients: kr_shared::aws::AwsClients,
    store: Arc<kr_shared::store::dynamo::DynamoStore>,
}

/// `down.example-down.com` maps to a closed port: a site that cannot be reached.
async fn rig() -> Rig {
    let sites = serve_sites("127.0.0.1:0".parse().unwrap(), fixtures_root())
        .await
        .unwrap();
    let resolve = format!(
        "{},unreachable-primary.com=127.0.0.1:1,down-competitor.com=127.0.0.1:1",
        resolve_spec(sites)
    );
    let crawl_config = CrawlConfig::from_vars(|name| match name {
        "KR_CRAWL_RESOLVE" => Some(resolve.clone()),
        "KR_CRAWL_DELAY_MS" => Some("20".into()),
        _ => None,
    })
    .unwrap();
    let clients = harness::clients().await;
    let queue_url = harness::fresh_queue(&clients).await;
    let store = harness::store().await;
    let results = Arc::new(S3ResultStore::new(
        clients.s3.clone(),
        harness::config().results_bucket,
    ));
    let runner = ResearchRunner {
        crawler: Crawler::new(crawl_config).unwrap(),
        artifacts: results.clone(),
        settings: ResearchSettings::default(),
    };
    let pipeline = Arc::new(Pipeline {
        jobs: store.clone(),
        transitions: store.clone(),
        queue: Arc::new(SqsJobQueue::new(clients.sqs.clone(), queue_url.clone())),
        results: results.clone(),
        runner: Arc::new(runner),
        max_attempts: 3,
    });
    Rig {
        pipeline,
        results,
        queue_url,
        clients,
        store,
    }
}

impl Rig {
    async fn start(&self, primary: &str, competitors: &[&str]) -> Job {
        let user = harness::new_user(&self.store, Plan::Agency, 1, 1).await;
        let request = JobRequest {
            primary_domain: DomainName::parse(primary).unwrap(),
            competitor_domains: competitors
                .iter()
                .map(|c| DomainName::parse(c).unwrap())
                .collect(),
            language_code: LanguageCode::parse("en").unwrap(),
            location_code: LocationCode::parse(2840).unwrap(),
        };
        let queue = SqsJobQueue::new(self.clients.sqs.clone(), self.queue_url.clone());
        let created = create_job(self.store.as_ref(), &queue, user.id, request, None)
            .await
            .unwrap();
        self.store.job(created.id).await.unwrap().unwrap()
    }

    /// Delivers messages until the job finishes; returns every progress seen on the way.
    async fn run(&self, id: JobId) -> (Job, Vec<u32>) {
        let bridge = Bridge {
            sqs: self.clients.sqs.clone(),
            queue_url: self.queue_url.clone(),
            batch_size: 5,
        };
        let invoker = InProcessPipeline(self.pipeline.clone());
        let deadline = Instant::now() + Duration::from_secs(120);
        let mut seen = Vec::new();
        loop {
            let job = self.store.job(id).await.unwrap().expect("job exists");
            seen.push(job.progress.percent);
            if job.status.is_finished() || Instant::now() > deadline {
                return (job, seen);
            }
            bridge.poll_once(&invoker, 1).await.unwrap();
        }
    }
}

#[tokio::test]
async fn a_job_on_the_sample_sites_completes_with_real_results() {
    let rig = rig().await;
    let job = rig
        .start(DEMO_PRIMARY, &[DEMO_COMPETITOR, "down-competitor.com"])
        .await;
    let (done, progress) = rig.run(job.id).await;
    assert_eq!(
        done.status,
        JobStatus::Completed,
        "{:?}",
        done.error_message
    );
    assert!(
        progress.windows(2).all(|w| w[0] <= w[1]),
        "progress only grows: {progress:?}"
    );
    assert!(
        progress.iter().any(|p| *p > 0 && *p < 100),
        "progress moved through the stages: {progress:?}"
    );

    let references: Vec<Option<Reference>> =
        get_json(rig.results.as_ref(), job.id, objects::REFERENCES)
            .await
            .unwrap()
            .unwrap();
    assert_eq!(references.len(), 3);
    let primary = references[0]
        .as_ref()
        .expect("the primary site has a preview");
    assert!(
        primary
            .title
            .as_deref()
            .unwrap_or("")
            .contains("BrightBrew"),
        "{primary:?}"
    );
    assert!(references[1].is_some(), "the competitor has a preview");
    assert!(
        references[2].is_none(),
        "a competitor that is down leaves null"
    );

    let dataset: ResultsDataset = get_json(rig.results.as_ref(), job.id, &objects::dataset())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(done.keyword_count, Some(dataset.keywords.len() as i64));
    assert!(
        dataset.keywords.len() >= 50,
        "{} keywords",
        dataset.keywords.len()
    );
    assert!(
        (3..=6).contains(&dataset.personas.len()),
        "{} personas",
        dataset.personas.len()
    );
    assert!(!dataset.clusters.is_empty());
    let text: Vec<&str> = dataset
        .keywords
        .iter()
        .map(|k| k.keyword.as_str())
        .collect();
    assert!(text.iter().any(|k| k.contains("coffee")), "{text:?}");
    assert!(dataset
        .keywords
        .iter()
        .all(|k| k.metrics_source == "estimate" && !k.cluster_id.is_empty()));
    assert!(
        dataset.keywords.iter().any(|k| k.content_gap),
        "the competitor covers topics the primary does not"
    );
    let user = rig.store.user(job.owner).await.unwrap().unwrap();
    assert_eq!(user.credits_balance, 0, "a completed job keeps its run");
}

#[tokio::test]
async fn a_job_whose_primary_site_cannot_be_reached_fails_readably_and_refunds() {
    let rig = rig().await;
    let job = rig
        .start("unreachable-primary.com", &[DEMO_COMPETITOR])
        .await;
    let (failed, _) = rig.run(job.id).await;
    assert_eq!(failed.status, JobStatus::Failed);
    let message = failed.error_message.unwrap();
    assert!(
        message.contains("unreachable-primary.com") && message.contains("could not"),
        "{message}"
    );
    assert!(!message.contains("127.0.0.1"), "no internals: {message}");
    let user = rig.store.user(job.owner).await.unwrap().unwrap();
    assert_eq!(user.credits_balance, 1, "the run is given back");
}
