//! The export function: `GET /jobs/{jobId}/export-keywords`, the job's keywords as CSV,
//! streamed from storage so memory stays flat however large the job.

mod handlers;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_aws::{Resources, Wiring};
use kr_core::config::Config;
use kr_core::store::{ExportStore, JobStore};
use kr_http::auth::Authenticator;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Clone, FromRef)]
pub struct ExportState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub jobs: Arc<dyn JobStore>,
    pub objects: Arc<dyn ExportStore>,
}

impl ExportState {
    pub async fn from_config(config: Config, resources: Resources) -> Self {
        let wiring = Wiring::from_config(config, resources).await;
        Self {
            auth: Authenticator::on(wiring.store.clone(), wiring.config.limits.clone()),
            config: wiring.config,
            jobs: wiring.store,
            objects: wiring.objects,
        }
    }
}

/// This function's endpoints (`kr_http::routes::ROUTES`), documented.
pub fn api() -> OpenApiRouter<ExportState> {
    OpenApiRouter::new().routes(routes!(handlers::export_keywords))
}

pub fn router(state: ExportState) -> Router {
    kr_http::router(api(), state)
}
