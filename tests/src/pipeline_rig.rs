//! The real pipeline (crawler, research engine, optionally the data provider) wired to the
//! emulator and the sample sites, driven message by message through a private queue.

use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use kr_aws::dynamo::DynamoStore;
use kr_aws::s3::S3ObjectStore;
use kr_aws::signing_key::SigningKeySource;
use kr_aws::sqs::{SqsJobQueue, SqsWebhookQueue};
use kr_aws::AwsClients;
use kr_core::dataset::ResultsDataset;
use kr_core::domain::{DomainName, JobId, LanguageCode, LocationCode, Plan, UserId};
use kr_core::domain::{Job, JobStatus};
use kr_core::service::jobs::{create_job, CreateJobRequest, JobPorts};
use kr_core::store::{JobStore, StoreError, User, WebhookMessage, WebhookQueue};
use kr_crawler::{CrawlConfig, Crawler};
use kr_dataforseo::DataForSeo;
use kr_pipeline::stages::search_console::SearchConsoleParts;
use kr_pipeline::stages::ResearchSettings;
use kr_pipeline::wiring::{self, Parts};
use kr_pipeline::Pipeline;
use kr_research::personas::model::PersonaModel;

use crate::bridge::{Bridge, InProcessPipeline};
use crate::harness;
use crate::sites::{fixtures_root, resolve_spec, serve_sites};

pub struct Rig {
    pub pipeline: Arc<Pipeline>,
    pub objects: Arc<S3ObjectStore>,
    pub queue_url: String,
    /// Where the rig's finished jobs send their webhook events.
    pub webhooks_queue_url: String,
    /// The queue the rig's finished jobs send their events through; its sends can be made to
    /// fail (a worker that died between finishing a job and sending the event).
    pub webhook_queue: Arc<FlakyWebhookQueue>,
    pub clients: AwsClients,
    pub store: Arc<DynamoStore>,
    _alias_root: Option<AliasRoot>,
}

/// The webhooks queue, whose next `n` sends fail once [`FlakyWebhookQueue::fail_next`] says so.
pub struct FlakyWebhookQueue {
    inner: SqsWebhookQueue,
    failures_left: AtomicU32,
}

impl FlakyWebhookQueue {
    pub fn fail_next(&self, sends: u32) {
        self.failures_left.store(sends, Ordering::SeqCst);
    }
}

#[async_trait::async_trait]
impl WebhookQueue for FlakyWebhookQueue {
    async fn send(&self, message: &WebhookMessage, delay_seconds: u32) -> Result<(), StoreError> {
        let fail = self
            .failures_left
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |left| {
                left.checked_sub(1)
            })
            .is_ok();
        if fail {
            return Err(StoreError::new(
                "injected: the webhooks queue is unreachable",
            ));
        }
        self.inner.send(message, delay_seconds).await
    }
}

/// The folder of alias links, removed with the rig so runs leave nothing behind.
struct AliasRoot(std::path::PathBuf);

