//! The results function: a job's keywords (filtered, sorted, paged), clusters and their
//! keywords, personas and site references. Owner or demo job; everyone else gets 404.

mod cache;
mod handlers;
pub mod query;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_shared::auth::Authenticator;
use kr_shared::config::Config;
use kr_shared::http::{finish_router, API_PREFIX};
use kr_shared::store::{ArtifactStore, JobStore};
use kr_shared::wiring::Wiring;
use utoipa::openapi::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

pub use cache::DatasetCache;

/// Datasets kept per warm instance (a 20,000-keyword dataset is about 20 MB in memory).
const CACHED_DATASETS: usize = 8;

#[derive(Clone, FromRef)]
pub struct ResultsState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub jobs: Arc<dyn JobStore>,
    pub artifacts: Arc<dyn ArtifactStore>,
    pub cache: Arc<DatasetCache>,
}

impl ResultsState {
    pub async fn from_config(config: Config) -> Self {
        let wiring = Wiring::from_config(config).await;
        Self {
            config: wiring.config,
            auth: wiring.auth,
            jobs: wiring.store,
            artifacts: wiring.results,
            cache: Arc::new(DatasetCache::new(CACHED_DATASETS)),
        }
    }
}

fn api() -> OpenApiRouter<ResultsState> {
    OpenApiRouter::new().nest(
        API_PREFIX,
        OpenApiRouter::new()
            .routes(routes!(handlers::keywords))
            .routes(routes!(handlers::clusters))
            .routes(routes!(handlers::cluster_keywords))
            .routes(routes!(handlers::personas))
            .routes(routes!(handlers::references)),
    )
}

/// The endpoints of this function in the OpenAPI document.
pub fn openapi() -> OpenApi {
    api().into_openapi()
}

pub fn router(state: ResultsState) -> Router {
    let (router, _) = api().split_for_parts();
    finish_router(router.with_state(state))
}
