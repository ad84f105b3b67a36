//! The jobs function: `POST/GET /jobs`, `GET/DELETE /jobs/{jobId}`.

mod handlers;

use std::sync::Arc;

use axum::extract::FromRef;
use axum::Router;
use kr_aws::sqs::SqsJobQueue;
use kr_aws::Wiring;
use kr_core::config::Config;
use kr_core::store::{JobQueue, JobStore, ResultStore};
use kr_http::auth::Authenticator;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

#[derive(Clone, FromRef)]
pub struct JobsState {
    pub config: Arc<Config>,
    pub auth: Arc<Authenticator>,
    pub jobs: Arc<dyn JobStore>,
    pub queue: Arc<dyn JobQueue>,
    pub objects: Arc<dyn ResultStore>,
}

impl JobsState {
    pub async fn from_config(config: Config) -> Self {
        let wiring = Wiring::from_config(config).await;
        Self {
            auth: Authenticator::on(wiring.store.clone(), wiring.config.limits.clone()),
            queue: Arc::new(SqsJobQueue::new(
                wiring.clients.sqs,
                wiring.config.jobs_queue_url.clone(),
            )),
            jobs: wiring.store,
            objects: wiring.objects,
            config: wiring.config,
        }
    }
}

/// This function's endpoints (`kr_http::routes::ROUTES`), documented.
pub fn api() -> OpenApiRouter<JobsState> {
    OpenApiRouter::new()
        .routes(routes!(handlers::create, handlers::list))
        .routes(routes!(handlers::get, handlers::delete))
}

pub fn router(state: JobsState) -> Router {
    kr_http::router(api(), state)
}