impl Drop for AliasRoot {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Host names the rig's crawler reaches: the sample sites, plus `unreachable-primary.com`
/// and `down-competitor.com` on a closed port, plus `aliases` served as the given sample
/// site (`alias=sample-domain`).
pub async fn rig(provider: Option<Arc<DataForSeo>>, aliases: &[(&str, &str)]) -> Rig {
    rig_with(provider, aliases, ResearchSettings::default()).await
}

pub async fn rig_with(
    provider: Option<Arc<DataForSeo>>,
    aliases: &[(&str, &str)],
    settings: ResearchSettings,
) -> Rig {
    rig_with_crawl_delay(provider, aliases, settings, Duration::from_millis(20)).await
}

/// A rig whose crawler waits `delay` between requests to a site.
pub async fn rig_with_crawl_delay(
    provider: Option<Arc<DataForSeo>>,
    aliases: &[(&str, &str)],
    settings: ResearchSettings,
    delay: Duration,
) -> Rig {
    rig_with_personas_model(provider, aliases, settings, delay, None).await
}

/// A rig whose personas come from `personas_model` (the Bedrock mock), if given.
pub async fn rig_with_personas_model(
    provider: Option<Arc<DataForSeo>>,
    aliases: &[(&str, &str)],
    settings: ResearchSettings,
    delay: Duration,
    personas_model: Option<Arc<dyn PersonaModel>>,
) -> Rig {
    rig_with_search_console(provider, aliases, settings, delay, personas_model, None).await
}

/// A rig whose jobs naming a Search Console property read it through `search_console`.
pub async fn rig_with_search_console(
    provider: Option<Arc<DataForSeo>>,
    aliases: &[(&str, &str)],
    settings: ResearchSettings,
    delay: Duration,
    personas_model: Option<Arc<dyn PersonaModel>>,
    search_console: Option<SearchConsoleParts>,
) -> Rig {
    let sites = serve_sites("127.0.0.1:0".parse().unwrap(), fixtures_root())
        .await
        .unwrap();
    let mut resolve = format!(
        "{},unreachable-primary.com=127.0.0.1:1,down-competitor.com=127.0.0.1:1",
        resolve_spec(sites)
    );
    let mut alias_root = None;
    if !aliases.is_empty() {
        // The sample-site server picks the site folder by Host, so an alias needs a folder of
        // its own: a root holding `alias -> tests/fixtures/sites/<sample-domain>` links.
        let root = std::env::temp_dir().join(format!("kr-rig-aliases-{}", uuid::Uuid::new_v4()));
        alias_root = Some(AliasRoot(root.clone()));
        std::fs::create_dir_all(&root).unwrap();
        for (alias, site) in aliases {
            std::os::unix::fs::symlink(fixtures_root().join(site), root.join(alias)).unwrap();
        }
        let served = serve_sites("127.0.0.1:0".parse().unwrap(), root)
            .await
            .unwrap();
        for (alias, _) in aliases {
            resolve.push_str(&format!(",{alias}={served},www.{alias}={served}"));
        }
    }
    let crawl_config = CrawlConfig::from_vars(|name| match name {
        "KR_CRAWL_RESOLVE" => Some(resolve.clone()),
        "KR_CRAWL_DELAY_MS" => Some(delay.as_millis().to_string()),
        _ => None,
    })
    .unwrap();
    let clients = harness::clients().await;
    let queue_url = harness::fresh_queue(&clients).await;
    let webhooks_queue_url = harness::fresh_queue(&clients).await;
    let store = harness::store().await;
    let objects = Arc::new(S3ObjectStore::new(
        clients.s3.clone(),
        harness::resources().results_bucket,
    ));
    // The queue finished jobs send their events through, made to fail on demand.
    let webhook_queue = Arc::new(FlakyWebhookQueue {
        inner: SqsWebhookQueue::new(clients.sqs.clone(), webhooks_queue_url.clone()),
        failures_left: AtomicU32::new(0),
    });
    // Wired as the pipeline function wires it, on the emulator's stores, the rig's own queues
    // and the sample sites.
    let pipeline = Arc::new(wiring::pipeline(Parts {
        store: store.clone(),
        objects: objects.clone(),
        jobs_queue: Arc::new(SqsJobQueue::new(clients.sqs.clone(), queue_url.clone())),
        webhooks_queue: webhook_queue.clone(),
        crawler: Crawler::new(crawl_config).unwrap(),
        settings,
        provider,
        personas_model,
        // The default limit, whatever the environment sets.
        running_cap: 3,
        search_console,
    }));
    Rig {
        pipeline,
        webhook_queue,
        objects,
        queue_url,
        webhooks_queue_url,
        clients,
        store,
        _alias_root: alias_root,
    }
}

impl Rig {
    /// One run of the sweeper, as EventBridge's schedule starts it: its report.
    pub async fn sweep(&self) -> serde_json::Value {
        kr_pipeline::event::handle_event_from(
            &self.pipeline,
            serde_json::json!({"detail-type": "Scheduled Event", "source": "aws.events", "detail": {}}),
            &kr_pipeline::event::Source::local(),
        )
        .await
        .expect("the sweep")
    }

    pub async fn start(&self, primary: &str, competitors: &[&str]) -> Job {
        self.start_at(primary, competitors, 2840).await.1
    }

    /// A new user's job for `location_code`; returns the user too.
    pub async fn start_at(
        &self,
        primary: &str,
        competitors: &[&str],
        location_code: u32,
    ) -> (User, Job) {
        self.start_request(discovery_request(primary, competitors, location_code))
            .await
    }

    /// A new user's job for `request` (a job with its own keywords, say); returns the user too.
    pub async fn start_request(&self, request: CreateJobRequest) -> (User, Job) {
        let user = harness::new_user(&self.store, Plan::Agency, 1, 1).await;
        let job = self.start_for(user.id, request).await;
        (user, job)
    }

