//! The results function: a job's keywords (filtered, sorted, paged), clusters and their
//! keywords, topics, personas, site references, what changed since an earlier run, and its AI
//! visibility. Owner or demo job; everyone else gets 404.

mod handlers;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_aws::{Resources, Wiring};
use kr_core::config::Config;
use kr_core::store::{ArtifactStore, JobStore};
use kr_http::auth::Authenticator;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use kr_query::DatasetCache;

/// Datasets kept per warm instance (a 20,000-keyword dataset is about 20 MB in memory).
const CACHED_DATASETS: usize = 8;

#[derive(Clone, FromRef)]
pub struct ResultsState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub jobs: Arc<dyn JobStore>,
    pub objects: Arc<dyn ArtifactStore>,
    pub cache: Arc<DatasetCache>,
}

impl ResultsState {
    pub async fn from_config(config: Config, resources: Resources) -> Self {
        let wiring = Wiring::from_config(config, resources).await;
        Self {
            auth: Authenticator::on(wiring.store.clone(), wiring.config.limits.clone()),
            config: wiring.config,
            jobs: wiring.store,
            objects: wiring.objects,
            cache: Arc::new(DatasetCache::new(CACHED_DATASETS)),
        }
    }
}

/// This function's endpoints (`kr_http::routes::ROUTES`), documented.
pub fn api() -> OpenApiRouter<ResultsState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::keywords))
        .routes(routes!(handlers::clusters))
        .routes(routes!(handlers::cluster_keywords))
        .routes(routes!(handlers::topics))
        .routes(routes!(handlers::personas))
        .routes(routes!(handlers::references))
        .routes(routes!(handlers::changes))
        .routes(routes!(handlers::ai_visibility))
}

pub fn router(state: ResultsState) -> Router {
    kr_http::router(api(), state)
}
