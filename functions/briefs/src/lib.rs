//! The briefs function: a cluster's content brief, made by its owner's `POST` (one request at a
//! time per cluster) by reading the pages that rank (through the crawler, so with its address
//! guard and politeness), then stored with the job and read with `GET`. Owner or demo job;
//! everyone else gets 404.

mod handlers;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_aws::bedrock::BedrockBriefs;
use kr_aws::{Resources, Wiring};
use kr_brief_maker::BriefSettings;
use kr_core::config::Config;
use kr_core::dataset::BriefWriter;
use kr_core::store::{ArtifactStore, BriefLedger, JobStore};
use kr_crawler::{CrawlConfig, Crawler};
use kr_http::auth::Authenticator;
use kr_query::DatasetCache;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Datasets kept per warm instance: briefs of one job are usually asked for one after another.
const CACHED_DATASETS: usize = 2;

#[derive(Clone, FromRef)]
pub struct BriefsState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub jobs: Arc<dyn JobStore>,
    pub ledger: Arc<dyn BriefLedger>,
    pub objects: Arc<dyn ArtifactStore>,
    pub cache: Arc<DatasetCache>,
    pub crawler: Arc<Crawler>,
    pub settings: Arc<BriefSettings>,
    /// Words briefs for the writer when a language model is configured.
    pub writer: Option<Arc<dyn BriefWriter>>,
}

impl BriefsState {
    pub async fn from_config(config: Config, resources: Resources) -> Result<Self, String> {
        let crawler = Crawler::new(CrawlConfig::from_env().map_err(|e| e.to_string())?)
            .map_err(|e| e.to_string())?;
        let settings = BriefSettings::from_vars(|name| std::env::var(name).ok())?;
        let writer = BedrockBriefs::from_env().await.map_err(|e| e.to_string())?;
        let mut state = Self::with(config, resources, crawler, settings).await;
        state.writer = writer;
        Ok(state)
    }

    /// The state with a writer of the caller's (tests: the Bedrock mock).
    pub fn with_writer(mut self, writer: Arc<dyn BriefWriter>) -> Self {
        self.writer = Some(writer);
        self
    }

    /// The state with a crawler and settings of the caller's (tests and benchmarks).
    pub async fn with(
        config: Config,
        resources: Resources,
        crawler: Crawler,
        settings: BriefSettings,
    ) -> Self {
        let wiring = Wiring::from_config(config, resources).await;
        Self {
            auth: Authenticator::on(wiring.store.clone(), wiring.config.limits.clone()),
            config: wiring.config,
            jobs: wiring.store.clone(),
            ledger: wiring.store,
            objects: wiring.objects,
            cache: Arc::new(DatasetCache::new(CACHED_DATASETS)),
            crawler: Arc::new(crawler),
            settings: Arc::new(settings),
            writer: None,
        }
    }
}

/// This function's endpoints (`kr_http::routes::ROUTES`), documented.
pub fn api() -> OpenApiRouter<BriefsState> {
    OpenApiRouter::new().routes(routes!(handlers::brief, handlers::make_brief))
}

pub fn router(state: BriefsState) -> Router {
    kr_http::router(api(), state)
}