    /// `owner`'s job for `request`, which takes one of their runs.
    pub async fn start_for(&self, owner: UserId, request: CreateJobRequest) -> Job {
        let queue = SqsJobQueue::new(self.clients.sqs.clone(), self.queue_url.clone());
        let signing = SigningKeySource::new(
            self.clients.secrets.clone(),
            harness::resources().webhook_signing_key_arn,
        );
        let callback_key = match &request.callback_url {
            Some(_) => Some(signing.key().await.unwrap()),
            None => None,
        };
        let created = create_job(
            &JobPorts {
                jobs: self.store.as_ref(),
                queue: &queue,
                artifacts: self.objects.as_ref(),
                removals: self.objects.as_ref(),
            },
            owner,
            request,
            None,
            callback_key,
        )
        .await
        .unwrap();
        self.store.job(created.id).await.unwrap().unwrap()
    }

    /// Runs the job to its end and asserts it completed.
    pub async fn complete(&self, id: JobId) -> Job {
        let (done, _) = self.run(id).await;
        assert_eq!(
            done.status,
            JobStatus::Completed,
            "{:?}",
            done.error_message
        );
        done
    }

    /// The results dataset of a completed job.
    pub async fn dataset(&self, id: JobId) -> ResultsDataset {
        kr_core::store::get_dataset(self.objects.as_ref(), id)
            .await
            .unwrap()
            .expect("the dataset is stored")
    }

    /// Delivers messages until the job finishes; returns every progress seen on the way.
    pub async fn run(&self, id: JobId) -> (Job, Vec<u32>) {
        let bridge = Bridge {
            sqs: self.clients.sqs.clone(),
            queue_url: self.queue_url.clone(),
            batch_size: 5,
        };
        let invoker = InProcessPipeline(self.pipeline.clone());
        let deadline = Instant::now() + Duration::from_secs(180);
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

/// A job that discovers keywords for `primary` against `competitors` in English, for
/// `location_code` (2840: the United States), without a Search Console property.
pub fn discovery_request(
    primary: &str,
    competitors: &[&str],
    location_code: u32,
) -> CreateJobRequest {
    CreateJobRequest {
        primary_domain: DomainName::parse(primary).unwrap(),
        competitor_domains: competitors
            .iter()
            .map(|c| DomainName::parse(c).unwrap())
            .collect(),
        language_code: LanguageCode::parse("en").unwrap(),
        location_code: LocationCode::parse(i64::from(location_code)).unwrap(),
        keywords: None,
        discover_keywords: true,
        callback_url: None,
        search_console_property: None,
    }
}

/// The DataForSEO client pointed at `base_url` (the mock), with the emulator's stores as its
/// cache and rate gate. `vars` are further `KR_DATAFORSEO_*` settings; retries pause 10 ms
/// and queued SERPs are collected every second.
pub async fn provider_at(
    base_url: &str,
    login: &str,
    password: &str,
    vars: &[(&str, &str)],
) -> Arc<DataForSeo> {
    let mut all: Vec<(String, String)> = vec![
        ("KR_DATAFORSEO_BASE_URL".into(), base_url.into()),
        ("KR_DATAFORSEO_RETRY_BASE_MS".into(), "10".into()),
        ("KR_DATAFORSEO_SERP_POLL_SECONDS".into(), "1".into()),
    ];
    all.extend(vars.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let settings = kr_dataforseo::ProviderSettings::from_vars(
        |name| {
            all.iter()
                .rev()
                .find(|(k, _)| k == name)
                .map(|(_, v)| v.clone())
        },
        Some((login.to_string(), password.to_string())),
    )
    .unwrap()
    .unwrap();
    let clients = harness::clients().await;
    let cache = Arc::new(S3ObjectStore::new(
        clients.s3.clone(),
        harness::resources().results_bucket,
    ));
    Arc::new(DataForSeo::new(settings, cache, harness::store().await).unwrap())
}

/// A job's provider usage as the client reports it, change by change (a client test's sink).
#[derive(Default)]
pub struct RecordedUsage(pub std::sync::Mutex<Vec<kr_core::domain::ProviderUsage>>);

#[async_trait::async_trait]
impl kr_dataforseo::UsageSink for RecordedUsage {
    async fn usage_changed(&self, usage: &kr_core::domain::ProviderUsage) {
        self.0.lock().unwrap().push(usage.clone());
    }
}
